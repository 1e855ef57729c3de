import type { RunRequest, Sandbox } from './harness.js'
import { webhookExamples } from './harness.js'

type Role = 'admin' | 'maintain' | 'write' | 'triage' | 'read'

/**
 * A human acts after run N of a scenario: a comment, a review (with inline comments), or a click on
 * a check-run button. GitHub then starts the runs the event triggers; see "Scenario files" in the
 * README.
 */
export interface HumanEvent {
  afterRun: number
  /**
   * The event comes while run N is still finishing (after it dispatched the next run): that run
   * is still waiting, so GitHub's concurrency group cancels it in favour of this event's run.
   */
  whileRunning?: boolean
  comment?: { author: string; permission?: Role; body: string; type?: 'User' | 'Bot' }
  review?: {
    author: string
    permission?: Role
    state: 'changes_requested' | 'commented' | 'approved'
    body?: string
    comments?: Array<{ path: string; line: number; body: string }>
  }
  button?: { author: string; permission?: Role; action: string }
}

/** An event that started no run, and why (GitHub's rules). */
export interface IgnoredEvent {
  afterRun: number
  what: string
  why: string
}

type Json = Record<string, unknown>

function example(event: string, action: string): Json {
  const found = webhookExamples(event).find(e => e['action'] === action)
  if (!found) throw new Error(`no ${event} ${action} example in @octokit/webhooks-examples`)
  return structuredClone(found)
}

function user(template: unknown, login: string, type = 'User'): Json {
  return { ...(template as Json), login, type }
}

/** The runs a conversation comment starts: one issue_comment (created) run. */
function commentRuns(
  sandbox: Sandbox,
  base: Partial<RunRequest>,
  c: NonNullable<HumanEvent['comment']>
): RunRequest[] {
  const emu = sandbox.emulator
  const made = emu.addIssueComment({
    issueNumber: sandbox.prNumber,
    body: c.body,
    author: c.author,
    authorType: c.type ?? 'User'
  })
  const ex = example('issue_comment', 'created')
  const issue = ex['issue'] as Json
  const prUrl = `${emu.url}/repos/${sandbox.owner}/${sandbox.repo}/pulls/${sandbox.prNumber}`
  return [
    {
      ...base,
      event: 'issue_comment',
      action: 'created',
      actor: c.author,
      payloadPatch: {
        issue: {
          ...issue,
          number: sandbox.prNumber,
          pull_request: {
            url: prUrl,
            html_url: `https://github.com/${sandbox.owner}/${sandbox.repo}/pull/${sandbox.prNumber}`
          }
        },
        comment: {
          ...(ex['comment'] as Json),
          id: made.id,
          body: c.body,
          user: user((ex['comment'] as Json)['user'], c.author, c.type)
        },
        sender: user(ex['sender'], c.author, c.type)
      }
    }
  ]
}

/** A submitted review starts a pull_request_review run, and each inline comment a review comment run. */
function reviewRuns(
  sandbox: Sandbox,
  base: Partial<RunRequest>,
  r: NonNullable<HumanEvent['review']>
): RunRequest[] {
  const { review, comments } = sandbox.emulator.addReview({
    pullNumber: sandbox.prNumber,
    author: r.author,
    state: r.state.toUpperCase() as 'CHANGES_REQUESTED',
    body: r.body ?? '',
    comments: r.comments
  })
  const ex = example('pull_request_review', 'submitted')
  const runs: RunRequest[] = [
    {
      ...base,
      event: 'pull_request_review',
      action: 'submitted',
      actor: r.author,
      payloadPatch: {
        review: {
          ...(ex['review'] as Json),
          id: review.id,
          body: r.body ?? '',
          // webhooks say the state in lower case (the REST API in upper case)
          state: r.state,
          user: user((ex['review'] as Json)['user'], r.author),
          commit_id: review.commitId
        },
        sender: user(ex['sender'], r.author)
      }
    }
  ]
  for (const c of comments) {
    const cx = example('pull_request_review_comment', 'created')
    const { in_reply_to_id: _none, ...comment } = cx['comment'] as Json
    runs.push({
      ...base,
      event: 'pull_request_review_comment',
      action: 'created',
      actor: r.author,
      payloadPatch: {
        comment: {
          ...comment,
          id: c.id,
          body: c.body,
          path: c.path,
          line: c.line,
          pull_request_review_id: review.id,
          user: user(comment['user'], r.author)
        },
        sender: user(cx['sender'], r.author)
      }
    })
  }
  return runs
}

/**
 * A click on a check run's button. GitHub starts no workflow for a check run whose suite GitHub
 * Actions made (the workflow token's check runs): "this event does not trigger workflows if the
 * check run's check suite was created by GitHub Actions" (docs: Events that trigger workflows,
 * check_run). The click then starts nothing.
 */
function buttonRuns(
  sandbox: Sandbox,
  base: Partial<RunRequest>,
  b: NonNullable<HumanEvent['button']>
): RunRequest[] | string {
  const head = sandbox.headSha()
  const run = sandbox.emulator.checkRuns.findLast(
    r => r.headSha === head && (r.actions ?? []).some(a => a.identifier === b.action)
  )
  if (!run) return `no check run on ${head.slice(0, 7)} has a '${b.action}' button`
  if (run.createdBy === 'github-actions[bot]')
    return 'the check run was made with the workflow token, and GitHub starts no workflow for a check run made by GitHub Actions'
  const ex = example('check_run', 'requested_action')
  return [
    {
      ...base,
      event: 'check_run',
      action: 'requested_action',
      actor: b.author,
      payloadPatch: {
        check_run: {
          ...(ex['check_run'] as Json),
          id: run.id,
          name: run.name,
          head_sha: run.headSha,
          external_id: run.externalId ?? '',
          pull_requests: [
            {
              number: sandbox.prNumber,
              head: { ref: sandbox.branch, sha: head },
              base: { ref: 'main', sha: sandbox.headSha('main') }
            }
          ]
        },
        requested_action: { identifier: b.action },
        sender: user(ex['sender'], b.author)
      }
    }
  ]
}

/**
 * Queues a run in the PR's concurrency group as GitHub does: one run in progress, one waiting; a
 * newcomer cancels the waiting run. After run N ended, the first queued run is in progress; while
 * run N is still finishing (`whileRunning`), every queued run is waiting. Returns what it cancelled.
 */
export function enqueueInGroup(
  sandbox: Sandbox,
  queue: RunRequest[],
  run: RunRequest,
  whileRunning: boolean
): RunRequest[] {
  const cancelled = queue.splice(whileRunning ? 0 : 1)
  for (const c of cancelled)
    if (c.event === 'workflow_dispatch' && c.runId) sandbox.emulator.cancelWorkflowRun(c.runId)
  queue.push(run)
  return cancelled
}

/** The runs GitHub starts for a human's event (after its permission is set in the emulator). */
export function humanRuns(
  sandbox: Sandbox,
  base: Partial<RunRequest>,
  event: HumanEvent,
  ignored: IgnoredEvent[]
): RunRequest[] {
  const who = event.comment ?? event.review ?? event.button
  if (!who)
    throw new Error(`humanEvents after run ${event.afterRun}: give a comment, a review or a button`)
  sandbox.emulator.setPermission(who.author, who.permission ?? 'read')
  if (event.comment) return commentRuns(sandbox, base, event.comment)
  if (event.review) return reviewRuns(sandbox, base, event.review)
  const runs = buttonRuns(sandbox, base, event.button!)
  if (typeof runs !== 'string') return runs
  ignored.push({ afterRun: event.afterRun, what: `button '${event.button!.action}'`, why: runs })
  return []
}
