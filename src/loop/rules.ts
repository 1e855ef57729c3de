/**
 * Every rule of the loop, as pure functions: whether a head is reviewed, the verdict, whether the
 * loop can fix, the dispute rule, stall, cap, budget, who needs a human, the check run's conclusion
 * and when the step fails. The state moves only through `transition` (./transitions.ts).
 */
import { atOrAbove } from './findings.js'
import { moveTo, stamped, updateLast } from './record.js'
import {
  dismissedIds,
  isTerminal,
  lastIteration,
  newState,
  roundIterations,
  roundReviews
} from './state.js'
import { needsHuman, transition, type LoopEvent } from './transitions.js'
import { stopReason, type CannotFix, type StopCause, type Surface } from './reasons.js'
import type {
  Decision,
  Finding,
  FixOutcome,
  IterationRecord,
  LoopState,
  LoopStatus,
  PullRequest,
  Severity,
  TerminalStatus
} from './types.js'
import { LOOP_STATUSES } from './types.js'

export { needsHuman }

// ── The verdict ────────────────────────────────────────────────────────────────────────────────

export interface ReviewOutcome {
  /** The AI reviewer's own decision; undefined in gates-only mode. */
  reviewerDecision?: Decision
  findings: Finding[]
  gatesPassed: boolean
  /** Changed files the reviewer should have seen and did not (a batch failed, budget, time). */
  unreviewed?: number
}

/**
 * GO requires: the reviewer says GO (or there is none), no finding at/above the threshold, every gate
 * passes, and every changed file that is not ignored was reviewed. Code nobody reviewed is never GO:
 * NO_GO when something blocks anyway, else NEEDS_DISCUSSION.
 */
export function decide(outcome: ReviewOutcome, threshold: Severity): Decision {
  if (outcome.reviewerDecision === 'NEEDS_DISCUSSION') return 'NEEDS_DISCUSSION'
  const blocking = outcome.findings.some(f => atOrAbove(f.severity, threshold))
  if ((outcome.unreviewed ?? 0) > 0)
    return blocking || !outcome.gatesPassed ? 'NO_GO' : 'NEEDS_DISCUSSION'
  if (outcome.reviewerDecision === 'NO_GO' || blocking || !outcome.gatesPassed) return 'NO_GO'
  return 'GO'
}

export function blockingIds(
  findings: ReadonlyArray<{ id: string; severity: Severity }>,
  threshold: Severity
): string[] {
  return findings.filter(f => atOrAbove(f.severity, threshold)).map(f => f.id)
}

// ── Whether this run reviews the head ──────────────────────────────────────────────────────────

export type PullPlan =
  | {
      kind: 'skip'
      notice: string
      /** The head was dealt with already (a re-run): the step ends as that run did. */
      repeats?: boolean
    }
  /** A human asked the loop to stop (the stop label): the state is marked stopped. */
  | { kind: 'stop'; notice: string; state?: LoopState }
  /**
   * The PR's state cannot be trusted (unreadable, edited, foreign, newer): the loop halts as
   * needs_discussion rather than start afresh with a fresh cap and budget. The state is the report's
   * only; it is never saved.
   */
  | { kind: 'halt'; notice: string; state: LoopState }
  | { kind: 'review'; state: LoopState; iteration: number; newRound: boolean }

export interface PullPlanInput {
  pull: PullRequest
  state: LoopState | undefined
  maxIterations: number
  reviewDrafts: boolean
  allowForks: boolean
  runId: string
  runAttempt: number
  now: Date
  /** A PR label that stops the loop; empty for none. */
  stopLabel?: string
  /** Why the state found on the PR cannot be trusted, when it cannot. */
  untrusted?: string
  /** The event that started the run (GITHUB_EVENT_NAME). */
  eventName?: string
  /** A human's request that replaces what the head alone would mean (retry, continue, fix). */
  human?: HumanEvent
  /** With `human_continue`: the new round's cap. */
  roundCap?: number
}

