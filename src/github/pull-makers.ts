import type { getOctokit } from '@actions/github'
import type { PullCommit, PullMakers } from '../loop/participants.js'
import type { PullRequest } from '../loop/types.js'

type Octokit = ReturnType<typeof getOctokit>
type Call = <T>(operation: string, fn: () => Promise<T>) => Promise<T>

/** Pages of the head branch's activity read at most (100 each): its pushes, newest first. */
const ACTIVITY_PAGES = 10

/** Answers that say the activity cannot be read here (no access, a fork gone or private, invalid). */
const UNREADABLE = [403, 404, 410, 422]

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
 * Who pushed to the PR's head branch (`GET /repos/{head repo}/activity?ref=…`: pushes, force pushes,
 * the branch's creation, merges into it), or why that cannot be said: a fork's activity may be
 * unreadable with this token, and GitHub answers 403 or 404 then.
 */
async function headPushers(
  octokit: Octokit,
  pull: PullRequest,
  call: Call
): Promise<Pick<PullMakers, 'pushers' | 'pushersUnknown'>> {
  const [owner = '', repo = ''] = pull.headRepoFullName.split('/')
  const pushers = new Set<string>()
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
          if (a.activity_type !== 'branch_deletion' && a.actor?.login) pushers.add(a.actor.login)
        if (++pages >= ACTIVITY_PAGES) break
      }
    })
  } catch (e) {
    const status = (e as { status?: number }).status ?? 0
    if (!UNREADABLE.includes(status)) throw e
    return {
      pushersUnknown: `GitHub would not list the pushes to ${pull.headRepoFullName}'s ${pull.headRef} (HTTP ${status})`
    }
  }
  return { pushers: [...pushers] }
}

/** The PR's commits and the pushes to its head branch: who made it (see madeBy). */
export async function readPullMakers(
  octokit: Octokit,
  repo: { owner: string; repo: string },
  pull: PullRequest,
  call: Call
): Promise<PullMakers> {
  const [commits, pushed] = await Promise.all([
    pullCommits(octokit, repo, pull.number, call),
    headPushers(octokit, pull, call)
  ])
  return { commits, ...pushed }
}
