import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { decodeState, renderStateMarker, STATE_MARKER } from '../../src/loop/state-comment.js'
import type { LoopState } from '../../src/loop/types.js'
import { zeroUsage } from '../../src/loop/usage.js'
import { decidePhase } from '../../src/run/decide.js'
import type { AiAgents, RunOptions } from '../../src/ports/index.js'
import { createConfinement } from '../../src/process/sandbox.js'
import type { IterationDeps } from '../../src/run/deps.js'
import { runIteration } from '../../src/run/iteration.js'
import { planPhase } from '../../src/run/plan.js'
import { UNTRUSTED_MARKER } from '../../src/run/state-store.js'
import { pull, state as stateOf, verifiedReview } from './builders.js'
import {
  BOT,
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
    confine: async () => ({ runner: fakeRunner(git, ran), env: {}, sandboxed: true }),
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

  it('reviews, fixes, saves the state counting the fix, pushes, and only then dispatches the next run', async () => {
    const w = world({ checks: 'lint: fail:lint', 'fix-commands': 'touch:src/a.ts' })
    // what the PR comment says at the moment of the push: written ahead, the fix already counted
    let atPush: LoopState | undefined
    const push = w.git.push.bind(w.git)
    w.git.push = async () => {
      atPush = savedState(w.github)
      return push()
    }
    const outcome = await runIteration(w.deps)
    expect(w.ran).toEqual(['fail:lint', 'touch:src/a.ts'])
    expect(w.git.pushed).toHaveLength(1)
    expect(atPush?.iterations[0]?.fix).toMatchObject({
      outcome: 'pushing',
      commitSha: w.git.pushed[0]
    })
    expect(w.github.calls).toEqual([
      'getPull 7',
      'listComments',
      'createComment',
      'updateComment',
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
      fix: { outcome: 'pushed', patch: 'fix-1.patch' }
    })
    expect(state.lastPushedSha).toBe(w.git.pushed[0])
    expect(outcome).toMatchObject({
      decision: 'NO_GO',
      headSha: w.git.pushed[0],
      reviewedSha: w.github.pull.headSha,
      failure: undefined
    })
    expect(w.saved['review-loop-pr-7-iteration-1']).toHaveProperty('fix-1.json')
    expect(w.saved['review-loop-pr-7-iteration-1']).toHaveProperty('fix-1.patch')
  })

  it('never pushes a fix whose state could not be saved first', async () => {
    const w = world({ checks: 'lint: fail:lint', 'fix-commands': 'touch:src/a.ts' })
    w.github.createComment = async () => {
      throw new Error('create comment: Server Error (HTTP 500)')
    }
    await expect(runIteration(w.deps)).rejects.toThrow(
      /Could not save the loop state \(.*HTTP 500\)\), so the fix was not pushed; it is kept as fix-1.patch.*Re-run the job/
    )
    expect(w.git.pushed).toEqual([])
    expect(w.github.dispatches).toEqual([])
    // the work is not lost: the patch went to the artifact before the state
    expect(w.saved['review-loop-pr-7-iteration-1']).toHaveProperty('fix-1.patch')
  })

  it('leaves a pushed fix counted when the state cannot be saved after the push', async () => {
    const w = world({ checks: 'lint: fail:lint', 'fix-commands': 'touch:src/a.ts' })
    w.github.updateComment = async () => {
      throw new Error('update comment: Bad Gateway (HTTP 502)')
    }
    await expect(runIteration(w.deps)).rejects.toThrow(
      /Could not save the loop state \(.*HTTP 502\)\), after the fix was pushed; the next run counts the fix/
    )
    expect(w.git.pushed).toHaveLength(1)
    expect(w.github.dispatches).toEqual([])
    // the next run finds the push written ahead and counts it as iteration 1
    const state = savedState(w.github)
    expect(state.iterations).toHaveLength(1)
    expect(state.iterations[0]!.fix).toMatchObject({
      outcome: 'pushing',
      commitSha: w.git.pushed[0]
    })
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

  it('fails the step, saying how to go on, when the dispatch fails: the loop never stops silently', async () => {
    const w = world({ checks: 'lint: fail:lint', 'fix-commands': 'touch:src/a.ts' })
    w.github.failDispatch = 'Resource not accessible by integration'
    const outcome = await runIteration(w.deps)
    expect(w.github.calls.slice(2, 6)).toEqual([
      'createComment',
      'updateComment',
      'dispatchWorkflow',
      'updateComment'
    ])
    expect(savedState(w.github).reason).toContain('Could not dispatch the next iteration')
    expect(outcome.failure).toMatch(/Could not dispatch the next iteration.*Re-run this job/)
  })

  it('starts no next run with retrigger: none, even after a pushed fix', async () => {
    const w = world({
      checks: 'lint: fail:lint',
      'fix-commands': 'touch:src/a.ts',
      retrigger: 'none'
    })
    await runIteration(w.deps)
    expect(w.git.pushed).toHaveLength(1)
    expect(w.github.dispatches).toEqual([])
  })

  it('creates the state comment again when it was deleted while the run worked', async () => {
    const w = world({ checks: 'lint: fail:lint', 'fix-commands': 'touch:src/a.ts' })
    const update = w.github.updateComment.bind(w.github)
    w.github.updateComment = async (id, body) => {
      if (w.github.comments.some(c => c.id === id)) return update(id, body)
      throw Object.assign(new Error('update comment: Not Found (HTTP 404)'), { status: 404 })
    }
    // another run merged this run's comment away right after the write-ahead
    w.git.push = async () => {
      w.github.comments = []
      return { kind: 'pushed' }
    }
    await runIteration(w.deps)
    expect(w.github.comments).toHaveLength(1)
    expect(savedState(w.github).iterations[0]!.fix?.outcome).toBe('pushed')
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
    // the artifact was not uploaded: the patch is in the log as written, where nothing in it is a
    // workflow command to the runner
    expect(w.lines).toContain(`verbatim ${w.saved['review-loop-pr-7-iteration-1']!['fix-1.patch']}`)
  })

  it("reviews the loop's pushed fix when GitHub's API still shows the head it fixed, never taking it for a move back", async () => {
    const w = world({ checks: 'lint: fail:lint', 'fix-commands': 'touch:src/a.ts' })
    await runIteration(w.deps)
    const fixed = w.git.pushed[0]!
    // the next run: the pulls API lags and still shows the reviewed head; origin has the fix
    expect(w.github.pull.headSha).not.toBe(fixed)
    const outcome = await runIteration({
      ...w.deps,
      ctx: context({ eventName: 'workflow_dispatch', runId: '2002' }),
      settings: settings({
        checks: 'lint: fail:lint',
        'fix-commands': 'touch:src/a.ts',
        'pr-number': '7'
      })
    })
    const state = savedState(w.github)
    expect(state.iterations.map(i => i.reviewedSha)).toEqual([w.github.pull.headSha, fixed])
    // the fix is in the reviewed head: the lint finding came back after it, a stall, not a move back
    expect(state.iterations[1]?.findings[0]?.reraised).toBe(true)
    expect(state.reason).not.toContain('branch moved')
    expect(outcome.reviewedSha).toBe(fixed)
    expect(w.lines.join('\n')).toContain('the API lags behind a push')
  })

  it('reviews a head the loop fixed again when the branch itself was moved back to it', async () => {
    const w = world({ checks: 'lint: fail:lint', 'fix-commands': 'touch:src/a.ts' })
    await runIteration(w.deps)
    const reviewed = w.github.pull.headSha
    w.git.remote = reviewed // a human reset the branch, dropping the fix
    const outcome = await runIteration({ ...w.deps, ctx: context({ runId: '2002' }) })
    const state = savedState(w.github)
    expect(state.iterations.map(i => i.reviewedSha)).toEqual([reviewed, reviewed])
    expect(outcome.reviewedSha).toBe(reviewed)
    expect(w.lines.join('\n')).not.toContain('the API lags')
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

  it('passes the allow-listed environment, not the token, to PR code', async () => {
    const w = world({ checks: 'lint: true' })
    const seen: Array<Record<string, string | undefined>> = []
    const real = createConfinement({
      mode: 'off',
      network: 'allow',
      passthrough: [],
      tempDir: w.git.root,
      env: { ...w.deps.env, GH_PAT: 'ghp_canary', HOME: '/home/runner' },
      log: fakeLog()
    })
    await runIteration({
      ...w.deps,
      confine: async checkout => ({
        ...(await real(checkout)),
        runner: {
          async run(_command: string, options: RunOptions) {
            seen.push(options.env)
            return { exitCode: 0, stdout: '', output: '', timedOut: false, durationMs: 1 }
          }
        }
      })
    })
    expect(seen[0]).toHaveProperty('PATH')
    expect(seen[0]?.['HOME']).not.toBe('/home/runner')
    expect(seen[0]).not.toHaveProperty('GITHUB_TOKEN')
    expect(seen[0]).not.toHaveProperty('GH_PAT')
  })
})

describe('a state the loop cannot trust halts it; it never starts afresh', () => {
  const LOOPING = {
    checks: 'lint: fail:lint',
    'fix-commands': 'touch:src/a.ts',
    'max-iterations': '2',
    'escalation-reviewers': 'alice'
  }

  /** Runs the loop once as the run after the last fix push (a new head, a new run id). */
  async function next(w: ReturnType<typeof world>, runId: string) {
    w.ran.length = 0
    const head = w.git.pushed[w.git.pushed.length - 1]
    if (head) w.github.pull = { ...w.github.pull, headSha: head }
    return runIteration({ ...w.deps, ctx: context({ runId }) })
  }

  function stateComment(w: ReturnType<typeof world>) {
    return w.github.comments.find(c => c.body.startsWith(STATE_MARKER))!
  }

  function notices(w: ReturnType<typeof world>) {
    return w.github.comments.filter(c => c.body.startsWith(UNTRUSTED_MARKER))
  }

  it('stops as needs_discussion, with max-iterations 2, when the state was edited: no more reviews', async () => {
    const w = world(LOOPING)
    expect((await runIteration(w.deps)).state?.status).toBe('running')
    const comment = stateComment(w)
    comment.htmlUrl = 'https://github.com/o/r/pull/7#issuecomment-100'
    // someone raises the cap by editing the bot's state
    comment.body = comment.body.replace('"maxIterations":2', '"maxIterations":20')
    const evidence = comment.body

    for (const runId of ['2002', '2003', '2004']) {
      const outcome = await next(w, runId)
      expect(w.ran).toEqual([])
      expect(outcome.state?.status).toBe('needs_discussion')
      expect(outcome.decision).toBeUndefined()
      expect(outcome.failure).toMatch(/^review-loop ended as needs_discussion: .*edited by hand/)
      expect(outcome.checkRunId).toBeDefined()
    }
    // the evidence stays; one notice, posted once and reused
    expect(stateComment(w).body).toBe(evidence)
    expect(notices(w)).toHaveLength(1)
    const notice = notices(w)[0]!
    expect(w.github.calls.filter(c => c === 'createComment')).toHaveLength(2)
    expect(notice.body).not.toContain(STATE_MARKER)
    expect(notice.body).toContain('https://github.com/o/r/pull/7#issuecomment-100')
    expect(notice.body).toContain('the state was edited by hand')
    expect(notice.body).toContain('Delete the state comment')
    expect(notice.body).toContain('@alice')
    // the check and the escalation are those of needs_discussion
    expect(w.github.checkRuns.slice(1).map(c => c.conclusion)).toEqual([
      'failure',
      'failure',
      'failure'
    ])
    expect(w.github.checkRuns[1]!.detailsUrl).toBe(notice.htmlUrl)
    expect(w.github.calls).toContain('requestReviewers')
    expect(w.lines.some(l => l.startsWith('warning Not trusting the review-loop state'))).toBe(true)
    // only 1 review ran in all
    expect(
      w.github.checkRuns.filter(c => c.title !== 'The loop state cannot be trusted')
    ).toHaveLength(1)
  })

  it('does not fail the step when fail-on leaves needs_discussion out, and starts afresh once the state comment is deleted', async () => {
    const w = world({ ...LOOPING, 'fail-on': 'never' })
    await runIteration(w.deps)
    stateComment(w).body = stateComment(w).body.replace('"status":"running"', '"status":"go"')
    const halted = await next(w, '2002')
    expect(halted.failure).toBeUndefined()
    expect(w.github.checkRuns[1]!.conclusion).toBe('neutral')
    // the deliberate reset
    w.github.comments = w.github.comments.filter(c => !c.body.startsWith(STATE_MARKER))
    const fresh = await next(w, '2003')
    expect(w.ran).toEqual(['fail:lint', 'touch:src/a.ts'])
    expect(fresh.state?.iterations).toHaveLength(1)
  })

  it('with state-key, halts on a state someone recomputed without the key', async () => {
    const KEY = 'k3y'
    const w = world({ ...LOOPING, 'state-key': KEY })
    await runIteration(w.deps)
    const comment = stateComment(w)
    expect(comment.body).toMatch(/^<!-- review-loop:state hmac-sha256:[0-9a-f]{64} /)
    expect(decodeState(comment.body, KEY).kind).toBe('ok')
    // a plain SHA-256 over an edited JSON, as anyone can compute
    const json = /(\{.*?\}) -->/s
      .exec(comment.body)![1]!
      .replace('"maxIterations":2', '"maxIterations":20')
    const sum = createHash('sha256').update(json).digest('hex').slice(0, 16)
    comment.body = `${STATE_MARKER} sha256:${sum} ${json} -->\n## Review loop`
    const outcome = await next(w, '2002')
    expect(w.ran).toEqual([])
    expect(outcome.failure).toContain('plain sha256 digest')
    expect(notices(w)[0]!.body).toContain('Unset state-key if it was set by mistake')
  })

  it('halts on a state of another PR and on a newer schema', async () => {
    const cases: Array<[string, (w: ReturnType<typeof world>) => void, RegExp]> = [
      [
        'another PR',
        w => void (stateComment(w).body = renderStateMarker(stateOf({ pr: 8 }))),
        /holds the state of PR #8, not of PR #7/
      ],
      [
        'a newer schema',
        w =>
          void (stateComment(w).body = renderStateMarker({
            ...stateOf(),
            schema: 10
          } as unknown as LoopState)),
        /written by a newer review-loop; upgrade the action/
      ]
    ]
    for (const [name, tamper, reason] of cases) {
      const w = world(LOOPING)
      await runIteration(w.deps)
      tamper(w)
      const outcome = await next(w, '2002')
      expect(w.ran, name).toEqual([])
      expect(outcome.state?.status, name).toBe('needs_discussion')
      expect(outcome.notice, name).toMatch(reason)
    }
  })

  it('merges two state comments by the bot: keeps the one counting more iterations, deletes the other', async () => {
    const w = world(LOOPING)
    await runIteration(w.deps)
    const counted = savedState(w.github)
    // a second run that started at once wrote a state with nothing counted
    w.github.comments.push({
      id: 1,
      author: BOT,
      htmlUrl: 'https://github.com/o/r/pull/7#issuecomment-1',
      body: renderStateMarker(stateOf())
    })
    // the other state spent more (two runs at once each reviewed): the budget keeps the larger spend
    w.github.comments[1]!.body = renderStateMarker(
      stateOf({ totals: { ...counted.totals, costUsd: 9.5 } })
    )
    const outcome = await next(w, '2002')
    expect(outcome.state?.totals.costUsd).toBeGreaterThanOrEqual(9.5)
    expect(w.github.calls).toContain('deleteComment')
    expect(w.github.comments.filter(c => c.body.includes(STATE_MARKER))).toHaveLength(1)
    expect(outcome.state?.iterations).toHaveLength(counted.iterations.length + 1)
    expect(w.lines.some(l => l.includes('Found 2 review-loop state comments'))).toBe(true)
  })

  it('ends a running loop as merged once when its PR is merged, and a re-run ends as the run did', async () => {
    const w = world(LOOPING)
    await runIteration(w.deps)
    w.github.pull = { ...w.github.pull, state: 'closed', merged: true }
    const merged = await next(w, '2002')
    expect(merged.state?.status).toBe('merged')
    expect(merged.failure).toBeUndefined()
    expect(savedState(w.github).status).toBe('merged')
    const writes = w.github.calls.filter(c => c === 'updateComment').length
    await next(w, '2003')
    expect(w.github.calls.filter(c => c === 'updateComment').length).toBe(writes)
  })

  it('ends a running loop whose round used its cap as max_iterations, calling a human, never left running', async () => {
    const w = world(LOOPING)
    await runIteration(w.deps)
    expect(savedState(w.github).status).toBe('running')
    // max-iterations lowered to what the round used already: the next head cannot be reviewed
    w.deps.settings = settings({ ...LOOPING, 'max-iterations': '1' })
    const ended = await next(w, '2002')
    expect(w.ran).toEqual([])
    expect(savedState(w.github)).toMatchObject({ status: 'max_iterations' })
    expect(savedState(w.github).reason).toContain('used 1 of 1 iterations; raise max-iterations')
    expect(ended.failure).toMatch(/ended as max_iterations/)
    expect(w.github.calls.some(c => c.startsWith('addLabels'))).toBe(true)
  })

  it('gives a re-run of a red run the same red: the head was dealt with, the state ended in fail-on', async () => {
    const w = world({ checks: 'lint: fail:lint' })
    const first = await runIteration(w.deps)
    expect(first.failure).toMatch(/ended as stalled/)
    const rerun = await runIteration({ ...w.deps, ctx: context({ runAttempt: 2 }) })
    expect(rerun.notice).toContain('re-running it changes nothing')
    expect(rerun.failure).toBe(first.failure)
  })

  it('still ignores, with a warning, a state pasted by someone else', async () => {
    const w = world(LOOPING)
    w.github.comments.push({
      id: 1,
      author: 'mallory',
      htmlUrl: 'https://github.com/o/r/pull/7#issuecomment-1',
      body: renderStateMarker(stateOf({ status: 'go' }))
    })
    const outcome = await runIteration(w.deps)
    expect(w.ran).toEqual(['fail:lint', 'touch:src/a.ts'])
    expect(outcome.state?.status).toBe('running')
    expect(notices(w)).toEqual([])
    expect(w.lines.some(l => l.includes('written by mallory'))).toBe(true)
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
          problems: 0,
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
    // review only: not a stall for a fixer it cannot use; the author's next push comes next
    expect(decided.next).toMatchObject({ kind: 'wait' })
    expect(decided.state.status).toBe('running')
    expect(decided.state.reason).toMatch(
      /^Review only: PR #7 comes from the fork someone\/r, and a fork's branch cannot be pushed to/
    )
    expect(decided.state.reason).not.toMatch(/fix-commands/)
  })
})

describe('findings the review did not act on, through the run (on fake ports)', () => {
  it('shows them with their reasons in the comment, the check run, the job summary and review-N.md, annotates only the blockers, and counts them in the state', async () => {
    const w = world({ checks: 'lint: true' })
    const { findings, setAside } = verifiedReview()
    const ai: AiAgents = {
      review: async () => ({
        decision: 'NO_GO',
        summary: 'Two real problems.',
        findings,
        setAside,
        failedCriteria: [],
        passedCriteria: [],
        requiredRework: [],
        usage: zeroUsage(),
        dropped: 0
      }),
      answer: async () => undefined
    }
    const outcome = await runIteration({ ...w.deps, ai })
    expect(outcome.decision).toBe('NO_GO')
    const count =
      '3 findings were not acted on: 1 quotes code that is not in the file, 2 refuted by the verifier.'
    const comment = w.github.comments[0]!.body
    expect(comment).toContain(count)
    expect(comment).toContain(
      '<details><summary>🚫 Off-by-one in the loop — refuted by the verifier</summary>'
    )
    expect(comment).toContain('✅ confirmed by the verifier: the log is public')
    const check = w.github.checkRuns[0]!
    expect(check.summary).toContain(count)
    expect(check.summary).toContain('  ```\n  console.log(token)\n  ```')
    expect(check.annotations.map(a => a.file).sort()).toEqual(['src/auth.ts', 'src/stats.ts'])
    expect(w.summaries[0]).toContain(count)
    expect(w.summaries[0]).toContain(
      'Off-by-one in the loop | 🚫 refuted by the verifier: n is the last index, not the length (read src/loop.ts:18) |'
    )
    const md = w.saved['review-loop-pr-7-iteration-1']!['review-1.md']!
    expect(md).toContain(`## Not acted on (3)\n\n${count}`)
    expect(md).toContain('Evidence:\n\n```\nconst mean = total / items.length\nreturn mean\n```')
    expect(savedState(w.github).iterations[0]!.setAside).toEqual({ unverified: 1, refuted: 2 })
    expect(w.lines).toContain(`info [1/3] ${count}`)
  })
})

describe('a head branch deleted while the PR is open (on fake ports)', () => {
  it('a GO review asks origin for the branch and, with it gone, ends needs_discussion with no green check', async () => {
    const w = world({ checks: 'lint: true' })
    const asked: string[] = []
    w.git.remoteHead = async branch => void asked.push(branch)
    const outcome = await runIteration(w.deps)
    expect(asked).toEqual(['feature'])
    expect(outcome.decision).toBe('GO')
    expect(outcome.state?.status).toBe('needs_discussion')
    expect(outcome.state?.reason).toMatch(/head branch feature of PR #7 was deleted/)
    expect(outcome.failure).toMatch(/ended as needs_discussion/)
    expect(w.github.calls).toContain('createCheckRun failure')
    expect(w.github.calls).not.toContain('createCheckRun success')
    expect(savedState(w.github).status).toBe('needs_discussion')
  })

  it('a GO review on a branch origin still has, or cannot tell about, stays GO', async () => {
    const w = world({ checks: 'lint: true' })
    expect((await runIteration(w.deps)).state?.status).toBe('go')
    const unsure = world({ checks: 'lint: true' })
    unsure.git.remoteHead = async () => {
      throw new Error('git ls-remote failed: HTTP 500')
    }
    expect((await runIteration(unsure.deps)).state?.status).toBe('go')
    expect(unsure.lines.some(l => /Could not confirm that origin still has/.test(l))).toBe(true)
  })

  it("never asks origin for a fork's branch", async () => {
    const w = world({ checks: 'lint: true', 'allow-forks': 'true' })
    w.github.pull = pull({ headRepoFullName: 'someone/r', headSha: w.github.pull.headSha })
    w.git.remoteHead = async () => {
      throw new Error('asked origin for a fork branch')
    }
    expect((await runIteration(w.deps)).state?.status).toBe('go')
  })

  it('a fix finds the branch gone at the push: nothing pushed or dispatched, the patch kept, the loop ends', async () => {
    const w = world({ checks: 'lint: fail:lint', 'fix-commands': 'touch:src/a.ts' })
    w.git.remoteHead = async () => undefined
    const outcome = await runIteration(w.deps)
    expect(w.git.pushed).toEqual([])
    expect(w.github.dispatches).toEqual([])
    const state = savedState(w.github)
    expect(state.status).toBe('needs_discussion')
    expect(state.reason).toMatch(/branch feature of PR #7 was deleted.*kept as fix-1\.patch/)
    expect(state.iterations[0]!.fix).toMatchObject({
      outcome: 'branch_moved',
      patch: 'fix-1.patch'
    })
    expect(w.saved['review-loop-pr-7-iteration-1']).toHaveProperty('fix-1.patch')
    expect(outcome.failure).toMatch(/ended as needs_discussion/)
    expect(w.github.calls).toContain('createCheckRun failure')
  })
})