/** The loop events a human's request brings that plan an iteration. */
export type HumanEvent = Extract<
  LoopEvent,
  'human_retry' | 'human_continue' | 'human_fix' | 'human_feedback'
>

/**
 * Events whose runs hold the base repository's write token and secrets even for a fork's PR: fork
 * code never runs in them. (pull_request, pull_request_review and pull_request_review_comment runs
 * of a fork's PR get a read-only token and no secrets.)
 */
export const PRIVILEGED_EVENTS: readonly string[] = [
  'pull_request_target',
  'issue_comment',
  'check_run',
  'workflow_dispatch'
]

export function isFork(pull: PullRequest): boolean {
  return pull.headRepoFullName !== pull.baseRepoFullName
}

/** PRs the loop leaves alone whatever its state: closed, drafts, forks not allowed. */
function refusal(input: PullPlanInput): string | undefined {
  const { pull } = input
  if (pull.state === 'closed')
    return `PR #${pull.number} is ${pull.merged ? 'merged' : 'closed'}: nothing to review.`
  if (pull.draft && !input.reviewDrafts)
    return `PR #${pull.number} is a draft: it is reviewed when marked ready for review (or set review-drafts: true).`
  if (isFork(pull) && PRIVILEGED_EVENTS.includes(input.eventName ?? ''))
    return `PR #${pull.number} comes from the fork ${pull.headRepoFullName || '(deleted)'} and this run is ${input.eventName}, which holds a write token and the repository's secrets: review-loop never runs fork code there, whatever allow-forks says. Review forks from a pull_request workflow.`
  if (isFork(pull) && !input.allowForks)
    return `PR #${pull.number} comes from the fork ${pull.headRepoFullName || '(deleted)'}: review-loop does not run or push fork code unless a maintainer sets allow-forks: true.`
  return undefined
}

function stopByLabel(input: PullPlanInput, label: string): PullPlan {
  const notice = `PR #${input.pull.number} has the label '${label}': the loop is stopped. Remove the label and push (or re-run) to go on.`
  const current = input.state
  const next = current && transition(current.status, 'stop_label')
  if (!current || !next || next.then === 'skip') return { kind: 'stop', notice }
  const stopped = moveTo(current, next.to, `Stopped by a human (label '${label}').`)
  return { kind: 'stop', notice, state: stamped(stopped, input.now) }
}

/** A PR closed or merged while its loop ran: the state says so once, instead of running for ever. */
function closedWhileRunning(input: PullPlanInput, notice: string): PullPlan {
  const { pull, state } = input
  if (!state || pull.state !== 'closed' || input.untrusted) return { kind: 'skip', notice }
  const next = transition(state.status, pull.merged ? 'pr_merged' : 'pr_closed')
  if (next.then === 'skip') return { kind: 'skip', notice }
  const what = pull.merged ? 'merged' : 'closed'
  const ended = moveTo(state, next.to, `The PR was ${what} while the loop ran.`)
  return {
    kind: 'stop',
    notice: `${notice} The loop ends as ${what}.`,
    state: stamped(ended, input.now)
  }
}

/** An untrusted state never resets the cap or the budget: the loop halts and a human decides. */
function halt(input: PullPlanInput, why: string): PullPlan {
  const reason = `${why} The loop does not start afresh (that would reset the iteration cap and the budget); delete the state comment to reset it deliberately.`
  const fresh = newState(input.pull.number, input.maxIterations, input.now)
  const state = stamped(moveTo(fresh, 'needs_discussion', reason.slice(0, 4000)), input.now)
  return { kind: 'halt', notice: reason, state }
}

/** The iteration of this round that reviewed `headSha`, if one did. */
function reviewedIn(state: LoopState, headSha: string): IterationRecord | undefined {
  return state.iterations.findLast(i => i.reviewedSha === headSha && i.round === state.round)
}

/**
 * The head is one this round reviewed, but not where the round left the branch: the last
 * iteration's pushed fix, or else the head it reviewed. A human reset the branch to an older commit
 * (dropping the loop's fix, or a later commit of theirs).
 */
