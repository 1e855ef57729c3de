/**
 * The code in Markdown prose (fenced blocks and code spans), found the fail-safe way: what is set
 * aside here is code in every reading of the text GitHub may make, so no hidden form in prose is
 * mistaken for code. Code a reader sees may be read as prose instead (a fence in a list item, a
 * code span over lines): a hidden form looked for in it costs little. Linear in the text's length.
 */
import { HTML_TAG } from './html-tag.js'

/** A fence's opening line at the top level: its indent, its fence and its info string. */
const FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/
/** A line that may start a list item, also inside block quotes: a fence under it may be the item's. */
const LIST_ITEM = /^[ \t]*(?:>[ \t]*)*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/
/** A line that may start an HTML block, whose lines hold no Markdown code. */
const HTML_START =
  /^[ \t]*(?:>[ \t]*)*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)*<(?:(pre|script|style|textarea)(?![A-Za-z0-9-])|(!--)|(\?)|(!\[CDATA\[)|(![A-Za-z])|[A-Za-z/])/i
/** How each kind of HTML block ends (CommonMark's kinds 1 to 5); the others end at a blank line. */
const HTML_END = [/<\/(?:pre|script|style|textarea)>/i, /-->/, /\?>/, /\]\]>/, />/]

const BLANK = /^[ \t]*$/

/** The width of a line's indent, tabs to the next multiple of 4. */
function indentOf(line: string): number {
  let width = 0
  for (const c of line) {
    if (c === ' ') width++
    else if (c === '\t') width += 4 - (width % 4)
    else break
  }
  return width
}

type Piece = { fence: string; info: string } | { line: string; html: boolean }

/** The index of the line that closes the fence opened at `from`, or the last line. */
function closingLine(lines: readonly string[], from: number, fence: string): number {
  for (let i = from + 1; i < lines.length; i++) {
    const m = /^ {0,3}(`+|~+)[ \t]*$/.exec(lines[i]!)
    if (m && m[1]![0] === fence[0] && m[1]!.length >= fence.length) return i
  }
  return lines.length - 1
}

/**
 * The text as lines and fenced blocks. A fence counts only at the left edge, or indented up to 3
 * spaces outside anything that may be a list; never in what may be an HTML block.
 */
function piecesOf(text: string): Piece[] {
  const lines = text.split('\n')
  const pieces: Piece[] = []
  let inList = false
  let afterBlank = true
  let html: RegExp | 'blank' | undefined
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    const blank = BLANK.test(line)
    if (html) {
      pieces.push({ line, html: !blank })
      if (html === 'blank' ? blank : html.test(line)) html = undefined
      afterBlank = blank
      continue
    }
    const indent = indentOf(line)
    if (!blank && indent === 0 && afterBlank && !LIST_ITEM.test(line)) inList = false
    const fence = FENCE.exec(line)
    const isFence = fence && !(fence[2]![0] === '`' && fence[3]!.includes('`'))
    if (isFence && (indent === 0 || !inList)) {
      const end = closingLine(lines, i, fence[2]!)
      pieces.push({ fence: lines.slice(i, end + 1).join('\n'), info: fence[3]! })
      i = end
      inList = false
      afterBlank = false
      continue
    }
    if (LIST_ITEM.test(line)) inList = true
    const start = HTML_START.exec(line)
    if (start) {
      const kind = [1, 2, 3, 4, 5].find(k => start[k] !== undefined)
      html = kind ? HTML_END[kind - 1]! : 'blank'
      if (html !== 'blank' && html.test(line.slice(start[0].length))) html = undefined
    }
    pieces.push({ line, html: start !== null })
    afterBlank = blank
  }
  return pieces
}

// ── code spans ───────────────────────────────────────────────────────────────────────────────

interface Run {
  at: number
  length: number
  escaped: boolean
}

/** The runs of backticks in a line; `escaped` when an odd number of backslashes comes before. */
function runsOf(line: string): Run[] {
  const runs: Run[] = []
  for (const m of line.matchAll(/(\\*)(`+)/g)) {
    runs.push({ at: m.index + m[1]!.length, length: m[2]!.length, escaped: m[1]!.length % 2 === 1 })
  }
  return runs
}

type Span = [start: number, end: number]

/**
 * The code spans of one line, given the span left open by the lines before it (`open`, its length)
 * or none (0). An opening run without a closing one on the line opens nothing here. Linear: the next
 * run of each length is found by a pointer that only moves on.
 */
