import { decodeState, hasStateMarker, type StateProblem } from '../loop/state-comment.js'
import type { LoopState, PrComment } from '../loop/types.js'
import type { GitHubPort, Log } from '../ports/index.js'

/** Why a state written by the action's own identity is not trusted. */
export interface UntrustedState {
  /** The comment holding it; left as it is, as evidence. */
  comment: PrComment
  problem: StateProblem | 'other_pr' | 'competing'
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
 * others are ignored with a warning (anyone can paste a marker). A state by that identity that is
 * unreadable, edited, differently keyed, of another PR or of a newer schema, or two such comments,
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
  const [first, second] = mine
  if (!first) return { me }
  const found = second
    ? {
        comment: second,
        problem: 'competing' as const,
        reason: `${mine.length} comments written by ${me} hold a review-loop state (${mine.map(c => c.htmlUrl).join(', ')}), where one is expected`
      }
    : distrust(first, pr, key)
  if (!('comment' in found)) return { state: found, comment: first, me }
  log.warning(
    `Not trusting the review-loop state in ${found.comment.htmlUrl}: ${found.reason}. The loop halts as needs_discussion instead of starting afresh; delete the state comment to reset it deliberately.`
  )
  const notice = comments.find(c => c.author === me && c.body.startsWith(UNTRUSTED_MARKER))
  return { me, untrusted: found, notice }
}

/** Writes the sticky comment: updates ours, or creates it the first time. */
export async function saveComment(
  github: GitHubPort,
  pr: number,
  existing: PrComment | undefined,
  body: string
): Promise<PrComment> {
  return existing ? github.updateComment(existing.id, body) : github.createComment(pr, body)
}