function movedBack(state: LoopState, headSha: string): boolean {
  const last = state.iterations[state.iterations.length - 1]
  if (!last || last.round !== state.round) return false
  const left = last.fix?.outcome === 'pushed' ? last.fix.commitSha : last.reviewedSha
  return left !== undefined && left !== headSha
}

/**
 * The pulls API shows a head this round reviewed while the round's last fix pushed another commit:
 * a human moved the branch back, or GitHub's API still lags behind the loop's own push. The caller
 * asks the branch's real head (`git ls-remote`) before taking it as a move back. Never a fork's PR
 * (the loop pushes nothing there, and its branch is not on origin).
 */
export function behindLoopPush(state: LoopState | undefined, pull: PullRequest): boolean {
  const last = state?.iterations.at(-1)
  if (!state || !last || last.round !== state.round || isFork(pull)) return false
  const fix = last.fix
  const pushed = fix?.outcome === 'pushed' || fix?.outcome === 'pushing' ? fix.commitSha : undefined
  return pushed !== undefined && pushed !== pull.headSha && !!reviewedIn(state, pull.headSha)
}

/**
 * What the head is to this state: new, reviewed already, or reviewed with disputes to weigh (the
 * one re-review of a head after the fixer disputed findings without changing code).
 */
function headEvent(
  state: LoopState,
  headSha: string,
  run: { runId: string; runAttempt: number }
): LoopEvent {
  // a head a human approved as is was dealt with, as a reviewed one is
  if (state.status === 'go' && state.override?.sha === headSha) return 'head_reviewed'
  const reviewed = reviewedIn(state, headSha)
  // a head reviewed before that the branch has left since (its fix pushed on top, or a later
  // review): a human moved the branch back to it, which is a new head for the loop
  if (!reviewed || movedBack(state, headSha)) return 'new_head'
  const last = state.iterations[state.iterations.length - 1]
  if (reviewed === last && state.status === 'running' && last.fix?.outcome === 'interrupted')
    return 'fix_interrupted'
  const beforeLast = state.iterations[state.iterations.length - 2]
  const weigh =
    reviewed === last &&
    // another run, or a re-run of this one (its dispatch failed): not the run that disputed
    (reviewed.runId !== run.runId || reviewed.runAttempt !== run.runAttempt) &&
    state.status === 'running' &&
    reviewed.fix?.outcome === 'no_changes' &&
    reviewed.fix.disputes.length > 0 &&
    beforeLast?.reviewedSha !== headSha
  return weigh ? 'disputes_to_weigh' : 'head_reviewed'
}

function alreadyReviewed(state: LoopState, input: PullPlanInput): string {
  const { headSha } = input.pull
  const reviewed = reviewedIn(state, headSha)
  const by =
    reviewed?.runId === input.runId
      ? `this run (attempt ${reviewed.runAttempt}); re-running it changes nothing`
      : `run ${reviewed?.runId ?? '?'}`
  return `Head ${headSha.slice(0, 7)} was already reviewed in iteration ${reviewed?.n ?? '?'} by ${by}. Status: ${state.status}.`
}

/**
 * A fix written ahead as `pushing` by a run that did not live to confirm it: pushed when its commit
 * is the branch's head (the push landed), else interrupted (the commit is in the patch artifact).
 * Either way the iteration stays counted, so a kill never gives the loop an extra iteration.
 */
export function settlePush(state: LoopState, pull: Pick<PullRequest, 'headSha'>): LoopState {
  const last = state.iterations[state.iterations.length - 1]
  const fix = last?.fix
  if (!last || fix?.outcome !== 'pushing') return state
  if (fix.commitSha === pull.headSha) {
    const pushed = updateLast(state, it => ({ ...it, fix: { ...fix, outcome: 'pushed' } }))
    return { ...pushed, lastPushedSha: fix.commitSha }
  }
  const reason = `The run of iteration ${last.n} ended before its push was confirmed and ${fix.commitSha?.slice(0, 7) ?? 'the commit'} is not the branch's head; the fix is kept as ${fix.patch ?? 'a patch'} in that iteration's artifact.`
  return {
    ...updateLast(state, it => ({ ...it, fix: { ...fix, outcome: 'interrupted' } })),
    reason
  }
}

