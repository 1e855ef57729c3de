import { describe, expect, it } from 'vitest'
import { runScenario, type Scenario } from '../../test-support/scenario.js'
import { ALL_WRITE, READ_ONLY } from '../../test-support/harness.js'

const TODO_CHECK =
  'todo: grep -n TODO src/a.js | sed "s|^|src/a.js:|; s|$|: error: TODO left|" | grep . && exit 1 || exit 0'
const WARN_CHECK = "style: echo '::warning file=src/a.js,line=1::prefer const'; exit 0"

function base(overrides: Partial<Scenario>): Scenario {
  return {
    base: { 'README.md': '# sample\n' },
    pr: { commits: [{ message: 'todo', files: { 'src/a.js': 'run()\n// TODO later\n' } }] },
    inputs: { checks: TODO_CHECK, 'fix-commands': "sed -i '/TODO/d' src/a.js" },
    ...overrides
  }
}

describe('any token', () => {
  it('converges with a PAT and retrigger: push: no red step, a commit status named like the check, annotations', async () => {
    const report = await runScenario(
      base({ token: 'pat', inputs: { ...base({}).inputs, retrigger: 'push' } })
    )
    expect(report.runs.map(r => r.exitCode)).toEqual([0, 0])
    expect(report.finalState?.['status']).toBe('go')
    // GitHub refuses check runs to a PAT ("You must authenticate via a GitHub App")
    expect(report.checkRuns).toEqual([])
    expect(report.runs.flatMap(r => r.errors)).not.toContain(
      expect.stringContaining('create check run')
    )
    const [first, second] = report.runs
    expect(first!.annotations).toEqual([
      expect.objectContaining({ level: 'error', file: 'src/a.js', line: 2 })
    ])
    expect(report.statuses.map(s => [s.context, s.state])).toEqual([
      ['review-loop', 'failure'],
      ['review-loop', 'success']
    ])
    // the green status is on the head the loop pushed and reviewed last
    expect(report.statuses[1]!.sha).toBe(report.pushes[0]!.sha)
    expect(second!.outputs['converged']).toBe('true')
    expect(report.openApiProblems).toEqual([])
  })

  it('ends a fork PR under allow-forks with a read-only token in a notice, annotations and the job summary', async () => {
    const report = await runScenario(
      base({
        pr: { fork: 'stranger/widgets', ...base({}).pr },
        inputs: { checks: WARN_CHECK, 'allow-forks': 'true' }
      })
    )
    const [run] = report.runs
    expect(run!.exitCode).toBe(0)
    expect(run!.errors).toEqual([])
    expect(run!.notices.join('\n')).toMatch(
      /withheld 'issues: write'.*comes from the fork stranger\/widgets and this run is pull_request: GitHub gives such runs a read-only token/
    )
    expect(run!.annotations).toEqual([
      expect.objectContaining({ level: 'warning', file: 'src/a.js', line: 1 })
    ])
    expect(run!.summary).toContain('prefer const')
    expect(run!.summary).toContain("withheld 'issues: write'")
    expect(report.comments).toEqual([])
    expect(run!.outputs['verdict']).toBe('GO')
  })

  it("fails a fork's read-only run only for its findings, with the fork as the reason: never for a fixer or the permission", async () => {
    const report = await runScenario(
      base({
        pr: { fork: 'stranger/widgets', ...base({}).pr },
        inputs: {
          checks: TODO_CHECK,
          'fix-commands': "sed -i '/TODO/d' src/a.js",
          'allow-forks': 'true'
        }
      })
    )
    const [run] = report.runs
    expect(run!.exitCode).toBe(1)
    const errors = run!.errors.join('\n')
    expect(errors).toContain(
      "review-loop: NO_GO with 1 finding for the author of the fork stranger/widgets to fix (review only: a fork's branch cannot be pushed to)"
    )
    expect(errors).not.toMatch(/stalled|fix-commands is empty|Grant the workflow/)
    expect(run!.outputs['status']).toBe('running')
    // as a reader sees it (the reason is escaped as untrusted text: its `#7` links nothing)
    expect(run!.summary.replaceAll('\u200b', '')).toContain(
      'Review only: PR \\#7 comes from the fork stranger/widgets'
    )
    expect(run!.annotations).toEqual([
      expect.objectContaining({ level: 'error', file: 'src/a.js', line: 2 })
    ])
  })

  it("names the workflow's permissions when a same-repository run's token may not write", async () => {
    // checks only: a read-only run with no fix to lose reports instead of failing on the comment
    const report = await runScenario(
      base({ permissions: READ_ONLY, inputs: { checks: TODO_CHECK } })
    )
    const [run] = report.runs
    // NO_GO and nothing may fix it: the step fails for the verdict, not for the permission
    expect(run!.exitCode).toBe(1)
    expect(run!.errors.join('\n')).toMatch(/review-loop ended as stalled/)
    expect(run!.annotations).toEqual([
      expect.objectContaining({ level: 'error', file: 'src/a.js', line: 2 })
    ])
    expect(run!.notices.join('\n')).toMatch(
      /withheld 'issues: write'.*the workflow's permissions: do not grant it/
    )
    expect(report.comments).toEqual([])
    expect(report.dispatches).toEqual([])
  })

  it('fails a same-repository run whose fix cannot be recorded, naming the permission, and keeps the fix', async () => {
    const report = await runScenario(base({ permissions: { ...ALL_WRITE, issues: 'read' } }))
    const [run] = report.runs
    expect(run!.exitCode).toBe(1)
    expect(run!.errors.join('\n')).toMatch(/Grant the workflow 'issues: write'.*fix-1\.patch/s)
    expect(report.pushes).toEqual([])
    expect(report.dispatches).toEqual([])
  })

  it('fails the step when the workflow token lacks checks: write, instead of hiding the check run', async () => {
    const report = await runScenario(
      base({ permissions: { ...ALL_WRITE, checks: 'read' }, inputs: { checks: WARN_CHECK } })
    )
    const [run] = report.runs
    expect(run!.exitCode).toBe(1)
    expect(run!.errors.join('\n')).toContain("Grant the workflow 'checks: write'")
    expect(report.statuses).toEqual([])
  })

  it("says what to pass when a fork's run gets no secret for github-token", async () => {
    const report = await runScenario(
      base({
        token: 'pat',
        pr: { fork: 'stranger/widgets', ...base({}).pr },
        inputs: { checks: WARN_CHECK, 'allow-forks': 'true' }
      })
    )
    const [run] = report.runs
    expect(run!.exitCode).toBe(1)
    expect(run!.errors.join('\n')).toContain('secrets.MY_TOKEN || github.token')
  })
})
