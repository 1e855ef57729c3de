/**
 * A run that failed, in one line on the PR: what failed and what to do. The line goes at the end of
 * the sticky comment (the next saved state renders the comment afresh, without it), or in a check
 * run and the job summary where there is no state yet.
 */
import type { Surface } from '../loop/reasons.js'
import { escapeMd } from './format.js'

/** Marks the failure line in the sticky comment, so a later failure replaces it. */
export const FAILURE_MARKER = '<!-- review-loop:failure -->'

/** The longest failure message shown on the PR; the job's log has all of it. */
const MAX_MESSAGE = 1500

/**
 * A remedy: an imperative that starts a sentence or a clause (`Set state-key …`, `…: check the
 * github-token input`, `…; re-run the workflow later`, `… (or set review-drafts: true)`), not the
 * same verb in the cause (`could not set the commit status`). A message without one gets the
 * generic remedy.
 */
const REMEDY =
  /(?:^|[.:;!?(—–]\s+|\b(?:or|then)\s+)(?:re-run|run review-loop|grant|unset|set|check|raise|delete|upgrade|use)\b(?!-)/im

/** What to do about a failure that names no remedy: try again, where the details are. */
const GENERIC_REMEDY: Record<Surface, string> = {
  action: "Re-run the job; if it fails the same way again, the job's log has the details.",
  // on a laptop there is no job: the terminal holds what came before the failure
  cli: "Run review-loop again; if it fails the same way again, the lines above say what came before it (--verbose shows every check's output)."
}

/** The failure's message with a remedy: the cause as it was said, then what to do. */
export function withRemedy(message: string, surface: Surface = 'action'): string {
  const said = message.trim().replace(/\s+$/, '')
  if (REMEDY.test(said)) return said
  return `${said.replace(/\.?$/, '.')} ${GENERIC_REMEDY[surface]}`
}

/** One line of Markdown for `message`: plain text, Markdown and mentions escaped (`escapeMd`). */
function flat(message: string): string {
  const cut = message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}… (cut)` : message
  return escapeMd(cut)
}

/** The failure as a Markdown block: `what` (e.g. 'Run 12 (attempt 1)') failed, and why. */
export function failureBlock(what: string, message: string): string {
  return `${FAILURE_MARKER}\n> [!CAUTION]\n> **${escapeMd(what)} failed:** ${flat(withRemedy(message))}`
}

/** `body` with `block` at its end, in place of an earlier failure line. */
export function withFailure(body: string, block: string): string {
  const at = body.indexOf(FAILURE_MARKER)
  const kept = (at === -1 ? body : body.slice(0, at)).replace(/\s+$/, '')
  return `${kept}\n\n${block}`
}