/** The cap of the state's current round: one a human gave it, or max-iterations. */
export function roundCapOf(state: LoopState, maxIterations: number): number {
  return state.roundCap?.round === state.round ? state.roundCap.max : maxIterations
}

/**
 * A new head in a running round that used its whole cap (a human's fix at the cap, a lowered
 * max-iterations): the loop ends as max_iterations with the reason, never running with no run to come.
 * Not for a fork's PR (see planPull).
 */
function roundUsedUp(input: PullPlanInput, state: LoopState, used: string): PullPlan {
  const notice = `The loop already used ${used} iterations; raise max-iterations, or comment /review-loop continue, to go on.`
  const next = transition(state.status, 'round_used_up')
  if (next.then === 'skip') return { kind: 'skip', repeats: !input.human, notice }
  return { kind: 'stop', notice, state: stamped(moveTo(state, next.to, notice), input.now) }
}

/** Decides, from the PR and the loop state, whether this run reviews the head and as which iteration. */
export function planPull(input: PullPlanInput): PullPlan {
  const { pull, maxIterations } = input
  const refused = refusal(input)
  if (refused) return closedWhileRunning(input, refused)
  if (input.stopLabel && pull.labels.includes(input.stopLabel))
    return stopByLabel(input, input.stopLabel)
  if (input.untrusted) return halt(input, input.untrusted)
  let state = settlePush(input.state ?? newState(pull.number, maxIterations, input.now), pull)
  const next = transition(state.status, input.human ?? headEvent(state, pull.headSha, input))
  if (next.then === 'skip')
    return { kind: 'skip', notice: alreadyReviewed(state, input), repeats: true }
  // A human commit or request after the loop ended starts a new round with a fresh cap.
  if (next.newRound) {
    const { override: _approval, ...rest } = state
    state = { ...rest, round: state.round + 1, reason: undefined }
    // a human's retry or fix after the end is one review; only `continue` grants a round
    const cap = input.roundCap ?? (input.human && input.human !== 'human_continue' ? 1 : undefined)
    if (cap) state.roundCap = { round: state.round, max: cap }
  }
  const cap = roundCapOf(state, maxIterations)
  state = { ...state, status: next.to, maxIterations: cap }
  const done = roundReviews(state)
  // A fork's PR is reviewed only, paced by its author's pushes: the cap does not end it (every push
  // is reviewed; the budget still applies). Nothing loops: it never fixes and never retriggers.
  if (done >= cap && !isFork(pull)) return roundUsedUp(input, state, `${done} of ${cap}`)
  return { kind: 'review', state, iteration: done + 1, newRound: next.newRound === true }
}

// ── After the review ───────────────────────────────────────────────────────────────────────────

/**
 * What keeps the loop from fixing this PR, if anything: a fork's branch cannot be pushed to (the
 * loop only reviews it), or nothing fixes (no fix commands, no AI fixer).
 */
export function fixBlocker(input: {
  pull: PullRequest
  fixCommands: number
  aiFixer: boolean
  surface?: Surface
}): CannotFix | undefined {
  const { pull } = input
  if (isFork(pull)) return { kind: 'fork', pr: pull.number, fork: pull.headRepoFullName }
  if (input.fixCommands > 0 || input.aiFixer) return undefined
  return { kind: 'no_fixer', surface: input.surface ?? 'action' }
}

/** The loop can fix when something fixes (fix commands or the AI fixer) and the PR is not a fork. */
export function canFix(input: {
  pull: PullRequest
  fixCommands: number
  aiFixer: boolean
}): boolean {
  return !fixBlocker(input)
}

