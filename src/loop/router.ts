/**
 * The router: one event in, one intent out. Every run starts here: a PR event or a dispatch asks
 * for a review; a comment, a review or a check-run button is a human speaking to the loop.
 */
import { buttonCommand, parseCommand, type Command } from './commands.js'
import { ROUTED_EVENTS, type RoutedEvent } from './routed-events.js'

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

/** Who spoke to the loop, as the event names them. */
export interface Requester {
  login: string
  type: string
}

export type Intent =
  /** Review the head of this PR (and fix, and so on, as the rules say). */
  | { kind: 'review'; pr: number }
  /**
   * A human's command. `key` marks it processed in the state (`c<comment id>`, `r<review id>`,
   * `b<run id>`); `commentId` is the conversation comment to react to and answer under.
   */
  | {
      kind: 'command'
      pr: number
      command: Command
      from: Requester
      via: 'comment' | 'review' | 'button'
      key: string
      commentId?: number
      /** For a button: the name of the check run it is on (the loop acts on its own only). */
      checkName?: string
    }
  /** A human review or review comment: the feedback not yet seen becomes findings to fix. */
  | { kind: 'feedback'; pr: number; from: Requester }
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
  /** The event payload, for the events a human starts. */
  payload?: Record<string, unknown>
  /** The workflow run's id: a button's click is processed once per run. */
  runId?: string
}

type Json = Record<string, unknown>
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null ? (v as Json) : {})
const num = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined
const str = (v: unknown): string => (typeof v === 'string' ? v : '')

function requester(user: unknown): Requester {
  const u = obj(user)
  return { login: str(u['login']), type: str(u['type']) || 'User' }
}

const skip = (notice: string): Intent => ({ kind: 'skip', notice })
const botNotice = (who: Requester) =>
  skip(
    `${who.login || 'The sender'} is a bot: review-loop takes commands and reviews from people only.`
  )

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

/** A comment on the PR's conversation: a command, or nothing. Edited comments never count again. */
function onIssueComment(event: RunEvent): Intent {
  const p = obj(event.payload)
  const issue = obj(p['issue'])
  const comment = obj(p['comment'])
  if (event.action !== 'created')
    return skip(
      `A ${event.action ?? 'changed'} comment does not trigger review-loop again; post a new one.`
    )
  const pr = num(issue['number'])
  if (!pr || !issue['pull_request']) return skip('The comment is on an issue, not a pull request.')
  const command = parseCommand(str(comment['body']))
  const id = num(comment['id'])
  if (!command || !id) return skip('The comment holds no /review-loop command.')
  const from = requester(comment['user'])
  if (from.type === 'Bot') return botNotice(from)
  return { kind: 'command', pr, command, from, via: 'comment', key: `c${id}`, commentId: id }
}

/** A submitted review: a command in its body, or feedback to fix. */
function onReview(event: RunEvent): Intent {
  const p = obj(event.payload)
  const review = obj(p['review'])
  const pr = num(obj(p['pull_request'])['number'])
  if (event.action !== 'submitted' || !pr)
    return skip(`review-loop acts on submitted reviews; '${event.action ?? 'unknown'}' is not one.`)
  const from = requester(review['user'])
  if (from.type === 'Bot') return botNotice(from)
  const command = parseCommand(str(review['body']))
  const id = num(review['id'])
  if (command && id) return { kind: 'command', pr, command, from, via: 'review', key: `r${id}` }
  if (str(review['state']).toLowerCase() === 'approved')
    return skip('An approving review asks for no change.')
  return { kind: 'feedback', pr, from }
}

/** A new inline review comment: feedback to fix (replies in a thread included). */
function onReviewComment(event: RunEvent): Intent {
  const p = obj(event.payload)
  const pr = num(obj(p['pull_request'])['number'])
  if (event.action !== 'created' || !pr)
    return skip(
      `review-loop acts on new review comments; '${event.action ?? 'unknown'}' is not one.`
    )
  const from = requester(obj(p['comment'])['user'])
  if (from.type === 'Bot') return botNotice(from)
  return { kind: 'feedback', pr, from }
}

/** A click on one of the check run's buttons (`requested_action`). */
function onCheckRun(event: RunEvent): Intent {
  const p = obj(event.payload)
  if (event.action !== 'requested_action')
    return skip(
      `review-loop acts on check_run requested_action; '${event.action ?? 'unknown'}' is not one.`
    )
  const run = obj(p['check_run'])
  const pulls = Array.isArray(run['pull_requests']) ? run['pull_requests'] : []
  // the loop's external id starts with its PR's number (a fork's PR is not in pull_requests, and
  // a head shared by two PRs lists both)
  const pr =
    num(Number(/^(\d+):/.exec(str(run['external_id']))?.[1])) ?? num(obj(pulls[0])['number'])
  const from = requester(p['sender'])
  const command = buttonCommand(str(obj(p['requested_action'])['identifier']), from.login)
  if (!pr || !command)
    return skip('The check run button names no pull request or no action review-loop knows.')
  if (from.type === 'Bot') return botNotice(from)
  const key = `b${event.runId ?? '0'}`
  return { kind: 'command', pr, command, from, via: 'button', key, checkName: str(run['name']) }
}

const ROUTES: Record<RoutedEvent, (event: RunEvent) => Intent> = {
  pull_request: onPullRequest,
  pull_request_target: onPullRequest,
  workflow_dispatch: onDispatch,
  issue_comment: onIssueComment,
  pull_request_review: onReview,
  pull_request_review_comment: onReviewComment,
  check_run: onCheckRun
}

export function routeEvent(event: RunEvent): Intent {
  const route = Object.hasOwn(ROUTES, event.eventName)
    ? ROUTES[event.eventName as RoutedEvent]
    : undefined
  if (route) return route(event)
  return {
    kind: 'skip',
    notice: `review-loop does nothing on '${event.eventName || 'unknown'}' events; trigger it on ${ROUTED_EVENTS.join(', ')}.`
  }
}
