import { getOctokit } from '@actions/github'
import { defaults as actionsDefaults } from '@actions/github/lib/utils'
import { throttling } from '@octokit/plugin-throttling'
import Bottleneck from 'bottleneck/light.js'
import type { Prefetched } from '../action/prefetch.js'
import type { Annotation, PrComment, PullRequest } from '../loop/types.js'
import type { CheckRunInput, GitHubPort } from '../ports/index.js'
import {
  appendAnnotations,
  createOnce,
  findCheckRun,
  findComment,
  findDispatchedRun,
  findReview,
  listCheckRuns,
  UnknownOutcomeError,
  type Lookup
} from './idempotent.js'
import { createConversation } from './conversation.js'
import {
  createRetryPolicy,
  fetchWithTimeout,
  isIdempotent,
  NoAnswerError,
  RetryLaterError,
  type RetryPolicy
} from './waiting.js'

export const ANNOTATIONS_PER_REQUEST = 50

export interface AdapterOptions {
  token: string
  owner: string
  repo: string
  baseUrl: string
  /** Login the action posts as, when it cannot be asked (GitHub App tokens). */
  stateAuthor?: string
  /** The id of the workflow run the action runs in (GITHUB_RUN_ID): never taken for a run it dispatched. */
  selfRunId?: string
  /** The pull request fetched at start-up, used once when it answered 200. */
  prefetched?: Prefetched
  log: { warning(message: string): void; debug(message: string): void }
  /** Longest a request may take, answer included; default 30 000. */
  requestTimeoutMs?: number
  /**
   * Time the whole run may spend waiting on GitHub: rate limits (retry-after, x-ratelimit-reset),
   * backoffs and requests that timed out, all together; a wait that does not fit fails at once
   * (a rate limit with the time to re-run). Default 120.
   */
  maxWaitSeconds?: number
  /** First backoff after a 5xx, a reset or a timeout, doubling per retry; default 1000. */
  backoffMs?: number
}

export const ADAPTER_DEFAULTS = {
  requestTimeoutMs: 30_000,
  maxWaitSeconds: 120,
  backoffMs: 1000
} as const

/** What to tell the user for a permission error: which `permissions:` scope is missing. */
const SCOPE_FOR: Record<string, string> = {
  'create comment': 'issues: write',
  'update comment': 'issues: write',
  'delete comment': 'issues: write',
  'create check run': 'checks: write',
  'create commit status': 'statuses: write',
  'read file': 'contents: read',
  'list pull requests': 'pull-requests: read',
  'update check run': 'checks: write',
  'dispatch workflow': 'actions: write',
  'list workflow runs': 'actions: read',
  'get workflow run': 'actions: read',
  'add labels': 'issues: write',
  'remove label': 'issues: write',
  'request reviewers': 'pull-requests: write',
  'create review': 'pull-requests: write',
  'get pull request': 'pull-requests: read',
  'list comments': 'issues: read',
  'create reaction': 'issues: write',
  'list reviews': 'pull-requests: read',
  'list review comments': 'pull-requests: read',
  'reply to review comment': 'pull-requests: write',
  'list review threads': 'pull-requests: read',
  'resolve review thread': 'pull-requests: write'
}

/** An HTTP error from GitHub, reduced to what the loop acts on: what failed, why, and what to do. */
export class GitHubError extends Error {
  /** What failed, without the remedy: for a caller that says what to do itself. */
  readonly said: string
  /** Not sent, or refused: GitHub did not act, so there is nothing to look for (isAmbiguous). */
  final = false
  /**
   * A write whose answer was lost and whose result could not be looked for: it may have been
   * carried out (a dispatch: the next run may have started).
   */
  outcomeUnknown = false
  /** The `permissions:` scope the operation needs ('actions: write'), when known. */
  readonly scope: string | undefined
  constructor(
    readonly status: number,
    readonly operation: string,
    message: string,
    /** How GitHub failed to answer, in words ('HTTP 404', 'timed out', 'connection failed'). */
    how = `HTTP ${status}`,
    /** What to do about it. */
    readonly remedy = ''
  ) {
    super(`${operation}: ${message}${remedy ? ` ${remedy}` : ''} (${how})`)
    this.said = `${operation}: ${message.replace(/\.$/, '')} (${how})`
    this.scope = SCOPE_FOR[operation]
    this.name = 'GitHubError'
  }
}

