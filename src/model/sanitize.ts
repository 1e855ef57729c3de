import { DECEPTIVE, hiddenMarker, INVISIBLE } from '../loop/untrusted.js'
import { markHiddenForms } from './hidden-forms.js'
import { HTML_TAG, hasAttribute } from './html-tag.js'

/**
 * Removes invisible and control characters, and nothing else: safe on code, diffs, file contents
 * and command output. With `mark`, a run that holds a direction control or a tag character becomes
 * a visible marker instead (`⟦hidden: U+202E⟧`, `⟦hidden: 28 tag characters⟧`), so a reviewer can still flag code that reads
 * differently than it runs; the other runs (zero-width joiners, variation selectors) are dropped.
 */
export function stripInvisible(text: string, options: { mark?: boolean } = {}): string {
  return text.replace(INVISIBLE, run =>
    options.mark && DECEPTIVE.test(run) ? hiddenMarker(run) : ''
  )
}

/** HTML comments, unterminated ones to the end of the text, as a Markdown renderer hides them. */
const HTML_COMMENT = /<!--[\s\S]*?(?:-->|--!>|$)/g

/**
 * Markdown link reference definitions whose destination is `#` or `<>`: the "comment" idiom
 * (`[//]: # (hidden)`, `[comment]: <> (hidden)`, `[x]: # "hidden"`), which renders as nothing. The
 * whole line goes, with a title on the next line or spread over lines. Definitions with a real
 * destination (`[1]: https://example.com`) stay.
 */
const LINK_COMMENT = new RegExp(
  [
    // at the start of a line, inside block quotes or list items too
    String.raw`^[ \t]*(?:(?:>|[-*+]|\d{1,9}[.)])[ \t]*)*`,
    // the label: anything but brackets (escaped ones allowed), across lines but not a blank line
    String.raw`\[(?:\\.|[^\[\]\\\n]|\n(?![ \t]*\n))+\]:`,
    String.raw`[ \t]*\n?[ \t]*(?:#|<>|<#>)`,
    // an optional title, on the same line or the next; no unescaped `(` inside `(…)` (CommonMark's
    // rule), so an unclosed one stops at the next line's and the scan stays linear
    String.raw`(?:[ \t]*\n?[ \t]*(?:"(?:[^"\n]|\n(?![ \t]*\n))*"|'(?:[^'\n]|\n(?![ \t]*\n))*'|\((?:[^()\n]|\n(?![ \t]*\n))*\)))?`,
    String.raw`[ \t]*(?:\n|$)`
  ].join(''),
  'gm'
)

function cap(text: string, max: number): string {
  if (text.length <= max) return text
  // never cut a surrogate pair in half
  const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max
  return `${text.slice(0, end)}\n… (cut)`
}

/**
 * Untrusted prose (the PR's title and body, finding titles and messages, the `instructions`
 * input): invisible characters, HTML comments and Markdown comment lines are removed before it
 * reaches a prompt, so no instruction can hide in what a person does not see; link reference
 * titles go, hiding math becomes a marker and collapsed details are marked (markHiddenForms). Then it is cut at
 * `max` characters; pass `Infinity` where the text is already bounded elsewhere. Not for code: it
 * would remove HTML comments and lines from it.
 */
export function sanitizeUntrusted(text: string, max = 20_000): string {
  const cleaned = stripInvisible(text).replace(HTML_COMMENT, '').replace(LINK_COMMENT, '')
  return cap(stripHiddenMarkup(markHiddenForms(cleaned)), max)
}

/** Elements whose content a reader never sees. */
const UNSEEN = new Set(['script', 'style', 'template', 'noscript', 'title', 'head'])
/** Elements without content: `hidden` hides the tag alone. */
const VOID = new Set(
  'area base br col embed hr img input link meta param source track wbr'.split(' ')
)
/** Markdown image alt text (`![alt](…)`), shown only when the image fails to load. */
const IMAGE_ALT = /!\[(?:\\.|[^[\]\\\n])*\]\(/g
/** An inline link's or image's title (`[x](url "title")`), shown only on hover. */
const INLINE_TITLE =
  /\]\((<[^<>\n]*>|[^\s()<>]*)[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\))[ \t]*\)/g

/**
 * Markup a reader does not see: elements with the `hidden` attribute (to their end tag, nested ones
 * of the same name counted; an unclosed one hides the rest, as a browser would), the content of
 * script, style and template elements, and attribute text (`alt`, `title`, `aria-label`, `value`,
 * …: tags keep only their name), Markdown image alt text and link titles.
 */
export function stripHiddenMarkup(text: string): string {
  let out = ''
  let last = 0
  let hidden: { name: string; depth: number } | undefined
  for (const m of text.matchAll(HTML_TAG)) {
    const [tag, open, attrs = '', selfClosing, close] = m
    const end = m.index + tag.length
    const name = (open ?? close ?? '').toLowerCase()
    if (hidden) {
      if (name === hidden.name && open && !selfClosing) hidden.depth++
      else if (name === hidden.name && close && --hidden.depth === 0) hidden = undefined
      if (!hidden) last = end
      continue
    }
    out += text.slice(last, m.index)
    last = end
    const unseen = UNSEEN.has(name) || hasAttribute(attrs, 'hidden')
    if (open && unseen && !VOID.has(name) && !selfClosing) hidden = { name, depth: 1 }
    else if (!(open && unseen)) out += attrs.trim() ? `<${open}${selfClosing ? ' /' : ''}>` : tag
  }
  if (!hidden) out += text.slice(last)
  return out.replace(IMAGE_ALT, '![](').replace(INLINE_TITLE, ']($1)')
}

/** Prose a model wrote or a check printed, bounded elsewhere: cleaned, not cut. */
export const prose = (text: string): string => sanitizeUntrusted(text, Infinity)
