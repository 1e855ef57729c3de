/**
 * In-memory GitHub REST API emulator for end-to-end tests.
 *
 * Serves the handful of endpoints review-loop uses on 127.0.0.1 (random port), enforces the
 * token permissions and the documented size/validation limits, and records every request.
 * Pull request head/base SHAs are read from a real bare git repository at request time.
 *
 * A test can also seed what people do (addIssueComment, addReview with inline comments, and
 * setPermission / `collaborators` for their roles), which the REST routes and the small GraphQL
 * endpoint (review threads, resolveReviewThread: github-graphql.ts) then show.
 */
import { execFile, execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { createServer, STATUS_CODES, type IncomingMessage, type Server } from 'node:http'
import type { Socket } from 'node:net'
import { promisify } from 'node:util'
import type { components } from '@octokit/openapi-types'
import type { FaultSpec } from './fault.js'
import { openApiErrors } from './openapi-check.js'
import { executeGraphql, type GraphqlStore } from './github-graphql.js'
import { readRef } from './refs.js'

type Schemas = components['schemas']

export type Permission = 'read' | 'write' | 'none'
const SCOPES = ['contents', 'pull_requests', 'issues', 'checks', 'actions', 'statuses'] as const
type Scope = (typeof SCOPES)[number]
export interface TokenSpec {
  login: string
  type: 'Bot' | 'User'
  /** missing = 'none' */
  permissions: Partial<Record<Scope, Permission>>
}
/** A collaborator's role on the repository, as GitHub names the base roles */
export type CollaboratorRole = 'admin' | 'maintain' | 'write' | 'triage' | 'read'
export interface EmulatorOptions {
  owner: string
  repo: string
  /** a real bare git repo; PR SHAs are read from it at request time */
  bareRepoPath: string
  /** token string -> identity */
  tokens: Record<string, TokenSpec>
  /** workflow file names with a workflow_dispatch trigger; default ['review-loop.yml'] */
  dispatchableWorkflows?: string[]
  /** default false */
  allowActionsToApprove?: boolean
  /** html_url base, default 'https://github.com' */
  serverUrl?: string
  /** Hold every accepted request and its answer to GitHub's OpenAPI description (openApiProblems). */
  checkOpenApi?: boolean
  /**
   * Enforce GitHub's secondary limits on content creation (80 a minute, 500 an hour per token);
   * default true. Off only for tests that exercise other routes many times over.
   */
  contentLimits?: boolean
  /**
   * login -> role. Unlisted: the repository owner is admin, a user whose token may write
   * something has write, anyone else read (the repository is public)
   */
  collaborators?: Record<string, CollaboratorRole>
}
export interface RecordedRequest {
  method: string
  /** template, e.g. 'GET /repos/{owner}/{repo}/pulls/{pull_number}' */
  route: string
  path: string
  status: number
  login?: string
  body?: unknown
  at: number
  /** the fault applied to this request, e.g. '502', 'hang', 'reset', 'lost→502', 'lost→reset' */
  fault?: string
}
/** A fault on an emulator route (see test-support/fault.ts); lost answers default to 502. */
export type { FaultSpec } from './fault.js'
export interface EmulatedPull {
  number: number
  title: string
  body: string
  headRef: string
  baseRef: string
  state: 'open' | 'closed'
  draft: boolean
  merged: boolean
  author: string
  /** default owner/repo; anything else makes the PR come from a fork */
  headRepoFullName?: string
  labels: string[]
  requestedReviewers: string[]
  requestedTeams: string[]
}
export interface EmulatedComment {
  id: number
  issueNumber: number
  body: string
  author: string
  authorType: 'Bot' | 'User'
  createdAt: string
  updatedAt: string
}
export type Annotation = Schemas['check-annotation']
export interface EmulatedCheckRun {
  id: number
  name: string
  headSha: string
  status: string
  conclusion: string | null
  title?: string
  summary?: string
  text?: string
  /** accumulated over create + all updates */
  annotations: Annotation[]
  /** the requested-action buttons; an update that sends `actions` replaces them */
  actions: CheckRunAction[]
  externalId?: string
  detailsUrl?: string
  createdAt: string
  completedAt?: string
  /** login of the token that created it (GitHub starts no workflow for GitHub Actions' own) */
  createdBy?: string
}
export interface EmulatedStatus {
  id: number
  sha: string
  state: 'error' | 'failure' | 'pending' | 'success'
  context: string
  description?: string
  targetUrl?: string
  createdBy: string
  createdAt: string
}
/** A change to a branch (GET /repos/{owner}/{repo}/activity): who pushed, from what to what. */
export interface EmulatedActivity {
  id: number
  /** refs/heads/BRANCH */
  ref: string
  before: string
  after: string
  actor: string
  type: Schemas['activity']['activity_type']
  at: string
}
export interface EmulatedDispatch {
  workflowId: string
  ref: string
  inputs: Record<string, string>
  login: string
  at: number
  /** the workflow run the dispatch created */
  runId: number
}
/** A workflow run; each dispatch creates one. */
export interface EmulatedWorkflowRun {
  id: number
  runNumber: number
  workflowId: string
  /** .github/workflows/<file> */
  path: string
  event: 'workflow_dispatch'
  headBranch: string
  headSha: string
  actor: string
  createdAt: string
  /** nothing runs it: it stays queued, unless the harness cancels it (GitHub's concurrency) */
  status: 'queued' | 'completed'
  conclusion?: 'cancelled'
}
/** A button on a check run (POST/PATCH .../check-runs `actions`) */
export interface CheckRunAction {
  label: string
  description: string
  identifier: string
}
export type ReviewState = 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'PENDING'
export interface EmulatedReview {
  id: number
  pullNumber: number
  /** the event it was submitted with: APPROVE, REQUEST_CHANGES, COMMENT, or PENDING when none */
  event: string
  body: string
  commitId: string
  author: string
  state: ReviewState
  /** unset while PENDING */
  submittedAt?: string
}
/** An inline comment on a pull request's diff (a "review comment") */
export interface EmulatedReviewComment {
  id: number
  pullNumber: number
  /** every review comment GitHub stores belongs to a review, replies included */
  reviewId?: number
  path: string
  /** line in the head version of `path` (side RIGHT) */
  line: number
  body: string
  author: string
  authorType: 'Bot' | 'User'
  /** the thread's top-level comment; unset on that comment */
  inReplyToId?: number
  commitId: string
  createdAt: string
  /** GraphQL node id of its review thread */
  threadId: string
}
export interface EmulatedReviewThread {
  /** GraphQL node id, e.g. for resolveReviewThread */
  id: string
  pullNumber: number
  isResolved: boolean
  resolvedBy?: string
  /** oldest first: [0] is the top-level comment */
  commentIds: number[]
}
export const REACTION_CONTENTS = [
  '+1',
  '-1',
  'laugh',
  'confused',
  'heart',
  'hooray',
  'rocket',
  'eyes'
] as const
export type ReactionContent = (typeof REACTION_CONTENTS)[number]
export interface EmulatedReaction {
  id: number
  subject: 'issue_comment' | 'review_comment'
  subjectId: number
  content: ReactionContent
  login: string
  createdAt: string
}

const DOCS = 'https://docs.github.com/rest'
const MAX_COMMENT_LENGTH = 65536
const MAX_OUTPUT_LENGTH = 65535
const MAX_ANNOTATIONS_PER_REQUEST = 50
const MAX_DISPATCH_INPUTS = 25
const MAX_CHECK_RUN_ACTIONS = 3
/** documented maximum lengths of a check-run action's fields */
const CHECK_RUN_ACTION_LIMITS = { label: 20, description: 40, identifier: 20 } as const
/** weakest first */
const ROLES: readonly CollaboratorRole[] = ['read', 'triage', 'write', 'maintain', 'admin']
/** the legacy base permission of each role: maintain counts as write, triage as read */
const ROLE_PERMISSION: Record<CollaboratorRole, 'admin' | 'write' | 'read'> = {
  admin: 'admin',
  maintain: 'write',
  write: 'write',
  triage: 'read',
  read: 'read'
}
const RATE_LIMIT = 5000
const CHECK_STATUSES = ['queued', 'in_progress', 'completed'] as const
const CHECK_CONCLUSIONS = [
  'success',
  'failure',
  'neutral',
  'cancelled',
  'skipped',
  'timed_out',
  'action_required'
] as const
const ANNOTATION_LEVELS = ['notice', 'warning', 'failure']
const REVIEW_STATES: Record<string, ReviewState> = {
  APPROVE: 'APPROVED',
  REQUEST_CHANGES: 'CHANGES_REQUESTED',
  COMMENT: 'COMMENTED'
}

const execFileAsync = promisify(execFile)

// ---------------------------------------------------------------- errors and small helpers

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {}
  ) {
    super(String(body.message))
  }
}

function apiError(status: number, message: string, extra: Record<string, unknown> = {}): HttpError {
  return new HttpError(status, {
    message,
    ...extra,
    documentation_url: DOCS,
    status: String(status)
  })
}
const notFound = (message = 'Not Found'): HttpError => apiError(404, message)
function invalid(resource: string, field: string, message: string, code = 'custom'): HttpError {
  return apiError(422, 'Validation Failed', { errors: [{ resource, code, field, message }] })
}
const unprocessable = (message: string): HttpError =>
  apiError(422, 'Unprocessable Entity', { errors: [message] })

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}
function isOneOf<T extends string>(values: readonly T[], v: unknown): v is T {
  return typeof v === 'string' && (values as readonly string[]).includes(v)
}
function optString(o: Record<string, unknown>, key: string, resource: string): string | undefined {
  const v = o[key]
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'string') throw invalid(resource, key, `${key} must be a string`, 'invalid')
  return v
}
function reqString(o: Record<string, unknown>, key: string, resource: string): string {
  const v = optString(o, key, resource)
  if (v === undefined) throw invalid(resource, key, `${key} wasn't supplied`, 'missing_field')
  return v
}
function stringArray(v: unknown, resource: string, field: string): string[] {
  if (v === undefined || v === null) return []
  if (!Array.isArray(v) || !v.every(x => typeof x === 'string' && x !== ''))
    throw invalid(resource, field, `${field} must be an array of non-empty strings`, 'invalid')
  return v
}
const now = (): string => new Date().toISOString()
const stableId = (s: string): number =>
  parseInt(createHash('sha1').update(s).digest('hex').slice(0, 7), 16)
const nodeId = (kind: string, id: number): string => Buffer.from(`${kind}${id}`).toString('base64')
const allows = (p: Permission | undefined, need: 'read' | 'write'): boolean =>
  p === 'write' || (p === 'read' && need === 'read')

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * A check run's `actions` (undefined when not sent): at most 3, each with a label of at most 20
 * characters, a description of at most 40 and an identifier of at most 20, as documented.
 */
function checkRunActions(raw: unknown): CheckRunAction[] | undefined {
  const CR = 'CheckRun'
  if (raw === undefined || raw === null) return undefined
  if (!Array.isArray(raw)) throw invalid(CR, 'actions', 'actions must be an array', 'invalid')
  if (raw.length > MAX_CHECK_RUN_ACTIONS)
    throw invalid(
      CR,
      'actions',
      `Only ${MAX_CHECK_RUN_ACTIONS} actions may be sent (got ${raw.length})`
    )
  return raw.map((a: unknown, i) => {
    if (!isRecord(a)) throw invalid(CR, `actions[${i}]`, 'an action must be an object', 'invalid')
    const action: CheckRunAction = { label: '', description: '', identifier: '' }
    for (const [key, max] of Object.entries(CHECK_RUN_ACTION_LIMITS) as [
      keyof CheckRunAction,
      number
    ][]) {
      const v = a[key]
      const field = `actions[${i}].${key}`
      if (typeof v !== 'string' || v === '')
        throw invalid(CR, field, `${key} wasn't supplied`, 'missing_field')
      if (v.length > max)
        throw invalid(CR, field, `${key} is too long (maximum is ${max} characters)`)
      action[key] = v
    }
    return action
  })
}