const RERUN = 'Re-run the job to go on.'
const NO_ANSWER = 'Re-run the job later; if GitHub is just slow, raise request-timeout-seconds.'

/** What the user can do about a failed request, from how it failed. */
function remedy(operation: string, status: number): string {
  const scope = SCOPE_FOR[operation]
  const grant = scope ? `grant the workflow '${scope}' under permissions: (see the README)` : ''
  if (status === 401) return 'GitHub did not accept the token: check the github-token input.'
  if (status === 403)
    return grant
      ? `${grant[0]!.toUpperCase()}${grant.slice(1)}, then re-run the job.`
      : `Check the token's permissions, then re-run the job.`
  if (status === 404)
    return `GitHub answers 404 for what is gone and for what the token may not see: check that it still exists${grant ? ` and ${grant}` : ''}, then re-run the job.`
  if (status === 422) return `GitHub refused the request as invalid. ${RERUN}`
  if (status >= 500 || status === 0) return `GitHub failed to answer (on GitHub's side). ${RERUN}`
  return RERUN
}

function wrap(operation: string, e: unknown): GitHubError {
  if (e instanceof GitHubError) return e
  if (e instanceof UnknownOutcomeError) {
    const wrapped = wrap(operation, e.lost)
    wrapped.outcomeUnknown = true
    return wrapped
  }
  // a rate limit the action would not wait out already says when to re-run
  if (e instanceof RetryLaterError) return new GitHubError(e.status, operation, e.message)
  if (e instanceof NoAnswerError) {
    const refused = new GitHubError(0, operation, `${e.message}.`, 'no answer twice', NO_ANSWER)
    refused.final = true
    return refused
  }
  const err = e as {
    status?: number
    name?: string
    message?: string
    cause?: { name?: string; message?: string }
    response?: { data?: { message?: string } }
  }
  const timedOut = err.name === 'TimeoutError' || err.cause?.name === 'TimeoutError'
  if (timedOut) {
    const said = err.cause?.name === 'TimeoutError' ? err.cause.message : err.message
    return new GitHubError(
      0,
      operation,
      `${said ?? 'no answer from GitHub'}.`,
      'timed out',
      'GitHub may be slow: re-run the job; if it keeps timing out, raise request-timeout-seconds.'
    )
  }
  // Octokit reports a request that got no HTTP answer (a reset, a refused connection) as a 500
  const answered = err.response !== undefined || !('request' in (err as object))
  const status = answered ? (err.status ?? 0) : 0
  const message = (err.response?.data?.message ?? err.message ?? String(e)).replace(/[.\s]+$/, '')
  const how = answered && status > 0 ? `HTTP ${status}` : 'no answer: connection failed'
  return new GitHubError(status, operation, `${message}.`, how, remedy(operation, status))
}

async function call<T>(operation: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (e) {
    throw wrap(operation, e)
  }
}

type PullData = Awaited<ReturnType<ReturnType<typeof getOctokit>['rest']['pulls']['get']>>['data']

function toPullRequest(data: PullData): PullRequest {
  return {
    number: data.number,
    state: data.state === 'closed' ? 'closed' : 'open',
    draft: data.draft ?? false,
    // a listed pull request (pulls.list) has merged_at but no merged
    merged: data.merged ?? Boolean(data.merged_at),
    title: data.title,
    body: data.body ?? '',
    author: data.user.login,
    htmlUrl: data.html_url,
    headRef: data.head.ref,
    headSha: data.head.sha,
    baseRef: data.base.ref,
    baseSha: data.base.sha,
    headRepoFullName: data.head.repo?.full_name ?? '',
    baseRepoFullName: data.base.repo.full_name,
    labels: data.labels.map(l => l.name ?? '').filter(Boolean)
  }
}

type AnnotationOut = NonNullable<
  NonNullable<Parameters<ReturnType<typeof getOctokit>['rest']['checks']['create']>[0]>['output']
>['annotations']

