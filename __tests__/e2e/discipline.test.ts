/**
 * Issue 28's loop discipline, through dist/ on the emulators (scenarios/issue-28/): editing and
 * disputing a finding is one dispute, and disputing it again after the reviewer rejected it ends
 * the loop for a human at once; a disputed finding is never recorded as fixed; a finding in a file
 * the fix rewrote is fixed only on the reviewer's word, while a normal edit of its lines still
 * fixes it.
 */
import { describe, expect, it } from 'vitest'
import { loadScenario, runScenario, type Scenario } from '../../test-support/scenario.js'
import type { ScriptedReply } from '../../test-support/model-server.js'

interface StateShape {
  status: string
  reason?: string
  iterations: Array<{
    findings: Array<{ id: string; status: string; reraised?: boolean }>
    resolved: string[]
    gone?: string[]
    fix?: { outcome: string; patch?: string; disputes: Array<{ id: string }> }
  }>
}

const DIR = 'scenarios/issue-28'
const GREET_ID = 'RL-9a1c9782a5'
const PARSE_ID = 'RL-feef39207e'

async function run(scenario: Scenario) {
  const report = await runScenario(scenario)
  return { report, state: report.finalState as unknown as StateShape }
}

/** The scenario with its scripted replies changed. */
function withReplies(file: string, change: (replies: ScriptedReply[]) => void): Scenario {
  const scenario = loadScenario(`${DIR}/${file}`)
  change(scenario.model!.replies!)
  return scenario
}

describe('disputes are weighed once (issue 28)', () => {
  it('a fixer that edits and disputes the same finding every time stops for a human in iteration 2', async () => {
    const { report, state } = await run(loadScenario(`${DIR}/edit-and-dispute.yaml`))
    // before issue 28: 5 iterations, 13 model calls, ended at the cap
    expect(report.runs.map(r => r.outputs['status'])).toEqual(['running', 'needs_discussion'])
    expect(report.modelCalls).toHaveLength(6)
    expect(state.status).toBe('needs_discussion')
    expect(state.reason).toContain(`disputes again finding ${GREET_ID}`)
    // the raised-again finding was the dispute's answer, not a stalled blocker
    expect(state.iterations[1]!.findings).toEqual([
      expect.objectContaining({ id: GREET_ID, status: 'disputed' })
    ])
    expect(state.iterations[1]!.findings[0]!.reraised).toBeUndefined()
    // the second turn's edit is kept as a patch, not pushed: a human decides on the head they see
    expect(state.iterations[1]!.fix).toMatchObject({ outcome: 'no_changes', patch: 'fix-2.patch' })
    expect(report.pushes).toHaveLength(1)
    expect(report.labels).toContain('review-loop: needs human')
    const comment = report.comments[0]!.body
    expect(comment).toContain(`disputes again finding ${GREET_ID}`)
    expect(comment).toContain(
      `\`${GREET_ID}\`: wrong: every caller passes a name, still — a human decides`
    )
  }, 120_000)

  it('never records a disputed finding as fixed, though the fix changed its line', async () => {
    const { state } = await run(loadScenario(`${DIR}/disputed-not-fixed.yaml`))
    expect(state.status).toBe('go')
    expect(state.iterations[1]).toMatchObject({ resolved: [], gone: [GREET_ID] })
  }, 120_000)

  it('a reworded re-raise after a rewrite and a dispute leaves the old id not fixed', async () => {
    const { state } = await run(loadScenario(`${DIR}/rewrite-reworded.yaml`))
    const second = state.iterations[1]!
    expect(second.findings.map(f => f.id)).not.toContain(PARSE_ID)
    expect(second.resolved).toEqual([])
    expect(second.gone).toEqual([PARSE_ID])
  }, 120_000)
})

describe("a rewritten file's findings are fixed only on the reviewer's word (issue 28)", () => {
  it('a finding no longer raised after a whole-file rewrite is no longer raised, not fixed', async () => {
    const { state } = await run(loadScenario(`${DIR}/rewrite-silent.yaml`))
    expect(state.status).toBe('go')
    expect(state.iterations[1]).toMatchObject({ resolved: [], gone: [PARSE_ID] })
  }, 120_000)

  it('is fixed when the reviewer answers fixed, and a normal edit of its line still fixes it', async () => {
    const answered = withReplies('rewrite-silent.yaml', replies => {
      const go = replies[3] as { value: { earlierFindings: unknown[] } }
      go.value.earlierFindings = [{ id: PARSE_ID, status: 'fixed', note: 'the sign is kept now' }]
    })
    expect((await run(answered)).state.iterations[1]!.resolved).toEqual([PARSE_ID])
    const edited = withReplies('rewrite-silent.yaml', replies => {
      replies[1] = {
        kind: 'tool_use',
        name: 'edit_file',
        input: { path: 'src/parse.js', old_text: "text.replace('-', '')", new_text: 'text.trim()' }
      }
    })
    const { state } = await run(edited)
    expect(state.iterations[1]).toMatchObject({ resolved: [PARSE_ID] })
    expect(state.iterations[1]!.gone).toBeUndefined()
  }, 120_000)
})
