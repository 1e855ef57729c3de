/**
 * Three forms of Markdown whose text a reader of the PR page does not see at a glance, found
 * outside code (fenced blocks and code spans render as written, so they are left as they are; only
 * what is code in every reading of the text counts, see markdown-code.ts):
 *
 * - a link reference definition's title (`[r]: https://x "title"`), shown only on hover: the title
 *   goes, the definition stays;
 * - math that hides its text (`$\color{white}…$`, `\phantom{…}`, …) in `$…$`, `$$…$$`, `` $`…`$ ``
 *   or a `math` code block: the whole formula becomes a marker naming what hid it;
 * - the content of a collapsed `<details>` (no `open`): kept, but marked as collapsed.
 */

import { HTML_TAG, hasAttribute } from './html-tag.js'
import { replaceCode } from './markdown-code.js'

// ── code, set aside while the forms are looked for ────────────────────────────────────────────

/** Stands for the code set aside: `\u0001N\u0002` (control characters are stripped before). */
// eslint-disable-next-line no-control-regex -- the slots are made of control characters, on purpose
const SLOT = /\u0001(\d+)\u0002/g

/** The text with its code replaced by slots (math blocks and `` $`…`$ `` made harmless first). */
function setAsideCode(text: string): { text: string; code: string[] } {
  const code: string[] = []
  const slot = (kept: string): string => `\u0001${code.push(kept) - 1}\u0002`
  return { text: replaceCode(text, slot, hideMath), code }
}

const putBack = (text: string, code: readonly string[]): string =>
  text.replace(SLOT, (_, i: string) => code[Number(i)] ?? '')

// ── link reference titles ─────────────────────────────────────────────────────────────────────

/**
 * A title in `open`…`close`, over lines but not across a blank one. Neither delimiter occurs
 * unescaped inside (CommonMark's rule), which keeps the scan linear: an unclosed title stops at the
 * next one.
 */
const TITLE_PART = (open: string, close: string): string =>
  `\\${open}(?:\\\\.|[^\\${open}\\${close}\\\\\\n]|\\n(?![ \\t]*\\n))*\\${close}`

/**
 * A link reference definition with a destination and a title, on the same line or the next, in
 * `"…"`, `'…'` or `(…)`: group 1 is the definition without its title.
 */
const LINK_TITLE = new RegExp(
  [
    // at the start of a line, inside block quotes or list items too
    String.raw`^([ \t]*(?:(?:>|[-*+]|\d{1,9}[.)])[ \t]*)*`,
    String.raw`\[(?:\\.|[^\[\]\\\n]|\n(?![ \t]*\n))+\]:`,
    String.raw`[ \t]*\n?[ \t]*(?:<[^<>\n]*>|[^\s<]\S*))`,
    String.raw`(?=[ \t\n])[ \t]*\n?[ \t]*`,
    `(?:${TITLE_PART('"', '"')}|${TITLE_PART("'", "'")}|${TITLE_PART('(', ')')})`,
    String.raw`[ \t]*(?=\n|$)`
  ].join(''),
  'gm'
)

// ── math ──────────────────────────────────────────────────────────────────────────────────────

/**
 * `$$…$$`, then `$…$` (opened by a `$` no backslash escapes, not before a space, to the next
 * unescaped `$`, not after a space, not across a blank line). Linear: an attempt ends at the next
 * unescaped `$`, where the next attempt starts, and an escaped `$` starts none.
 */
const MATH =
  /\$\$[\s\S]+?\$\$|(?<!(?:^|[^\\])(?:\\\\)*\\)\$(?![\s$])(?:\\.|[^$\\\n]|\n(?![ \t]*\n))*?(?<![\s\\])\$/g

/** Math commands that never show their argument, or that may hide it (styles, classes). */
const NEVER_SHOWN = /\\(?:[hv]?phantom|style|class|cssId)(?![A-Za-z])/g
/** A colour command and its colour: `\color{white}`, `\textcolor[RGB]{255,255,255}{…}`, … */
const COLOUR =
  /\\(color|textcolor|colorbox|fcolorbox|pagecolor)(?![A-Za-z])\s*(?:\[([^\]]*)\])?\s*(?:\{([^{}]*)\})?/g

/** Named colours on which GitHub's pages show no text: the light and the dark backgrounds. */
const INVISIBLE_NAMES = new Set(
  'white black transparent none snow ivory ghostwhite whitesmoke floralwhite mintcream azure aliceblue seashell honeydew lavenderblush linen oldlace'.split(
    ' '
  )
)

/**
 * The colour's red, green, blue and alpha (0–255) in xcolor's models (`#hex`, `[HTML]`, `[rgb]`,
 * `[RGB]`, `[gray]`), or undefined when it is none of these.
 */