/** The loop's annotation in GitHub's words. */
export function toGitHubAnnotation(a: Annotation): NonNullable<AnnotationOut>[number] {
  return {
    path: a.file,
    start_line: a.startLine,
    end_line: a.endLine,
    start_column: a.startColumn,
    end_column: a.endColumn,
    annotation_level: a.level,
    title: a.title,
    message: a.message,
    raw_details: a.details
  }
}

type Octokit = ReturnType<typeof getOctokit>

/**
 * Octokit behind the retry policy: every request has a time limit, rate limits are waited out
 * within bounds, transient failures of repeatable requests are retried, writes that create
 * something are left to the port's methods (which look before they write again). The throttling
 * plugin only paces writes; it retries nothing itself.
 */
function createOctokit(options: AdapterOptions, policy: RetryPolicy): Octokit {
  const timeoutMs = options.requestTimeoutMs ?? ADAPTER_DEFAULTS.requestTimeoutMs
  // @actions/github's own fetch goes through the runner's proxy settings; keep it, with a limit
  const baseFetch = actionsDefaults.request?.fetch ?? globalThis.fetch
  const octokit = getOctokit(
    options.token,
    {
      baseUrl: options.baseUrl,
      request: { ...actionsDefaults.request, fetch: fetchWithTimeout(baseFetch, timeoutMs) },
      throttle: {
        // One iteration makes fewer than ten writes, far from GitHub's secondary limits: writes go
        // one at a time, unpaced. Rate-limit answers are handled by the retry policy below.
        write: new Bottleneck.Group({ maxConcurrent: 1, minTime: 0 }),
        notifications: new Bottleneck.Group({ maxConcurrent: 1, minTime: 0 }),
        onRateLimit: () => false,
        onSecondaryRateLimit: () => false
      }
    },
    throttling
  )
  octokit.hook.wrap('request', (request, o) => {
    // the route is the method and the URL's path: one comment, one check run, one workflow
    const { method, url } = octokit.request.endpoint.parse(o)
    const path = new URL(url, 'http://localhost').pathname
    const route = `${method} ${path}${graphqlOperation(o['query'])}`
    return policy.send(route, isIdempotent(o.method, o.url, o), async () => request(o))
  })
  return octokit
}

