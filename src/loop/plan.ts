import type { PullInfo } from '../github/port.js'
import { isTerminal, newState, roundIterations, type LoopState } from './state.js'

/** pull_request actions that start an iteration. */
export const PR_ACTIONS = ['opened', 'synchronize', 'reopened', 'ready_for_review'] as const

export type EventPlan = { kind: 'run'; pr: number } | { kind: 'skip'; notice: string }

/** Decides from the event alone whether this run is for us, and which PR it is about. */
export function planEvent(event: {
  eventName: string
  action?: string
  eventPrNumber?: number
  inputPrNumber?: number
}): EventPlan {
  const { eventName, action } = event
  if (eventName === 'pull_request' || eventName === 'pull_request_target') {
    if (!(PR_ACTIONS as readonly string[]).includes(action ?? '')) {
      return {
        kind: 'skip',
        notice: `review-loop runs on pull_request ${PR_ACTIONS.join('/')}; '${action ?? 'unknown'}' needs no review.`
      }
    }
    const pr = event.eventPrNumber ?? event.inputPrNumber
    if (!pr) return { kind: 'skip', notice: 'The pull_request event names no pull request.' }
    return { kind: 'run', pr }
  }
  if (eventName === 'workflow_dispatch') {
    const pr = event.inputPrNumber ?? event.eventPrNumber
    if (!pr) {
      return {
        kind: 'skip',
        notice:
          "workflow_dispatch without a pull request: give the workflow a 'pr-number' input and pass it to the action (pr-number: ${{ inputs.pr-number }})."
      }
    }
    return { kind: 'run', pr }
  }
  return {
    kind: 'skip',
    notice: `review-loop does nothing on '${eventName || 'unknown'}' events; trigger it on pull_request or workflow_dispatch.`
  }
}

export type PullPlan =
  | { kind: 'skip'; notice: string }
  /** A human asked the loop to stop (the stop label): the state is marked stopped. */
  | { kind: 'stop'; notice: string; state?: LoopState }
  | { kind: 'review'; state: LoopState; iteration: number; newRound: boolean }

export interface PullPlanInput {
  pull: PullInfo
  state: LoopState | undefined
  maxIterations: number
  reviewDrafts: boolean
  allowForks: boolean
  runId: string
  runAttempt: number
  now: Date
  /** A PR label that stops the loop; empty for none. */
  stopLabel?: string
}

/** Decides, from the PR and the loop state, whether this run reviews the head and as which iteration. */
export function planPull(input: PullPlanInput): PullPlan {
  const { pull, maxIterations } = input
  if (pull.state === 'closed') {
    return {
      kind: 'skip',
      notice: `PR #${pull.number} is ${pull.merged ? 'merged' : 'closed'}: nothing to review.`
    }
  }
  if (pull.draft && !input.reviewDrafts) {
    return {
      kind: 'skip',
      notice: `PR #${pull.number} is a draft: it is reviewed when marked ready for review (or set review-drafts: true).`
    }
  }
  if (pull.headRepoFullName !== pull.baseRepoFullName && !input.allowForks) {
    return {
      kind: 'skip',
      notice: `PR #${pull.number} comes from the fork ${pull.headRepoFullName || '(deleted)'}: review-loop does not run or push fork code unless a maintainer sets allow-forks: true.`
    }
  }
  if (input.stopLabel && pull.labels.includes(input.stopLabel)) {
    const notice = `PR #${pull.number} has the label '${input.stopLabel}': the loop is stopped. Remove the label and push (or re-run) to go on.`
    const current = input.state
    return {
      kind: 'stop',
      notice,
      state:
        current && current.status !== 'stopped'
          ? {
              ...current,
              status: 'stopped',
              reason: `Stopped by a human (label '${input.stopLabel}').`,
              updatedAt: input.now.toISOString()
            }
          : undefined
    }
  }
  let state = input.state ?? newState(pull.number, maxIterations, input.now)
  const reviewed = state.iterations.findLast(
    i => i.reviewedSha === pull.headSha && i.round === state.round
  )
  const last = state.iterations[state.iterations.length - 1]
  const beforeLast = state.iterations[state.iterations.length - 2]
  // the one re-review of a head: after the fixer disputed findings without changing code
  const weighDisputes =
    reviewed !== undefined &&
    reviewed === last &&
    reviewed.runId !== input.runId &&
    state.status === 'running' &&
    reviewed.fix?.outcome === 'no_changes' &&
    reviewed.fix.disputes.length > 0 &&
    beforeLast?.reviewedSha !== pull.headSha
  if (reviewed && !weighDisputes) {
    const by =
      reviewed.runId === input.runId
        ? `this run (attempt ${reviewed.runAttempt}); re-running it changes nothing`
        : `run ${reviewed.runId}`
    return {
      kind: 'skip',
      notice: `Head ${pull.headSha.slice(0, 7)} was already reviewed in iteration ${reviewed.n} by ${by}. Status: ${state.status}.`
    }
  }
  let newRound = false
  if (isTerminal(state.status)) {
    // A human commit after the loop ended starts a new round with a fresh cap.
    state = { ...state, status: 'running', round: state.round + 1, reason: undefined }
    newRound = true
  }
  state = { ...state, maxIterations }
  const done = roundIterations(state).length
  if (done >= maxIterations) {
    return {
      kind: 'skip',
      notice: `The loop already used ${done} of ${maxIterations} iterations; raise max-iterations to continue.`
    }
  }
  return { kind: 'review', state, iteration: done + 1, newRound }
}
