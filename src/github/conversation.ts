import type { getOctokit } from '@actions/github'
import type { HumanReview, RepoRole, ReviewComment } from '../loop/types.js'
import type { ConversationPort } from '../ports/index.js'
import { createOnce, findReply, type Lookup } from './idempotent.js'
import { readPullMakers } from './pull-makers.js'

type Octokit = ReturnType<typeof getOctokit>
type Call = <T>(operation: string, fn: () => Promise<T>) => Promise<T>

const ROLES: readonly RepoRole[] = ['admin', 'maintain', 'write', 'triage', 'read', 'none']

/** The threads of a PR with their first comment, to find the one a review comment starts. */
const THREADS = `query($owner: String!, $name: String!, $number: Int!, $after: String) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      reviewThreads(first: 100, after: $after) {
        nodes { id isResolved comments(first: 1) { nodes { databaseId } } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
}`

const RESOLVE = `mutation($threadId: ID!) {
  resolveReviewThread(input: { threadId: $threadId }) { thread { id isResolved } }
}`

interface ThreadPage {
  repository?: {
    pullRequest?: {
      reviewThreads: {
        nodes: Array<{
          id: string
          isResolved: boolean
          comments: { nodes: Array<{ databaseId?: number }> }
        }>
        pageInfo: { hasNextPage: boolean; endCursor?: string }
      }
    }
  }
}

/** The thread ids (unresolved ones) that start with each of `commentIds`. */
async function threadsOf(
  octokit: Octokit,
  repo: { owner: string; repo: string },
  pr: number,
  commentIds: readonly number[]
): Promise<string[]> {
  const wanted = new Set(commentIds)
  const found: string[] = []
  let after: string | undefined
  for (let page = 0; page < 10; page++) {
    const data = await octokit.graphql<ThreadPage>(THREADS, {
      owner: repo.owner,
      name: repo.repo,
      number: pr,
      after
    })
    const threads = data.repository?.pullRequest?.reviewThreads
    for (const t of threads?.nodes ?? []) {
      const first = t.comments.nodes[0]?.databaseId
      if (!t.isResolved && first !== undefined && wanted.has(first)) found.push(t.id)
    }
    if (!threads?.pageInfo.hasNextPage) break
    after = threads.pageInfo.endCursor
  }
  return found
}

/** The human side of the PR over REST and GraphQL (see ConversationPort). */
export function createConversation(
  lookup: Lookup,
  whoAmI: () => Promise<string>,
  call: Call
): ConversationPort {
  const { octokit } = lookup
  const repo = { owner: lookup.owner, repo: lookup.repo }
  return {
    async roleOf(login) {
      const data = await call('get collaborator permission', () =>
        octokit.rest.repos.getCollaboratorPermissionLevel({ ...repo, username: login })
      ).then(
        res => res.data,
        (e: { status?: number }) => {
          if (e.status === 404) return undefined // GitHub does not know them
          throw e
        }
      )
      if (!data) return 'none'
      // role_name may be a custom role's name: its base permission says what it may do
      const known = (r: string): r is RepoRole => (ROLES as readonly string[]).includes(r)
      return known(data.role_name)
        ? data.role_name
        : known(data.permission)
          ? data.permission
          : 'none'
    },
    async react(target, content) {
      // GitHub answers 200 with the reaction the same person made before, 201 for a new one; a
      // reaction sent again after a lost answer (it is idempotent: nothing to look for) is taken
      // for this run's own, as the lost one most likely landed
      let sent = 0
      const status = await call('create reaction', () =>
        createOnce(
          lookup,
          'create reaction',
          async () => {
            sent++
            const params = { ...repo, comment_id: target.id, content }
            const res =
              target.kind === 'comment'
                ? await octokit.rest.reactions.createForIssueComment(params)
                : await octokit.rest.reactions.createForPullRequestReviewComment(params)
            return res.status as number
          },
          async () => undefined
        )
      )
      return status === 201 || sent > 1
    },
    async listReviews(pr) {
      const all = await call('list reviews', () =>
        octokit.paginate(octokit.rest.pulls.listReviews, {
          ...repo,
          pull_number: pr,
          per_page: 100
        })
      )
      return all.map((r): HumanReview => ({
        id: r.id,
        author: r.user?.login ?? '',
        authorType: r.user?.type ?? 'User',
        state: r.state.toUpperCase(),
        body: r.body ?? ''
      }))
    },
    async listReviewComments(pr) {
      const all = await call('list review comments', () =>
        octokit.paginate(octokit.rest.pulls.listReviewComments, {
          ...repo,
          pull_number: pr,
          per_page: 100
        })
      )
      return all.map((c): ReviewComment => ({
        id: c.id,
        reviewId: c.pull_request_review_id ?? undefined,
        author: c.user?.login ?? '',
        authorType: c.user?.type ?? 'User',
        path: c.path,
        line: c.line ?? undefined,
        body: c.body,
        inReplyTo: c.in_reply_to_id ?? undefined
      }))
    },
    async replyToReviewComment(pr, commentId, body) {
      // a reply whose answer was lost is looked for before it is sent again
      await call('reply to review comment', () =>
        createOnce(
          lookup,
          'reply to review comment',
          async () =>
            (
              await octokit.rest.pulls.createReplyForReviewComment({
                ...repo,
                pull_number: pr,
                comment_id: commentId,
                body
              })
            ).data.id,
          async since =>
            findReply(lookup, pr, { inReplyTo: commentId, author: await whoAmI(), body }, since)
        )
      )
    },
    async resolveThreads(pr, commentIds) {
      if (commentIds.length === 0) return 0
      const threads = await call('list review threads', () =>
        threadsOf(octokit, repo, pr, commentIds)
      )
      for (const threadId of threads)
        await call('resolve review thread', () => octokit.graphql(RESOLVE, { threadId }))
      return threads.length
    },
    pullMakers: pull => readPullMakers(octokit, repo, pull, call)
  }
}
