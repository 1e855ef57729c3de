/**
 * Issue 28's verified findings, through dist/ on the emulators (scenarios/issue-28/): only findings
 * whose evidence is in the file and that the verifier confirms block and reach the fixer; an earlier
 * blocker the reviewer calls fixed, or leaves unanswered, at code nobody changed is never let through
 * to GO; several review passes count as votes.
 */
import { describe, expect, it } from 'vitest'
import { loadScenario, type Scenario } from '../../test-support/scenario.js'
import { isFixer, isReconsider, isVerifier, runRecorded, text } from './model-calls.js'

interface StateShape {
  status: string
  iterations: Array<{
    decision: string
    findings: Array<{ id: string; status: string }>
    resolved: string[]
    refuted?: Array<{ id: string; why: string }>
    setAside?: Record<string, number>
  }>
}

const DIR = 'scenarios/issue-28'
const run = (scenario: Scenario) => runRecorded<StateShape>(scenario)

describe('only findings that hold up block (issue 28)', () => {
  it('of 5 blockers, the 2 true ones reach the fixer; bad evidence and 2 refuted are shown with why', async () => {
    const { report, calls, state } = await run(loadScenario(`${DIR}/five-blockers.yaml`))
    // 5 verifier calls: the 4 findings whose quote is there, and the high one whose quote is not,
    // the mismatch noted (issue 37)
    const verifier = calls.filter(isVerifier)
    expect(verifier).toHaveLength(5)
    expect(text(verifier.find(c => text(c).includes('label crashes'))!)).toContain(
      'Note: the quoted evidence does not match the file as quoted'
    )
    // the refuted high one is shown to the reviewer, which withdraws it; the medium one is not asked
    const reconsider = calls.filter(isReconsider)
    expect(reconsider).toHaveLength(1)
    expect(text(reconsider[0]!)).toContain('title: total returns a string')
    expect(text(reconsider[0]!)).toContain('An independent verifier refuted it')
    expect(verifier.map(c => /title: (.*)/.exec(text(c).replace(/\\n/g, '\n'))?.[1])).toEqual(
      expect.arrayContaining(['total returns a string', 'count ignores the quantities'])
    )
    // each verifier call reads the review part it came from out of the prompt cache
    for (const c of verifier) expect(c.usage!.cache_read_input_tokens).toBeGreaterThan(0)
    const task = text(calls.find(isFixer)!)
    expect(task).toContain('total reads past the end of items')
    expect(task).toContain('discount assigns instead of comparing the code')
    for (const aside of ['label crashes', 'total returns a string', 'count ignores'])
      expect(task).not.toContain(aside)
    expect(state.status).toBe('go')
    expect(state.iterations[0]!.findings).toHaveLength(2)
    expect(state.iterations[0]!.setAside).toEqual({ unverified: 1, refuted: 2 })
    expect(state.iterations[1]!.resolved).toHaveLength(2)
    const first = report.checkRuns[0]!
    expect(first.title).toBe('NO_GO: 2 findings (2 high)')
    expect(first.annotations).toHaveLength(2)
    expect(first.summary).toContain(
      '3 findings were not acted on: 1 quotes code that is not in the file, 2 refuted by the verifier.'
    )
    expect(first.summary).toContain(
      'its evidence "return item.title.trim()" is not in src/cart.js at lines 10-20; the verifier refuted it too'
    )
    expect(first.summary).toContain('withdrawn by the reviewer after seeing why')
    expect(first.summary).toContain('sum starts at 0 (src/cart.js:2) and only adds numbers')
    expect(first.summary).toContain('✅ confirmed by the verifier')
  })

  it('with the verifier off, the 4 findings whose evidence holds all block, and no verifier call is made', async () => {
    const scenario = loadScenario(`${DIR}/five-blockers.yaml`)
    scenario.inputs = { ...scenario.inputs, 'verify-findings': 'false' }
    const { calls, report } = await run(scenario)
    expect(calls.filter(isVerifier)).toHaveLength(0)
    // the high one whose quote is not in the file is shown to the reviewer, which withdraws it
    expect(calls.filter(isReconsider)).toHaveLength(1)
    expect(report.checkRuns[0]!.title).toBe('NO_GO: 4 findings (3 high, 1 medium)')
    expect(report.checkRuns[0]!.summary).toContain('1 quotes code that is not in the file')
  })

  for (const file of ['earlier-unanswered.yaml', 'earlier-claimed-fixed.yaml'])
    it(`an earlier blocker at unchanged code is not GO when the next review ${file.includes('fixed') ? 'calls it fixed' : 'says nothing'}`, async () => {
      // before issue 28 both ended `go`, the second with the blocker recorded fixed
      const { calls, state } = await run(loadScenario(`${DIR}/${file}`))
      const asked = calls.filter(c => text(c).includes('# Earlier finding to verify'))
      expect(asked).toHaveLength(1)
      expect(text(asked[0]!)).toContain('id: RL-b89adb27fc')
      expect(state.status).toBe('max_iterations')
      expect(state.iterations[1]!.decision).toBe('NO_GO')
      expect(state.iterations[1]!.findings).toEqual([
        expect.objectContaining({ id: 'RL-b89adb27fc', status: 'open' })
      ])
      expect(state.iterations[1]!.resolved).toEqual([])
    })

  it('an earlier blocker the verifier refutes is let go, recorded refuted with why, never fixed', async () => {
    const scenario = loadScenario(`${DIR}/earlier-claimed-fixed.yaml`)
    scenario.model!.verifier = [
      { when: '# Earlier finding to verify', verdict: 'refuted', reason: 'b.js reads it back' }
    ] as never
    const { state, report } = await run(scenario)
    expect(state.status).toBe('go')
    // issue 37: before, it was recorded fixed in `resolved` and the comment said nothing
    expect(state.iterations[1]!.resolved).toEqual([])
    expect(state.iterations[1]!.refuted).toEqual([
      { id: 'RL-b89adb27fc', why: 'b.js reads it back' }
    ])
    const comment = report.comments.at(-1)!.body
    expect(comment).toContain('**Closed as refuted (1):**')
    expect(comment).toContain('refuted by the verifier: b.js reads it back')
    expect(comment).toMatch(/\| 2 \| [^\n]* \| GO \| [^|]* \| 0 \(\+1 refuted\) \|/)
  })

  it('with 3 passes, a blocker raised by one pass only is set aside as outvoted, unverified', async () => {
    const scenario = loadScenario(`${DIR}/five-blockers.yaml`)
    const [review, ...rest] = scenario.model!.replies!
    const pass = (n: number) => {
      const copy = JSON.parse(JSON.stringify(review)) as { value: { findings: unknown[] } }
      copy.value.findings = copy.value.findings.slice(0, n)
      return copy as never
    }
    // pass 1 raises all 5, pass 2 the first, pass 3 the first two; after the fix 3 passes say GO
    scenario.model!.replies = [review!, pass(1), pass(2), ...rest, rest.at(-1)!, rest.at(-1)!]
    scenario.inputs = { ...scenario.inputs, 'review-passes': '3' }
    const { report, calls, state } = await run(scenario)
    // the 2 true ones, and the one whose quote is not in the file (issue 37)
    expect(calls.filter(isVerifier)).toHaveLength(3)
    // the outvoted high one is shown to the reviewer, which withdraws it; the medium one is not asked
    const reconsider = calls.filter(isReconsider)
    expect(reconsider.map(c => /title: (.*)/.exec(text(c).replace(/\\n/g, '\n'))?.[1])).toEqual([
      'total returns a string'
    ])
    expect(text(reconsider[0]!)).toContain('Too few independent review passes raised it')
    expect(state.iterations[0]!.findings).toHaveLength(2)
    expect(state.iterations[0]!.setAside).toEqual({ unverified: 1, outvoted: 2 })
    const summary = report.checkRuns[0]!.summary
    expect(summary).toContain('raised by 3 of 3 passes')
    expect(summary).toContain('raised by 2 of 3 passes')
    expect(summary).toContain('raised by 1 of 3 review passes; votes-to-block is 2')
    expect(state.status).toBe('go')
  })
})
