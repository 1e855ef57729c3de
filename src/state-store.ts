import type { GitHubPort, CommentInfo } from './github/port.js'
import { decodeState, hasStateMarker } from './loop/state-comment.js'
import type { LoopState } from './loop/state.js'
import type { Log } from './log.js'

export interface LoadedState {
  state?: LoopState
  comment?: CommentInfo
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
  let reusable: CommentInfo | undefined
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
  existing: CommentInfo | undefined,
  body: string
): Promise<CommentInfo> {
  return existing ? github.updateComment(existing.id, body) : github.createComment(pr, body)
}