function spansOfLine(line: string, runs: readonly Run[], open: number): Span[] {
  const next = new Map<number, number>()
  const runOf = (length: number, after: number): number => {
    let i = Math.max(next.get(length) ?? 0, after + 1)
    while (i < runs.length && runs[i]!.length !== length) i++
    next.set(length, i)
    return i
  }
  const spans: Span[] = []
  let i = 0
  if (open > 0) {
    const close = runOf(open, -1)
    if (close === runs.length) return [[0, line.length]]
    spans.push([0, runs[close]!.at + open])
    i = close + 1
  }
  for (; i < runs.length; i++) {
    const run = runs[i]!
    const length = run.escaped ? run.length - 1 : run.length
    if (length === 0) continue
    const close = runOf(length, i)
    if (close === runs.length) continue
    spans.push([run.at + run.length - length, runs[close]!.at + length])
    i = close
  }
  return spans
}

/** What two lists of spans, each in order and apart, have in common. */
function common(a: readonly Span[], b: readonly Span[]): Span[] {
  const out: Span[] = []
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    const start = Math.max(a[i]![0], b[j]![0])
    const end = Math.min(a[i]![1], b[j]![1])
    if (start < end) out.push([start, end])
    if (a[i]![1] < b[j]![1]) i++
    else j++
  }
  return out
}

/** Most open spans a line is read under; past it, the line is read as prose. */
const MOST_READINGS = 6

/**
 * Whether a backtick in the paragraph lies inside what may be an HTML tag or an autolink, where it
 * opens no code span: then no span of the paragraph is trusted.
 */
function backtickInTag(paragraph: string): boolean {
  if (!paragraph.includes('`') || !paragraph.includes('<')) return false
  const tag = new RegExp(HTML_TAG.source, 'y')
  const link = /<[^\s<>]*>/y
  for (let at = paragraph.indexOf('<'); at !== -1; at = paragraph.indexOf('<', at + 1)) {
    tag.lastIndex = link.lastIndex = at
    if (tag.exec(paragraph)?.[0].includes('`') || link.exec(paragraph)?.[0].includes('`'))
      return true
  }
  return false
}

/**
 * Each line with the spans that are code in every reading replaced by a slot: the line read with
 * nothing open, and with each span the paragraph's earlier lines may have left open. A line of what
 * may be an HTML block holds no span. `` $`…`$ `` is GitHub's math in a code span: through `math`.
 */
function spansOfParagraph(lines: Piece[], slot: Slot, math: Slot): string[] {
  const texts = lines.map(p => ('line' in p ? p.line : ''))
  if (backtickInTag(texts.join('\n'))) return texts
  const lengths = new Set<number>()
  return lines.map((piece, k) => {
    const line = texts[k]!
    const runs = runsOf(line)
    let spans: Span[] = []
    if (runs.length > 0 && !('line' in piece && piece.html) && lengths.size < MOST_READINGS) {
      spans = spansOfLine(line, runs, 0)
      for (const open of lengths) spans = common(spans, spansOfLine(line, runs, open))
    }
    for (const run of runs) lengths.add(run.length).add(run.length - 1)
    lengths.delete(0)
    let out = ''
    let last = 0
    for (const [start, end] of spans) {
      const code = line.slice(start, end)
      const isMath = line[start - 1] === '$' && line[end] === '$' && /^`[\s\S]*`$/.test(code)
      out += isMath
        ? line.slice(last, start - 1) + slot(math(`$${code}$`))
        : line.slice(last, start) + slot(code)
      last = isMath ? end + 1 : end
    }
    return out + line.slice(last)
  })
}

type Slot = (code: string) => string

/**
 * The text with its code replaced by `slot(code)`: fenced blocks (a `math` block through `math`
 * first) and code spans.
 */
export function replaceCode(text: string, slot: Slot, math: Slot): string {
  const out: string[] = []
  let paragraph: Piece[] = []
  const flush = (): void => {
    out.push(...spansOfParagraph(paragraph, slot, math))
    paragraph = []
  }
  for (const piece of piecesOf(text)) {
    if ('fence' in piece) {
      flush()
      out.push(slot(/^\s*math\b/i.test(piece.info) ? math(piece.fence) : piece.fence))
    } else if (BLANK.test(piece.line)) {
      flush()
      out.push(piece.line)
    } else paragraph.push(piece)
  }
  flush()
  return out.join('\n')
}
