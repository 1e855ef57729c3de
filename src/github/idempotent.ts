/**
 * Writes that create something, made at most once in effect. A write whose answer was lost (a 5xx,
 * a reset, a timeout) may have been carried out; before it is sent again, GitHub is asked whether
 * it was: the comment, check run, workflow run or review it would have made is looked for.
 */
import { setTimeout } from 'node:timers/promises'
import type { getOctokit } from '@actions/github'
import { isAmbiguous, type RetryPolicy } from './waiting.js'

type Octokit = ReturnType<typeof getOctokit>

/** Attempts at one write, counting the first. */
const MAX_WRITE_ATTEMPTS = 3
/**
 * What a lost write made is looked for among what was created since just before its first
 * attempt; GitHub's times have whole seconds and the runner's clock may be a little off.
 */
export const CLOCK_SLACK_MS = 5000

export interface Lookup {
  octokit: Octokit
  owner: string
  repo: string
  policy: RetryPolicy
  log: { warning(message: string): void }
  /** The id of the workflow run making the requests (GITHUB_RUN_ID), never taken for one it started. */
  selfRunId?: string
  /** The wait between one bulk write and the next (annotation batches); default WRITE_PACE_MS. */
  paceMs?: number
}

/**
 * GitHub: "If you're making a large number of POST, PATCH, PUT, or DELETE requests for a single user
 * or client ID, wait at least one second between each request" (REST API best practices). An
 * iteration's few writes go unpaced; the annotation batches of a large check run are paced.
 */
export const WRITE_PACE_MS = 1000

/**
 * A write whose answer was lost (`lost`) and whose result could not be looked for (`lookupError`):
 * GitHub may or may not have carried it out.
 */
export class UnknownOutcomeError extends Error {
  constructor(
    readonly lost: unknown,
    readonly lookupError: unknown
  ) {
    super((lost as Error | undefined)?.message ?? String(lost))
    this.name = 'UnknownOutcomeError'
  }
}

/**
 * Runs `create`; when its answer is lost, `find` looks for what it made (given the time just
 * before the first attempt less CLOCK_SLACK_MS, and that time itself) and only when nothing is
 * found is it sent again. When the look-up fails, the write fails with UnknownOutcomeError.
 */
export async function createOnce<T>(
  l: Lookup,
  what: string,
  create: () => Promise<T>,
  find: (since: number, sentAt: number) => Promise<T | undefined>
): Promise<T> {
  const sentAt = Date.now()
  const since = sentAt - CLOCK_SLACK_MS
  for (let attempt = 1; ; attempt++) {
    try {
      return await create()
    } catch (e) {
      if (!isAmbiguous(e)) throw e
      l.log.warning(`The answer to '${what}' was lost (${(e as Error).message}); looking for it.`)
      let found: T | undefined
      try {
        found = await find(since, sentAt)
      } catch (lookupError) {
        l.log.warning(`Could not look: ${(lookupError as Error).message}.`)
        throw new UnknownOutcomeError(e, lookupError)
      }
      if (found !== undefined) {
        l.log.warning(`'${what}' had been carried out; not sending it again.`)
        return found
      }
      if (attempt >= MAX_WRITE_ATTEMPTS || !(await l.policy.pause(attempt, what, e))) throw e
    }
  }
}

const createdSince = (at: string | null | undefined, since: number): boolean =>
  at !== null && at !== undefined && Date.parse(at) >= since

/** The newest comment on `pr` by `author` with exactly `body`, created since `since`. */
export async function findComment(
  l: Lookup,
  pr: number,
  author: string,
  body: string,
  since: number
): Promise<Awaited<ReturnType<Octokit['rest']['issues']['createComment']>>['data'] | undefined> {
  const comments = await l.octokit.paginate(l.octokit.rest.issues.listComments, {
    owner: l.owner,
    repo: l.repo,
    issue_number: pr,
    since: new Date(Math.floor(since / 1000) * 1000).toISOString().replace('.000Z', 'Z'),
    per_page: 100
  })
  return comments
    .filter(c => c.user?.login === author && c.body === body && createdSince(c.created_at, since))
    .at(-1)
}

/** Every check run named `name` on `headSha`, not only the newest. */
export function listCheckRuns(
  l: Pick<Lookup, 'octokit' | 'owner' | 'repo'>,
  headSha: string,
  name: string
) {
  return l.octokit.paginate(l.octokit.rest.checks.listForRef, {
    owner: l.owner,
    repo: l.repo,
    ref: headSha,
    check_name: name,
    filter: 'all',
    per_page: 100
  })
}

