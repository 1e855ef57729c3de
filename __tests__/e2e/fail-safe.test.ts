/**
 * Issue 37, through dist/ on the emulators (scenarios/issue-37/): a true blocker never reaches a
 * green check because a second model call, a vote or a quote's form disagreed. A blocker set aside
 * against the reviewer's word at or above hold-go-at is shown to the reviewer with why; withdrawn, it
 * is dropped; kept, the loop ends needs_discussion naming it, and a maintainer settles it.
 */
import { describe, expect, it } from 'vitest'
import { loadScenario, type Scenario } from '../../test-support/scenario.js'
import { changesRequested, verdict } from './greet-replies.js'
import { isFixer, isReconsider, isVerifier, runRecorded, text } from './model-calls.js'

interface StateShape {
  status: string
  reason?: string
  iterations: Array<{
    decision: string
    findings: Array<{ id: string; status: string; held?: string }>
    resolved: string[]
    setAside?: Record<string, number>
  }>
}

const DIR = 'scenarios/issue-37'
const ID = 'RL-35cf3b2960' // "total reads past the end of items" at src/cart.js:3
async function run(scenario: Scenario) {
  const recorded = await runRecorded<StateShape>(scenario)
  return { ...recorded, comment: recorded.report.comments.at(-1)!.body }
}

/** The refuted-true-blocker scenario with the reviewer withdrawing its finding when shown why. */
function withdrawing(): Scenario {
  const scenario = loadScenario(`${DIR}/refuted-true-blocker.yaml`)
  const rules = scenario.model!.verifier as unknown[]
  scenario.model!.verifier = rules.slice(1) as never
  return scenario
}

describe('a blocker set aside against the reviewer holds GO until the reviewer withdraws it', () => {
  it('a true blocker the verifier refutes, and the reviewer keeps, ends needs_discussion naming it', async () => {
    const { report, calls, comment, state } = await run(
      loadScenario(`${DIR}/refuted-true-blocker.yaml`)
    )
    expect(state.status).toBe('needs_discussion')
    expect(state.iterations[0]!.findings).toEqual([
      expect.objectContaining({ id: ID, status: 'open', held: 'refuted' })
    ])
    expect(state.reason).toContain(`keeps a blocking finding (${ID})`)
    expect(state.reason).toContain(`/review-loop dismiss ${ID}`)
    expect(report.checkRuns.at(-1)!.conclusion).not.toBe('success')
    // one verifier call, then the reviewer shown the refutation; the fixer never runs
    expect(calls.filter(isVerifier)).toHaveLength(1)
    const asked = calls.filter(isReconsider)
    expect(asked).toHaveLength(1)
    expect(text(asked[0]!)).toContain('An independent verifier refuted it')
    expect(text(asked[0]!)).toContain('the loop stops at items.length')
    expect(calls.filter(isFixer)).toHaveLength(0)
    expect(comment).toContain('**total reads past the end of items**')
    expect(comment).toContain('the reviewer keeps it after seeing why')
    expect(comment).toContain('held for a person')
  })

  it('also when all 3 review passes raised it', async () => {
    const scenario = loadScenario(`${DIR}/refuted-true-blocker.yaml`)
    const review = scenario.model!.replies![0]!
    scenario.model!.replies = [review, review, review]
    scenario.inputs = { ...scenario.inputs, 'review-passes': '3' }
    const { state, calls } = await run(scenario)
    expect(state.status).toBe('needs_discussion')
    expect(state.iterations[0]!.findings.map(f => [f.id, f.held])).toEqual([[ID, 'refuted']])
    expect(calls.filter(isFixer)).toHaveLength(0)
  })

  it('a refuted blocker the reviewer withdraws after seeing the refutation ends GO, both calls in the record', async () => {
    const { state, calls, report } = await run(withdrawing())
    expect(state.status).toBe('go')
    expect(calls.filter(isVerifier)).toHaveLength(1)
    expect(calls.filter(isReconsider)).toHaveLength(1)
    expect(state.iterations[0]!.setAside).toEqual({ refuted: 1 })
    const summary = report.checkRuns[0]!.summary
    expect(summary).toContain('refuted by the verifier: the loop stops at items.length')
    expect(summary).toContain('withdrawn by the reviewer after seeing why')
  })

  it('hold-go-at: none restores the behaviour before it: set aside, GO, no second look', async () => {
    const scenario = loadScenario(`${DIR}/refuted-true-blocker.yaml`)
    scenario.inputs = { ...scenario.inputs, 'hold-go-at': 'none' }
    const { state, calls } = await run(scenario)
    expect(state.status).toBe('go')
    expect(calls.filter(isReconsider)).toHaveLength(0)
    expect(state.iterations[0]!.setAside).toEqual({ refuted: 1 })
  })

  it('a maintainer who dismisses the held finding and retries gets GO', async () => {
    const scenario = loadScenario(`${DIR}/refuted-true-blocker.yaml`)
    const review = scenario.model!.replies![0]!
    scenario.model!.replies = [review, review]
    scenario.humanEvents = [
      {
        afterRun: 1,
        comment: {
          author: 'maintainer',
          permission: 'write',
          body: `/review-loop dismiss ${ID} the verifier is right`
        }
      },
      {
        afterRun: 2,
        comment: { author: 'maintainer', permission: 'write', body: '/review-loop retry' }
      }
    ] as never
    const { state, calls } = await run(scenario)
    expect(state.status).toBe('go')
    // the retry's review raised it again; dismissed, the reviewer is not asked again
    expect(calls.filter(isReconsider)).toHaveLength(1)
  })
})