export interface Spending {
  spentUsd: number
  maxUsd?: number
  /** The budget allowed no review call. */
  exhausted?: boolean
  /** What the review would have cost, when it was estimated before any call. */
  estimate?: number
}

export type NextStep =
  | { kind: 'finish'; status: TerminalStatus; reason: string }
  | { kind: 'fix' }
  /** Nothing more this run, and the loop goes on: a fork's author pushes the next head. */
  | { kind: 'wait'; reason: string }

/**
 * A blocking finding raised again after a fix attempt: its second sighting, with a pushed fix in
 * between (or back after it was settled). One failed attempt is enough to call a human, and under
 * the default cap of 3 it is reported as what it is rather than as the cap. A dismissal by the PR's
 * `author` does not settle it (as it does not count towards GO).
 */
export function repeatedBlocker(
  state: LoopState,
  threshold: Severity,
  author?: string
): string | undefined {
  const last = roundIterations(state).at(-1)
  const dismissed = dismissedIds(state, author)
  return last?.findings.find(
    f => f.reraised && atOrAbove(f.severity, threshold) && !dismissed.has(f.id)
  )?.id
}

/**
 * The tree of this review was reviewed before in this round under another commit: the fixes go round
 * in circles (A → B → A). The same commit reviewed again (a dispute re-review) is not a circle.
 */
export function oscillation(state: LoopState): IterationRecord | undefined {
  const round = roundIterations(state)
  const last = round.at(-1)
  if (!last?.tree) return undefined
  return round.slice(0, -1).find(it => it.tree === last.tree && it.reviewedSha !== last.reviewedSha)
}

/**
 * What the review means for the loop, with its cause (`stopReason` puts it in words). The order is
 * the rule: GO, then the budget, a human's call, a fork's PR (reviewed only: nothing is fixed, so
 * the cap and stalls do not apply; planPull does not apply the cap to it either), the cap (which wins over a stall at the last iteration, because
 * that is where the loop ends anyway), a blocker raised again after a fix, the same code reviewed
 * again (oscillation), the budget again, and whether anything can fix.
 */
export function reviewEvent(
  state: LoopState,
  decision: Decision,
  threshold: Severity,
  fixable: boolean | CannotFix,
  budget?: Spending,
  /** The PR's author: their own dismissals do not settle a blocker. */
  author?: string
): { event: LoopEvent; cause?: StopCause } {
  const n = roundReviews(state)
  if (decision === 'GO') return { event: 'review_go', cause: { kind: 'review_go' } }
  if (budget?.exhausted) {
    const { spentUsd, maxUsd, estimate } = budget
    return {
      event: 'review_unaffordable',
      cause: { kind: 'unaffordable', spentUsd, maxUsd, estimate }
    }
  }
  if (decision === 'NEEDS_DISCUSSION') {
    // a review that could not see every file needs a human for that, not for a reviewer's question
    const c = lastIteration(state)?.coverage
    const files = (c?.unreviewed?.length ?? 0) + (c?.unreviewedOmitted ?? 0)
    const held = (lastIteration(state)?.findings ?? []).filter(f => f.held).map(f => f.id)
    const cause: StopCause = files
      ? { kind: 'unreviewed', files }
      : held.length
        ? { kind: 'disagreement', ids: held }
        : { kind: 'reviewer_asks' }
    return { event: 'review_needs_discussion', cause }
  }
  const blocker: CannotFix | undefined =
    fixable === true
      ? undefined
      : fixable === false
        ? { kind: 'no_fixer', surface: 'action' }
        : fixable
  if (blocker?.kind === 'fork') return { event: 'no_go_review_only', cause: blocker }
  if (n >= state.maxIterations)
    return { event: 'no_go_at_cap', cause: { kind: 'cap', n, max: state.maxIterations } }
  const repeated = repeatedBlocker(state, threshold, author)
  if (repeated)
    return { event: 'no_go_repeated_blocker', cause: { kind: 'repeated_blocker', id: repeated } }
  const circle = oscillation(state)
  if (circle)
    return {
      event: 'no_go_oscillating',
      cause: { kind: 'oscillating', n, earlier: circle.n, earlierSha: circle.reviewedSha }
    }
  if (budget?.maxUsd !== undefined && budget.spentUsd >= budget.maxUsd)
    return {
      event: 'no_go_budget_spent',
      cause: { kind: 'budget_spent', spentUsd: budget.spentUsd, maxUsd: budget.maxUsd }
    }
  if (blocker) return { event: 'no_go_no_fixer', cause: blocker }
  return { event: 'no_go' }
}

