import { LOOP_STATUSES, type LoopStatus, type TerminalStatus } from './types.js'

/**
 * The loop's transition table: state × event → next state and what the run does next. It is the
 * one place that says where the loop goes; `src/loop/README.md` shows it as a table
 * (`npm run docs` writes it there) and a test checks every cell against the code.
 */
export const LOOP_EVENTS = [
  /** A human put the stop label on the PR. */
  'stop_label',
  /** A head this round has not reviewed yet (a push, a dispatch, a human commit). */
  'new_head',
  /** The head was reviewed already (a re-run, a duplicate trigger). */
  'head_reviewed',
  /** The fixer disputed findings without changing code: the same head gets one re-review. */
  'disputes_to_weigh',
  /** The round used every iteration of its cap before this head came: the loop ends. */
  'round_used_up',
  /** The review said GO. */
  'review_go',
  /** The reviewer needs a human to decide. */
  'review_needs_discussion',
  /** The budget allowed no review call. */
  'review_unaffordable',
  /** NO_GO at the last iteration of the round. */
  'no_go_at_cap',
  /** NO_GO with a blocker raised again after a fix attempt (its second sighting). */
  'no_go_repeated_blocker',
  /** NO_GO on a tree the loop reviewed before: the fixes go round in circles. */
  'no_go_oscillating',
  /** NO_GO with the budget spent. */
  'no_go_budget_spent',
  /** NO_GO and nothing can fix: no fix commands and no AI fixer. */
  'no_go_no_fixer',
  /** NO_GO on a fork's PR: reviewed only (its branch cannot be pushed to); its author's push comes next. */
  'no_go_review_only',
  /** NO_GO: the fixers get their turn. */
  'no_go',
  /** The fix was pushed. */
  'fix_pushed',
  /** The fixer disputed findings and changed nothing, for the first time on this head. */
  'fix_disputed',
  /**
   * The fixer disputed again on a head that was re-reviewed for its disputes, or disputed again a
   * finding whose dispute the reviewer rejected (its changes of that turn are not pushed).
   */
  'fix_disputed_again',
  /** The fixers changed nothing. */
  'fix_no_changes',
  /** The budget stopped the AI fixer before it changed anything. */
  'fix_budget_spent',
  /** The branch moved during the run: the fix was kept as a patch, the new head comes next. */
  'fix_branch_moved',
  /** The push failed: the fix was kept as a patch. */
  'fix_push_failed',
  /**
   * The PR's head branch is gone from origin while the PR is open: no fix can be pushed, and the
   * loop says no GO, whatever the review said; a human restores the branch or closes the PR.
   */
  'branch_deleted',
  /**
   * The previous run died before its push was confirmed and the commit is not on the branch: the
   * head it reviewed is reviewed again, as the next counted iteration.
   */
  'fix_interrupted',
  /** The PR was closed while the loop ran. */
  'pr_closed',
  /** The PR was merged while the loop ran. */
  'pr_merged',
  /** A maintainer asked to review the head again now (`retry`, or the Retry button). */
  'human_retry',
  /** A maintainer gave the ended loop more iterations (`continue [N]`, or the Continue button). */
  'human_continue',
  /** A maintainer asked for one fix of the latest review (`fix [instructions]`). */
  'human_fix',
  /** A maintainer's review asked for changes: its comments are fixed next. */
  'human_feedback',
  /** A maintainer approved as is (`approve [reason]`, or the Approve anyway button). */
  'human_approve'
] as const
export type LoopEvent = (typeof LOOP_EVENTS)[number]

/**
 * What the run does after the transition: `review` the head, `fix` it, `retrigger` (save, then
 * start the next iteration), `wait` (save; the next push starts it), `escalate` (end and call a
 * human), `end` (end, no human needed), `skip` (nothing to do: a notice).
 */
export const ACTIONS = ['review', 'fix', 'retrigger', 'wait', 'escalate', 'end', 'skip'] as const
export type Action = (typeof ACTIONS)[number]

export interface Transition {
  to: LoopStatus
  then: Action
  /** A terminal state left for a new round with a fresh cap. */
  newRound?: boolean
}

/** Ending in these statuses calls a human: the label, the reviewers, the mention. */
const NEEDS_HUMAN: readonly TerminalStatus[] = [
  'max_iterations',
  'needs_discussion',
  'stalled',
  'budget_exhausted'
]

