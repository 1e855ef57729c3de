import { describe, expect, it } from 'vitest'
import type { Sandbox } from '../../test-support/harness.js'
import {
  loadScenario,
  runScenario,
  type Scenario,
  type ScenarioReport
} from '../../test-support/scenario.js'

/**
 * Issue 39 through dist/: a persistent hang on any one write route reaches that route at most twice
 * per run and ends the run red, naming the remedy, with the fix and the state intact; a dispatch
 * whose outcome is unknown says so; a 403 on the dispatch names `actions: write`; a settings file
 * GitHub answers 404 for is said to be unread, not the input empty. Requests time out after 2 s.
 */
const WS_CHECK = "ws: grep -rnE ' +$' src && exit 1 || exit 0"
const WS_FIX = "sed -i -E 's/ +$//' src/*.js"
const BOT = 'github-actions[bot]'
const DISPATCH = 'POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches'
const RUNS = 'GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs'

const fixing: Scenario = {
  base: { 'README.md': '# sample\n' },
  pr: { commits: [{ message: 'work', files: { 'src/a.js': 'one()   \n' } }] },
  inputs: { checks: WS_CHECK, 'fix-commands': WS_FIX, 'request-timeout-seconds': '2' },
  maxRuns: 3
}

const LINES = Array.from({ length: 60 }, (_, i) => `call${i}()   `).join('\n') + '\n'
const escalating: Scenario = {
  base: { 'README.md': '# sample\n' },
  pr: { commits: [{ message: 'work', files: { 'src/a.js': LINES } }] },
  inputs: {
    checks: WS_CHECK,
    'max-iterations': '1',
    'escalation-reviewers': 'maintainer',
    'submit-review': 'comment',
    'request-timeout-seconds': '2'
  },
  maxRuns: 2
}

/** A maintainer's /review-loop status after the first run: 👀 and 🚀 on their comment. */
const commanded: Scenario = {
  base: { 'README.md': '# sample\n' },
  pr: { commits: [{ message: 'work', files: { 'src/a.js': 'one()\n' } }] },
  inputs: { checks: 'ok: true', 'request-timeout-seconds': '2' },
  humanEvents: [
    { afterRun: 1, comment: { author: 'alice', permission: 'write', body: '/review-loop status' } }
  ],
  maxRuns: 3
}

/** A review with an inline comment the AI fixer handles: a reply in the thread, then a resolve. */
const threaded = (): Scenario => {
  const scenario = loadScenario('scenarios/issue-39/hang-thread-reply.yaml')
  return { ...scenario, inputs: { ...scenario.inputs, 'request-timeout-seconds': '2' } }
}

interface Hung {
  report: ScenarioReport
  /** Per run, the hung requests per concrete route (method and path). */
  perRun: Array<Record<string, number>>
}

/** Runs `scenario` with a persistent hang on `route`, counting the hung requests of each run. */
async function withHang(scenario: Scenario, route: string): Promise<Hung> {
  let perRun: Hung['perRun'] = []
  const report = await runScenario(
    { ...scenario, faults: [{ route, hang: true, times: 50 }] },
    {
      keep: async (sandbox: Sandbox) => {
        perRun = sandbox.runs.map(run => {
          const end = run.startedAt + run.durationMs
          const counts: Record<string, number> = {}
          for (const r of sandbox.emulator.requests)
            if (r.at >= run.startedAt && r.at <= end && r.fault?.endsWith('hang'))
              counts[`${r.method} ${r.path}`] = (counts[`${r.method} ${r.path}`] ?? 0) + 1
          return counts
        })
      }
    }
  )
  return { report, perRun }
}

const stateComments = (report: ScenarioReport) =>
  report.comments.filter(c => c.author === BOT && c.body.includes('<!-- review-loop:state'))