/** After the review of the latest iteration (already appended to `state.iterations`): end the loop, or fix. */
export function nextAfterReview(
  state: LoopState,
  decision: Decision,
  threshold: Severity,
  fixable: boolean | CannotFix,
  budget?: Spending,
  author?: string
): NextStep {
  const { event, cause } = reviewEvent(state, decision, threshold, fixable, budget, author)
  const reason = cause ? stopReason(cause) : ''
  // a head is reviewed only while the loop runs (planPull makes it so)
  const next = transition('running', event)
  if (next.then === 'wait') return { kind: 'wait', reason }
  if (next.then === 'fix' || !isTerminal(next.to)) return { kind: 'fix' }
  return { kind: 'finish', status: next.to, reason }
}

/**
 * The PR's head branch is gone from origin while the PR stays open (`git ls-remote` finds no
 * refs/heads/BRANCH; GitHub keeps the head only as refs/pull/N/head): whatever the review said, the
 * loop pushes no fix and says no GO. It ends for a human, who restores the branch (a push or
 * `/review-loop retry` then reviews it in a new round) or closes the PR. `kept`: the fix's patch.
 * Never asked for a fork's PR, whose branch is never on origin.
 */
export function branchDeleted(
  pull: Pick<PullRequest, 'number' | 'headRef'>,
  kept?: string
): { status: TerminalStatus; reason: string } {
  const next = transition('running', 'branch_deleted')
  const cause: StopCause = { kind: 'branch_deleted', pr: pull.number, branch: pull.headRef, kept }
  if (!isTerminal(next.to)) throw new Error(`branch_deleted leads to ${next.to}, not an end`)
  return { status: next.to, reason: stopReason(cause) }
}

// ── After the fix ──────────────────────────────────────────────────────────────────────────────

export type DisputeRound = 'none' | 'first' | 'repeated'

/**
 * The findings the fixer disputes again after the reviewer rejected their dispute: disputed by an
 * earlier fix of this round (with or without changes: editing and disputing a finding is one
 * dispute), and the latest review (already appended) answered `dispute_rejected` or raised it again
 * without accepting the dispute.
 */
export function disputedAgain(state: LoopState, disputes: ReadonlyArray<{ id: string }>): string[] {
  const round = roundIterations(state)
  const last = round.at(-1)
  if (!last) return []
  const before = new Set(round.slice(0, -1).flatMap(it => it.fix?.disputes.map(d => d.id) ?? []))
  const answer = (id: string) => last.answers?.find(a => a.id === id)?.status
  const kept = (id: string) =>
    answer(id) === 'dispute_rejected' ||
    (answer(id) !== 'dispute_accepted' && last.findings.some(f => f.id === id))
  return [...new Set(disputes.map(d => d.id))].filter(id => before.has(id) && kept(id))
}

/**
 * Disputes send the finding back to the reviewer once: without code changes the head is reviewed
 * again; with changes (edit and dispute) the next head's review weighs them. Disputed again after
 * the reviewer kept the finding (`disputedAgain`), or again on a head reviewed twice in a row (its
 * re-review was had), a human decides.
 */
export function disputeRound(
  state: LoopState,
  headSha: string,
  disputes: ReadonlyArray<{ id: string }>
): DisputeRound {
  if (disputes.length === 0) return 'none'
  const reweighed = state.iterations[state.iterations.length - 2]?.reviewedSha === headSha
  return reweighed || disputedAgain(state, disputes).length > 0 ? 'repeated' : 'first'
}

