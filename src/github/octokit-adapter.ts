import { getOctokit } from '@actions/github'
import { retry } from '@octokit/plugin-retry'
import { throttling } from '@octokit/plugin-throttling'
import Bottleneck from 'bottleneck/light.js'
import type { Prefetched } from '../action/prefetch.js'
import type { Annotation, PrComment, PullRequest } from '../loop/types.js'
import type { CheckRunInput, GitHubPort } from '../ports/index.js'

export const ANNOTATIONS_PER_REQUEST = 50

export interface AdapterOptions {
  token: string
  owner: string
  repo: string
  baseUrl: string
  /** Login the action posts as, when it cannot be asked (GitHub App tokens). */
  stateAuthor?: string
  /** The pull request fetched at start-up, used once when it answered 200. */
  prefetched?: Prefetched
  log: { warning(message: string): void; debug(message: string): void }
}

/** What to tell the user for a permission error: which `permissions:` scope is missing. */
const SCOPE_FOR: Record<string, string> = {
  'create comment': 'issues: write',
  'update comment': 'issues: write',
  'create check run': 'checks: write',
  'update check run': 'checks: write',
  'dispatch workflow': 'actions: write',
  'add labels': 'issues: write',
  'remove label': 'issues: write',
  'request reviewers': 'pull-requests: write',
  'create review': 'pull-requests: write',
  'get pull request': 'pull-requests: read',
  'list comments': 'issues: read'
}

/** An HTTP error from GitHub, reduced to what the loop acts on. */
export class GitHubError extends Error {
  constructor(
    readonly status: number,
    readonly operation: string,
    message: string
  ) {
    super(`${operation}: ${message} (HTTP ${status})`)
    this.name = 'GitHubError'
  }
}

function wrap(operation: string, e: unknown): GitHubError {
  const err = e as { status?: number; message?: string; response?: { data?: { message?: string } } }
  const status = err.status ?? 0
  let message = err.response?.data?.message ?? err.message ?? String(e)
  if (status === 403 && /not accessible by integration/i.test(message) && SCOPE_FOR[operation]) {
    message += `. Grant the workflow '${SCOPE_FOR[operation]}' under permissions: (see the README).`
  }
  return new GitHubError(status, operation, message)
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
    merged: data.merged,
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
    annotation_level: a.level,
    title: a.title,
    message: a.message,
    raw_details: a.details
  }
}

export function createGitHubAdapter(options: AdapterOptions): GitHubPort {
  const { owner, repo, log } = options
  const retryTwice =
    (what: string) =>
    (
      retryAfter: number,
      opts: { method: string; url: string },
      _o: unknown,
      count: number
    ): boolean => {
      log.warning(`GitHub ${what} on ${opts.method} ${opts.url}; retrying in ${retryAfter}s.`)
      return count < 2
    }
  const octokit = getOctokit(
    options.token,
    {
      baseUrl: options.baseUrl,
      throttle: {
        // One iteration makes fewer than ten writes, far from GitHub's secondary limits, so writes
        // are not paced; rate-limit answers (primary and secondary) are still waited out and retried.
        write: new Bottleneck.Group({ maxConcurrent: 1, minTime: 0 }),
        notifications: new Bottleneck.Group({ maxConcurrent: 1, minTime: 0 }),
        onRateLimit: retryTwice('rate limit'),
        onSecondaryRateLimit: retryTwice('secondary rate limit')
      }
    },
    retry,
    throttling
  )
  const repoParams = { owner, repo }

  const toComment = (c: {
    id: number
    body?: string
    user: { login: string } | null
    html_url: string
  }): PrComment => ({
    id: c.id,
    body: c.body ?? '',
    author: c.user?.login ?? '',
    htmlUrl: c.html_url
  })

  return {
    async whoAmI() {
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
    },
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
    async createComment(pr, body) {
      const { data } = await call('create comment', () =>
        octokit.rest.issues.createComment({ ...repoParams, issue_number: pr, body })
      )
      return toComment(data)
    },
    async updateComment(id, body) {
      const { data } = await call('update comment', () =>
        octokit.rest.issues.updateComment({ ...repoParams, comment_id: id, body })
      )
      return toComment(data)
    },
    async createCheckRun(input: CheckRunInput) {
      const annotations = input.annotations.map(toGitHubAnnotation)
      const batches: Array<typeof annotations> = []
      for (let i = 0; i < annotations.length; i += ANNOTATIONS_PER_REQUEST) {
        batches.push(annotations.slice(i, i + ANNOTATIONS_PER_REQUEST))
      }
      const output = { title: input.title, summary: input.summary, text: input.text }
      const { data } = await call('create check run', () =>
        octokit.rest.checks.create({
          ...repoParams,
          name: input.name,
          head_sha: input.headSha,
          status: 'completed',
          conclusion: input.conclusion,
          started_at: input.startedAt,
          completed_at: new Date().toISOString(),
          external_id: input.externalId,
          details_url: input.detailsUrl,
          output: { ...output, annotations: batches[0] ?? [] }
        })
      )
      for (const batch of batches.slice(1)) {
        await call('update check run', () =>
          octokit.rest.checks.update({
            ...repoParams,
            check_run_id: data.id,
            output: { ...output, annotations: batch }
          })
        )
      }
      return { id: data.id, htmlUrl: data.html_url ?? '' }
    },
    async dispatchWorkflow(workflowFile, ref, inputs) {
      await call('dispatch workflow', () =>
        octokit.rest.actions.createWorkflowDispatch({
          ...repoParams,
          workflow_id: workflowFile,
          ref,
          inputs
        })
      )
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
    async createReview(pr, event, body, commitId) {
      await call('create review', () =>
        octokit.rest.pulls.createReview({
          ...repoParams,
          pull_number: pr,
          event,
          body,
          commit_id: commitId
        })
      )
    }
  }
}
