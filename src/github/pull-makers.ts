import type { getOctokit } from '@actions/github'
import type { BranchPush, PullCommit, PullMakers } from '../loop/participants.js'
import type { PullRequest } from '../loop/types.js'

type Octokit = ReturnType<typeof getOctokit>
type Call = <T>(operation: string, fn: () => Promise<T>) => Promise<T>

/** Pages of the head branch's activity read at most (100 each): its pushes, newest first. */
const ACTIVITY_PAGES = 10

/** Answers that say the activity cannot be read here (no access, a fork gone or private, invalid). */
const UNREADABLE = [403, 404, 410, 422]

/** GitHub lists at most this many of a PR's commits (REST and GraphQL alike). */
const COMMITS_LISTED = 250

/** Authors (the git author and its co-authors) read of each commit. */
const AUTHORS_READ = 20

/** The PR's commits as GitHub lists them (at most 250: GitHub's limit for this list). */
async function pullCommits(
  octokit: Octokit,
  repo: { owner: string; repo: string },
  pr: number,
  call: Call
): Promise<PullCommit[]> {
  const all = await call('list pull request commits', () =>
    octokit.paginate(octokit.rest.pulls.listCommits, { ...repo, pull_number: pr, per_page: 100 })
  )
  return all.map(c => {
    const login = (u: typeof c.author): string | undefined =>
      u && 'login' in u && typeof u.login === 'string' ? u.login : undefined
    const authorLogin = login(c.author)
    const committerLogin = login(c.committer)
    const authorEmail = c.commit.author?.email
    const committerEmail = c.commit.committer?.email
    return {
      sha: c.sha,
      message: c.commit.message,
      ...(authorLogin ? { authorLogin } : {}),
      ...(committerLogin ? { committerLogin } : {}),
      ...(authorEmail ? { authorEmail } : {}),
      ...(committerEmail ? { committerEmail } : {})
    }
  })
}

/**
 * The PR's commits with their authors as GitHub resolves them. Fields as GitHub's GraphQL reference
 * (docs.github.com/en/graphql/reference, "Commits" and "Pulls") describes them: `PullRequest.commits`
 * (PullRequestCommitConnection of PullRequestCommit, each with its `commit`), `Commit.authors` (a
 * GitActorConnection: "the git author and the Co-authored-by message trailer. The git author will
 * always be first"), and `GitActor` with `email`, `name` and `user` (the account GitHub ties the
 * address to, null when none).
 */
const COMMIT_AUTHORS = `query($owner: String!, $name: String!, $number: Int!, $after: String) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      commits(first: 100, after: $after) {
        totalCount
        nodes { commit { oid authors(first: ${AUTHORS_READ}) { totalCount nodes { email name user { login } } } } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
}`

interface AuthorsPage {
  repository?: {
    pullRequest?: {
      commits: {
        totalCount: number
        nodes: Array<{
          commit: {
            oid: string
            authors: {
              totalCount: number
              nodes: Array<{ email?: string | null; user?: { login: string } | null }>
            }
          }
        }>
        pageInfo: { hasNextPage: boolean; endCursor?: string | null }
      }
    }
  }
}

type Authors = NonNullable<PullCommit['authors']>

/**
 * Each commit's authors by sha (a commit with more than AUTHORS_READ is left out: its co-authors
 * are then known by noreply address only), and how many commits the PR has; or why GitHub would not
 * say (then `unknown`).
 */