describe('a held finding stays held until a person settles it', () => {
  const clean = verdict('GO')

  const stillHeld = (state: StateShape) => {
    expect(state.status).toBe('needs_discussion')
    expect(state.iterations.at(-1)!.findings).toEqual([
      expect.objectContaining({ id: ID, status: 'open', held: 'refuted' })
    ])
  }

  it('a retry whose review does not raise it again is not GO', async () => {
    const scenario = loadScenario(`${DIR}/refuted-true-blocker.yaml`)
    scenario.model!.replies = [scenario.model!.replies![0]!, clean]
    scenario.humanEvents = [
      {
        afterRun: 1,
        comment: { author: 'maintainer', permission: 'write', body: '/review-loop retry' }
      }
    ] as never
    const { state } = await run(scenario)
    expect(state.iterations).toHaveLength(2)
    stillHeld(state)
  })

  it('a push of something else by the PR author is not GO either', async () => {
    const scenario = loadScenario(`${DIR}/refuted-true-blocker.yaml`)
    scenario.model!.replies = [scenario.model!.replies![0]!, clean]
    scenario.humanPushes = [{ beforeRun: 2, message: 'docs', files: { 'README.md': '# shop\n' } }]
    const { state, report } = await run(scenario)
    expect(state.iterations).toHaveLength(2)
    stillHeld(state)
    expect(report.checkRuns.at(-1)!.conclusion).not.toBe('success')
  })

  it("a person's review comment is fixed, the held finding is not handed to the fixer", async () => {
    const scenario = loadScenario(`${DIR}/refuted-true-blocker.yaml`)
    scenario.model!.replies = [
      scenario.model!.replies![0]!,
      { kind: 'text', text: 'Renamed nothing; nothing to change.' } as never
    ]
    scenario.humanEvents = [
      changesRequested(1, [{ path: 'src/cart.js', line: 6, body: 'Name the sum total' }])
    ] as never
    const { calls } = await run(scenario)
    const task = text(calls.find(isFixer)!)
    expect(task).toContain('Name the sum total')
    expect(task).not.toContain('total reads past the end of items')
  })
})

describe('each way a true blocker reached GO before (issue 37)', () => {
  it('evidence quoted as the reviewer sees it (a diff +, a line number, a removed line) reaches the fixer', async () => {
    const { state, calls } = await run(loadScenario(`${DIR}/evidence-as-shown.yaml`))
    expect(state.iterations[0]!.findings.map(f => f.status)).toEqual(['open', 'open', 'open'])
    expect(state.iterations[0]!.setAside).toBeUndefined()
    const task = text(calls.find(isFixer)!)
    for (const title of [
      'total reads past the end of items',
      'discount assigns instead of comparing the code',
      'total no longer guards against missing items'
    ])
      expect(task).toContain(title)
    expect(state.status).toBe('go')
    expect(state.iterations[1]!.resolved).toHaveLength(3)
  })

  it('a critical that 1 of 3 passes raised, and the reviewer keeps when shown the votes, ends needs_discussion', async () => {
    const { state, calls, comment } = await run(loadScenario(`${DIR}/critical-outvoted.yaml`))
    expect(state.status).toBe('needs_discussion')
    const asked = calls.filter(isReconsider)
    expect(asked).toHaveLength(1)
    expect(text(asked[0]!)).toContain('raised by 1 of 3 review passes')
    expect(state.iterations[0]!.findings).toEqual([
      expect.objectContaining({ status: 'open', held: 'outvoted' })
    ])
    expect(comment).toContain('**isAdmin assigns the role instead of comparing it**')
    expect(calls.filter(isFixer)).toHaveLength(0)
  })

  it('a GO that carries a located critical is asked once for a repair, then fails closed', async () => {
    const { state, calls, comment, report } = await run(
      loadScenario(`${DIR}/go-carries-blocker.yaml`)
    )
    const reviews = calls.filter(c => !isVerifier(c) && !isReconsider(c))
    expect(reviews).toHaveLength(2)
    expect(text(reviews[1]!)).toContain('The decision is GO but the finding')
    expect(state.status).toBe('needs_discussion')
    expect(state.iterations[0]!.decision).toBe('NEEDS_DISCUSSION')
    expect(state.iterations[0]!.findings).toEqual([expect.objectContaining({ status: 'open' })])
    expect(comment).toContain('**isAdmin assigns the role instead of comparing it**')
    expect(report.checkRuns.at(-1)!.conclusion).not.toBe('success')
  })
})