/** The lines of a unified diff's hunk that holds new-side `line`, from its @@ header to it. */
function hunkUpTo(diff: string, line: number): string | undefined {
  let hunk: string[] = []
  let next = 0
  for (const l of diff.split('\n')) {
    const header = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(l)
    if (header) {
      hunk = [l]
      next = Number(header[1])
      continue
    }
    if (hunk.length === 0 || l.startsWith('\\')) continue
    hunk.push(l)
    if (l.startsWith('-')) continue
    if (next === line) return hunk.join('\n')
    next++
  }
  return undefined
}

// ---------------------------------------------------------------- routing

interface Ctx {
  params: Record<string, string>
  query: URLSearchParams
  body: unknown
  token: TokenSpec
  /** path + query as requested */
  path: string
}
interface Reply {
  status: number
  body?: unknown
  headers?: Record<string, string>
}
interface Route {
  template: string
  method: string
  pattern: RegExp
  keys: string[]
  /** any one of these grants access; empty = any valid token */
  access: [Scope, 'read' | 'write'][]
  /** GitHub only lets Apps (bots) use the endpoint */
  appOnly?: boolean
  handler: (ctx: Ctx) => Reply | Promise<Reply>
}

/** `access` is e.g. 'issues:read|pull_requests:read' (any one grants access); prefix 'app ' = bots only */
function route(template: string, access: string, handler: Route['handler']): Route {
  const [method = '', path = ''] = template.split(' ')
  const keys: string[] = []
  const source = path.replace(/\{(\w+)\}/g, (_m, key: string) => {
    keys.push(key)
    // a file's path (GET .../contents/{path}) holds slashes
    return key === 'path' ? '(.+?)' : '([^/]+)'
  })
  const appOnly = access.startsWith('app ')
  const grants: Route['access'] = []
  for (const alt of access.replace(/^app /, '').split('|').filter(Boolean)) {
    const [scope, level] = alt.split(':')
    if (!isOneOf(SCOPES, scope) || (level !== 'read' && level !== 'write'))
      throw new Error(`emulator: bad access spec '${access}'`)
    grants.push([scope, level])
  }
  return {
    template,
    method,
    pattern: new RegExp(`^${source}/?$`),
    keys,
    access: grants,
    handler,
    appOnly
  }
}

interface Fault extends Omit<FaultSpec, 'times' | 'headers'> {
  remaining: number
  headers: Record<string, string>
}

/** GitHub's secondary limits on content-generating requests (see limitContentCreation). */
export const CONTENT_PER_MINUTE = 80
export const CONTENT_PER_HOUR = 500

/** Thrown inside the pipeline when a fault drops the request (hang or reset). */
const DROPPED = Symbol('dropped')

/** What the server does with a request: answer it, or drop it (no answer, or a reset). */
type Answer =
  { status: number; headers: Record<string, string>; body?: string } | { drop: 'hang' | 'reset' }

function faultLabel(f: Fault): string {
  const how = f.hang ? 'hang' : f.reset ? 'reset' : String(f.status ?? (f.lost ? 502 : 500))
  return f.lost ? `lost→${how}` : how
}

/** The error GitHub answers with `status`, with its usual message (rate limits included). */
function faultError(status: number, headers: Record<string, string>): HttpError {
  let message = STATUS_CODES[status] ?? 'Error'
  if (status === 401) message = 'Bad credentials'
  else if (status === 404) message = 'Not Found'
  else if (status === 422) message = 'Validation Failed'
  else if ((status === 403 || status === 429) && headers['x-ratelimit-remaining'] === '0')
    message = 'API rate limit exceeded for installation ID 1.'
  else if (status === 403 || status === 429)
    message =
      'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.'
  const error = apiError(status, message)
  Object.assign(error.headers, headers)
  return error
}

// ---------------------------------------------------------------- the emulator

export class GitHubEmulator {
  readonly requests: RecordedRequest[] = []
  readonly pulls = new Map<number, EmulatedPull>()
  readonly comments: EmulatedComment[] = []
  readonly checkRuns: EmulatedCheckRun[] = []
  readonly dispatches: EmulatedDispatch[] = []
  readonly workflowRuns: EmulatedWorkflowRun[] = []
  readonly reviews: EmulatedReview[] = []
  /** With `checkOpenApi`: where requests or answers differ from GitHub's OpenAPI description. */
  readonly openApiProblems: string[] = []
  readonly reviewComments: EmulatedReviewComment[] = []
  readonly reviewThreads: EmulatedReviewThread[] = []
  readonly reactions: EmulatedReaction[] = []
  /** Commit statuses (POST /statuses/{sha}), oldest first. */
  readonly statuses: EmulatedStatus[] = []
  /** Pushes and other changes to branches, oldest first (recordActivity). */
  readonly activity: EmulatedActivity[] = []
  /** lowercased email -> login: the verified emails GitHub ties commits to (addEmail). */
  private readonly emails = new Map<string, string>()

  private readonly routes: Route[]
  /** login -> times of its content-creating requests in the last hour */
  private readonly creations = new Map<string, number[]>()
  /** Requests refused by the secondary content-creation limit. */
  secondaryLimited = 0
  /** lowercased login -> role */
  private readonly roles = new Map<string, CollaboratorRole>()
  /** `${commit}:${path}:${line}` -> diff_hunk */
  private readonly hunks = new Map<string, string>()
  private readonly graphql: GraphqlStore
  private readonly faults: Fault[] = []
  private readonly labelIds = new Map<string, number>()
  private readonly pullCreatedAt = new Map<number, string>()
  private readonly serverUrl: string
  private readonly resetAt = Math.floor(Date.now() / 1000) + 3600
  private nextId = 1_000_001
  private used = 0

  private constructor(
    private readonly opts: EmulatorOptions,
    private readonly server: Server,
    private readonly sockets: Set<Socket>,
    readonly url: string
  ) {
    this.serverUrl = (opts.serverUrl ?? 'https://github.com').replace(/\/$/, '')
    for (const [login, role] of Object.entries(opts.collaborators ?? {}))
      this.setPermission(login, role)
    this.graphql = {
      owner: opts.owner,
      repo: opts.repo,
      pulls: this.pulls,
      reviewComments: this.reviewComments,
      reviewThreads: this.reviewThreads,
      actorType: login => this.typeOf(login),
      commentUrl: c => this.reviewCommentHtmlUrl(c),
      pullCommits: async number => {
        const pull = this.pulls.get(number)
        const records = pull ? await this.pullCommitRecords(pull) : []
        return records.map(r => {
          const [sha = '', , , authorName = '', authorEmail = '', , , , , message = ''] =
            r.split('\x1f')
          return { sha, authorName, authorEmail, message: message.replace(/\n+$/, '') }
        })
      },
      loginOfEmail: email => this.loginOfEmail(email)
    }
    const R = '/repos/{owner}/{repo}'
    this.routes = [
      route('GET /user', '', c => this.getUser(c)),
      route(`GET ${R}/pulls/{pull_number}`, 'pull_requests:read', c => this.getPull(c)),
      route(`GET ${R}/issues/{issue_number}/comments`, 'issues:read|pull_requests:read', c =>
        this.listComments(c)
      ),
      route(`POST ${R}/issues/{issue_number}/comments`, 'issues:write', c => this.createComment(c)),
      route(`PATCH ${R}/issues/comments/{comment_id}`, 'issues:write', c => this.updateComment(c)),
      route(`DELETE ${R}/issues/comments/{comment_id}`, 'issues:write', c => this.deleteComment(c)),
      route(`POST ${R}/check-runs`, 'app checks:write', c => this.createCheckRun(c)),
      route(`PATCH ${R}/check-runs/{check_run_id}`, 'app checks:write', c =>
        this.updateCheckRun(c)
      ),
      route(`GET ${R}/check-runs/{check_run_id}`, 'checks:read', c => this.getCheckRun(c)),
      route(`GET ${R}/check-runs/{check_run_id}/annotations`, 'checks:read', c =>
        this.paginate(c, this.findCheckRun(c).annotations)
      ),
      route(`GET ${R}/commits/{ref}/check-runs`, 'checks:read', c => this.listCheckRunsForRef(c)),
      route(`POST ${R}/statuses/{sha}`, 'statuses:write', c => this.createStatus(c)),
      route(`GET ${R}/contents/{path}`, 'contents:read', c => this.getContent(c)),
      route(`GET ${R}/pulls`, 'pull_requests:read', c => this.listPulls(c)),
      route(`POST ${R}/actions/workflows/{workflow_id}/dispatches`, 'actions:write', c =>
        this.dispatch(c)
      ),
      route(`GET ${R}/actions/workflows/{workflow_id}/runs`, 'actions:read', c =>
        this.listWorkflowRuns(c)
      ),
      route(`GET ${R}/actions/runs/{run_id}`, 'actions:read', c => this.getWorkflowRun(c)),
      route(`POST ${R}/issues/{issue_number}/labels`, 'issues:write|pull_requests:write', c =>
        this.addLabels(c)
      ),
      route(
        `DELETE ${R}/issues/{issue_number}/labels/{name}`,
        'issues:write|pull_requests:write',
        c => this.removeLabel(c)
      ),
      route(`POST ${R}/pulls/{pull_number}/requested_reviewers`, 'pull_requests:write', c =>
        this.requestReviewers(c)
      ),
      route(`GET ${R}/pulls/{pull_number}/commits`, 'pull_requests:read', c =>
        this.listPullCommits(c)
      ),
      route(`GET ${R}/activity`, 'contents:read', c => this.listActivities(c)),
      route(`GET ${R}/pulls/{pull_number}/reviews`, 'pull_requests:read', c =>
        this.paginate(
          c,
          this.reviews.filter(r => r.pullNumber === this.findPull(c).number),
          r => this.reviewObject(r)
        )
      ),
      route(`POST ${R}/pulls/{pull_number}/reviews`, 'pull_requests:write', c =>
        this.createReview(c)
      ),
      ...this.conversationRoutes(R)
    ]
  }

  /** Collaborator permissions, review comments and their replies, reactions, GraphQL. */
  private conversationRoutes(R: string): Route[] {
    const issueComment = 'issue_comment'
    const reviewComment = 'review_comment'
    return [
      route(`GET ${R}/collaborators/{username}/permission`, '', c => this.getPermission(c)),
      route(`GET ${R}/pulls/{pull_number}/comments`, 'pull_requests:read', c =>
        this.listReviewComments(c)
      ),
      route(
        `POST ${R}/pulls/{pull_number}/comments/{comment_id}/replies`,
        'pull_requests:write',
        c => this.replyToReviewComment(c)
      ),
      route(
        `GET ${R}/issues/comments/{comment_id}/reactions`,
        'issues:read|pull_requests:read',
        c => this.listReactions(c, issueComment)
      ),
      route(
        `POST ${R}/issues/comments/{comment_id}/reactions`,
        'issues:write|pull_requests:write',
        c => this.createReaction(c, issueComment)
      ),
      route(`GET ${R}/pulls/comments/{comment_id}/reactions`, 'pull_requests:read', c =>
        this.listReactions(c, reviewComment)
      ),
      route(`POST ${R}/pulls/comments/{comment_id}/reactions`, 'pull_requests:write', c =>
        this.createReaction(c, reviewComment)
      ),
      // queries need pull_requests:read and mutations pull_requests:write; GitHub answers a
      // missing permission inside a 200 (see github-graphql.ts)
      route('POST /graphql', '', c => executeGraphql(this.graphql, c.token, c.body))
    ]
  }

