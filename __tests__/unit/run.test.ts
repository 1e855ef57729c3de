import { describe, expect, it } from 'vitest'
import { decodeState } from '../../src/loop/state-comment.js'
import type { LoopState } from '../../src/loop/types.js'
import { decidePhase } from '../../src/run/decide.js'
import { runIteration, type IterationDeps } from '../../src/run/iteration.js'
import { planPhase } from '../../src/run/plan.js'
import { pull } from './builders.js'
import {
  clock,
  context,
  fakeArtifacts,
  fakeLog,
  fakeRunner,
  FakeGit,
  FakeGitHub,
  settings
} from './fake-ports.js'

function world(inputs: Record<string, string>, options: { push?: FakeGit['pushResult'] } = {}) {
  const github = new FakeGitHub()
  const git = new FakeGit(github.pull.headSha, options.push)
  const ran: string[] = []
  const lines: string[] = []
  const saved: Record<string, Record<string, string>> = {}
  const summaries: string[] = []
  const deps: IterationDeps = {
    settings: settings(inputs),
    ctx: context(),
    github,
    openGit: async () => git,
    runner: fakeRunner(git, ran),
    artifacts: fakeArtifacts(saved),
    log: fakeLog(lines),
    env: { PATH: process.env['PATH'], GITHUB_TOKEN: 'ghs_secret' },
    clock,
    writeSummary: async md => void summaries.push(md)
  }
  return { github, git, ran, lines, saved, summaries, deps }
}

function savedState(github: FakeGitHub): LoopState {
  const decoded = decodeState(github.comments[0]!.body)
  if (decoded.kind !== 'ok') throw new Error(`no state in the comment: ${decoded.kind}`)
  return decoded.state
}