function channels(model: string, spec: string): number[] | undefined {
  const s = spec.trim().toLowerCase()
  if (model === '' || model === 'HTML') {
    const hex = /^#?([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(s)
    if (!hex || (model === '' && !s.startsWith('#'))) return undefined
    const h = hex[1]!.length <= 4 ? [...hex[1]!].map(c => c + c).join('') : hex[1]!
    return (h.match(/../g) ?? []).map(p => parseInt(p, 16))
  }
  const parts = s.split(/\s*,\s*/).map(Number)
  if (parts.some(n => !Number.isFinite(n))) return undefined
  if (model === 'rgb' && parts.length === 3) return parts.map(n => n * 255)
  if (model === 'RGB' && parts.length === 3) return parts
  if (model === 'gray' && parts.length === 1) return [0, 0, 0].map(() => parts[0]! * 255)
  return undefined
}

/**
 * Whether text in this colour may not show on GitHub's pages: transparent, near white (the light
 * theme) or near black (the dark themes), or a colour the loop cannot read (fail safe).
 */
function hidingColour(model: string, spec: string | undefined): boolean {
  if (spec === undefined) return true
  const name = spec.trim().toLowerCase()
  if (model === '' && /^[a-z]+$/.test(name)) return INVISIBLE_NAMES.has(name)
  const rgb = channels(model, spec)
  if (!rgb) return true
  const [r = 0, g = 0, b = 0, a = 255] = rgb
  return a < 64 || Math.min(r, g, b) >= 224 || Math.max(r, g, b) <= 48
}

/** What hides text in one formula (`\color{white}`, `\phantom`), or nothing when all of it shows. */
function hidersIn(math: string): string[] {
  const found = [...math.matchAll(NEVER_SHOWN)].map(m => m[0])
  for (const m of math.matchAll(COLOUR)) {
    const [whole, , model = '', braced] = m
    if (hidingColour(model.trim(), braced)) found.push(whole.replace(/\s+/g, ' ').slice(0, 40))
  }
  return [...new Set(found)]
}

/** A formula that hides text becomes a marker naming what hid it; any other stays as it is. */
function hideMath(math: string): string {
  const hiders = hidersIn(math)
  if (hiders.length === 0) return math
  const named = hiders.slice(0, 3).join(', ') + (hiders.length > 3 ? ', …' : '')
  return `⟦hidden math: ${named}⟧`
}

// ── collapsed details ─────────────────────────────────────────────────────────────────────────

const OPEN_MARK = '⟦collapsed in the PR page: '
const CLOSE_MARK = ' ⟧'

/**
 * The content of each `<details>` without `open` (after its `<summary>`, when one comes first)
 * wrapped in a marker, so a reader of the text knows the page shows it folded away. Nested
 * collapsed ones inside a marked one are not marked again; an unclosed one is marked to the end.
 */
function markCollapsed(text: string): string {
  const stack: Array<{ marked: boolean; pending: boolean }> = []
  const inMark = (): boolean => stack.some(d => d.marked)
  let out = ''
  let last = 0
  for (const m of text.matchAll(HTML_TAG)) {
    const [tag, open, attrs = '', , close] = m
    const name = (open ?? close ?? '').toLowerCase()
    if (name !== 'details' && name !== 'summary') continue
    out += text.slice(last, m.index)
    last = m.index + tag.length
    const top = stack.at(-1)
    if (name === 'details' && open) {
      const collapsed = !hasAttribute(attrs, 'open') && !inMark()
      out += tag
      // a summary first: the mark starts after it; else here
      const summary = /^\s*<summary\b/i.test(text.slice(last))
      stack.push({ marked: collapsed && !summary, pending: collapsed && summary })
      if (collapsed && !summary) out += OPEN_MARK
    } else if (name === 'summary' && close && top?.pending) {
      out += tag + OPEN_MARK
      Object.assign(top, { marked: true, pending: false })
    } else if (name === 'details' && close && top) {
      out += (stack.pop()!.marked ? CLOSE_MARK : '') + tag
    } else out += tag
  }
  out += text.slice(last)
  return (
    out +
    stack
      .filter(d => d.marked)
      .map(() => CLOSE_MARK)
      .join('')
  )
}

/**
 * Link reference titles stripped, hiding math replaced by a marker, collapsed details marked; code
 * blocks and code spans exactly as they were. For text whose control characters are gone
 * (`stripInvisible`): the code is set aside under them meanwhile.
 */
export function markHiddenForms(text: string): string {
  // eslint-disable-next-line no-control-regex -- the slot characters, on purpose
  const { text: prose, code } = setAsideCode(text.replace(/[\u0001\u0002]/g, ''))
  const shown = markCollapsed(prose.replace(LINK_TITLE, '$1').replace(MATH, hideMath))
  return putBack(shown, code)
}