/** A GraphQL request's kind and first field (` query repository`): each is a route of its own. */
function graphqlOperation(query: unknown): string {
  if (typeof query !== 'string') return ''
  const m = /^\s*(query|mutation)\b[^{]*\{\s*(\w+)/.exec(query)
  return m ? ` ${m[1]} ${m[2]}` : ''
}

type CommentData = Awaited<ReturnType<Octokit['rest']['issues']['createComment']>>['data']

const toComment = (c: CommentData): PrComment => ({
  id: c.id,
  body: c.body ?? '',
  author: c.user?.login ?? '',
  htmlUrl: c.html_url
})

export function createGitHubAdapter(options: AdapterOptions): GitHubPort {
  const { owner, repo, log } = options
  const policy = createRetryPolicy({
    maxWaitSeconds: options.maxWaitSeconds ?? ADAPTER_DEFAULTS.maxWaitSeconds,
    requestTimeoutMs: options.requestTimeoutMs ?? ADAPTER_DEFAULTS.requestTimeoutMs,
    backoffMs: options.backoffMs ?? ADAPTER_DEFAULTS.backoffMs,
    log
  })
  const octokit = createOctokit(options, policy)
  const lookup: Lookup = {
    octokit,
    owner,
    repo,
    policy,
    log,
    ...(options.selfRunId ? { selfRunId: options.selfRunId } : {})
  }
  const repoParams = { owner, repo }
  let me: Promise<string> | undefined
  const whoAmI = (): Promise<string> =>
    (me ??= identify(options, octokit).catch((e: unknown) => {
      me = undefined
      throw e
    }))
  const writes = createWrites(options, octokit, lookup, whoAmI)

  return {
    whoAmI,
    async getPull(pr) {
      const early = options.prefetched?.pr === pr ? await options.prefetched.response : undefined
      if (early?.status === 200) return toPullRequest(early.body as PullData)
      const { data } = await call('get pull request', () =>
        octokit.rest.pulls.get({ ...repoParams, pull_number: pr })
      )
      return toPullRequest(data)
    },
    async listComments(pr) {
      const all = await call('list comments', () =>
        octokit.paginate(octokit.rest.issues.listComments, {
          ...repoParams,
          issue_number: pr,
          per_page: 100
        })
      )
      return all.map(toComment)
    },
    async updateComment(id, body) {
      const { data } = await call('update comment', () =>
        octokit.rest.issues.updateComment({ ...repoParams, comment_id: id, body })
      )
      return toComment(data)
    },
    async deleteComment(id) {
      try {
        await octokit.rest.issues.deleteComment({ ...repoParams, comment_id: id })
      } catch (e) {
        if ((e as { status?: number }).status === 404) return // already gone
        throw wrap('delete comment', e)
      }
    },
    async checkRunSummaries(sha, name, prefix) {
      const runs = await call('list check runs', () => listCheckRuns(lookup, sha, name))
      return runs.filter(r => r.external_id?.startsWith(prefix)).map(r => r.output?.summary ?? '')
    },
    async runEnded(runId) {
      try {
        const { data } = await call('get workflow run', () =>
          octokit.rest.actions.getWorkflowRun({ ...repoParams, run_id: Number(runId) })
        )
        return data.status === 'completed'
      } catch (e) {
        if ((e as { status?: number }).status === 404) return true
        throw e
      }
    },
    async latestDispatchedRun(workflowFile, branch) {
      const { data } = await call('list workflow runs', () =>
        octokit.rest.actions.listWorkflowRuns({
          ...repoParams,
          workflow_id: workflowFile,
          event: 'workflow_dispatch',
          branch,
          per_page: 1
        })
      )
      const run = data.workflow_runs[0]
      if (!run) return undefined
      return {
        status: run.status ?? '',
        ...(run.conclusion ? { conclusion: run.conclusion } : {}),
        createdAt: run.created_at
      }
    },
    async addLabels(pr, labels) {
      await call('add labels', () =>
        octokit.rest.issues.addLabels({ ...repoParams, issue_number: pr, labels })
      )
    },
    async removeLabel(pr, label) {
      try {
        await octokit.rest.issues.removeLabel({ ...repoParams, issue_number: pr, name: label })
      } catch (e) {
        if ((e as { status?: number }).status === 404) return // not there: nothing to remove
        throw wrap('remove label', e)
      }
    },
    async requestReviewers(pr, users, teams) {
      await call('request reviewers', () =>
        octokit.rest.pulls.requestReviewers({
          ...repoParams,
          pull_number: pr,
          reviewers: users,
          team_reviewers: teams
        })
      )
    },
    async createCommitStatus(sha, status) {
      // GitHub refuses a description over 140 characters
      const description =
        status.description.length > 140
          ? `${status.description.slice(0, 139)}…`
          : status.description
      await call('create commit status', () =>
        octokit.rest.repos.createCommitStatus({
          ...repoParams,
          sha,
          state: status.state,
          context: status.context,
          description,
          ...(status.targetUrl ? { target_url: status.targetUrl } : {})
        })
      )
    },
    async readFile(file, ref) {
      try {
        const { data } = await octokit.rest.repos.getContent({ ...repoParams, path: file, ref })
        if (Array.isArray(data) || data.type !== 'file' || !('content' in data)) return undefined
        return Buffer.from(data.content, 'base64').toString('utf8')
      } catch (e) {
        if ((e as { status?: number }).status === 404) return undefined
        throw wrap('read file', e)
      }
    },
    async recentPulls(count) {
      const pulls: PullRequest[] = []
      for await (const { data } of octokit.paginate.iterator(octokit.rest.pulls.list, {
        ...repoParams,
        state: 'all',
        sort: 'created',
        direction: 'desc',
        per_page: Math.min(100, count)
      })) {
        pulls.push(...data.map(p => toPullRequest(p as unknown as PullData)))
        if (pulls.length >= count) break
      }
      return pulls.slice(0, count)
    },
    ...writes,
    ...createConversation(lookup, whoAmI, call)
  }
}

/** The login the token acts as (see GitHubPort.whoAmI). */
async function identify(options: AdapterOptions, octokit: Octokit): Promise<string> {
  if (options.stateAuthor) return options.stateAuthor
  // Installation tokens (ghs_: the workflow token, App tokens) cannot read /user; the workflow
  // token posts as github-actions[bot]. App tokens name their bot with the state-author input.
  if (options.token.startsWith('ghs_')) return 'github-actions[bot]'
  try {
    const { data } = await octokit.rest.users.getAuthenticated()
    return data.login
  } catch (e) {
    const status = (e as { status?: number }).status
    // Installation tokens (the workflow token, App tokens) may not read /user.
    if (status === 403 || status === 401) return 'github-actions[bot]'
    throw wrap('get authenticated user', e)
  }
}

/** The writes that create something: each lands once even when GitHub's answer is lost. */
function createWrites(
  options: AdapterOptions,
  octokit: Octokit,
  lookup: Lookup,
  whoAmI: () => Promise<string>
): Pick<GitHubPort, 'createComment' | 'createCheckRun' | 'dispatchWorkflow' | 'createReview'> {
  const repoParams = { owner: options.owner, repo: options.repo }
  return {
    async createComment(pr, body) {
      const data = await call('create comment', () =>
        createOnce(
          lookup,
          'create comment',
          async () =>
            (await octokit.rest.issues.createComment({ ...repoParams, issue_number: pr, body }))
              .data,
          async since => findComment(lookup, pr, await whoAmI(), body, since)
        )
      )
      return toComment(data)
    },
    createCheckRun: input => call('create check run', () => createCheckRun(lookup, input)),
    async dispatchWorkflow(workflowFile, ref, inputs) {
      const branch = ref.replace(/^refs\/heads\//, '')
      return call('dispatch workflow', () =>
        createOnce(
          lookup,
          'dispatch workflow',
          async () => {
            // return_run_details (newer than Octokit's types): 200 with the run's id, else 204
            const params = { ...repoParams, workflow_id: workflowFile, ref, inputs }
            const withDetails = { ...params, return_run_details: true }
            const res = await octokit.rest.actions.createWorkflowDispatch(withDetails)
            const data = (res.status as number) === 200 ? (res.data as DispatchAnswer) : undefined
            return {
              runId: data?.workflow_run_id === undefined ? undefined : Number(data.workflow_run_id)
            }
          },
          (_since, sentAt) => findDispatchedRun(lookup, workflowFile, branch, sentAt)
        )
      )
    },
    async createReview(pr, event, body, commitId) {
      await call('create review', () =>
        createOnce(
          lookup,
          'create review',
          async () => {
            await octokit.rest.pulls.createReview({
              ...repoParams,
              pull_number: pr,
              event,
              body,
              commit_id: commitId
            })
            return true as const
          },
          async since => findReview(lookup, pr, { author: await whoAmI(), body, commitId }, since)
        )
      )
    }
  }
}

interface DispatchAnswer {
  workflow_run_id?: number | bigint
}

/** Creates the check run with the first batch of annotations, then appends the rest. */
async function createCheckRun(
  l: Lookup,
  input: CheckRunInput
): Promise<{ id: number; htmlUrl: string }> {
  const annotations = input.annotations.map(toGitHubAnnotation)
  const first = annotations.slice(0, ANNOTATIONS_PER_REQUEST)
  const output = { title: input.title, summary: input.summary, text: input.text }
  const repoParams = { owner: l.owner, repo: l.repo }
  const created = await createOnce(
    l,
    'create check run',
    async () =>
      (
        await l.octokit.rest.checks.create({
          ...repoParams,
          name: input.name,
          head_sha: input.headSha,
          status: 'completed',
          conclusion: input.conclusion,
          started_at: input.startedAt,
          completed_at: new Date().toISOString(),
          external_id: input.externalId,
          details_url: input.detailsUrl,
          ...(input.actions?.length ? { actions: input.actions } : {}),
          output: { ...output, annotations: first }
        })
      ).data,
    () => findCheckRun(l, input.headSha, input.name, input.externalId)
  )
  const id = Number(created.id)
  await appendAnnotations(l, id, annotations, first.length, ANNOTATIONS_PER_REQUEST, batch =>
    call('update check run', () =>
      l.octokit.rest.checks.update({
        ...repoParams,
        check_run_id: id,
        output: { ...output, annotations: batch }
      })
    )
  )
  return { id, htmlUrl: created.html_url ?? '' }
}