/** The check run named `name` on `headSha` with `externalId`, if one was created. */
export async function findCheckRun(
  l: Lookup,
  headSha: string,
  name: string,
  externalId: string
): Promise<{ id: number; html_url: string | null } | undefined> {
  const runs = await listCheckRuns(l, headSha, name)
  const run = runs.find(r => r.external_id === externalId)
  return run && { id: Number(run.id), html_url: run.html_url }
}

/**
 * The id of a run of `workflowFile` dispatched on `branch` by this dispatch, if there is one: a run
 * created once the request was sent (`sentAt`, give or take a second), never the run making the
 * request (`selfRunId`, which a dispatch also started moments before). A run shows in the list a
 * moment after its dispatch, so the list is read a few times, backing off within the run's
 * budget for waits, before the dispatch counts as not made; when the budget runs out first, the
 * look-up cannot tell, and fails.
 */
export async function findDispatchedRun(
  l: Lookup,
  workflowFile: string,
  branch: string,
  sentAt: number
): Promise<{ runId: number } | undefined> {
  // GitHub's times have whole seconds; a second more for the runner's clock
  const since = Math.floor(sentAt / 1000) * 1000 - 1000
  for (let look = 1; ; look++) {
    const { data } = await l.octokit.rest.actions.listWorkflowRuns({
      owner: l.owner,
      repo: l.repo,
      workflow_id: workflowFile,
      event: 'workflow_dispatch',
      branch,
      per_page: 30
    })
    const run = data.workflow_runs.find(
      r => String(r.id) !== l.selfRunId && createdSince(r.created_at, since)
    )
    if (run) return { runId: Number(run.id) }
    if (look >= 3) return undefined
    if (!(await l.policy.pause(look, 'looking for the dispatched run')))
      throw new Error(
        `the new run was not in the list of runs yet, and this run's waits on GitHub (max-wait-seconds) are spent`
      )
  }
}

/** The id of `author`'s reply with `body` to review comment `inReplyTo` on `pr`, made since `since`. */
export async function findReply(
  l: Lookup,
  pr: number,
  reply: { inReplyTo: number; author: string; body: string },
  since: number
): Promise<number | undefined> {
  const comments = await l.octokit.paginate(l.octokit.rest.pulls.listReviewComments, {
    owner: l.owner,
    repo: l.repo,
    pull_number: pr,
    per_page: 100
  })
  return comments.find(
    c =>
      c.in_reply_to_id === reply.inReplyTo &&
      c.user?.login === reply.author &&
      c.body === reply.body &&
      createdSince(c.created_at, since)
  )?.id
}

/** Whether `author` left a review with `body` on `commitId` of `pr` since `since`. */
export async function findReview(
  l: Lookup,
  pr: number,
  review: { author: string; body: string; commitId: string },
  since: number
): Promise<true | undefined> {
  const reviews = await l.octokit.paginate(l.octokit.rest.pulls.listReviews, {
    owner: l.owner,
    repo: l.repo,
    pull_number: pr,
    per_page: 100
  })
  const found = reviews.some(
    r =>
      r.user?.login === review.author &&
      r.body === review.body &&
      r.commit_id === review.commitId &&
      (r.submitted_at === undefined || createdSince(r.submitted_at, since))
  )
  return found || undefined
}

/** How many annotations the check run has. */
export async function countAnnotations(l: Lookup, checkRunId: number): Promise<number> {
  const all = await l.octokit.paginate(l.octokit.rest.checks.listAnnotations, {
    owner: l.owner,
    repo: l.repo,
    check_run_id: checkRunId,
    per_page: 100
  })
  return all.length
}

/**
 * Appends `annotations` from index `landed` on in batches of `perRequest`. Each update appends
 * what it carries, so after a lost answer the annotations are counted and only what is missing is
 * sent again.
 */
export async function appendAnnotations<A>(
  l: Lookup,
  checkRunId: number,
  annotations: A[],
  landed: number,
  perRequest: number,
  send: (batch: A[]) => Promise<unknown>
): Promise<void> {
  let failures = 0
  while (landed < annotations.length) {
    const batch = annotations.slice(landed, landed + perRequest)
    await setTimeout(l.paceMs ?? WRITE_PACE_MS)
    try {
      await send(batch)
      landed += batch.length
      failures = 0
    } catch (e) {
      if (!isAmbiguous(e)) throw e
      failures++
      l.log.warning(`The answer to an annotation batch was lost (${(e as Error).message}).`)
      const count = await countAnnotations(l, checkRunId).catch(() => undefined)
      if (count === undefined) throw e
      if (count > landed) {
        landed = count
        continue
      }
      if (failures >= MAX_WRITE_ATTEMPTS || !(await l.policy.pause(failures, 'the annotations', e)))
        throw e
    }
  }
}