export function needsHuman(status: LoopStatus): boolean {
  return (NEEDS_HUMAN as readonly LoopStatus[]).includes(status)
}

const finish = (to: TerminalStatus): Transition => ({
  to,
  then: needsHuman(to) ? 'escalate' : 'end'
})

/** While the loop runs every event can come, but a `continue`: the loop has not stopped. */
const WHILE_RUNNING: Partial<Record<LoopEvent, Transition>> = {
  stop_label: finish('stopped'),
  new_head: { to: 'running', then: 'review' },
  head_reviewed: { to: 'running', then: 'skip' },
  disputes_to_weigh: { to: 'running', then: 'review' },
  round_used_up: finish('max_iterations'),
  review_go: finish('go'),
  review_needs_discussion: finish('needs_discussion'),
  review_unaffordable: finish('budget_exhausted'),
  no_go_at_cap: finish('max_iterations'),
  no_go_repeated_blocker: finish('stalled'),
  no_go_oscillating: finish('stalled'),
  no_go_budget_spent: finish('budget_exhausted'),
  no_go_no_fixer: finish('stalled'),
  no_go_review_only: { to: 'running', then: 'wait' },
  no_go: { to: 'running', then: 'fix' },
  fix_pushed: { to: 'running', then: 'retrigger' },
  fix_disputed: { to: 'running', then: 'retrigger' },
  fix_disputed_again: finish('needs_discussion'),
  fix_no_changes: finish('stalled'),
  fix_budget_spent: finish('budget_exhausted'),
  fix_branch_moved: { to: 'running', then: 'wait' },
  fix_push_failed: finish('error'),
  branch_deleted: finish('needs_discussion'),
  fix_interrupted: { to: 'running', then: 'review' },
  pr_closed: finish('closed'),
  pr_merged: finish('merged'),
  human_retry: { to: 'running', then: 'review' },
  human_fix: { to: 'running', then: 'fix' },
  human_feedback: { to: 'running', then: 'fix' },
  human_approve: finish('go')
}

/** The ends a maintainer may `continue` from: the loop stopped short of GO without an error. */
export const CONTINUABLE: readonly TerminalStatus[] = [
  'max_iterations',
  'stalled',
  'needs_discussion',
  'budget_exhausted',
  'stopped'
]

/** After the loop ended only a human acts: a new head starts a new round, the label stops it. */
function afterEnd(status: TerminalStatus): Partial<Record<LoopEvent, Transition>> {
  const gone = status === 'closed' || status === 'merged'
  const again = { to: 'running', newRound: true } as const
  return {
    stop_label: status === 'stopped' ? { to: 'stopped', then: 'skip' } : finish('stopped'),
    new_head: { ...again, then: 'review' },
    head_reviewed: { to: status, then: 'skip' },
    pr_closed: { to: status, then: 'skip' },
    pr_merged: { to: status, then: 'skip' },
    // a human answers the ended loop; a closed or merged PR has nothing left to answer
    ...(gone
      ? {}
      : {
          human_retry: { ...again, then: 'review' },
          human_fix: { ...again, then: 'fix' },
          human_feedback: { ...again, then: 'fix' },
          ...(status === 'go' ? {} : { human_approve: finish('go') }),
          ...(CONTINUABLE.includes(status) ? { human_continue: { ...again, then: 'review' } } : {})
        })
  }
}

/** Whether `event` can happen while the loop is `status` (a human's command may not fit). */
export function allowed(status: LoopStatus, event: LoopEvent): boolean {
  return TRANSITIONS[status][event] !== undefined
}

export const TRANSITIONS: Record<
  LoopStatus,
  Partial<Record<LoopEvent, Transition>>
> = Object.fromEntries(
  LOOP_STATUSES.map(s => [s, s === 'running' ? WHILE_RUNNING : afterEnd(s)])
) as Record<LoopStatus, Partial<Record<LoopEvent, Transition>>>

/** The next state; an event that cannot happen in `status` is a bug, not a user error. */
export function transition(status: LoopStatus, event: LoopEvent): Transition {
  const next = TRANSITIONS[status][event]
  if (!next)
    throw new Error(`review-loop bug: '${event}' cannot happen while the loop is ${status}`)
  return next
}
