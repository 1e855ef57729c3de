import { decodeState, hasStateMarker, type StateProblem } from '../loop/state-comment.js'
import type { LoopState, PrComment } from '../loop/types.js'
import type { GitHubPort, Log } from '../ports/index.js'

/** Why a state written by the action's own identity is not trusted. */
export interface UntrustedState {
  /** The comment holding it; left as it is, as evidence. */
  comment: PrComment
  problem: StateProblem | 'other_pr'
  reason: string
}

export interface LoadedState {
  state?: LoopState
  comment?: PrComment
  /** Who the action posts as; only known when a state comment had to be checked. */
  me?: string
  /** A state by the action's identity that cannot be trusted: the loop halts, never starts afresh. */
  untrusted?: UntrustedState
  /** The action's earlier notice about an untrusted state, to update rather than post again. */
  notice?: PrComment
  /** Several state comments were found and merged into this one (two runs at once). */
  merged?: boolean
}

/** Marks the plain comment that reports an untrusted state; it holds no state. */
export const UNTRUSTED_MARKER = '<!-- review-loop:untrusted -->'

/** Why the one state comment by the action's identity cannot be trusted, if it cannot. */
function distrust(
  comment: PrComment,
  pr: number,
  key: string | undefined
): UntrustedState | LoopState {
  const decoded = decodeState(comment.body, key)
  if (decoded.kind === 'ok' && decoded.state.pr === pr) return decoded.state
  if (decoded.kind === 'ok') {
    const reason = `it holds the state of PR #${decoded.state.pr}, not of PR #${pr}`
    return { comment, problem: 'other_pr', reason }
  }
  if (decoded.kind === 'invalid')
    return { comment, problem: decoded.problem, reason: decoded.reason }
  return { comment, problem: 'malformed', reason: 'the state marker is malformed' }
}

/**
 * Finds the sticky comment. Only comments written by the identity the action posts as are read;
 * others are ignored with a warning (anyone can paste a marker). Duplicates are merged. A state by
 * that identity that is unreadable, edited, differently keyed, of another PR or of a newer schema
 * is reported as untrusted: the loop must not start afresh, which would reset its cap and budget.
 * `key` is the state-key secret, when set.
 */
export async function loadState(
  github: GitHubPort,
  pr: number,
  log: Log,
  key?: string
): Promise<LoadedState> {
  const comments = await github.listComments(pr)
  const candidates = comments.filter(c => hasStateMarker(c.body))
  if (candidates.length === 0) return {}
  const me = await github.whoAmI()
  const mine = candidates.filter(comment => {
    if (comment.author === me) return true
    log.warning(
      `Ignoring a review-loop state in comment ${comment.htmlUrl} written by ${comment.author}: only states written by ${me} are trusted.`
    )
    return false
  })
  const read = mine.map(comment => ({ comment, found: distrust(comment, pr, key) }))
  const bad = read.find(r => 'comment' in r.found)?.found as UntrustedState | undefined
  const valid = read.flatMap(r => ('comment' in r.found ? [] : [{ ...r, state: r.found }]))
  if (!bad) {
    const [winner, ...losers] = valid.sort(
      (a, b) =>
        count(b.state) - count(a.state) || b.state.updatedAt.localeCompare(a.state.updatedAt)
    )
    if (!winner) return { me }
    if (!losers.length) return { state: winner.state, comment: winner.comment, me }
    await mergeDuplicates(
      github,
      log,
      winner.comment,
      losers.map(l => l.comment)
    )
    // the spend of a run that wrote the other state is not lost from the budget
    const totals = valid.map(v => v.state.totals).sort((a, b) => b.costUsd - a.costUsd)[0]!
    return { state: { ...winner.state, totals }, comment: winner.comment, me, merged: true }
  }
  log.warning(
    `Not trusting the review-loop state in ${bad.comment.htmlUrl}: ${bad.reason}. The loop halts as needs_discussion instead of starting afresh; delete the state comment to reset it deliberately.`
  )
  const notice = comments.find(c => c.author === me && c.body.startsWith(UNTRUSTED_MARKER))
  return { me, untrusted: bad, notice }
}

/**
 * How far a state got: its round, then the number (over the whole PR) of its last iteration, which
 * compaction never lowers. The merge keeps the furthest, so it never lowers the cap's count.
 */
function count(state: LoopState): number {
  return state.round * 1_000_000 + (state.iterations.at(-1)?.n ?? 0)
}

/**
 * Two runs that started at once each created a state comment (or a create was retried after a lost
 * answer): the state that got furthest (the newest among equals) is kept with the larger spend, the
 * others are deleted, with a warning.
 */
async function mergeDuplicates(
  github: GitHubPort,
  log: Log,
  kept: PrComment,
  others: PrComment[]
): Promise<void> {
  log.warning(
    `Found ${others.length + 1} review-loop state comments where one is expected (two runs at once, or a retried write); keeping ${kept.htmlUrl}, which got furthest, and deleting ${others.map(c => c.htmlUrl).join(', ')}. A concurrency group per PR prevents this (see the README).`
  )
  for (const other of others) {
    try {
      await github.deleteComment(other.id)
    } catch (e) {
      log.warning(`Could not delete ${other.htmlUrl}: ${(e as Error).message}`)
    }
  }
}

/**
 * Writes the sticky comment: updates ours, or creates it the first time, or again when it is gone
 * (another run merged it away, or someone deleted it while this run worked).
 */
export async function saveComment(
  github: GitHubPort,
  pr: number,
  existing: PrComment | undefined,
  body: string
): Promise<PrComment> {
  if (!existing) return github.createComment(pr, body)
  try {
    return await github.updateComment(existing.id, body)
  } catch (e) {
    if ((e as { status?: number }).status !== 404) throw e
    return github.createComment(pr, body)
  }
}
