/**
 * The bot's own commits on the PR branch, and its claims. A fix commit carries trailers naming the
 * PR, the iteration and the run that made it, so a push that no state comment recorded (two runs at
 * once: one state merged away, or overwritten by the run whose push was refused) is found on the
 * branch and counted against the cap. A claim (a ref the run creates only where none is) gives
 * each iteration on a head to one run.
 */
import type { IterationRecord, LoopState } from './types.js'
import { zeroUsage } from './usage.js'

/** The trailers of a fix commit, and of a claim. */
const TRAILER = /^Review-loop-(pr|iteration|run|head): *(\S+) *$/gim

/** What a fix commit's or a claim's trailers say. */
export interface Trailers {
  pr: number
  n: number
  /** `runId:attempt` */
  run: string
  /** The head a claim is for. */
  head?: string
}

export function trailerLines(t: Trailers): string {
  const lines = [
    `Review-loop-PR: ${t.pr}`,
    `Review-loop-iteration: ${t.n}`,
    `Review-loop-run: ${t.run}`
  ]
  return [...lines, ...(t.head ? [`Review-loop-head: ${t.head}`] : [])].join('\n')
}

/** The trailers in `message`, when it has all of PR, iteration and run. */
export function readTrailers(message: string): Trailers | undefined {
  const found: Record<string, string> = {}
  for (const m of message.matchAll(TRAILER)) found[m[1]!.toLowerCase()] = m[2]!
  const pr = Number(found['pr'])
  const n = Number(found['iteration'])
  const run = found['run'] ?? ''
  if (!Number.isSafeInteger(pr) || !Number.isSafeInteger(n) || !/^\d+:\d+$/.test(run))
    return undefined
  return { pr, n, run, ...(found['head'] ? { head: found['head'] } : {}) }
}

/** The fix commit's message: what it is, then the trailers. */
export function fixMessage(t: Trailers): string {
  return `review-loop: address review (iteration ${t.n})\n\n${trailerLines(t)}\n`
}

/** Where the claim on iteration `n` of PR `pr` at `head` lives on origin. */
export function claimRef(pr: number, n: number, head: string): string {
  return `refs/review-loop/${pr}/${n}-${head}`
}

/** The claim commit's message. */
export function claimMessage(t: Trailers & { head: string }): string {
  return `review-loop: claim iteration ${t.n} of PR #${t.pr} at ${t.head.slice(0, 7)}\n\n${trailerLines(t)}\n`
}

/** A commit the bot pushed for this PR, as its trailers say. */
export interface BotPush extends Trailers {
  sha: string
  parent?: string
}

/** A commit on the branch as the walk reads it: who committed it (`Name <email>`) too. */
export interface BranchCommit {
  sha: string
  parent?: string
  message: string
  committer: string
}

/**
 * Whether `t`, a commit's trailers, stand for a push the bot made and the state lost. Not when the
 * iteration is recorded pushed already, nor when it records this very run's push as refused or
 * finding the branch moved: that run's commit did not land by its push (a human applied its patch).
 */
function lost(state: LoopState, t: Trailers): boolean {
  const it = state.iterations.find(i => i.n === t.n)
  if (!it?.fix) return true
  if (it.fix.outcome === 'pushed') return false
  const refused = it.fix.outcome === 'push_failed' || it.fix.outcome === 'branch_moved'
  return !(refused && `${it.runId}:${it.runAttempt}` === t.run)
}

/**
 * The bot's pushes for PR `state.pr` among `commits` (the branch's history, newest first) that the
 * state does not record as pushed, oldest first. Only commits the bot committed (`committer`, the
 * action's commit identity) count: a human's `git am` of a fix's patch, an amend or a rebase
 * commits as the human. The walk stops at a commit the state knows (a recorded push, a head it
 * reviewed) or at `baseSha`, the PR's base.
 */
export function unrecordedPushes(
  state: LoopState,
  commits: readonly BranchCommit[],
  bot: { committer: string; baseSha: string }
): BotPush[] {
  const known = new Set<string>([bot.baseSha])
  for (const it of state.iterations) {
    known.add(it.reviewedSha)
    if (it.fix?.outcome === 'pushed' && it.fix.commitSha) known.add(it.fix.commitSha)
  }
  const found: BotPush[] = []
  for (const commit of commits) {
    if (known.has(commit.sha)) break
    const t = readTrailers(commit.message)
    if (t?.pr !== state.pr || t.head || commit.committer !== bot.committer) continue
    // the iteration a push stands for needs the head it fixed, unless the state has it already
    const kept = state.iterations.some(i => i.n === t.n) || commit.parent !== undefined
    if (kept && lost(state, t)) found.push({ ...t, sha: commit.sha, parent: commit.parent })
  }
  return found.reverse()
}

/** The iteration a push no state recorded stands for: counted, with what the branch shows. */
function pushedIteration(state: LoopState, push: BotPush, at: string): IterationRecord {
  const [runId = '', attempt = '1'] = push.run.split(':')
  return {
    n: push.n,
    round: state.round,
    // unrecordedPushes keeps a push without a parent only for an iteration the state has
    reviewedSha: push.parent!,
    baseSha: '',
    runId,
    runAttempt: Number(attempt),
    decision: 'NO_GO',
    summary: `Run ${runId} pushed ${push.sha.slice(0, 7)} for this iteration but no saved state recorded it (two runs at once); it was found on the branch by its commit trailers.`,
    findings: [],
    resolved: [],
    gates: [],
    usage: zeroUsage(),
    startedAt: at,
    durationMs: 0
  }
}

/**
 * `state` with `pushes` recorded as pushed fixes: an iteration of the same number takes the push
 * (whatever another run wrote there: a push refused, the branch moved), a missing one is added, so
 * each counts against the cap. The loop goes on from the last push, as after any pushed fix.
 */
export function recordPushes(state: LoopState, pushes: readonly BotPush[], at: string): LoopState {
  if (pushes.length === 0) return state
  let iterations = [...state.iterations]
  for (const push of pushes) {
    const index = iterations.findIndex(it => it.n === push.n)
    const it = index >= 0 ? iterations[index]! : pushedIteration(state, push, at)
    const fix = {
      filesChanged: [],
      commands: [],
      disputes: [],
      revertedProtected: [],
      durationMs: 0,
      ...it.fix,
      outcome: 'pushed' as const,
      commitSha: push.sha
    }
    delete fix.patch
    iterations =
      index >= 0
        ? iterations.map((other, i) => (i === index ? { ...it, fix } : other))
        : [...iterations, { ...it, fix }]
  }
  iterations.sort((a, b) => a.n - b.n)
  const last = pushes[pushes.length - 1]!
  const { reason: _reason, ...rest } = state
  // the loop goes on from a push that ended it as `error` (push_failed); any other status (a human's
  // stop or approval, a limit) stands
  const revived = revives(state) && iterations.at(-1)?.fix?.commitSha === last.sha
  return {
    ...(revived ? { ...rest, status: 'running' as const } : state),
    iterations,
    lastPushedSha: last.sha
  }
}

/** Whether the status came from the last fix's push (refused, the branch moved), not a person. */
function revives(state: LoopState): boolean {
  const outcome = state.iterations.at(-1)?.fix?.outcome
  if (state.status === 'running') return true
  return state.status === 'error' && outcome === 'push_failed'
}
