import { writeFileSync } from 'node:fs'
import path from 'node:path'
import type { PrComment, PullRequest } from '../loop/types.js'
import type { CheckRunInput, Git, GitHubPort } from '../ports/index.js'

/** Who the local loop writes as: the author of its state comment. */
export const LOCAL_LOGIN = 'review-loop[local]'

/** What the local loop's stand-in for GitHub holds: the comment, the checks, the next run asked for. */
export interface LocalRecord {
  comment?: PrComment
  checkRuns: CheckRunInput[]
  /** Set when the loop asked for its next iteration (the dispatch it makes on GitHub). */
  nextRequested: boolean
}

/**
 * GitHub's part of the loop on a local repository: the branch as a pull request, read from the
 * loop's clone's origin (a copy of the user's repository), the state comment in memory and in `<out>/comment.md`, check
 * runs in `<out>/checks.json`. Nothing leaves the machine; labels, reviewers and reactions have no
 * one to reach and do nothing.
 */
export function createLocalGitHub(input: {
  /** The loop's clone, whose origin is the copy of the user's repository. */
  git: Git
  pull: Omit<PullRequest, 'headSha' | 'baseSha'>
  out: string
  record: LocalRecord
}): GitHubPort {
  const { git, out, record } = input
  const save = (c: PrComment): PrComment => {
    record.comment = c
    writeFileSync(path.join(out, 'comment.md'), c.body)
    return c
  }
  const nothing = async (): Promise<void> => {}
  return {
    whoAmI: async () => LOCAL_LOGIN,
    async getPull() {
      const headSha = await git.remoteHead(input.pull.headRef)
      const baseSha = await git.remoteHead(input.pull.baseRef)
      if (!headSha || !baseSha)
        throw new Error(`${input.pull.headRef} or ${input.pull.baseRef} is gone`)
      return { ...input.pull, headSha, baseSha }
    },
    listComments: async () => (record.comment ? [record.comment] : []),
    createComment: async (_pr, body) =>
      save({ id: 1, body, author: LOCAL_LOGIN, htmlUrl: path.join(out, 'comment.md') }),
    updateComment: async (id, body) =>
      save({ id, body, author: LOCAL_LOGIN, htmlUrl: path.join(out, 'comment.md') }),
    async deleteComment() {
      record.comment = undefined
    },
    async createCheckRun(check) {
      // its findings were printed after their review (see decidePhase)
      record.checkRuns.push(check)
      writeFileSync(path.join(out, 'checks.json'), JSON.stringify(record.checkRuns, null, 2))
      return { id: record.checkRuns.length, htmlUrl: '' }
    },
    createCommitStatus: nothing,
    async dispatchWorkflow() {
      record.nextRequested = true
      return {}
    },
    checkRunSummaries: async () => [],
    latestDispatchedRun: async () => undefined,
    runEnded: async () => true,
    readFile: async (file, ref) => git.show(ref ?? `origin/${input.pull.baseRef}`, file),
    recentPulls: async () => [],
    addLabels: nothing,
    removeLabel: nothing,
    requestReviewers: nothing,
    createReview: nothing,
    roleOf: async () => 'admin',
    react: async () => true,
    listReviews: async () => [],
    listReviewComments: async () => [],
    replyToReviewComment: nothing,
    resolveThreads: async () => 0,
    // one person's machine: nobody else to settle the PR, and no one but them to refuse
    pullMakers: async () => ({ commits: [], pushes: [] })
  }
}