async function commitAuthors(
  octokit: Octokit,
  repo: { owner: string; repo: string },
  pr: number,
  call: Call
): Promise<{ bySha?: Map<string, Authors>; total?: number; unknown?: string }> {
  const bySha = new Map<string, Authors>()
  let total = 0
  let after: string | undefined
  try {
    for (let page = 0; page * 100 < COMMITS_LISTED; page++) {
      const vars = { owner: repo.owner, name: repo.repo, number: pr, after }
      const data = await call('read commit authors', () =>
        octokit.graphql<AuthorsPage>(COMMIT_AUTHORS, vars)
      )
      const commits = data.repository?.pullRequest?.commits
      if (!commits) return { unknown: 'GitHub did not find the pull request through GraphQL' }
      total = commits.totalCount
      for (const { commit } of commits.nodes)
        if (commit.authors.totalCount <= commit.authors.nodes.length)
          bySha.set(
            commit.oid,
            commit.authors.nodes.map(a => ({
              ...(a.email ? { email: a.email } : {}),
              ...(a.user?.login ? { login: a.user.login } : {})
            }))
          )
      if (!commits.pageInfo.hasNextPage || !commits.pageInfo.endCursor) break
      after = commits.pageInfo.endCursor
    }
  } catch (e) {
    return {
      unknown: `GitHub's GraphQL API would not list the commits' authors: ${(e as Error).message.split('\n')[0]!.slice(0, 200)}`
    }
  }
  return { bySha, total }
}

/**
 * The changes to the PR's head branch (`GET /repos/{head repo}/activity?ref=…`: pushes, force
 * pushes, the branch's creation, merges into it; it needs read access to the head repository's
 * contents), or why they cannot be listed: a fork's activity may be unreadable with this token, and
 * GitHub answers 403 or 404 then. `partial` when there were more than the loop reads.
 */
async function headPushes(
  octokit: Octokit,
  pull: PullRequest,
  call: Call
): Promise<Pick<PullMakers, 'pushes' | 'pushersUnknown' | 'partial'>> {
  const [owner = '', repo = ''] = pull.headRepoFullName.split('/')
  const pushes: BranchPush[] = []
  let more = false
  try {
    await call('list head branch activity', async () => {
      let pages = 0
      for await (const { data } of octokit.paginate.iterator(octokit.rest.repos.listActivities, {
        owner,
        repo,
        ref: `refs/heads/${pull.headRef}`,
        per_page: 100
      })) {
        for (const a of data)
          if (a.activity_type !== 'branch_deletion' && a.actor?.login)
            pushes.push({ actor: a.actor.login, after: a.after })
        more = ++pages >= ACTIVITY_PAGES && data.length === 100
        if (pages >= ACTIVITY_PAGES) break
      }
    })
  } catch (e) {
    const status = (e as { status?: number }).status ?? 0
    if (!UNREADABLE.includes(status)) throw e
    return {
      pushersUnknown: `GitHub would not list the pushes to ${pull.headRepoFullName}'s ${pull.headRef} (HTTP ${status})`
    }
  }
  const partial = more
    ? [`the pushes to the head branch before its newest ${ACTIVITY_PAGES * 100}`]
    : []
  return { pushes, ...(partial.length ? { partial } : {}) }
}

/** The PR's commits and the pushes to its head branch: who made it (see madeBy). */
export async function readPullMakers(
  octokit: Octokit,
  repo: { owner: string; repo: string },
  pull: PullRequest,
  call: Call
): Promise<PullMakers> {
  const [listed, authors, pushed] = await Promise.all([
    pullCommits(octokit, repo, pull.number, call),
    commitAuthors(octokit, repo, pull.number, call),
    headPushes(octokit, pull, call)
  ])
  const commits = listed.map(c => {
    const a = authors.bySha?.get(c.sha)
    return a ? { ...c, authors: a } : c
  })
  const total = authors.total ?? (listed.length >= COMMITS_LISTED ? Infinity : listed.length)
  const partial = [
    ...(total > listed.length
      ? [`the commits after the first ${listed.length} (GitHub lists no more of a PR's commits)`]
      : []),
    ...(pushed.partial ?? [])
  ]
  return {
    commits,
    ...(pushed.pushes ? { pushes: pushed.pushes } : {}),
    ...(pushed.pushersUnknown ? { pushersUnknown: pushed.pushersUnknown } : {}),
    ...(authors.unknown ? { authorsUnknown: authors.unknown } : {}),
    ...(partial.length ? { partial } : {})
  }
}
