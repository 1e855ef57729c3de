import { execSync } from 'node:child_process'
import { chmodSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { decodeState, renderStateMarker } from '../../src/loop/state-comment.js'
import { git } from '../../test-support/git-fixture.js'
import { GitHttpServer } from '../../test-support/git-http-server.js'
import { Sandbox, WORKFLOW_TOKEN } from '../../test-support/harness.js'
import type { ScriptedReply } from '../../test-support/model-server.js'
import { runScenario, type Scenario } from '../../test-support/scenario.js'
import { verdict as scriptedVerdict } from './greet-replies.js'

const WS_CHECK = "whitespace: grep -rnE ' +$' src && exit 1 || exit 0"
const WS_FIX = "sed -i -E 's/ +$//' src/*.js"
const base: Scenario = {
  base: { 'README.md': '# sample\n' },
  pr: { commits: [{ message: 'ws', files: { 'src/a.js': 'run()   \n' } }] },
  inputs: { checks: WS_CHECK, 'fix-commands': WS_FIX }
}

const RUN_MAY_THROW = {
  severity: 'high',
  category: 'logic',
  file: 'src/a.js',
  line: 1,
  evidence: 'run()',
  title: 'run() may throw',
  description: 'wrap it'
}

describe('faults never lose work or let the loop run uncapped', () => {
  it('does not dispatch the next run when the state cannot be saved', async () => {
    const sandbox = await Sandbox.create({
      ...base,
      permissions: {
        contents: 'write',
        pull_requests: 'write',
        checks: 'write',
        actions: 'write',
        issues: 'read'
      }
    })
    try {
      const run = await sandbox.run({
        event: 'pull_request',
        action: 'opened',
        inputs: base.inputs
      })
      expect(run.exitCode).toBe(1)
      expect(run.stdout).toContain("Grant the workflow 'issues: write'")
      expect(run.dispatched).toEqual([])
      expect(sandbox.emulator.dispatches).toHaveLength(0)
    } finally {
      await sandbox.close()
    }
  })

  it('reports a push the server refuses as an error, keeping the fix as a patch', async () => {
    const sandbox = await Sandbox.create(base)
    try {
      const hook = path.join(sandbox.bare, 'hooks', 'pre-receive')
      writeFileSync(hook, '#!/bin/sh\necho "protected branch: pushes need a review" >&2\nexit 1\n')
      chmodSync(hook, 0o755)
      const run = await sandbox.run({
        event: 'pull_request',
        action: 'opened',
        inputs: base.inputs
      })
      expect(run.outputs['status']).toBe('error')
      expect(run.exitCode).toBe(1)
      expect(run.dispatched).toEqual([])
      const state = sandbox.stateJson() as {
        iterations: Array<{ fix: { outcome: string; patch?: string } }>
      }
      expect(state.iterations[0]!.fix).toMatchObject({
        outcome: 'push_failed',
        patch: 'fix-1.patch'
      })
    } finally {
      await sandbox.close()
    }
  })

  it("commits the fixers' work, not the checks' leftovers, and reverts protected paths in a fix command's own commits", async () => {
    const sandbox = await Sandbox.create(base)
    try {
      const evil =
        'mkdir -p .github/workflows && echo "on: push" > .github/workflows/evil.yml && git add -A .github && git -c user.name=x -c user.email=x@example.com commit -qm evil'
      const run = await sandbox.run({
        event: 'pull_request',
        action: 'opened',
        inputs: {
          checks: `coverage: mkdir -p coverage && echo 42 > coverage/lcov.info\n${WS_CHECK}`,
          'fix-commands': `${WS_FIX}\n${evil}`
        }
      })
      expect(run.outputs['status']).toBe('running')
      const files = git(sandbox.bare, ['show', '--name-only', '--format=%s', 'feature'])
        .split('\n')
        .filter(Boolean)
      expect(files).toEqual(['review-loop: address review (iteration 1)', 'src/a.js'])
      const state = sandbox.stateJson() as {
        iterations: Array<{ fix: { revertedProtected: string[] } }>
      }
      expect(state.iterations[0]!.fix.revertedProtected).toEqual(['.github/workflows/evil.yml'])
    } finally {
      await sandbox.close()
    }
  })

  it('reverts a protected file that a fix command moved away (a rename is a deletion too)', async () => {
    const sandbox = await Sandbox.create({
      ...base,
      base: { 'README.md': '# sample\n', '.github/workflows/ci.yml': 'on: push\njobs: {}\n' }
    })
    try {
      const move = 'git mv .github/workflows/ci.yml moved.yml'
      const run = await sandbox.run({
        event: 'pull_request',
        action: 'opened',
        inputs: { checks: WS_CHECK, 'fix-commands': `${WS_FIX}\n${move}` }
      })
      expect(run.outputs['status']).toBe('running')
      const files = git(sandbox.bare, [
        'show',
        '--name-status',
        '--no-renames',
        '--format=',
        'feature'
      ])
      expect(files).not.toContain('.github/workflows/ci.yml')
      expect(git(sandbox.bare, ['show', 'feature:.github/workflows/ci.yml'])).toContain('on: push')
    } finally {
      await sandbox.close()
    }
  })

  it('lets the next review weigh disputes when the fixer disputes instead of changing code', async () => {
    const verdict = (decision: string, findings: unknown[]): ScriptedReply => ({
      kind: 'json',
      value: {
        decision,
        summary: 's',
        findings,
        failedCriteria: [],
        passedCriteria: [],
        requiredRework: [],
        earlierFindings: []
      }
    })
    let secondPrompt = ''
    let disputedId = ''
    // the reviewer's and fixer's calls in order (verifier calls are answered before the responder)
    let n = 0
    const report = await runScenario(
      {
        ...base,
        pr: { commits: [{ message: 'a', files: { 'src/a.js': 'run()\n' } }] },
        inputs: { checks: 'ok: true' }
      },
      {
        model: {
          responder: call => {
            const index = n++
            if (index === 0) return verdict('NO_GO', [RUN_MAY_THROW])
            if (index === 1) {
              const task = JSON.stringify(call.messages)
              const id = /RL-[0-9a-f]{10}/.exec(task)![0]
              disputedId = id
              return {
                kind: 'tool_use',
                name: 'dispute_finding',
                input: { id, reason: 'wrong', explanation: 'run() never throws: see a.js:1' }
              }
            }
            if (index === 2) return { kind: 'text', text: 'Disputed.' }
            secondPrompt = JSON.stringify(call.messages)
            // the reviewer answers the dispute (silence would not settle it: issue 28)
            const go = verdict('GO', []) as { kind: 'json'; value: Record<string, unknown> }
            return {
              ...go,
              value: {
                ...go.value,
                earlierFindings: [{ id: disputedId, status: 'dispute_accepted', note: 'right' }]
              }
            }
          }
        }
      }
    )
    expect(report.runs.map(r => r.outputs['verdict'])).toEqual(['NO_GO', 'GO'])
    expect(report.runs[1]!.outputs['reviewed-sha']).toBe(report.runs[0]!.outputs['reviewed-sha'])
    expect(secondPrompt).toContain('fixer disputed RL-')
    expect(secondPrompt).toContain('run() never throws')
  })

  it('asks a human when the fixer disputes again what the reviewer kept, instead of looping', async () => {
    const verdict: ScriptedReply = {
      kind: 'json',
      value: {
        decision: 'NO_GO',
        summary: 's',
        findings: [RUN_MAY_THROW],
        failedCriteria: [],
        passedCriteria: [],
        requiredRework: [],
        earlierFindings: []
      }
    }
    const dispute = (call: { messages: unknown[] }): ScriptedReply => ({
      kind: 'tool_use',
      name: 'dispute_finding',
      input: {
        id: /RL-[0-9a-f]{10}/.exec(JSON.stringify(call.messages))![0],
        reason: 'wrong',
        explanation: 'it cannot throw'
      }
    })
    let n = 0
    const report = await runScenario(
      {
        ...base,
        pr: { commits: [{ message: 'a', files: { 'src/a.js': 'run()\n' } }] },
        inputs: { checks: 'ok: true', 'max-iterations': '5' },
        maxRuns: 6
      },
      {
        model: {
          // review, dispute, done — twice on the same head
          // (counted here: verifier calls are answered before the responder)
          responder: call => {
            const index = n++
            return index % 3 === 0
              ? verdict
              : index % 3 === 1
                ? dispute(call)
                : { kind: 'text', text: 'Disputed.' }
          }
        }
      }
    )
    expect(report.runs.map(r => r.outputs['status'])).toEqual(['running', 'needs_discussion'])
    expect(report.labels).toContain('review-loop: needs human')
    expect(report.dispatches).toHaveLength(1)
  })
})

describe('credentials', () => {
  it('authenticates its own fetch and push when the checkout kept no credentials (persist-credentials: false)', async () => {
    const sandbox = await Sandbox.create(base)
    const server = await GitHttpServer.start(sandbox.bare, WORKFLOW_TOKEN)
    try {
      const run = await sandbox.run({
        event: 'pull_request',
        action: 'opened',
        inputs: base.inputs,
        originUrl: server.url
      })
      expect(run.exitCode, run.stdout).toBe(0)
      expect(run.outputs['status']).toBe('running')
      expect(sandbox.headSha()).toBe(run.outputs['head-sha'])
      expect(
        server.requests.some(
          r => r.method === 'POST' && r.path.endsWith('git-receive-pack') && r.status === 200
        )
      ).toBe(true)
      // git asks without credentials first, as it always does, and gets them from the action's
      // credential helper after the 401: nothing is served without them
      expect(server.requests.filter(r => !r.authorized && r.status !== 401)).toEqual([])
      expect(server.requests.filter(r => r.authorized).length).toBeGreaterThan(0)
      // the token was used per command, never written where checks could read it
      expect(readFileSync(path.join(run.workspace, '.git', 'config'), 'utf8')).not.toContain(
        'extraheader'
      )
    } finally {
      await server.close()
      await sandbox.close()
    }
  })
})

describe('no silent stops (through dist/)', () => {
  it('fails the step when the dispatch keeps failing, and a re-run of the job goes on', async () => {
    const report = await runScenario({
      ...base,
      faults: [
        {
          run: 1,
          attempt: 1,
          route: 'POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches',
          status: 500,
          times: 20
        }
      ],
      rerunFailed: true
    })
    const [first, rerun] = report.runs
    expect(first!.exitCode).toBe(1)
    expect(first!.errors.join('\n')).toMatch(
      /Could not dispatch the next iteration.*Re-run this job/
    )
    // the re-run reviews the pushed fix: GO, with the one iteration counted once
    expect(rerun).toMatchObject({ attempt: 2, exitCode: 0, outputs: { status: 'go' } })
    expect(report.pushes.filter(p => p.by !== 'human')).toHaveLength(1)
  })

  it('gives a re-run of a red run the same red, and ends a running loop once as merged', async () => {
    const red = await runScenario({
      ...base,
      inputs: { checks: WS_CHECK, 'max-iterations': '1' },
      reruns: [{ afterRun: 1 }]
    })
    expect(red.runs.map(r => [r.attempt, r.exitCode, r.outputs['status']])).toEqual([
      [1, 1, 'max_iterations'],
      [2, 1, 'max_iterations']
    ])
    const merged = await runScenario(base, {
      onRun: (run, sandbox) => {
        // a maintainer merges while the dispatched run waits in the queue
        if (run.index === 0)
          Object.assign(sandbox.emulator.pulls.get(7)!, { state: 'closed', merged: true })
      }
    })
    expect(merged.runs.map(r => [r.exitCode, r.outputs['status']])).toEqual([
      [0, 'running'],
      [0, 'merged']
    ])
    expect(merged.finalState).toMatchObject({ status: 'merged' })
    expect(merged.comments.filter(c => c.body.includes('review-loop:state'))).toHaveLength(1)
  })

  it('ends a command when its own process exits, and kills what it left behind', async () => {
    const report = await runScenario({
      ...base,
      inputs: {
        // a background child holding the pipes, and one that left the process group
        checks: `bg: (sleep 97531 &); exit 0\nsetsid: setsid sleep 97532 & exit 0`,
        'command-timeout-minutes': '1'
      }
    })
    expect(report.runs[0]).toMatchObject({ exitCode: 0, outputs: { status: 'go' } })
    const survivors = execSync('ps -eo args', { encoding: 'utf8' })
      .split('\n')
      .filter(l => /^sleep 9753[12]$/.test(l.trim()))
    expect(survivors).toEqual([])
  })
})

describe('two state comments (through dist/)', () => {
  it('merges them: keeps the one that got furthest, deletes the other, says so', async () => {
    const sandbox = await Sandbox.create(base)
    try {
      const first = await sandbox.run({
        event: 'pull_request',
        action: 'opened',
        inputs: base.inputs
      })
      expect(first.outputs['status']).toBe('running')
      // what a second run that started at the same time leaves: a state by the bot, nothing counted
      const [counted] = sandbox.emulator.comments
      const decoded = decodeState(counted!.body)
      if (decoded.kind !== 'ok') throw new Error('no state')
      const body = renderStateMarker({ ...decoded.state, iterations: [] })
      sandbox.emulator.comments.push({ ...counted!, id: counted!.id + 1000, body })
      const next = await sandbox.run({
        event: 'workflow_dispatch',
        dispatchInputs: { 'pr-number': '7' },
        inputs: { ...base.inputs, 'pr-number': '7' }
      })
      const states = sandbox.emulator.comments.filter(c =>
        c.body.includes('<!-- review-loop:state')
      )
      expect(states.map(c => c.id)).toEqual([counted!.id])
      expect(next.stdout).toContain('2 review-loop state comments where one is expected')
      expect(next.outputs).toMatchObject({ status: 'go', 'iterations-total': '2' })
    } finally {
      await sandbox.close()
    }
  })
})

const ONE_FILE: Scenario = {
  base: { 'README.md': '# sample\n' },
  pr: { commits: [{ message: 'work', files: { 'src/a.js': 'one()\n' } }] },
  inputs: { checks: 'ok: true', 'request-timeout-seconds': '2' },
  maxRuns: 2
}

describe('faults leave the loop going or say what to do', () => {
  it('a dispatch refused by GitHub is not taken for the run that is asking: the run fails, saying how to go on', async () => {
    // run 1 fixes and dispatches run 2, which fixes again; run 2's dispatch is refused
    const report = await runScenario({
      ...ONE_FILE,
      pr: { commits: [{ message: 'work', files: { 'src/a.js': 'one()   \n' } }] },
      inputs: {
        ...ONE_FILE.inputs,
        checks: WS_CHECK,
        'fix-commands':
          "if grep -q stage2 src/a.js; then sed -i -E 's/ +$//' src/a.js; else printf 'x\\n\\n\\nfunction stage2() {}   \\n' > src/a.js; fi"
      },
      faults: [
        {
          run: 2,
          route: 'POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches',
          status: 500,
          times: 20
        }
      ],
      maxRuns: 4
    })
    expect(report.runs.map(r => [r.event, r.exitCode])).toEqual([
      ['pull_request', 0],
      ['workflow_dispatch', 1]
    ])
    expect(report.runs[1]!.errors.join('\n')).toContain('Could not dispatch the next iteration')
    expect(report.finalState?.['reason']).toMatch(/Re-run this job.*pr-number 7/)
  })

  it('a review call that fails on the first run leaves a failed check run saying what failed and what to do', async () => {
    const report = await runScenario({
      ...ONE_FILE,
      model: {
        templates: [
          {
            reply: {
              kind: 'error',
              status: 400,
              type: 'invalid_request_error',
              message: 'prompt is too long'
            }
          }
        ]
      }
    })
    expect(report.runs.map(r => r.exitCode)).toEqual([1])
    expect(report.checkRuns).toHaveLength(1)
    const [check] = report.checkRuns
    expect(check).toMatchObject({ conclusion: 'failure', title: 'review-loop failed' })
    expect(check!.summary).toContain('prompt is too long')
    expect(check!.summary).toContain('Re-run the job')
  })

  it('a failure after the state exists adds a line to the sticky comment', async () => {
    const report = await runScenario({
      ...ONE_FILE,
      faults: [{ run: 1, route: 'POST /repos/{owner}/{repo}/check-runs', status: 404 }]
    })
    expect(report.runs.map(r => r.exitCode)).toEqual([1])
    const [comment] = report.comments
    expect(comment!.body).toMatch(
      /\*\*Run \d+ \(attempt 1\) failed:\*\* create check run: Not Found\. .*'checks: write'.*re-run the job/
    )
  })

  it('the model spend of a run whose state save failed is counted by its re-run, once', async () => {
    const report = await runScenario({
      ...ONE_FILE,
      rerunFailed: true,
      maxRuns: 3,
      model: { templates: [{ reply: scriptedVerdict('GO') }] },
      faults: [
        {
          run: 1,
          attempt: 1,
          route: 'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
          status: 500,
          times: 20
        }
      ]
    })
    expect(report.runs.map(r => [r.attempt, r.exitCode, r.outputs['status']])).toEqual([
      [1, 1, undefined],
      [2, 0, 'go']
    ])
    // both attempts paid for a review; the state counts both, each once
    const served = report.modelCalls.reduce(
      (sum, c) => sum + (c.usage ? c.usage.input_tokens + c.usage.output_tokens : 0),
      0
    )
    expect(report.modelCalls).toHaveLength(2)
    const state = report.finalState as {
      totals: { inputTokens: number; outputTokens: number; cacheReadTokens: number }
      carriedSpend?: string[]
    }
    expect(
      state.totals.inputTokens + state.totals.outputTokens + state.totals.cacheReadTokens
    ).toBe(
      served +
        report.modelCalls.reduce((sum, c) => sum + (c.usage?.cache_read_input_tokens ?? 0), 0)
    )
    expect(state.carriedSpend).toEqual([`${report.runs[0]!.runId}:1`])
  })

  it('pr-number naming no pull request says so, naming the input', async () => {
    const report = await runScenario({
      ...ONE_FILE,
      inputs: { ...ONE_FILE.inputs, 'pr-number': '4242' },
      start: { event: 'workflow_dispatch', dispatchInputs: { 'pr-number': '4242' } }
    })
    expect(report.runs[0]!.errors).toEqual([
      'pr-number: PR #4242 does not exist in acme/widgets (or the token cannot see it). Set pr-number to the number of a pull request of this repository.'
    ])
  })
})