const FIX_CAUSES: Partial<Record<LoopEvent, StopCause['kind']>> = {
  fix_disputed: 'fix_disputed',
  fix_disputed_again: 'fix_disputed_again',
  fix_no_changes: 'fix_no_changes',
  fix_budget_spent: 'fix_budget_spent',
  fix_branch_moved: 'fix_branch_moved',
  fix_push_failed: 'fix_push_failed'
}

/** What fixed (for the reason when nothing changed): an AI fixer or not, and where the loop runs. */
export interface Fixers {
  aiFixer: boolean
  surface?: Surface
}

export function fixEvent(
  outcome: FixOutcome,
  disputes: DisputeRound = 'none',
  budgetStopped = false
): LoopEvent {
  if (outcome === 'no_changes' && budgetStopped) return 'fix_budget_spent'
  switch (outcome) {
    case 'pushed':
      return 'fix_pushed'
    case 'no_changes':
      return disputes === 'first'
        ? 'fix_disputed'
        : disputes === 'repeated'
          ? 'fix_disputed_again'
          : 'fix_no_changes'
    case 'branch_moved':
      return 'fix_branch_moved'
    case 'push_failed':
      return 'fix_push_failed'
    case 'pushing':
      return 'fix_pushed'
    case 'interrupted':
      return 'fix_interrupted'
  }
}

/** After the fix: what the loop's status becomes, and whether to re-trigger. */
export function nextAfterFix(
  outcome: FixOutcome,
  disputes: DisputeRound = 'none',
  budgetStopped = false,
  fixers: Fixers = { aiFixer: true },
  /** With a repeated dispute: the findings disputed again, and whether the fix was withheld. */
  again?: { ids: readonly string[]; withheld: boolean }
): { status: LoopStatus; reason?: string; retrigger: boolean } {
  const event = fixEvent(outcome, disputes, budgetStopped)
  const next = transition('running', event)
  const kind = FIX_CAUSES[event]
  const cause: StopCause | undefined =
    kind === 'fix_no_changes'
      ? { kind, aiFixer: fixers.aiFixer, surface: fixers.surface ?? 'action' }
      : kind === 'fix_disputed_again'
        ? { kind, ...again }
        : kind && ({ kind } as StopCause)
  const reason = cause && stopReason(cause)
  return { status: next.to, ...(reason ? { reason } : {}), retrigger: next.then === 'retrigger' }
}

// ── How the run ends ───────────────────────────────────────────────────────────────────────────

/** The statuses `fail-on` may name: not GO, and not a PR that was closed or merged. */
export const FAILABLE: readonly TerminalStatus[] = LOOP_STATUSES.filter(
  (s): s is TerminalStatus => !['running', 'go', 'closed', 'merged'].includes(s)
)

/** A human's stop is deliberate: not a failure unless asked for. */
export const DEFAULT_FAIL_ON: readonly TerminalStatus[] = FAILABLE.filter(s => s !== 'stopped')

/**
 * success for GO; for other outcomes, failure when the loop ended in a state listed in `fail-on`
 * or the iteration is not GO while the loop goes on, else neutral. A review's GO on which the loop
 * did not end GO (its branch deleted: `branchDeleted`) is not a green check.
 */
export function checkConclusion(
  decision: Decision,
  status: LoopStatus,
  failOn: readonly TerminalStatus[]
): 'success' | 'failure' | 'neutral' {
  if (decision === 'GO' && (status === 'go' || !isTerminal(status))) return 'success'
  if (status === 'running') return 'failure'
  return failOn.includes(status) ? 'failure' : 'neutral'
}

/** The message to fail the step with, when the loop ended in a state listed in fail-on. */
export function stepFailure(
  state: Pick<LoopState, 'status' | 'reason'>,
  failOn: readonly TerminalStatus[]
): string | undefined {
  if (state.status === 'running' || state.status === 'go' || !failOn.includes(state.status))
    return undefined
  return `review-loop ended as ${state.status}: ${state.reason ?? ''}`.trim()
}
