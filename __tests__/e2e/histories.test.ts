import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { Sandbox } from '../../test-support/harness.js'
import { ModelServer } from '../../test-support/model-server.js'
import { runScenario, TEST_API_KEY, type Scenario } from '../../test-support/scenario.js'
import { GREET, verdict } from './greet-replies.js'

const GREET_WITH_TRAILING_SPACE = "export function greet(name) {\n  return 'Hello, ' + name   \n}\n"

/** A PR whose trailing spaces a fix command removes: NO_GO, fix, GO when nothing interferes. */
function scenario(overrides: Partial<Scenario>): Scenario {
  return {
    base: {
      'package.json': '{ "name": "sample", "private": true }\n',
      'src/util.js': 'export const one = 1\n'
    },
    pr: {
      commits: [{ message: 'add greeting', files: { 'src/greet.js': GREET_WITH_TRAILING_SPACE } }]
    },
    inputs: {
      checks: "whitespace: grep -rnE ' +$' src && exit 1 || exit 0",
      'fix-commands': "sed -i -E 's/ +$//' src/*.js"
    },
    ...overrides
  }
}

interface Iteration {
  reviewedSha: string
  summary: string
  decision: string
  findings: Array<{ reraised?: boolean }>
}

const iterations = (state: unknown) => (state as { iterations: Iteration[] }).iterations

