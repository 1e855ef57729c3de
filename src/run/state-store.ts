import { decodeState, hasStateMarker } from '../loop/state-comment.js'
import type { LoopState, PrComment } from '../loop/types.js'
import type { GitHubPort, Log } from '../ports/index.js'

export interface LoadedState {
  state?: LoopState
  comment?: PrComment
  /** Who the action posts as; only known when a state comment had to be checked. */
  me?: string
}

/**
 * Finds the sticky comment. Only comments written by the identity the action posts as are read;
 * an invalid or hand-edited state is ignored with a warning (its comment is reused and overwritten).
 */
export async function loadState(github: GitHubPort, pr: number, log: Log): Promise<LoadedState> {
  const candidates = (await github.listComments(pr)).filter(c => hasStateMarker(c.body))
  if (candidates.length === 0) return {}
  const me = await github.whoAmI()
  let reusable: PrComment | undefined
  for (const comment of candidates) {
    if (comment.author !== me) {
      log.warning(
        `Ignoring a review-loop state in comment ${comment.htmlUrl} written by ${comment.author}: only states written by ${me} are trusted.`
      )
      continue
    }
    const decoded = decodeState(comment.body)
    if (decoded.kind === 'ok' && decoded.state.pr === pr)
      return { state: decoded.state, comment, me }
    const reason = decoded.kind === 'invalid' ? decoded.reason : 'it belongs to another PR'
    log.warning(
      `Ignoring the review-loop state in ${comment.htmlUrl}: ${reason}. The loop starts afresh.`
    )
    reusable ??= comment
  }
  return { comment: reusable, me }
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