describe('a persistent hang on one write route costs two requests to it per run (through dist/)', () => {
  const cases: Array<[string, Scenario, string]> = [
    [
      'the state comment update',
      fixing,
      'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}'
    ],
    ['a comment create', fixing, 'POST /repos/{owner}/{repo}/issues/{issue_number}/comments'],
    ['a check run create', fixing, 'POST /repos/{owner}/{repo}/check-runs'],
    ['the dispatch', fixing, DISPATCH],
    ['an annotation batch', escalating, 'PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}'],
    ['the labels', escalating, 'POST /repos/{owner}/{repo}/issues/{issue_number}/labels'],
    [
      'the reviewers',
      escalating,
      'POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers'
    ],
    ['the review', escalating, 'POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews'],
    [
      'the commit status (a PAT)',
      { ...fixing, token: 'pat' },
      'POST /repos/{owner}/{repo}/statuses/{sha}'
    ],
    ['a reaction', commanded, 'POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions'],
    [
      'a reply in a review thread',
      threaded(),
      'POST /repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies'
    ],
    ['GraphQL (the threads and their resolve)', threaded(), 'POST /graphql']
  ]
  it.concurrent.each(cases)('%s', { timeout: 240_000 }, async (_what, scenario, route) => {
    const { report, perRun } = await withHang(scenario, route)
    expect(report.faultsApplied.length, 'the hang was reached').toBeGreaterThan(0)
    for (const counts of perRun)
      for (const [hung, n] of Object.entries(counts)) expect(n, hung).toBeLessThanOrEqual(2)
    // every run ended by itself; one the hang reached says what to do about it
    for (const [k, run] of report.runs.entries()) {
      expect(run.killed).toBe(false)
      if (Object.keys(perRun[k] ?? {}).length > 0)
        expect([...run.errors, ...run.warnings].join('\n')).toMatch(/request-timeout-seconds/)
    }
    // the state is not corrupted: at most one state comment, and every bot push is counted
    expect(stateComments(report).length).toBeLessThanOrEqual(1)
    const counted = new Set(
      ((report.finalState?.['iterations'] ?? []) as Array<{ fix?: { commitSha?: string } }>)
        .map(i => i?.fix?.commitSha)
        .filter(Boolean)
    )
    for (const push of report.pushes.filter(p => p.by !== 'human'))
      expect(counted.has(push.sha), `push ${push.sha} counted`).toBe(true)
  })

  it('the state comment: a later write to it in the run fails at once, and the step names the remedy', async () => {
    const { report, perRun } = await withHang(
      fixing,
      'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}'
    )
    const red = report.runs.find(r => r.exitCode !== 0)
    expect(red, 'a run failed').toBeDefined()
    const hungIn = perRun[red!.run - 1] ?? {}
    expect(Object.values(hungIn)).toEqual([2])
    // the failure report did not wait on the comment again: it says so and leaves a check run
    expect(red!.warnings.join('\n')).toMatch(/did not answer PATCH \S+ twice in a row in this run/)
    expect(red!.errors.join('\n')).toMatch(/raise request-timeout-seconds/)
    expect(report.checkRuns.some(c => c.conclusion === 'failure')).toBe(true)
  })
})

describe('honest messages about the dispatch and the settings file (through dist/)', () => {
  it('a lost dispatch whose run cannot be looked for says the next run may have started, with the link', async () => {
    const report = await runScenario({
      ...fixing,
      faults: [
        { run: 1, route: DISPATCH, lost: true },
        { run: 1, route: RUNS, status: 404, times: 20 }
      ],
      maxRuns: 1
    })
    const errors = report.runs[0]!.errors.join('\n')
    expect(report.runs[0]!.exitCode).toBe(1)
    expect(errors).toContain(
      'the next run may have started; check the Actions tab for a run on PR 7 before re-running'
    )
    expect(errors).toMatch(/https?:\/\/\S+\/actions\/workflows\/\S+\.yml/)
    expect(errors).not.toContain('Could not dispatch')
    expect(errors).not.toMatch(/Re-run this job/)
    expect(report.dispatches).toHaveLength(1)
  })

  it('a dispatch refused for want of actions: write names the permission', async () => {
    const report = await runScenario({
      ...fixing,
      permissions: {
        contents: 'write',
        pull_requests: 'write',
        checks: 'write',
        issues: 'write',
        actions: 'read'
      },
      maxRuns: 1
    })
    const errors = report.runs[0]!.errors.join('\n')
    expect(errors).toContain('Could not dispatch the next iteration')
    expect(errors).toContain("'actions: write'")
  })

  it('a settings file GitHub answers 404 for is said to be unread, not the input empty', async () => {
    const report = await runScenario({
      base: { 'README.md': '# sample\n', '.github/review-loop.yml': `checks: '${WS_CHECK}'\n` },
      pr: fixing.pr,
      faults: [{ route: 'GET /repos/{owner}/{repo}/contents/{path}', status: 404, times: 5 }],
      maxRuns: 1
    })
    const errors = report.runs[0]!.errors.join('\n')
    expect(report.runs[0]!.exitCode).toBe(1)
    expect(errors).toMatch(
      /^Reading the settings file \.github\/review-loop\.yml on the base commit \w+/
    )
    expect(errors).toContain('GitHub answered 404')
    expect(errors).toContain("'contents: read'")
  })

  it('a settings file read that fails otherwise says so, with the file and the status', async () => {
    const report = await runScenario({
      base: { 'README.md': '# sample\n', '.github/review-loop.yml': `checks: '${WS_CHECK}'\n` },
      pr: fixing.pr,
      inputs: { 'request-timeout-seconds': '2' },
      faults: [{ route: 'GET /repos/{owner}/{repo}/contents/{path}', status: 500, times: 20 }],
      maxRuns: 1
    })
    const errors = report.runs[0]!.errors.join('\n')
    expect(errors).toMatch(/Could not read the settings file \.github\/review-loop\.yml on /)
    expect(errors).toContain('HTTP 500')
    expect(errors).not.toContain("Input 'checks'")
  })
})