describe('runIteration: one event in, one decision out (on fake ports)', () => {
  it('does nothing on an event it does not act on, and says so without calling GitHub', async () => {
    const w = world({ checks: 'lint: true' })
    const outcome = await runIteration({ ...w.deps, ctx: context({ eventName: 'push' }) })
    expect(outcome.notice).toContain("does nothing on 'push' events")
    expect(w.github.calls).toEqual([])
    expect(w.ran).toEqual([])
  })

  it('reviews, fixes, pushes, saves the state, and only then dispatches the next run', async () => {
    const w = world({ checks: 'lint: fail:lint', 'fix-commands': 'touch:src/a.ts' })
    const outcome = await runIteration(w.deps)
    expect(w.ran).toEqual(['fail:lint', 'touch:src/a.ts'])
    expect(w.git.pushed).toHaveLength(1)
    expect(w.github.calls).toEqual([
      'getPull 7',
      'listComments',
      'createComment',
      'dispatchWorkflow',
      'createCheckRun failure'
    ])
    expect(w.github.dispatches).toEqual([
      { workflow: 'review.yml', ref: 'feature', inputs: { 'pr-number': '7' } }
    ])
    const state = savedState(w.github)
    expect(state.status).toBe('running')
    expect(state.iterations[0]).toMatchObject({
      n: 1,
      decision: 'NO_GO',
      fix: { outcome: 'pushed' }
    })
    expect(state.lastPushedSha).toBe(w.git.pushed[0])
    expect(outcome).toMatchObject({
      decision: 'NO_GO',
      headSha: w.git.pushed[0],
      reviewedSha: w.github.pull.headSha,
      failure: undefined
    })
    expect(w.saved['review-loop-pr-7-iteration-1']).toHaveProperty('fix-1.json')
  })

  it('ends at GO with a successful check run and starts no further run', async () => {
    const w = world({ checks: 'lint: true', 'fix-commands': 'touch:src/a.ts' })
    const outcome = await runIteration(w.deps)
    expect(w.ran).toEqual(['true'])
    expect(w.github.dispatches).toEqual([])
    expect(w.github.checkRuns[0]!.conclusion).toBe('success')
    expect(outcome).toMatchObject({ decision: 'GO', failure: undefined })
    expect(outcome.state?.status).toBe('go')
    expect(w.summaries[0]).toContain('GO')
  })

  it('fails the step for a state listed in fail-on, and not when fail-on is never', async () => {
    const stalled = world({ checks: 'lint: fail:lint' })
    expect((await runIteration(stalled.deps)).failure).toMatch(/^review-loop ended as stalled: /)
    expect(stalled.github.checkRuns[0]!.conclusion).toBe('failure')
    const tolerated = world({ checks: 'lint: fail:lint', 'fail-on': 'never' })
    expect((await runIteration(tolerated.deps)).failure).toBeUndefined()
    expect(tolerated.github.checkRuns[0]!.conclusion).toBe('neutral')
  })

  it('says in the state why the loop cannot go on when the dispatch fails', async () => {
    const w = world({ checks: 'lint: fail:lint', 'fix-commands': 'touch:src/a.ts' })
    w.github.failDispatch = 'Resource not accessible by integration'
    await runIteration(w.deps)
    expect(w.github.calls.slice(2, 5)).toEqual([
      'createComment',
      'dispatchWorkflow',
      'updateComment'
    ])
    expect(savedState(w.github).reason).toContain('Could not dispatch the next iteration')
    expect(w.lines.some(l => l.startsWith('warning Could not dispatch'))).toBe(true)
  })

  it('keeps a fix it must not push over a moved branch as a patch, and waits for the new head', async () => {
    const w = world(
      { checks: 'lint: fail:lint', 'fix-commands': 'touch:src/a.ts' },
      { push: { kind: 'rejected', message: '! [rejected] (fetch first)' } }
    )
    const outcome = await runIteration(w.deps)
    expect(w.github.dispatches).toEqual([])
    expect(outcome.state?.status).toBe('running')
    expect(outcome.state?.reason).toContain('branch moved')
    expect(w.saved['review-loop-pr-7-iteration-1']).toHaveProperty('fix-1.patch')
  })

  it('stops on the stop label without running PR code, and writes the stopped state', async () => {
    const inputs = {
      checks: 'lint: fail:lint',
      'fix-commands': 'touch:src/a.ts',
      'stop-label': 'stop'
    }
    const w = world(inputs)
    await runIteration(w.deps)
    w.ran.length = 0
    w.github.pull = { ...w.github.pull, headSha: w.git.pushed[0]!, labels: ['stop'] }
    const outcome = await runIteration({ ...w.deps, ctx: context({ runId: '2002' }) })
    expect(w.ran).toEqual([])
    expect(outcome.notice).toContain("has the label 'stop'")
    expect(savedState(w.github)).toMatchObject({ status: 'stopped' })
    expect(outcome.failure).toBeUndefined()
  })

  it('passes the scrubbed environment, not the token, to PR code', async () => {
    const w = world({ checks: 'lint: true' })
    const seen: Array<Record<string, string | undefined>> = []
    await runIteration({
      ...w.deps,
      runner: {
        async run(_command, options) {
          seen.push(options.env)
          return { exitCode: 0, stdout: '', output: '', timedOut: false, durationMs: 1 }
        }
      }
    })
    expect(seen[0]).toHaveProperty('PATH')
    expect(seen[0]).not.toHaveProperty('GITHUB_TOKEN')
  })
})

describe('the phases on their own', () => {
  it('plan: a head reviewed by this run already is skipped with the run named', async () => {
    const w = world({ checks: 'lint: fail:lint' })
    await runIteration(w.deps)
    const again = await planPhase(w.deps, 7)
    expect(again.kind).toBe('skip')
    if (again.kind === 'skip') expect(again.notice).toContain('re-running it changes nothing')
  })

  it('decide: a fork PR is reviewed but not fixed, and the user is told why', async () => {
    const fork = pull({ headRepoFullName: 'someone/r' })
    const w = world({ checks: 'lint: fail:lint', 'fix-commands': 'touch:x', 'allow-forks': 'true' })
    w.github.pull = fork
    const plan = await planPhase(w.deps, 7)
    expect(plan.kind).toBe('review')
    if (plan.kind !== 'review') return
    const decided = decidePhase({ ...w.deps, run: w.deps.ctx, aiFixer: false }, plan, {
      gates: [
        {
          name: 'lint',
          command: 'x',
          passed: false,
          exitCode: 1,
          timedOut: false,
          durationMs: 1,
          findings: [],
          outputTail: ''
        }
      ],
      findings: [],
      usage: {
        inputTokens: 0,
        outputTokens: 0,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        costUsd: 0
      }
    })
    expect(decided.decision).toBe('NO_GO')
    expect(decided.next).toMatchObject({ kind: 'finish', status: 'stalled' })
    expect(decided.state.status).toBe('stalled')
    expect(decided.notes).toEqual([
      'Fork PRs are reviewed but not fixed: the action does not push to forks.'
    ])
  })
})
