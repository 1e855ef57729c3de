/**
 * What GitHub makes live in a text it shows: the reference forms it links (and for mentions and
 * cross-references, tells the other side about), and the characters that reorder what is shown.
 */

/** Direction controls: embeddings, overrides, isolates and the marks. */
export const BIDI_CHAR = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u

/** GitHub's autolinked forms, as they stand in the text: each needs its characters side by side. */
const LIVE = [
  // `#12`, `owner/repo#12`
  /#\d+/g,
  // `GH-12`, any case
  /\bGH-\d+/gi,
  // `@user`, `@org/team`, `owner/repo@sha`
  /@[A-Za-z0-9][\w-]*/g,
  // a commit SHA on its own, 7 to 40 hex digits
  /(?<![0-9A-Za-z])[0-9a-f]{7,40}(?![0-9A-Za-z])/gi,
  // the URL of an issue, a PR, a discussion or a commit: GitHub shows it as a reference
  /https?:\/\/[^\s/]+\/[\w.-]+\/[\w.-]+\/(?:issues|pulls?|discussions|commits?)\/\w+/gi
]

/** The text GitHub reads for references in Markdown: not code, not link destinations. */
export function outsideCode(markdown: string): string {
  return markdown
    .replace(/^ *(`{3,}|~{3,})[^]*?^ *\1[`~]* *$/gm, '')
    .replace(/(`+)[^`][^]*?\1/g, '')
    .replace(/\]\([^)\s]*\)/g, '](…)')
}

/**
 * The live references in `text` (Markdown unless `plain`), but `trusted` ones (our own: the
 * repository's commits, the loop's mentions).
 */
export function liveReferences(
  text: string,
  options: { plain?: boolean; trusted?: readonly string[] } = {}
): string[] {
  const read = options.plain ? text : outsideCode(text)
  const trusted = (options.trusted ?? []).map(t => t.toLowerCase())
  return LIVE.flatMap(re => read.match(re) ?? []).filter(
    m => !trusted.some(t => t.startsWith(m.toLowerCase()) || m.toLowerCase() === t)
  )
}
