/**
 * Issue 37, through dist/ on the emulators (scenarios/issue-37/): a PR whose head branch is deleted
 * while the PR stays open (origin keeps its head only as refs/pull/7/head) never ends GO and gets
 * no fix pushed: the loop stops, naming the branch and what to do (restore it, or close the PR).
 */
import { describe, expect, it } from 'vitest'
import { loadScenario, runScenario, type ScenarioReport } from '../../test-support/scenario.js'

const SCENARIO = 'scenarios/issue-37/head-branch-deleted.yaml'

/** The loop's sticky comment (the state and the human part). */
const stateComment = (report: ScenarioReport) =>
  report.comments.find(c => c.body.includes('review-loop'))?.body ?? ''

/** What every stop on a deleted branch says: the branch, and the two ways on. */
function expectNamesTheBranch(text: string | undefined) {
  expect(text).toMatch(/branch feature .*deleted/)
  expect(text).toMatch(/[Rr]estore the branch/)
  expect(text).toMatch(/close the PR/)
}

describe('a head branch deleted while the PR is open (issue 37)', () => {
  it('after the fix was pushed: the GO review of the fix does not end GO, the check is not green', async () => {
    const report = await runScenario(loadScenario(SCENARIO))
    const [first, second] = report.runs
    expect(first!.outputs['status']).toBe('running')
    // the dispatched run reviewed the fix and the reviewer said GO; the branch is gone
    expect(second!.outputs['verdict']).toBe('GO')
    expect(second!.outputs['status']).toBe('needs_discussion')
    expect(report.finalState).toMatchObject({ status: 'needs_discussion' })
    expectNamesTheBranch(report.finalState?.['reason'] as string)
    expect(report.checkRuns.map(c => c.conclusion)).not.toContain('success')
    const last = report.checkRuns.at(-1)!
    expect(last.headSha).toBe(second!.outputs['reviewed-sha'])
    expect(last.conclusion).toBe('failure')
    expect(last.title).not.toMatch(/^GO/)
    expectNamesTheBranch(last.summary)
    expectNamesTheBranch(stateComment(report))
    // nothing recreated the branch: the loop's one push was before the deletion
    expect(report.pushes.map(p => p.run)).toEqual([1])
    expect(report.runs).toHaveLength(2)
  })

  it('before the first run: the fix is kept as a patch, never pushed, and the loop stops', async () => {
    const scenario = loadScenario(SCENARIO)
    const report = await runScenario({
      ...scenario,
      pr: { ...scenario.pr, branchDeleted: true },
      humanPushes: []
    })
    expect(report.runs).toHaveLength(1)
    const run = report.runs[0]!
    expect(run.outputs['verdict']).toBe('NO_GO')
    expect(run.outputs['status']).toBe('needs_discussion')
    expect(report.pushes).toEqual([])
    expect(report.dispatches).toEqual([])
    const state = report.finalState as { status: string; reason: string; iterations: unknown[] }
    expect(state.status).toBe('needs_discussion')
    expectNamesTheBranch(state.reason)
    expect(state.reason).not.toContain('The branch moved')
    expect(report.checkRuns.map(c => c.conclusion)).toEqual(['failure'])
    expectNamesTheBranch(stateComment(report))
    expect(report.artifacts.flatMap(a => a.files)).toContain('fix-1.patch')
  })
})