  static async start(opts: EmulatorOptions): Promise<GitHubEmulator> {
    const ready: { emulator?: GitHubEmulator } = {}
    const sockets = new Set<Socket>()
    const server = createServer((req, res) => {
      if (!ready.emulator) return void res.writeHead(503).end()
      void ready.emulator.handle(req).then(answer => {
        if ('drop' in answer) {
          // a hang leaves the connection open (close() ends it); a reset tears it down unanswered
          if (answer.drop === 'reset') req.socket.resetAndDestroy()
          return
        }
        res.writeHead(answer.status, answer.headers)
        res.end(answer.body)
      })
    })
    server.on('connection', socket => {
      sockets.add(socket)
      socket.once('close', () => sockets.delete(socket))
    })
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(0, '127.0.0.1', () => resolve())
    })
    const address = server.address()
    if (address === null || typeof address === 'string') throw new Error('emulator: no TCP address')
    ready.emulator = new GitHubEmulator(opts, server, sockets, `http://127.0.0.1:${address.port}`)
    return ready.emulator
  }

  addPull(p: {
    number: number
    title?: string
    body?: string
    headRef: string
    baseRef?: string
    draft?: boolean
    author?: string
    headRepoFullName?: string
  }): EmulatedPull {
    const pull: EmulatedPull = {
      number: p.number,
      title: p.title ?? `Pull request #${p.number}`,
      body: p.body ?? '',
      headRef: p.headRef,
      baseRef: p.baseRef ?? 'main',
      state: 'open',
      draft: p.draft ?? false,
      merged: false,
      author: p.author ?? 'octocat',
      headRepoFullName: p.headRepoFullName,
      labels: [],
      requestedReviewers: [],
      requestedTeams: []
    }
    this.pulls.set(p.number, pull)
    this.pullCreatedAt.set(p.number, now())
    return pull
  }

  /** Gives `login` a role on the repository (GET .../collaborators/{username}/permission). */
  setPermission(login: string, role: CollaboratorRole): void {
    if (!ROLES.includes(role)) throw new Error(`emulator: unknown role '${String(role)}'`)
    this.roles.set(login.toLowerCase(), role)
  }

  /** A conversation comment by someone other than the action, e.g. a human answering it. */
  addIssueComment(p: {
    issueNumber: number
    body: string
    author: string
    authorType?: 'User' | 'Bot'
  }): EmulatedComment {
    if (!this.pulls.has(p.issueNumber))
      throw new Error(`emulator: no pull request #${p.issueNumber}`)
    const at = now()
    const comment: EmulatedComment = {
      id: this.nextId++,
      issueNumber: p.issueNumber,
      body: p.body,
      author: p.author,
      authorType: p.authorType ?? this.typeOf(p.author),
      createdAt: at,
      updatedAt: at
    }
    this.comments.push(comment)
    return comment
  }

  /**
   * A submitted review by someone other than the action; each inline comment starts its own
   * review thread. `commitId` defaults to the pull request's head.
   */
  addReview(p: {
    pullNumber: number
    author: string
    state: 'CHANGES_REQUESTED' | 'COMMENTED' | 'APPROVED'
    body: string
    commitId?: string
    comments?: Array<{ path: string; line: number; body: string }>
  }): { review: EmulatedReview; comments: EmulatedReviewComment[] } {
    const pull = this.pulls.get(p.pullNumber)
    if (!pull) throw new Error(`emulator: no pull request #${p.pullNumber}`)
    if (p.state !== 'COMMENTED' && p.author.toLowerCase() === pull.author.toLowerCase())
      throw new Error(`emulator: ${p.author} cannot ${p.state} their own pull request`)
    const event = Object.keys(REVIEW_STATES).find(e => REVIEW_STATES[e] === p.state) ?? 'COMMENT'
    const commitId = p.commitId ?? this.headShaSync(pull)
    const review = this.pushReview(pull.number, event, p.body, commitId, p.author)
    const authorType = this.typeOf(p.author)
    const comments = (p.comments ?? []).map(c =>
      this.pushReviewComment({
        pullNumber: pull.number,
        reviewId: review.id,
        path: c.path,
        line: c.line,
        body: c.body,
        author: p.author,
        authorType,
        commitId
      })
    )
    return { review, comments }
  }

  /**
   * `email` is one of `login`'s verified addresses: GitHub then ties commits by that address to
   * them (a commit's `author` and `committer`). Noreply addresses (`ID+login@users.noreply…`,
   * `login@users.noreply…`) are tied without this.
   */
  addEmail(login: string, email: string): void {
    this.emails.set(email.toLowerCase(), login)
  }

  /** Someone changed a branch (pushed, force-pushed, created it): GET …/activity lists it. */
  recordActivity(a: {
    branch: string
    before: string
    after: string
    actor: string
    type?: EmulatedActivity['type']
  }): void {
    this.activity.push({
      id: this.nextId++,
      ref: `refs/heads/${a.branch}`,
      before: a.before,
      after: a.after,
      actor: a.actor,
      type: a.type ?? 'push',
      at: now()
    })
  }

  /** A pending run replaced in its concurrency group: GitHub cancels it. */
  cancelWorkflowRun(id: number): void {
    const run = this.workflowRuns.find(r => r.id === id)
    if (run) Object.assign(run, { status: 'completed', conclusion: 'cancelled' })
  }

  /** Adds a fault for the next `times` requests on a route (see FaultSpec). */
  addFault(f: FaultSpec): void {
    const template = f.route.trim().replace(/\s+/, ' ')
    if (!this.routes.some(r => r.template === template))
      throw new Error(`emulator: unknown route template '${f.route}'`)
    if (f.status === undefined && !f.hang && !f.reset && !f.lost)
      throw new Error('emulator: a fault needs a status, hang, reset or lost')
    const headers = Object.fromEntries(
      Object.entries(f.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])
    )
    const { times = 1, ...rest } = f
    this.faults.push({ ...rest, route: template, headers, remaining: times })
  }

  /** Answers `status` for the next `times` requests on a route. */
  failNext(route: string, status: number, times = 1, headers: Record<string, string> = {}): void {
    this.addFault({ route, status, times, headers })
  }

  clearFaults(): void {
    this.faults.length = 0
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy()
    this.server.closeAllConnections()
    await new Promise<void>(resolve => this.server.close(() => resolve()))
  }

  // -------------------------------------------------------------- request pipeline

  private async handle(req: IncomingMessage): Promise<Answer> {
    const method = req.method ?? 'GET'
    const url = new URL(req.url ?? '/', this.url)
    let matched: { route: Route; params: Record<string, string> } | undefined
    for (const r of this.routes) {
      const m = r.method === method ? r.pattern.exec(url.pathname) : null
      if (!m) continue
      const params: Record<string, string> = {}
      r.keys.forEach((key, i) => (params[key] = decodeURIComponent(m[i + 1] ?? '')))
      matched = { route: r, params }
      break
    }
    const record: RecordedRequest = {
      method,
      route: matched?.route.template ?? `${method} ${url.pathname}`,
      path: url.pathname + url.search,
      status: 0,
      at: Date.now()
    }
    this.requests.push(record)
    this.used++

    const state: { fault?: Fault } = {}
    let reply: Reply
    try {
      reply = await this.process(req, url, matched, record, state)
    } catch (e) {
      if (e === DROPPED) return { drop: state.fault?.hang ? 'hang' : 'reset' }
      reply =
        e instanceof HttpError
          ? { status: e.status, body: e.body, headers: e.headers }
          : { status: 500, body: { message: `emulator error: ${String(e)}`, status: '500' } }
    }
    const lost = state.fault?.lost ? state.fault : undefined
    if (lost?.hang || lost?.reset) return { drop: lost.hang ? 'hang' : 'reset' }
    if (lost) {
      const e = faultError(lost.status ?? 502, lost.headers)
      reply = { status: e.status, body: e.body, headers: e.headers }
    }
    record.status = reply.status
    if (this.opts.checkOpenApi && matched) this.checkOpenApi(matched.route.template, record, reply)
    const headers: Record<string, string> = {
      'content-type': 'application/json; charset=utf-8',
      'x-github-request-id': `EMU0:${this.used.toString(16).toUpperCase().padStart(6, '0')}`,
      'x-github-api-version-selected': '2022-11-28',
      'x-ratelimit-limit': String(RATE_LIMIT),
      'x-ratelimit-remaining': String(Math.max(0, RATE_LIMIT - this.used)),
      'x-ratelimit-reset': String(this.resetAt),
      'x-ratelimit-used': String(this.used),
      'x-ratelimit-resource': 'core',
      ...reply.headers
    }
    const hasBody = reply.status !== 204 && reply.body !== undefined
    return { status: reply.status, headers, body: hasBody ? JSON.stringify(reply.body) : undefined }
  }

  /**
   * What the action sent and what the emulator answered, held to GitHub's OpenAPI description for
   * every accepted request (2xx); GraphQL is not in it. Mismatches go to `openApiProblems`.
   */
  private checkOpenApi(template: string, record: RecordedRequest, reply: Reply): void {
    if (template === 'POST /graphql' || reply.status < 200 || reply.status > 299) return
    const [method = '', path = ''] = template.split(' ')
    const check = (status: number | 'request', body: unknown): void => {
      try {
        for (const p of openApiErrors(method, path, status, body))
          this.openApiProblems.push(`${template} ${status}: ${p}`)
      } catch (e) {
        this.openApiProblems.push(`${template} ${status}: ${(e as Error).message}`)
      }
    }
    if (record.body !== undefined && !['GET', 'DELETE'].includes(method))
      check('request', record.body)
    check(reply.status, reply.body)
  }

  /** Reads, authenticates and authorizes the request, applies a fault, and runs the handler. */
  private async process(
    req: IncomingMessage,
    url: URL,
    matched: { route: Route; params: Record<string, string> } | undefined,
    record: RecordedRequest,
    state: { fault?: Fault }
  ): Promise<Reply> {
    const raw = await readBody(req)
    const token = this.authenticate(req.headers.authorization)
    if (token) record.login = token.login
    let body: unknown
    if (raw.trim() !== '') {
      try {
        body = JSON.parse(raw)
      } catch {
        record.body = raw
        throw apiError(400, 'Problems parsing JSON')
      }
    }
    record.body = body
    if (!matched) throw notFound()
    state.fault = this.takeFault(matched.route.template)
    if (state.fault) record.fault = faultLabel(state.fault)
    if (state.fault && !state.fault.lost) {
      if (state.fault.hang || state.fault.reset) throw DROPPED
      throw faultError(state.fault.status ?? 500, state.fault.headers)
    }
    if (!token) throw apiError(401, 'Bad credentials')
    this.limitContentCreation(token.login, record.method, matched.route.template)
    const { route: r, params } = matched
    if (params.owner !== undefined || params.repo !== undefined) {
      const same = (a: string | undefined, b: string): boolean =>
        a?.toLowerCase() === b.toLowerCase()
      if (!same(params.owner, this.opts.owner) || !same(params.repo, this.opts.repo))
        throw notFound()
    }
    if (r.appOnly && token.type !== 'Bot')
      throw apiError(403, 'You must authenticate via a GitHub App.')
    if (r.access.length > 0 && !r.access.some(([s, need]) => allows(token.permissions[s], need))) {
      const error = apiError(
        403,
        token.type === 'Bot'
          ? 'Resource not accessible by integration'
          : 'Resource not accessible by personal access token'
      )
      error.headers['x-accepted-github-permissions'] = r.access
        .map(([s, n]) => `${s}=${n}`)
        .join('; ')
      throw error
    }
    return r.handler({ params, query: url.searchParams, body, token, path: record.path })
  }

  /**
   * GitHub's secondary limit on content creation: "no more than 80 content-generating requests per
   * minute and no more than 500 content-generating requests per hour" (docs.github.com, REST API,
   * "Rate limits for the REST API", about secondary rate limits). Every accepted POST, PATCH, PUT or
   * DELETE of a token counts (GraphQL aside); over either, 403 with retry-after, as GitHub answers.
   */
  private limitContentCreation(login: string, verb: string, template: string): void {
    if (this.opts.contentLimits === false) return
    if (!['POST', 'PATCH', 'PUT', 'DELETE'].includes(verb) || template === 'POST /graphql') return
    const now = Date.now()
    const times = (this.creations.get(login) ?? []).filter(t => t > now - 3_600_000)
    const lastMinute = times.filter(t => t > now - 60_000).length
    if (lastMinute >= CONTENT_PER_MINUTE || times.length >= CONTENT_PER_HOUR) {
      this.secondaryLimited++
      throw faultError(403, { 'retry-after': '60' })
    }
    times.push(now)
    this.creations.set(login, times)
  }

  private authenticate(header: string | undefined): TokenSpec | undefined {
    const m = /^(?:token|bearer)\s+(\S+)\s*$/i.exec(header ?? '')
    return m?.[1] === undefined ? undefined : this.opts.tokens[m[1]]
  }

  private takeFault(template: string): Fault | undefined {
    const fault = this.faults.find(f => f.route === template && f.remaining > 0)
    if (fault) fault.remaining--
    return fault
  }

  // -------------------------------------------------------------- lookups and git

  private findPull(ctx: Ctx, key = 'pull_number'): EmulatedPull {
    const pull = this.pulls.get(Number(ctx.params[key]))
    if (!pull) throw notFound()
    return pull
  }

  private findCheckRun(ctx: Ctx): EmulatedCheckRun {
    const run = this.checkRuns.find(r => r.id === Number(ctx.params.check_run_id))
    if (!run) throw notFound()
    return run
  }

  private async git(...args: string[]): Promise<string | undefined> {
    try {
      const { stdout } = await execFileAsync('git', ['-C', this.opts.bareRepoPath, ...args])
      return stdout.trim()
    } catch {
      return undefined
    }
  }

  private async revParse(ref: string): Promise<string | undefined> {
    // branches and pull refs hold commits: read from the repository's files (./refs.ts)
    if (ref.startsWith('refs/heads/') || ref.startsWith('refs/pull/'))
      return readRef(this.opts.bareRepoPath, ref)
    return (await this.git('rev-parse', '--verify', '--quiet', `${ref}^{commit}`)) || undefined
  }

  /** Where a pull request's head is looked up, in order: a fork's pull ref first. */
  private headRefs(p: EmulatedPull): [string, string] {
    const own = `refs/heads/${p.headRef}`
    const pullRef = `refs/pull/${p.number}/head`
    return this.isFork(p) ? [pullRef, own] : [own, pullRef]
  }

  /** The head SHA now, synchronously (for the seeding methods). */
  private headShaSync(p: EmulatedPull): string {
    for (const ref of this.headRefs(p)) {
      const sha = readRef(this.opts.bareRepoPath, ref)
      if (sha) return sha
      try {
        const args = ['-C', this.opts.bareRepoPath, 'rev-parse', '--verify', '--quiet']
        return execFileSync('git', [...args, `${ref}^{commit}`], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'ignore']
        }).trim()
      } catch {
        // not there: try the next ref
      }
    }
    throw new Error(`emulator: cannot resolve ${p.headRef} in bare repo`)
  }

  private async shas(p: EmulatedPull): Promise<{ head: string; base: string }> {
    const [first, second] = this.headRefs(p)
    const head = (await this.revParse(first)) ?? (await this.revParse(second))
    const base = await this.revParse(`refs/heads/${p.baseRef}`)
    if (!head || !base)
      throw apiError(500, `emulator: cannot resolve ${head ? p.baseRef : p.headRef} in bare repo`)
    return { head, base }
  }

  private isFork(p: EmulatedPull): boolean {
    const full = `${this.opts.owner}/${this.opts.repo}`.toLowerCase()
    return p.headRepoFullName !== undefined && p.headRepoFullName.toLowerCase() !== full
  }

  private typeOf(login: string): 'Bot' | 'User' {
    const token = Object.values(this.opts.tokens).find(t => t.login === login)
    return token?.type ?? (login.endsWith('[bot]') ? 'Bot' : 'User')
  }

  private tokenUser(login: string): TokenSpec | undefined {
    return Object.values(this.opts.tokens).find(
      t => t.type === 'User' && t.login.toLowerCase() === login.toLowerCase()
    )
  }

  /**
   * `login`'s role: as set, else admin for the repository owner, write for a user whose token
   * may write something (a token never has more than its user), else read: the repository is
   * public. An App's bot is no collaborator: it reads, like anyone.
   */
  private roleOf(login: string): CollaboratorRole {
    const set = this.roles.get(login.toLowerCase())
    if (set) return set
    if (login.toLowerCase() === this.opts.owner.toLowerCase()) return 'admin'
    const token = this.tokenUser(login)
    return token && Object.values(token.permissions).includes('write') ? 'write' : 'read'
  }

  /** OWNER, COLLABORATOR for a listed collaborator or a token's user, else NONE. */
  private association(login: string): Schemas['author-association'] {
    if (login.toLowerCase() === this.opts.owner.toLowerCase()) return 'OWNER'
    if (this.typeOf(login) === 'Bot') return 'NONE'
    const known = this.roles.has(login.toLowerCase()) || this.tokenUser(login) !== undefined
    return known ? 'COLLABORATOR' : 'NONE'
  }

  /**
   * One page of `items` (mapped by `map`) with GitHub's Link header; `key` wraps the page as
   * `{ total_count, [key]: page }`, as the check-runs and workflow-runs lists do.
   */
  private paginate<T>(
    ctx: Ctx,
    items: T[],
    map: (item: T) => unknown = item => item,
    key?: string
  ): Reply {
    const perPage = Math.min(100, Math.max(1, Number(ctx.query.get('per_page')) || 30))
    const page = Math.max(1, Math.floor(Number(ctx.query.get('page'))) || 1)
    const last = Math.max(1, Math.ceil(items.length / perPage))
    const link = (n: number, rel: string): string => {
      const u = new URL(ctx.path, this.url)
      u.searchParams.set('per_page', String(perPage))
      u.searchParams.set('page', String(n))
      return `<${u.toString()}>; rel="${rel}"`
    }
    const links: string[] = []
    if (page > 1) links.push(link(page - 1, 'prev'))
    if (page < last) links.push(link(page + 1, 'next'), link(last, 'last'))
    if (page > 1) links.push(link(1, 'first'))
    const slice = items.slice((page - 1) * perPage, page * perPage).map(map)
    const body = key === undefined ? slice : { total_count: items.length, [key]: slice }
    return { status: 200, body, headers: links.length > 0 ? { link: links.join(', ') } : {} }
  }

  // -------------------------------------------------------------- handlers

  private getUser(ctx: Ctx): Reply {
    if (ctx.token.type === 'Bot') throw apiError(403, 'Resource not accessible by integration')
    return { status: 200, body: this.privateUser(ctx.token.login) }
  }

  private getCheckRun(ctx: Ctx): Reply {
    return { status: 200, body: this.checkRunObject(this.findCheckRun(ctx)) }
  }

  private async getPull(ctx: Ctx): Promise<Reply> {
    return { status: 200, body: await this.pullObject(this.findPull(ctx)) }
  }

  private listComments(ctx: Ctx): Reply {
    const pull = this.findPull(ctx, 'issue_number')
    const since = this.sinceQuery(ctx)
    const items = this.comments.filter(
      c =>
        c.issueNumber === pull.number && (since === undefined || Date.parse(c.updatedAt) >= since)
    )
    return this.paginate(ctx, items, c => this.commentObject(c))
  }

  private commentBody(ctx: Ctx): string {
    if (!isRecord(ctx.body))
      throw invalid('IssueComment', 'body', "body wasn't supplied", 'missing_field')
    const body = reqString(ctx.body, 'body', 'IssueComment')
    if (body.length > MAX_COMMENT_LENGTH)
      throw invalid(
        'IssueComment',
        'body',
        `body is too long (maximum is ${MAX_COMMENT_LENGTH} characters)`
      )
    return body
  }

  private createComment(ctx: Ctx): Reply {
    const pull = this.findPull(ctx, 'issue_number')
    const body = this.commentBody(ctx)
    const at = now()
    const comment: EmulatedComment = {
      id: this.nextId++,
      issueNumber: pull.number,
      body,
      author: ctx.token.login,
      authorType: ctx.token.type,
      createdAt: at,
      updatedAt: at
    }
    this.comments.push(comment)
    return { status: 201, body: this.commentObject(comment) }
  }

  /** `since`: only what was updated at or after that time (ISO 8601). */
  private sinceQuery(ctx: Ctx): number | undefined {
    const raw = ctx.query.get('since')
    if (raw === null) return undefined
    const at = Date.parse(raw)
    if (Number.isNaN(at)) throw invalid('IssueComment', 'since', `since is not a timestamp: ${raw}`)
    return at
  }

  private deleteComment(ctx: Ctx): Reply {
    const index = this.comments.findIndex(c => c.id === Number(ctx.params.comment_id))
    if (index < 0) throw notFound()
    this.comments.splice(index, 1)
    return { status: 204 }
  }

  private updateComment(ctx: Ctx): Reply {
    const comment = this.comments.find(c => c.id === Number(ctx.params.comment_id))
    if (!comment) throw notFound()
    comment.body = this.commentBody(ctx)
    comment.updatedAt = now()
    return { status: 200, body: this.commentObject(comment) }
  }

  /** Validates a check-run create/update payload and applies it to `run`. */
  private async applyCheckRun(ctx: Ctx, run: EmulatedCheckRun, creating: boolean): Promise<void> {
    const CR = 'CheckRun'
    if (!isRecord(ctx.body)) throw invalid(CR, 'name', "name wasn't supplied", 'missing_field')
    const b = ctx.body
    const name = creating ? reqString(b, 'name', CR) : optString(b, 'name', CR)
    if (name !== undefined && name.trim() === '')
      throw invalid(CR, 'name', 'name is blank', 'invalid')
    if (creating) {
      const sha = reqString(b, 'head_sha', CR)
      if (!/^[0-9a-f]{40}$/i.test(sha) || !(await this.revParse(sha)))
        throw invalid(CR, 'head_sha', `No commit found for SHA: ${sha}`, 'invalid')
      run.headSha = sha.toLowerCase()
    }
    let status = optString(b, 'status', CR)
    if (status !== undefined && !isOneOf(CHECK_STATUSES, status))
      throw invalid(CR, 'status', `status must be one of ${CHECK_STATUSES.join(', ')}`, 'invalid')
    const conclusion = optString(b, 'conclusion', CR)
    if (conclusion !== undefined && !isOneOf(CHECK_CONCLUSIONS, conclusion))
      throw invalid(
        CR,
        'conclusion',
        `conclusion must be one of ${CHECK_CONCLUSIONS.join(', ')}`,
        'invalid'
      )
    if (conclusion !== undefined) status = 'completed'
    if (status === 'completed' && conclusion === undefined && run.conclusion === null)
      throw invalid(
        CR,
        'conclusion',
        'conclusion is required when status is completed',
        'missing_field'
      )
    const output = this.checkRunOutput(b, run.headSha, creating)
    const actions = checkRunActions(b.actions)
    // everything validated: apply
    if (name !== undefined) run.name = name
    if (status !== undefined) run.status = status
    if (conclusion !== undefined) run.conclusion = conclusion
    run.externalId = optString(b, 'external_id', CR) ?? run.externalId
    run.detailsUrl = optString(b, 'details_url', CR) ?? run.detailsUrl
    if (run.status === 'completed' && run.completedAt === undefined)
      run.completedAt = optString(b, 'completed_at', CR) ?? now()
    if (output) {
      run.title = output.title ?? run.title
      run.summary = output.summary
      run.text = output.text ?? run.text
      run.annotations.push(...output.annotations)
    }
    if (actions) run.actions = actions
  }

  /** The `output` of a check-run create/update, validated (undefined when not sent). */
  private checkRunOutput(
    b: Record<string, unknown>,
    headSha: string,
    creating: boolean
  ): { title?: string; summary?: string; text?: string; annotations: Annotation[] } | undefined {
    const CR = 'CheckRun'
    if (b.output === undefined || b.output === null) return undefined
    if (!isRecord(b.output)) throw invalid(CR, 'output', 'output must be an object', 'invalid')
    const o = b.output
    const title = creating ? reqString(o, 'title', CR) : optString(o, 'title', CR)
    const summary = reqString(o, 'summary', CR)
    const text = optString(o, 'text', CR)
    for (const [field, value] of [
      ['summary', summary],
      ['text', text]
    ] as const) {
      if (value !== undefined && value.length > MAX_OUTPUT_LENGTH)
        throw invalid(
          CR,
          `output.${field}`,
          `${field} is too long (maximum is ${MAX_OUTPUT_LENGTH} characters)`
        )
    }
    const raw = o.annotations ?? []
    if (!Array.isArray(raw))
      throw invalid(CR, 'output.annotations', 'annotations must be an array', 'invalid')
    if (raw.length > MAX_ANNOTATIONS_PER_REQUEST)
      throw invalid(
        CR,
        'output.annotations',
        `Only ${MAX_ANNOTATIONS_PER_REQUEST} annotations may be sent in one request (got ${raw.length})`
      )
    return { title, summary, text, annotations: raw.map((a, i) => this.annotation(a, i, headSha)) }
  }

  private annotation(a: unknown, i: number, headSha: string): Annotation {
    const field = `output.annotations[${i}]`
    const bad = (what: string): HttpError =>
      invalid('CheckRun', field, `annotation ${i}: ${what}`, 'invalid')
    if (!isRecord(a)) throw bad('must be an object')
    const int = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 1
    const str = (v: unknown): v is string => typeof v === 'string' && v !== ''
    const optStr = (k: string): string | null => {
      const v = a[k]
      if (v === undefined || v === null) return null
      if (typeof v !== 'string') throw bad(`${k} must be a string`)
      return v
    }
    const optCol = (k: string): number | null => {
      const v = a[k]
      if (v === undefined || v === null) return null
      if (!int(v)) throw bad(`${k} must be a positive integer`)
      return v
    }
    if (!str(a.path)) throw bad('path is required')
    if (!int(a.start_line)) throw bad('start_line is required (positive integer)')
    if (!int(a.end_line)) throw bad('end_line is required (positive integer)')
    if (a.end_line < a.start_line) throw bad('end_line must be >= start_line')
    if (!isOneOf(ANNOTATION_LEVELS, a.annotation_level))
      throw bad(`annotation_level must be one of ${ANNOTATION_LEVELS.join(', ')}`)
    if (!str(a.message)) throw bad('message is required')
    const startColumn = optCol('start_column')
    const endColumn = optCol('end_column')
    if ((startColumn !== null || endColumn !== null) && a.start_line !== a.end_line)
      throw bad('start_column and end_column are only supported when start_line equals end_line')
    const { owner, repo } = this.opts
    return {
      path: a.path,
      start_line: a.start_line,
      end_line: a.end_line,
      start_column: startColumn,
      end_column: endColumn,
      annotation_level: a.annotation_level,
      title: optStr('title'),
      message: a.message,
      raw_details: optStr('raw_details'),
      blob_href: `${this.serverUrl}/${owner}/${repo}/blob/${headSha}/${a.path}`
    }
  }

  private async createCheckRun(ctx: Ctx): Promise<Reply> {
    const run: EmulatedCheckRun = {
      id: this.nextId++,
      name: '',
      headSha: '',
      status: 'queued',
      conclusion: null,
      annotations: [],
      actions: [],
      createdAt: now(),
      createdBy: ctx.token.login
    }
    await this.applyCheckRun(ctx, run, true)
    this.checkRuns.push(run)
    return { status: 201, body: this.checkRunObject(run) }
  }

  /**
   * POST /statuses/{sha}: a commit status (what a token that may not write check runs can still
   * set). GitHub refuses a description over 140 characters and a state it does not know (422).
   */
  private async createStatus(ctx: Ctx): Promise<Reply> {
    const sha = ctx.params.sha ?? ''
    const body = isRecord(ctx.body) ? ctx.body : {}
    const state = body['state']
    if (state !== 'error' && state !== 'failure' && state !== 'pending' && state !== 'success')
      throw invalid('Status', 'state', 'state is not included in the list', 'invalid')
    const description = typeof body['description'] === 'string' ? body['description'] : undefined
    if (description !== undefined && description.length > 140)
      throw invalid('Status', 'description', 'description is too long (maximum is 140 characters)')
    if (!(await this.revParse(sha))) throw unprocessable(`No commit found for SHA: ${sha}`)
    const status: EmulatedStatus = {
      id: this.nextId++,
      sha,
      state,
      context: typeof body['context'] === 'string' ? body['context'] : 'default',
      description,
      targetUrl: typeof body['target_url'] === 'string' ? body['target_url'] : undefined,
      createdBy: ctx.token.login,
      createdAt: now()
    }
    this.statuses.push(status)
    const { owner, repo } = this.opts
    return {
      status: 201,
      body: {
        url: `${this.url}/repos/${owner}/${repo}/statuses/${sha}`,
        avatar_url: null,
        id: status.id,
        node_id: `SC_${status.id}`,
        state,
        description: description ?? null,
        target_url: status.targetUrl ?? null,
        context: status.context,
        created_at: status.createdAt,
        updated_at: status.createdAt,
        creator: this.simpleUser(ctx.token.login, ctx.token.type)
      } satisfies Schemas['status']
    }
  }

  /** GET /contents/{path}?ref=: a file as GitHub answers it (base64); 404 when it is not there. */
  private async getContent(ctx: Ctx): Promise<Reply> {
    const file = ctx.params.path ?? ''
    const ref = ctx.query.get('ref') ?? 'main'
    const sha = await this.revParse(ref)
    const blob = sha && (await this.git('rev-parse', '--verify', '--quiet', `${sha}:${file}`))
    if (!sha || !blob) throw notFound()
    const { stdout } = await execFileAsync(
      'git',
      ['-C', this.opts.bareRepoPath, 'cat-file', 'blob', blob],
      { encoding: 'buffer' }
    )
    const { owner, repo } = this.opts
    const url = `${this.url}/repos/${owner}/${repo}/contents/${file}?ref=${ref}`
    const html = `${this.serverUrl}/${owner}/${repo}/blob/${ref}/${file}`
    const git = `${this.url}/repos/${owner}/${repo}/git/blobs/${blob}`
    return {
      status: 200,
      body: {
        type: 'file',
        encoding: 'base64',
        size: stdout.length,
        name: file.split('/').pop() ?? file,
        path: file,
        content: stdout.toString('base64'),
        sha: blob,
        url,
        git_url: git,
        html_url: html,
        download_url: null,
        _links: { self: url, git, html }
      } satisfies Schemas['content-file']
    }
  }

  /** GET /pulls: newest first (sort=created, direction=desc by default), state open/closed/all. */
  private async listPulls(ctx: Ctx): Promise<Reply> {
    const state = ctx.query.get('state') ?? 'open'
    const pulls = [...this.pulls.values()]
      .filter(p => state === 'all' || p.state === state)
      .sort((a, b) => b.number - a.number)
    if (ctx.query.get('direction') === 'asc') pulls.reverse()
    const page = this.paginate(ctx, pulls)
    const items = page.body as EmulatedPull[]
    return { ...page, body: await Promise.all(items.map(p => this.pullObject(p))) }
  }

  /** GET /commits/{ref}/check-runs: `filter=latest` (the default) keeps the newest run per name. */
  private async listCheckRunsForRef(ctx: Ctx): Promise<Reply> {
    const ref = ctx.params.ref ?? ''
    const sha = await this.revParse(ref)
    if (!sha) throw apiError(422, `No commit found for SHA: ${ref}`)
    const name = ctx.query.get('check_name')
    const status = ctx.query.get('status')
    const filter = ctx.query.get('filter') ?? 'latest'
    if (filter !== 'latest' && filter !== 'all')
      throw invalid('CheckRun', 'filter', 'filter must be one of latest, all', 'invalid')
    const runs = this.checkRuns
      .filter(r => r.headSha === sha && (name === null || r.name === name))
      .filter(r => status === null || r.status === status)
      .reverse()
    const shown =
      filter === 'all' ? runs : runs.filter((r, i) => runs.findIndex(x => x.name === r.name) === i)
    return this.paginate(ctx, shown, r => this.checkRunObject(r), 'check_runs')
  }

  private async updateCheckRun(ctx: Ctx): Promise<Reply> {
    const run = this.findCheckRun(ctx)
    await this.applyCheckRun(ctx, run, false)
    return { status: 200, body: this.checkRunObject(run) }
  }

  private async dispatch(ctx: Ctx): Promise<Reply> {
    const workflowId = ctx.params.workflow_id ?? ''
    const workflows = this.opts.dispatchableWorkflows ?? ['review-loop.yml']
    if (!workflows.includes(workflowId)) throw notFound()
    const W = 'WorkflowDispatch'
    if (!isRecord(ctx.body)) throw invalid(W, 'ref', "ref wasn't supplied", 'missing_field')
    const ref = reqString(ctx.body, 'ref', W)
    const branch = ref.replace(/^refs\/heads\//, '')
    if (!(await this.git('rev-parse', '--verify', '--quiet', `refs/heads/${branch}`)))
      throw unprocessable(`No ref found for: ${ref}`)
    const inputs: Record<string, string> = {}
    const raw = ctx.body.inputs ?? {}
    if (!isRecord(raw)) throw invalid(W, 'inputs', 'inputs must be an object', 'invalid')
    if (Object.keys(raw).length > MAX_DISPATCH_INPUTS)
      throw unprocessable(
        `you may only define up to ${MAX_DISPATCH_INPUTS} \`inputs\` for a workflow_dispatch event`
      )
    for (const [k, v] of Object.entries(raw)) {
      if (typeof v !== 'string')
        throw invalid(W, `inputs.${k}`, `input ${k} must be a string`, 'invalid')
      inputs[k] = v
    }
    const details = ctx.body.return_run_details ?? false
    if (typeof details !== 'boolean')
      throw invalid(W, 'return_run_details', 'return_run_details must be a boolean', 'invalid')
    const run = await this.createWorkflowRun(workflowId, branch, ctx.token.login)
    const at = Date.now()
    this.dispatches.push({ workflowId, ref, inputs, login: ctx.token.login, at, runId: run.id })
    if (!details) return { status: 204 }
    const object = this.workflowRunObject(run)
    const body: Schemas['workflow-dispatch-response'] = {
      workflow_run_id: run.id,
      run_url: object.url,
      html_url: object.html_url
    }
    return { status: 200, body }
  }

  private async createWorkflowRun(
    workflowId: string,
    branch: string,
    actor: string
  ): Promise<EmulatedWorkflowRun> {
    const run: EmulatedWorkflowRun = {
      id: this.nextId++,
      runNumber: this.workflowRuns.filter(r => r.workflowId === workflowId).length + 1,
      workflowId,
      path: `.github/workflows/${workflowId}`,
      event: 'workflow_dispatch',
      headBranch: branch,
      headSha: (await this.revParse(`refs/heads/${branch}`)) ?? '',
      actor,
      createdAt: now(),
      status: 'queued'
    }
    this.workflowRuns.push(run)
    return run
  }

  /**
   * Runs the harness runs (any event), by id: going while the action runs, completed after. A run
   * dispatched and not run yet stays queued.
   */
  readonly runStatus = new Map<number, 'in_progress' | 'completed'>()

  /** GET /actions/runs/{run_id}: a dispatched run, or a run the harness ran; else 404. */
  private getWorkflowRun(ctx: Ctx): Reply {
    const id = Number(ctx.params.run_id)
    const status = this.runStatus.get(id)
    const known = this.workflowRuns.find(r => r.id === id)
    if (!known && !status) throw notFound()
    const run: EmulatedWorkflowRun = known ?? {
      id,
      runNumber: id,
      workflowId: 'review-loop.yml',
      path: '.github/workflows/review-loop.yml',
      event: 'workflow_dispatch',
      headBranch: 'feature',
      headSha: '',
      actor: 'octocat',
      createdAt: now(),
      status: 'queued'
    }
    const object = this.workflowRunObject(run)
    return { status: 200, body: { ...object, status: status ?? object.status } }
  }

  /** GET /actions/workflows/{workflow_id}/runs, newest first, filtered by event, branch, status. */
  private listWorkflowRuns(ctx: Ctx): Reply {
    const workflowId = ctx.params.workflow_id ?? ''
    const workflows = this.opts.dispatchableWorkflows ?? ['review-loop.yml']
    if (!workflows.includes(workflowId)) throw notFound()
    const q = (name: string): string | null => ctx.query.get(name)
    const runs = this.workflowRuns
      .filter(r => r.workflowId === workflowId)
      .filter(r => q('event') === null || r.event === q('event'))
      .filter(r => q('branch') === null || r.headBranch === q('branch'))
      .filter(r => q('actor') === null || r.actor === q('actor'))
      .filter(r => q('status') === null || q('status') === r.status)
      .filter(r => q('head_sha') === null || r.headSha === q('head_sha'))
      .reverse()
    return this.paginate(ctx, runs, r => this.workflowRunObject(r), 'workflow_runs')
  }

  private addLabels(ctx: Ctx): Reply {
    const pull = this.findPull(ctx, 'issue_number')
    const raw = isRecord(ctx.body) ? ctx.body.labels : ctx.body
    for (const name of stringArray(raw, 'Label', 'labels'))
      if (!pull.labels.includes(name)) pull.labels.push(name)
    return { status: 200, body: pull.labels.map(n => this.labelObject(n)) }
  }

  private removeLabel(ctx: Ctx): Reply {
    const pull = this.findPull(ctx, 'issue_number')
    const index = pull.labels.indexOf(ctx.params.name ?? '')
    if (index < 0) throw notFound('Label does not exist')
    pull.labels.splice(index, 1)
    return { status: 200, body: pull.labels.map(n => this.labelObject(n)) }
  }

  private async requestReviewers(ctx: Ctx): Promise<Reply> {
    const pull = this.findPull(ctx)
    const b = isRecord(ctx.body) ? ctx.body : {}
    const reviewers = stringArray(b.reviewers, 'PullRequest', 'reviewers')
    const teams = stringArray(b.team_reviewers, 'PullRequest', 'team_reviewers')
    if (reviewers.length === 0 && teams.length === 0)
      throw unprocessable('Reviews may only be requested from collaborators.')
    if (reviewers.some(r => r.toLowerCase() === pull.author.toLowerCase()))
      throw unprocessable('Review cannot be requested from pull request author.')
    for (const r of reviewers)
      if (!pull.requestedReviewers.includes(r)) pull.requestedReviewers.push(r)
    for (const t of teams) if (!pull.requestedTeams.includes(t)) pull.requestedTeams.push(t)
    return { status: 201, body: await this.pullObject(pull) }
  }

  private async createReview(ctx: Ctx): Promise<Reply> {
    const pull = this.findPull(ctx)
    const b = isRecord(ctx.body) ? ctx.body : {}
    const event = optString(b, 'event', 'PullRequestReview')
    if (event !== undefined && !(event in REVIEW_STATES))
      throw unprocessable(`event must be one of ${Object.keys(REVIEW_STATES).join(', ')}`)
    const body = optString(b, 'body', 'PullRequestReview') ?? ''
    const own = ctx.token.login.toLowerCase() === pull.author.toLowerCase()
    if (own && event === 'APPROVE') throw unprocessable('Can not approve your own pull request')
    if (own && event === 'REQUEST_CHANGES')
      throw unprocessable('Can not request changes on your own pull request')
    if (event === 'APPROVE' && ctx.token.type === 'Bot' && !this.opts.allowActionsToApprove)
      throw unprocessable('GitHub Actions is not permitted to approve pull requests.')
    if ((event === 'REQUEST_CHANGES' || event === 'COMMENT') && body.trim() === '')
      throw unprocessable(`Review body is required for ${event} events`)
    const commitId = optString(b, 'commit_id', 'PullRequestReview') ?? (await this.shas(pull)).head
    const review = this.pushReview(pull.number, event ?? 'PENDING', body, commitId, ctx.token.login)
    return { status: 200, body: this.reviewObject(review) }
  }

  private pushReview(
    pullNumber: number,
    event: string,
    body: string,
    commitId: string,
    author: string
  ): EmulatedReview {
    const state = REVIEW_STATES[event] ?? 'PENDING'
    const review: EmulatedReview = {
      id: this.nextId++,
      pullNumber,
      event,
      body,
      commitId,
      author,
      state,
      ...(state === 'PENDING' ? {} : { submittedAt: now() })
    }
    this.reviews.push(review)
    return review
  }

  /** Stores a review comment: a reply (`inReplyToId`) joins its thread, any other starts one. */
  private pushReviewComment(
    c: Omit<EmulatedReviewComment, 'id' | 'createdAt' | 'threadId'>
  ): EmulatedReviewComment {
    const id = this.nextId++
    let thread = this.reviewThreads.find(
      t => c.inReplyToId !== undefined && t.commentIds.includes(c.inReplyToId)
    )
    if (!thread) {
      thread = {
        id: `PRRT_${Buffer.from(`thread:${id}`).toString('base64url')}`,
        pullNumber: c.pullNumber,
        isResolved: false,
        commentIds: []
      }
      this.reviewThreads.push(thread)
    }
    const comment: EmulatedReviewComment = { ...c, id, createdAt: now(), threadId: thread.id }
    thread.commentIds.push(id)
    this.reviewComments.push(comment)
    return comment
  }

  private getPermission(ctx: Ctx): Reply {
    const login = ctx.params.username ?? ''
    const role = this.roleOf(login)
    const body: Schemas['repository-collaborator-permission'] = {
      permission: ROLE_PERMISSION[role],
      role_name: role,
      user: this.collaborator(login, role)
    }
    return { status: 200, body }
  }

  /**
   * GET .../pulls/{n}/comments: by id (= creation) ascending; `direction=desc` reverses when a
   * `sort` is given (GitHub ignores it otherwise); `since` keeps what changed at or after it.
   */
  private async listReviewComments(ctx: Ctx): Promise<Reply> {
    const pull = this.findPull(ctx)
    const since = this.sinceQuery(ctx)
    const sort = ctx.query.get('sort')
    const direction = ctx.query.get('direction')
    if (sort !== null && sort !== 'created' && sort !== 'updated')
      throw invalid(
        'PullRequestReviewComment',
        'sort',
        'sort must be created or updated',
        'invalid'
      )
    if (direction !== null && direction !== 'asc' && direction !== 'desc')
      throw invalid(
        'PullRequestReviewComment',
        'direction',
        'direction must be asc or desc',
        'invalid'
      )
    const items = this.reviewComments.filter(
      c => c.pullNumber === pull.number && (since === undefined || Date.parse(c.createdAt) >= since)
    )
    if (sort !== null && direction === 'desc') items.reverse()
    const reply = this.paginate(ctx, items)
    const page = reply.body as EmulatedReviewComment[]
    return { ...reply, body: await Promise.all(page.map(c => this.reviewCommentObject(c))) }
  }

  /**
   * POST .../pulls/{n}/comments/{id}/replies. GitHub documents replies to replies as not
   * supported: a reply to one joins the same thread, answering the thread's top-level comment,
   * as GitHub threads them. Like on GitHub, each reply comes in a review of its own (COMMENTED,
   * no body), which GET .../reviews lists.
   */
  private async replyToReviewComment(ctx: Ctx): Promise<Reply> {
    const pull = this.findPull(ctx)
    const id = Number(ctx.params.comment_id)
    const parent = this.reviewComments.find(c => c.id === id && c.pullNumber === pull.number)
    if (!parent) throw notFound()
    const body = this.reviewCommentBody(ctx)
    const thread = this.reviewThreads.find(t => t.id === parent.threadId)
    const rootId = thread?.commentIds[0] ?? parent.id
    const root = this.reviewComments.find(c => c.id === rootId) ?? parent
    const head = (await this.shas(pull)).head
    const review = this.pushReview(pull.number, 'COMMENT', '', head, ctx.token.login)
    const reply = this.pushReviewComment({
      pullNumber: pull.number,
      reviewId: review.id,
      path: root.path,
      line: root.line,
      body,
      author: ctx.token.login,
      authorType: ctx.token.type,
      inReplyToId: root.id,
      commitId: root.commitId
    })
    const object = await this.reviewCommentObject(reply)
    return { status: 201, body: object, headers: { location: object.url } }
  }

  private reviewCommentBody(ctx: Ctx): string {
    const RC = 'PullRequestReviewComment'
    const raw = isRecord(ctx.body) ? optString(ctx.body, 'body', RC) : undefined
    if (raw === undefined || raw.trim() === '')
      throw invalid(
        RC,
        'body',
        raw === undefined ? "body wasn't supplied" : "body can't be blank",
        'missing_field'
      )
    if (raw.length > MAX_COMMENT_LENGTH)
      throw invalid(RC, 'body', `body is too long (maximum is ${MAX_COMMENT_LENGTH} characters)`)
    return raw
  }

  /** The id of the comment a reactions route names (404 unless it exists). */
  private reactionSubject(ctx: Ctx, subject: EmulatedReaction['subject']): number {
    const id = Number(ctx.params.comment_id)
    const store = subject === 'issue_comment' ? this.comments : this.reviewComments
    if (!store.some(c => c.id === id)) throw notFound()
    return id
  }

  /** 201 with a new reaction; 200 with the one the user already made with that content. */
  private createReaction(ctx: Ctx, subject: EmulatedReaction['subject']): Reply {
    const subjectId = this.reactionSubject(ctx, subject)
    const content = isRecord(ctx.body) ? ctx.body.content : undefined
    if (!isOneOf(REACTION_CONTENTS, content))
      throw invalid(
        'Reaction',
        'content',
        content === undefined ? "content wasn't supplied" : 'content is not included in the list',
        content === undefined ? 'missing_field' : 'invalid'
      )
    const login = ctx.token.login
    const same = this.reactions.find(
      r =>
        r.subject === subject &&
        r.subjectId === subjectId &&
        r.content === content &&
        r.login === login
    )
    if (same) return { status: 200, body: this.reactionObject(same) }
    const reaction: EmulatedReaction = {
      id: this.nextId++,
      subject,
      subjectId,
      content,
      login,
      createdAt: now()
    }
    this.reactions.push(reaction)
    return { status: 201, body: this.reactionObject(reaction) }
  }

  /** Oldest first; `content` keeps one kind. */
  private listReactions(ctx: Ctx, subject: EmulatedReaction['subject']): Reply {
    const subjectId = this.reactionSubject(ctx, subject)
    const content = ctx.query.get('content')
    if (content !== null && !isOneOf(REACTION_CONTENTS, content))
      throw invalid('Reaction', 'content', 'content is not included in the list', 'invalid')
    const items = this.reactions.filter(
      r =>
        r.subject === subject &&
        r.subjectId === subjectId &&
        (content === null || r.content === content)
    )
    return this.paginate(ctx, items, r => this.reactionObject(r))
  }

  /** The diff hunk GitHub shows with a review comment: its hunk, up to the commented line. */
  private async diffHunk(c: EmulatedReviewComment): Promise<string> {
    const key = `${c.commitId}:${c.path}:${c.line}`
    const known = this.hunks.get(key)
    if (known !== undefined) return known
    const pull = this.pulls.get(c.pullNumber)
    const base = pull ? (await this.shas(pull)).base : undefined
    const diff = base ? await this.git('diff', `${base}...${c.commitId}`, '--', c.path) : undefined
    const hunk = hunkUpTo(diff ?? '', c.line) ?? `@@ -${c.line},1 +${c.line},1 @@`
    if (diff !== undefined) this.hunks.set(key, hunk)
    return hunk
  }

  /** The account GitHub ties a commit's email to: a verified address, or a noreply one. */
  private loginOfEmail(email: string): string | undefined {
    const noreply = /^(?:\d+\+)?([^@+]+)@users\.noreply\.github\.com$/i.exec(email)
    return this.emails.get(email.toLowerCase()) ?? noreply?.[1]
  }

  /**
   * A PR's commits not on the base, oldest first, at most 250 (GitHub's limit), as records of
   * sha, parents, tree, author name, email, date, committer name, email, date and message.
   */
  private async pullCommitRecords(pull: EmulatedPull): Promise<string[]> {
    const { head, base } = await this.shas(pull)
    const format = ['%H', '%P', '%T', '%an', '%ae', '%aI', '%cn', '%ce', '%cI', '%B'].join('%x1f')
    const log = await this.git('log', '--reverse', `--format=${format}%x1e`, `${base}..${head}`)
    const records = (log ?? '').split('\x1e').filter(r => r.trim() !== '')
    return records.slice(0, 250).map(r => r.replace(/^\n/, ''))
  }

  /** GET /pulls/{n}/commits: the head's commits not on the base, oldest first, at most 250. */
  private async listPullCommits(ctx: Ctx): Promise<Reply> {
    const records = await this.pullCommitRecords(this.findPull(ctx))
    return this.paginate(
      ctx,
      records.map(r => this.commitObject(r))
    )
  }

  private commitObject(record: string): Schemas['commit'] {
    const [
      sha = '',
      parents = '',
      tree = '',
      an = '',
      ae = '',
      ad = '',
      cn = '',
      ce = '',
      cd = '',
      message = ''
    ] = record.split('\x1f')
    const api = `${this.url}/repos/${this.opts.owner}/${this.opts.repo}`
    const html = `${this.serverUrl}/${this.opts.owner}/${this.opts.repo}`
    const user = (email: string): Schemas['commit']['author'] => {
      const login = this.loginOfEmail(email)
      return login ? this.simpleUser(login) : null
    }
    return {
      url: `${api}/commits/${sha}`,
      sha,
      node_id: nodeId('C_', stableId(sha)),
      html_url: `${html}/commit/${sha}`,
      comments_url: `${api}/commits/${sha}/comments`,
      commit: {
        url: `${api}/git/commits/${sha}`,
        author: { name: an, email: ae, date: ad },
        committer: { name: cn, email: ce, date: cd },
        message: message.replace(/\n+$/, ''),
        comment_count: 0,
        tree: { sha: tree, url: `${api}/git/trees/${tree}` }
      },
      author: user(ae),
      committer: user(ce),
      parents: parents
        .split(' ')
        .filter(Boolean)
        .map(p => ({ sha: p, url: `${api}/commits/${p}`, html_url: `${html}/commit/${p}` }))
    }
  }

  /** GET /activity: the branch changes recorded, newest first unless `direction=asc`. */
  private listActivities(ctx: Ctx): Reply {
    const ref = ctx.query.get('ref')
    const full = ref && !ref.startsWith('refs/') ? `refs/heads/${ref}` : ref
    const type = ctx.query.get('activity_type')
    const actor = ctx.query.get('actor')
    const items = this.activity
      .filter(a => (full === null || a.ref === full) && (type === null || a.type === type))
      .filter(a => actor === null || a.actor.toLowerCase() === actor.toLowerCase())
      .slice()
      .reverse()
    if (ctx.query.get('direction') === 'asc') items.reverse()
    return this.paginate(ctx, items, (a): Schemas['activity'] => ({
      id: a.id,
      node_id: nodeId('AC_', a.id),
      before: a.before,
      after: a.after,
      ref: a.ref,
      timestamp: a.at,
      activity_type: a.type,
      actor: this.simpleUser(a.actor)
    }))
  }

  // -------------------------------------------------------------- response builders

  private simpleUser(login: string, type: string = this.typeOf(login)): Schemas['simple-user'] {
    const api = `${this.url}/users/${encodeURIComponent(login)}`
    const id = login === 'github-actions[bot]' ? 41898282 : stableId(login)
    return {
      login,
      id,
      node_id: nodeId(type === 'Bot' ? 'BOT_' : 'U_', id),
      avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
      gravatar_id: '',
      url: api,
      html_url: `${this.serverUrl}/${type === 'Bot' ? 'apps/' + login.replace(/\[bot\]$/, '') : login}`,
      followers_url: `${api}/followers`,
      following_url: `${api}/following{/other_user}`,
      gists_url: `${api}/gists{/gist_id}`,
      starred_url: `${api}/starred{/owner}{/repo}`,
      subscriptions_url: `${api}/subscriptions`,
      organizations_url: `${api}/orgs`,
      repos_url: `${api}/repos`,
      events_url: `${api}/events{/privacy}`,
      received_events_url: `${api}/received_events`,
      type,
      user_view_type: 'public',
      site_admin: false
    }
  }

  private privateUser(login: string): Schemas['private-user'] {
    const at = '2020-01-01T00:00:00Z'
    return {
      ...this.simpleUser(login, 'User'),
      name: login,
      company: null,
      blog: null,
      location: null,
      email: null,
      hireable: null,
      bio: null,
      public_repos: 1,
      public_gists: 0,
      followers: 0,
      following: 0,
      created_at: at,
      updated_at: at,
      private_gists: 0,
      total_private_repos: 0,
      owned_private_repos: 0,
      disk_usage: 0,
      collaborators: 0,
      two_factor_authentication: true
    }
  }

  private repository(fullName: string): Schemas['repository'] {
    const [owner = this.opts.owner, name = this.opts.repo] = fullName.split('/')
    const api = `${this.url}/repos/${owner}/${name}`
    const html = `${this.serverUrl}/${owner}/${name}`
    const host = new URL(this.serverUrl).host
    const fork = fullName.toLowerCase() !== `${this.opts.owner}/${this.opts.repo}`.toLowerCase()
    return {
      id: stableId(fullName),
      node_id: nodeId('R_', stableId(fullName)),
      name,
      full_name: `${owner}/${name}`,
      license: null,
      forks: 0,
      owner: this.simpleUser(owner, 'User'),
      private: false,
      html_url: html,
      description: null,
      fork,
      url: api,
      archive_url: `${api}/{archive_format}{/ref}`,
      assignees_url: `${api}/assignees{/user}`,
      blobs_url: `${api}/git/blobs{/sha}`,
      branches_url: `${api}/branches{/branch}`,
      collaborators_url: `${api}/collaborators{/collaborator}`,
      comments_url: `${api}/comments{/number}`,
      commits_url: `${api}/commits{/sha}`,
      compare_url: `${api}/compare/{base}...{head}`,
      contents_url: `${api}/contents/{+path}`,
      contributors_url: `${api}/contributors`,
      deployments_url: `${api}/deployments`,
      downloads_url: `${api}/downloads`,
      events_url: `${api}/events`,
      forks_url: `${api}/forks`,
      git_commits_url: `${api}/git/commits{/sha}`,
      git_refs_url: `${api}/git/refs{/sha}`,
      git_tags_url: `${api}/git/tags{/sha}`,
      git_url: `git://${host}/${owner}/${name}.git`,
      issue_comment_url: `${api}/issues/comments{/number}`,
      issue_events_url: `${api}/issues/events{/number}`,
      issues_url: `${api}/issues{/number}`,
      keys_url: `${api}/keys{/key_id}`,
      labels_url: `${api}/labels{/name}`,
      languages_url: `${api}/languages`,
      merges_url: `${api}/merges`,
      milestones_url: `${api}/milestones{/number}`,
      notifications_url: `${api}/notifications{?since,all,participating}`,
      pulls_url: `${api}/pulls{/number}`,
      releases_url: `${api}/releases{/id}`,
      ssh_url: `git@${host}:${owner}/${name}.git`,
      stargazers_url: `${api}/stargazers`,
      statuses_url: `${api}/statuses/{sha}`,
      subscribers_url: `${api}/subscribers`,
      subscription_url: `${api}/subscription`,
      tags_url: `${api}/tags`,
      teams_url: `${api}/teams`,
      trees_url: `${api}/git/trees{/sha}`,
      clone_url: `${html}.git`,
      mirror_url: null,
      hooks_url: `${api}/hooks`,
      svn_url: html,
      homepage: null,
      language: 'TypeScript',
      forks_count: 0,
      stargazers_count: 0,
      watchers_count: 0,
      size: 1,
      default_branch: 'main',
      open_issues_count: [...this.pulls.values()].filter(p => p.state === 'open').length,
      has_issues: true,
      has_projects: false,
      has_wiki: false,
      has_pages: false,
      has_downloads: true,
      archived: false,
      disabled: false,
      visibility: 'public',
      pushed_at: null,
      created_at: '2020-01-01T00:00:00Z',
      updated_at: '2020-01-01T00:00:00Z',
      open_issues: [...this.pulls.values()].filter(p => p.state === 'open').length,
      watchers: 0
    }
  }

  private labelObject(name: string): Schemas['label'] {
    let id = this.labelIds.get(name)
    if (id === undefined) this.labelIds.set(name, (id = this.nextId++))
    return {
      id,
      node_id: nodeId('LA_', id),
      url: `${this.url}/repos/${this.opts.owner}/${this.opts.repo}/labels/${encodeURIComponent(name)}`,
      name,
      description: null,
      color: createHash('sha1').update(name).digest('hex').slice(0, 6),
      default: false
    }
  }

  private async pullObject(p: EmulatedPull): Promise<Schemas['pull-request']> {
    const { owner, repo } = this.opts
    const { head, base } = await this.shas(p)
    const api = `${this.url}/repos/${owner}/${repo}`
    const self = `${api}/pulls/${p.number}`
    const html = `${this.serverUrl}/${owner}/${repo}/pull/${p.number}`
    const issue = `${api}/issues/${p.number}`
    const commits = Number(await this.git('rev-list', '--count', `${base}..${head}`)) || 0
    let additions = 0
    let deletions = 0
    const numstat = (await this.git('diff', '--numstat', `${base}...${head}`)) ?? ''
    const files = numstat.split('\n').filter(l => l !== '')
    for (const line of files) {
      const [a = '0', d = '0'] = line.split('\t')
      additions += Number(a) || 0
      deletions += Number(d) || 0
    }
    const createdAt = this.pullCreatedAt.get(p.number) ?? now()
    const headFull = p.headRepoFullName ?? `${owner}/${repo}`
    const headOwner = headFull.split('/')[0] ?? owner
    const fork = this.isFork(p)
    const link = (href: string): Schemas['link'] => ({ href })
    return {
      url: self,
      id: stableId(`pull/${p.number}`),
      node_id: nodeId('PR_', p.number),
      html_url: html,
      diff_url: `${html}.diff`,
      patch_url: `${html}.patch`,
      issue_url: issue,
      commits_url: `${self}/commits`,
      review_comments_url: `${self}/comments`,
      review_comment_url: `${api}/pulls/comments{/number}`,
      comments_url: `${issue}/comments`,
      statuses_url: `${api}/statuses/${head}`,
      number: p.number,
      state: p.state,
      locked: false,
      title: p.title,
      user: this.simpleUser(p.author),
      body: p.body === '' ? null : p.body,
      labels: p.labels.map(n => this.labelObject(n)),
      milestone: null,
      active_lock_reason: null,
      created_at: createdAt,
      updated_at: now(),
      closed_at: p.state === 'closed' ? now() : null,
      merged_at: p.merged ? now() : null,
      merge_commit_sha: createHash('sha1').update(`merge:${base}:${head}`).digest('hex'),
      assignee: null,
      assignees: [],
      requested_reviewers: p.requestedReviewers.map(r => this.simpleUser(r)),
      // GitHub's team objects carry `parent` (null for a top-level team), which pull-request-simple
      // (the requested_reviewers answer) requires
      requested_teams: p.requestedTeams.map(slug => ({ ...this.team(slug), parent: null })),
      head: {
        label: `${headOwner}:${p.headRef}`,
        ref: p.headRef,
        repo: this.repository(headFull),
        sha: head,
        user: this.simpleUser(headOwner, 'User')
      },
      base: {
        label: `${owner}:${p.baseRef}`,
        ref: p.baseRef,
        repo: this.repository(`${owner}/${repo}`),
        sha: base,
        user: this.simpleUser(owner, 'User')
      },
      _links: {
        comments: link(`${issue}/comments`),
        commits: link(`${self}/commits`),
        statuses: link(`${api}/statuses/${head}`),
        html: link(html),
        issue: link(issue),
        review_comments: link(`${self}/comments`),
        review_comment: link(`${api}/pulls/comments{/number}`),
        self: link(self)
      },
      author_association: fork ? 'CONTRIBUTOR' : this.association(p.author),
      auto_merge: null,
      draft: p.draft,
      merged: p.merged,
      mergeable: p.state === 'open' ? true : null,
      rebaseable: p.state === 'open' ? true : null,
      mergeable_state: p.draft ? 'draft' : 'clean',
      merged_by: null,
      comments: this.comments.filter(c => c.issueNumber === p.number).length,
      review_comments: this.reviewComments.filter(c => c.pullNumber === p.number).length,
      maintainer_can_modify: fork,
      commits,
      additions,
      deletions,
      changed_files: files.length
    }
  }

  private team(slug: string): Schemas['team-simple'] {
    const id = stableId(`team/${slug}`)
    const api = `${this.url}/organizations/1/team/${id}`
    return {
      id,
      node_id: nodeId('T_', id),
      url: api,
      members_url: `${api}/members{/member}`,
      name: slug,
      description: null,
      permission: 'push',
      privacy: 'closed',
      html_url: `${this.serverUrl}/orgs/${this.opts.owner}/teams/${slug}`,
      repositories_url: `${api}/repos`,
      slug,
      type: 'organization'
    }
  }

  private commentObject(c: EmulatedComment): Schemas['issue-comment'] {
    const { owner, repo } = this.opts
    return {
      id: c.id,
      node_id: nodeId('IC_', c.id),
      url: `${this.url}/repos/${owner}/${repo}/issues/comments/${c.id}`,
      body: c.body,
      html_url: `${this.serverUrl}/${owner}/${repo}/pull/${c.issueNumber}#issuecomment-${c.id}`,
      user: this.simpleUser(c.author, c.authorType),
      created_at: c.createdAt,
      updated_at: c.updatedAt,
      issue_url: `${this.url}/repos/${owner}/${repo}/issues/${c.issueNumber}`,
      author_association: this.association(c.author),
      performed_via_github_app: null,
      reactions: this.rollup('issue_comment', c.id)
    }
  }

  private reviewCommentHtmlUrl(c: EmulatedReviewComment): string {
    const { owner, repo } = this.opts
    return `${this.serverUrl}/${owner}/${repo}/pull/${c.pullNumber}#discussion_r${c.id}`
  }

  /** A single-line comment on the head side (RIGHT); a reply carries in_reply_to_id. */
  private async reviewCommentObject(
    c: EmulatedReviewComment
  ): Promise<Schemas['pull-request-review-comment']> {
    const api = `${this.url}/repos/${this.opts.owner}/${this.opts.repo}`
    const url = `${api}/pulls/comments/${c.id}`
    const html = this.reviewCommentHtmlUrl(c)
    const pullUrl = `${api}/pulls/${c.pullNumber}`
    return {
      url,
      pull_request_review_id: c.reviewId ?? null,
      id: c.id,
      node_id: nodeId('PRRC_', c.id),
      diff_hunk: await this.diffHunk(c),
      path: c.path,
      commit_id: c.commitId,
      original_commit_id: c.commitId,
      ...(c.inReplyToId === undefined ? {} : { in_reply_to_id: c.inReplyToId }),
      user: this.simpleUser(c.author, c.authorType),
      body: c.body,
      created_at: c.createdAt,
      updated_at: c.createdAt,
      html_url: html,
      pull_request_url: pullUrl,
      author_association: this.association(c.author),
      _links: { self: { href: url }, html: { href: html }, pull_request: { href: pullUrl } },
      start_line: null,
      original_start_line: null,
      start_side: null,
      line: c.line,
      original_line: c.line,
      side: 'RIGHT',
      subject_type: 'line',
      reactions: this.rollup('review_comment', c.id)
    }
  }

  private reactionObject(r: EmulatedReaction): Schemas['reaction'] {
    return {
      id: r.id,
      node_id: nodeId('REA_', r.id),
      user: this.simpleUser(r.login),
      content: r.content,
      created_at: r.createdAt
    }
  }

  /** The reaction counts GitHub embeds in a comment. */
  private rollup(subject: EmulatedReaction['subject'], id: number): Schemas['reaction-rollup'] {
    const { owner, repo } = this.opts
    const kind = subject === 'issue_comment' ? 'issues' : 'pulls'
    const mine = this.reactions.filter(r => r.subject === subject && r.subjectId === id)
    const count = (content: ReactionContent): number =>
      mine.filter(r => r.content === content).length
    return {
      url: `${this.url}/repos/${owner}/${repo}/${kind}/comments/${id}/reactions`,
      total_count: mine.length,
      '+1': count('+1'),
      '-1': count('-1'),
      laugh: count('laugh'),
      confused: count('confused'),
      heart: count('heart'),
      hooray: count('hooray'),
      eyes: count('eyes'),
      rocket: count('rocket')
    }
  }

  /** A collaborator as GET .../collaborators/{username}/permission shows them. */
  private collaborator(login: string, role: CollaboratorRole): Schemas['collaborator'] {
    const rank = ROLES.indexOf(role)
    return {
      ...this.simpleUser(login),
      permissions: {
        pull: rank >= ROLES.indexOf('read'),
        triage: rank >= ROLES.indexOf('triage'),
        push: rank >= ROLES.indexOf('write'),
        maintain: rank >= ROLES.indexOf('maintain'),
        admin: rank >= ROLES.indexOf('admin')
      },
      role_name: role
    }
  }

  /** `actions` (only when it has some) is not in the check-run schema, which allows more. */
  private checkRunObject(
    r: EmulatedCheckRun
  ): Schemas['check-run'] & { actions?: CheckRunAction[] } {
    const { owner, repo } = this.opts
    const api = `${this.url}/repos/${owner}/${repo}/check-runs/${r.id}`
    const html = `${this.serverUrl}/${owner}/${repo}/runs/${r.id}`
    return {
      id: r.id,
      head_sha: r.headSha,
      node_id: nodeId('CR_', r.id),
      external_id: r.externalId ?? '',
      url: api,
      html_url: html,
      details_url: r.detailsUrl ?? html,
      status: isOneOf(CHECK_STATUSES, r.status) ? r.status : 'queued',
      conclusion: isOneOf(CHECK_CONCLUSIONS, r.conclusion) ? r.conclusion : null,
      started_at: r.createdAt,
      completed_at: r.completedAt ?? null,
      output: {
        title: r.title ?? null,
        summary: r.summary ?? null,
        text: r.text ?? null,
        annotations_count: r.annotations.length,
        annotations_url: `${api}/annotations`
      },
      name: r.name,
      check_suite: { id: stableId(`suite/${r.headSha}`) },
      app: null,
      pull_requests: [],
      ...(r.actions.length > 0 ? { actions: r.actions.map(a => ({ ...a })) } : {})
    }
  }

  private workflowRunObject(r: EmulatedWorkflowRun): Schemas['workflow-run'] {
    const { owner, repo } = this.opts
    const api = `${this.url}/repos/${owner}/${repo}/actions/runs/${r.id}`
    const workflowNumber = stableId(`workflow/${r.workflowId}`)
    const repository: Schemas['minimal-repository'] = {
      ...this.repository(`${owner}/${repo}`),
      license: null
    }
    return {
      id: r.id,
      name: r.workflowId.replace(/\.ya?ml$/, ''),
      node_id: nodeId('WFR_', r.id),
      head_branch: r.headBranch,
      head_sha: r.headSha,
      path: r.path,
      display_title: r.workflowId.replace(/\.ya?ml$/, ''),
      run_number: r.runNumber,
      run_attempt: 1,
      event: r.event,
      status: r.status,
      conclusion: r.conclusion ?? null,
      workflow_id: workflowNumber,
      url: api,
      html_url: `${this.serverUrl}/${owner}/${repo}/actions/runs/${r.id}`,
      pull_requests: [],
      created_at: r.createdAt,
      updated_at: r.createdAt,
      actor: this.simpleUser(r.actor),
      triggering_actor: this.simpleUser(r.actor),
      run_started_at: r.createdAt,
      jobs_url: `${api}/jobs`,
      logs_url: `${api}/logs`,
      check_suite_url: `${this.url}/repos/${owner}/${repo}/check-suites/${stableId(`suite/${r.id}`)}`,
      artifacts_url: `${api}/artifacts`,
      cancel_url: `${api}/cancel`,
      rerun_url: `${api}/rerun`,
      workflow_url: `${this.url}/repos/${owner}/${repo}/actions/workflows/${workflowNumber}`,
      head_commit: null,
      repository,
      head_repository: repository
    }
  }

  private reviewObject(r: EmulatedReview): Schemas['pull-request-review'] {
    const { owner, repo } = this.opts
    const html = `${this.serverUrl}/${owner}/${repo}/pull/${r.pullNumber}#pullrequestreview-${r.id}`
    const pullUrl = `${this.url}/repos/${owner}/${repo}/pulls/${r.pullNumber}`
    return {
      id: r.id,
      node_id: nodeId('PRR_', r.id),
      user: this.simpleUser(r.author),
      body: r.body,
      state: r.state,
      html_url: html,
      pull_request_url: pullUrl,
      _links: { html: { href: html }, pull_request: { href: pullUrl } },
      submitted_at: r.submittedAt,
      commit_id: r.commitId,
      author_association: this.association(r.author)
    }
  }
}