describe('histories a human rewrites', () => {
  it('reviews a force-push to an unrelated history against the base tip, says so, and goes on to GO', async () => {
    const report = await runScenario(
      scenario({
        humanPushes: [
          {
            beforeRun: 2,
            force: 'unrelated',
            message: 'start over',
            files: { 'src/greet.js': "export const greet = n => 'Hi ' + n   \n" }
          }
        ]
      })
    )
    const human = report.pushes.find(p => p.by === 'human')!
    expect(report.runs.every(r => r.exitCode === 0)).toBe(true)
    expect(report.runs[1]!.outputs['reviewed-sha']).toBe(human.sha)
    expect(report.finalState).toMatchObject({ status: 'go' })
    const second = iterations(report.finalState)[1]!
    expect(second.summary).toContain(`Head ${human.sha.slice(0, 7)} shares no history with main`)
    // the fix of iteration 1 is not in the new history: its finding back is not a stall
    expect(second.findings.some(f => f.reraised)).toBe(false)
    const check = report.checkRuns.find(c => c.headSha === human.sha)!
    expect(check.summary).toContain('shares no history with main')
  })

  it('reviews the head again when a human resets the branch to the reviewed commit, dropping the fix', async () => {
    const report = await runScenario(
      scenario({ humanPushes: [{ beforeRun: 2, force: { resetTo: 'HEAD~1' } }] })
    )
    const first = report.runs[0]!.outputs['reviewed-sha']
    expect(report.pushes.find(p => p.by === 'human')!.sha).toBe(first)
    // the dispatched run finds the branch back at the reviewed commit: a new head, not a skip
    expect(report.runs[1]!.outputs).toMatchObject({ 'reviewed-sha': first, iteration: '2' })
    expect(report.runs[1]!.outputs['skipped']).not.toBe('true')
    const second = iterations(report.finalState)[1]!
    expect(second.summary).toContain('The branch no longer holds the fix')
    expect(second.findings.some(f => f.reraised)).toBe(false)
    // the loop fixed it again and ended; no run left it running
    expect(report.finalState).toMatchObject({ status: 'go' })
    expect(report.runs.at(-1)!.outputs['status']).toBe('go')
  })

  it('deepens a depth-1 checkout (fetch-depth: 1) itself: the dispatched run after a fix reviews', async () => {
    const report = await runScenario(scenario({ checkoutDepth: 1 }))
    expect(report.runs.map(r => [r.event, r.exitCode, r.outputs['status']])).toEqual([
      ['pull_request', 0, 'running'],
      ['workflow_dispatch', 0, 'go']
    ])
  })

  it('fails naming fetch-depth: 0 when a shallow checkout cannot be deepened', async () => {
    const s = scenario({})
    const sandbox = await Sandbox.create({ base: s.base, pr: s.pr })
    try {
      const run = await sandbox.run({
        event: 'pull_request',
        action: 'opened',
        shallow: true,
        inputs: s.inputs,
        originUrl: path.join(sandbox.dir, 'gone.git')
      })
      expect(run.exitCode).toBe(1)
      expect(run.stdout).toMatch(/::error::.*checkout is shallow.*fetch-depth: 0/)
    } finally {
      await sandbox.close()
    }
  })

  // origin (the base repository) holds a fork's commits, or a deleted branch's, only as refs/pull/7/head
  // origin (the base repository) holds a fork's commits, or a deleted branch's, only as refs/pull/7/head
  for (const [who, pr, checkoutMergeRef] of [
    ["a fork's PR", { fork: 'stranger/widgets' }, false],
    [
      "a fork's PR checked out at its merge commit (the head not in it)",
      { fork: 'stranger/widgets' },
      true
    ],
    ['a PR whose branch was deleted', { branchDeleted: true }, false]
  ] as const) {
    it(`reviews ${who} from a depth-1 checkout against its merge base, never as an unrelated history`, async () => {
      const s = scenario({ checkoutDepth: 1, checkoutMergeRef, maxRuns: 1 })
      const report = await runScenario({
        ...s,
        pr: { ...s.pr, ...pr },
        inputs: { ...s.inputs, 'fix-commands': '', 'allow-forks': 'true' }
      })
      const run = report.runs[0]!
      expect(run.errors.join('\n')).not.toMatch(/fetch|git diff failed/)
      expect(run.outputs['verdict']).toBe('NO_GO')
      expect(run.summary).toContain('src/greet.js:2')
      expect(run.summary).not.toContain('shares no history')
    })
  }

  it("fails naming fetch-depth: 0 when a fork's shallow checkout cannot reach origin", async () => {
    const s = scenario({})
    const sandbox = await Sandbox.create({
      base: s.base,
      pr: { ...s.pr, fork: 'stranger/widgets' }
    })
    try {
      const run = await sandbox.run({
        event: 'pull_request',
        action: 'opened',
        shallow: true,
        inputs: { ...s.inputs, 'allow-forks': 'true' },
        originUrl: path.join(sandbox.dir, 'gone.git')
      })
      expect(run.exitCode).toBe(1)
      expect(run.stdout).toMatch(/::error::.*checkout is shallow.*fetch-depth: 0/)
    } finally {
      await sandbox.close()
    }
  })

  it('sends the AI reviewer the diff against the base tip after a force-push to an unrelated history', async () => {
    const s = scenario({})
    const sandbox = await Sandbox.create({
      base: s.base,
      pr: { commits: [{ message: 'greet', files: { 'src/greet.js': GREET } }] }
    })
    const model = await ModelServer.start({ script: [verdict('GO'), verdict('GO')] })
    const inputs = {
      'review-model': 'claude-haiku-4-5',
      'anthropic-api-key': TEST_API_KEY,
      'anthropic-base-url': model.url
    }
    try {
      expect(
        (await sandbox.run({ event: 'pull_request', action: 'opened', inputs })).exitCode
      ).toBe(0)
      const head = sandbox.humanPush(
        { 'src/greet.js': `${GREET}export const bye = () => 'Bye'\n` },
        'start over',
        'unrelated'
      )
      const run = await sandbox.run({ event: 'pull_request', action: 'synchronize', inputs })
      expect(run.exitCode, run.stdout).toBe(0)
      expect(run.outputs).toMatchObject({ 'reviewed-sha': head, verdict: 'GO' })
      const prompt = JSON.stringify(model.calls[1]!.messages)
      // the whole new file against main's tip, and nothing main has the same
      expect(prompt).toContain('+++ b/src/greet.js')
      expect(prompt).toContain("+export const bye = () => 'Bye'")
      expect(prompt).not.toContain('src/util.js')
      expect(run.summary).toContain('shares no history with main')
    } finally {
      await model.close()
      await sandbox.close()
    }
  })
})
