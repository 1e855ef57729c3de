/**
 * The router: one event in, one intent out. Every run starts here; the intents that follow (a
 * command, human review feedback, a check-run button) are added beside `review`.
 */

/**
 * pull_request actions that start an iteration; `closed` only ends a running loop's comment as
 * closed or merged (the plan skips a closed PR).
 */
export const PR_ACTIONS = [
  'opened',
  'synchronize',
  'reopened',
  'ready_for_review',
  'closed'
] as const

export type Intent =
  /** Review the head of this PR (and fix, and so on, as the rules say). */
  | { kind: 'review'; pr: number }
  /** Nothing to do for this event: say why. */
  | { kind: 'skip'; notice: string }

export interface RunEvent {
  eventName: string
  /** `action` of the event payload, when it has one. */
  action?: string
  /** The PR named by the event payload. */
  eventPrNumber?: number
  /** The PR named by the `pr-number` input. */
  inputPrNumber?: number
}

function onPullRequest(event: RunEvent): Intent {
  if (!(PR_ACTIONS as readonly string[]).includes(event.action ?? '')) {
    return {
      kind: 'skip',
      notice: `review-loop runs on pull_request ${PR_ACTIONS.join('/')}; '${event.action ?? 'unknown'}' needs no review.`
    }
  }
  const pr = event.eventPrNumber ?? event.inputPrNumber
  if (!pr) return { kind: 'skip', notice: 'The pull_request event names no pull request.' }
  return { kind: 'review', pr }
}

function onDispatch(event: RunEvent): Intent {
  const pr = event.inputPrNumber ?? event.eventPrNumber
  if (pr) return { kind: 'review', pr }
  return {
    kind: 'skip',
    notice:
      "workflow_dispatch without a pull request: give the workflow a 'pr-number' input and pass it to the action (pr-number: ${{ inputs.pr-number }})."
  }
}

const ROUTES: Record<string, (event: RunEvent) => Intent> = {
  pull_request: onPullRequest,
  pull_request_target: onPullRequest,
  workflow_dispatch: onDispatch
}

/** The events the action acts on; the start-up prefetch reads the PR for these alone. */
export const ROUTED_EVENTS = Object.keys(ROUTES)

export function routeEvent(event: RunEvent): Intent {
  const route = Object.hasOwn(ROUTES, event.eventName) ? ROUTES[event.eventName] : undefined
  if (route) return route(event)
  return {
    kind: 'skip',
    notice: `review-loop does nothing on '${event.eventName || 'unknown'}' events; trigger it on pull_request or workflow_dispatch.`
  }
}
