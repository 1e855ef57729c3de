import type { LoopStatus, Severity, Usage } from '../loop/types.js'
import { INERT, inertText, plainText, visibleCode, visibleText } from '../loop/untrusted.js'

/** Where links in reports point. */
export interface RepoLinks {
  /** Empty on a laptop (the CLI): there is no web page to link, commits and files are named. */
  serverUrl: string
  owner: string
  repo: string
  pr: number
  runUrl?: string
}

export const SEVERITY_ICON: Record<Severity, string> = {
  critical: '🔴',
  high: '🟠',
  medium: '🟡',
  low: '🔵',
  suggestion: '⚪'
}

export const STATUS_LABEL: Record<LoopStatus, string> = {
  running: 'running',
  go: 'GO',
  max_iterations: 'stopped at the iteration cap',
  needs_discussion: 'needs discussion',
  stalled: 'stalled',
  budget_exhausted: 'budget exhausted',
  stopped: 'stopped by a human',
  error: 'error',
  closed: 'PR closed',
  merged: 'PR merged'
}

export function short(sha: string | undefined): string {
  return (sha ?? '').slice(0, 7)
}

export function repoUrl(l: RepoLinks): string {
  return `${l.serverUrl}/${l.owner}/${l.repo}`
}

export function commitLink(l: RepoLinks, sha: string): string {
  return l.serverUrl ? `[\`${short(sha)}\`](${repoUrl(l)}/commit/${sha})` : `\`${short(sha)}\``
}

/** A fix commit linked to its diff within the PR. */
export function fixLink(l: RepoLinks, sha: string): string {
  return l.serverUrl
    ? `[\`${short(sha)}\`](${repoUrl(l)}/pull/${l.pr}/commits/${sha})`
    : `\`${short(sha)}\``
}

export function fileLink(
  l: RepoLinks,
  sha: string,
  file: string,
  line?: number,
  endLine?: number
): string {
  const anchor = line ? `#L${line}${endLine && endLine > line ? `-L${endLine}` : ''}` : ''
  const label = line ? `${file}:${line}` : file
  if (!l.serverUrl) return `\`${escapeMd(label)}\``
  return `[\`${escapeMd(label)}\`](${repoUrl(l)}/blob/${sha}/${file.split('/').map(encodeURIComponent).join('/')}${anchor})`
}

export function usd(value: number): string {
  return `$${value.toFixed(value > 0 && value < 0.01 ? 4 : 2)}`
}

export function tokens(u: Usage): number {
  return u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens
}

export function duration(ms: number): string {
  const s = Math.round(ms / 1000)
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${s % 60}s`
}

/** A step's time in a log line: tenths of a second (never "0.0s"), minutes from one on. */
export function logTime(ms: number): string {
  if (ms < 100) return '<0.1s'
  return ms < 60_000 ? `${(ms / 1000).toFixed(1)}s` : duration(ms)
}

/**
 * `inertText`, and no character reference left that GitHub would decode into a reference, a mention
 * or a hidden character (`&#35;12`, `&commat;user`, `&#x202E;`): a zero-width space after the `&`.
 */
function inertMarkdown(text: string): string {
  return inertText(text).replace(/&(?=[#A-Za-z])/g, `&${INERT}`)
}

/**
 * Escapes text from PRs and tools for one line of Markdown (tables, list items): what a reader
 * cannot see shown (`visibleText`), nothing GitHub links or notifies (`inertText`), Markdown and
 * HTML shown as written.
 */
export function escapeMd(text: string): string {
  return inertMarkdown(visibleText(text))
    .replace(/\n/g, ' ')
    .replace(/([\\`*_[\]|<>#])/g, '\\$1')
}

/**
 * Untrusted text (a file path) as an inline code span: shown as it is, nothing in it parsed. The
 * fence is longer than any run of backticks inside (CommonMark), lines are joined.
 */
export function codeSpan(text: string): string {
  // GitHub links and notifies nothing in code: only what a reader cannot see is made visible
  const flat = visibleCode(text).replace(/\n/g, ' ')
  const longest = (flat.match(/`+/g) ?? []).reduce((most, run) => Math.max(most, run.length), 0)
  const fence = '`'.repeat(longest + 1)
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : ''
  return `${fence}${pad}${flat}${pad}${fence}`
}

/** A line that starts, after its indentation, as a fence would. */
const FENCE_LIKE = /^[ \t]*(`{3,}|~{3,})/
/**
 * The info strings GitHub renders as something other than code: a suggested change a click
 * commits, math, a diagram, a map, a 3D model. Untrusted text gets a plain code block instead.
 */
const RENDERED_FENCE = /^\s*(?:suggestion|math|mermaid|geojson|topojson|stl)(?![\w-])/i

/** A fence that opens at the line's start: its backticks or tildes, and its info string. */
const OPENER = /^(`{3,}|~{3,})(.*)$/
/** A line that closes a fence (CommonMark): indented three spaces at most, spaces or tabs after. */
const CLOSER = /^ {0,3}(`{3,}|~{3,})[ \t]*$/

/** An image's alt text and what follows it (`![alt](` or `![alt][`), on one line. */
const IMAGE = /!\[((?:\\.|[^[\]\\\n])*)\](?=[([])/g

/**
 * One line outside a fence, shown (`visibleText`) and made inert wherever the renderer puts it
 * (paragraph, code span, list item, quote): every `<` gets a zero-width space after it, so no tag,
 * comment or autolink forms (`<img>`, `</details>`, `<!--` show as written, in code too); an
 * image is text (`![x](u)` shows as written: a zero-width space after the `!` and after the `]`,
 * so neither an image nor a link forms; a URL in it may still be linked, as any URL in text is);
 * nothing GitHub links or notifies (`inertText`); a fence indented one to three spaces becomes
 * text, so the only fences are those `untrustedMarkdown` tracks.
 */
function neutralLine(line: string): string {
  return inertMarkdown(line)
    .replace(IMAGE, `!${INERT}[$1]${INERT}`)
    .replace(/<|!\[/g, m => `${m.slice(0, 1)}${INERT}${m.slice(1)}`)
    .replace(/^( {1,3})(?=`{3}|~{3})/, `$1${INERT}`)
}

/**
 * A line with the tabs of its indentation made spaces (tab stops of four columns, as CommonMark
 * counts them), so that it means the same at the top level and indented into a list item: there
 * `\t` after two spaces reaches only the fourth column, and a line that is code at the top
 * level would open or close a fence.
 */
function spacedIndent(line: string): string {
  const indent = /^[ \t]*/.exec(line)![0]
  if (!indent.includes('\t')) return line
  let width = 0
  for (const c of indent) width = c === '\t' ? width + 4 - (width % 4) : width + 1
  return `${' '.repeat(width)}${line.slice(indent.length)}`
}

/**
 * Untrusted Markdown (a finding's description, a model's answer) fit for a comment: plain text
 * (`plainText`), nothing outside fenced code that makes HTML, an image or a mention
 * (`neutralLine`), and a fence left open closed, so nothing in it reaches past its own text. A
 * fence opens only at a line's start: there CommonMark opens one at the top level whatever came
 * before, and closes it as tracked here; every other fence is text or ends with its list item or
 * quote. Callers put the text at the top level, or indent every line into one list item (tabs
 * that indent are made spaces, so both read alike).
 */
export function untrustedMarkdown(text: string): string {
  const out: string[] = []
  let fence: string | undefined
  for (const raw of plainText(text).split('\n')) {
    if (fence) {
      // code is kept as written, but what a reader cannot see (`visibleCode`); a line that looks
      // like a fence has its indentation's tabs made spaces, so it closes nothing in a list item
      const line = visibleCode(raw)
      const close = CLOSER.exec(line)?.[1]
      if (close && close[0] === fence[0] && close.length >= fence.length) fence = undefined
      out.push(FENCE_LIKE.test(line) ? spacedIndent(line) : line)
      continue
    }
    const line = spacedIndent(visibleText(raw))
    const [, open, info] = OPENER.exec(line) ?? []
    if (open && !(open[0] === '`' && info!.includes('`'))) {
      fence = open
      out.push(RENDERED_FENCE.test(info!) ? `${open}text` : line)
    } else out.push(neutralLine(line))
  }
  if (fence) out.push(fence)
  return out.join('\n')
}

/** Text for a collapsible block: untrusted Markdown (`untrustedMarkdown`), length capped. */
export function safeBlock(text: string, max: number): string {
  const capped =
    text.length > max
      ? `${text.slice(0, max)}\n… (cut; the full text is in the review artifact)`
      : text
  return untrustedMarkdown(capped)
}

/** `3 files`, `1 file`, or nothing for none; `before` and `after` wrap a count that is shown. */
export function plural(count: number, noun: string, before = '', after = ''): string {
  return count ? `${before}${count} ${noun}${count === 1 ? '' : 's'}${after}` : ''
}

/**
 * Untrusted text (quoted code) as a fenced code block, byte for byte: GitHub renders nothing in a
 * fence (no HTML, mention, reference or link), so nothing in it is changed but what a reader
 * cannot see (`visibleCode`: a direction control or a zero-width character is a marker). The fence
 * is longer than any run of backticks inside, so no line closes it (a line of tildes closes no
 * backtick fence); every line is indented by `indent` (a list item's), so the block stays in its
 * item, and a tab after that indentation starts where it would at the top level.
 */
export function codeBlock(text: string, indent = ''): string {
  const lines = visibleCode(text).split('\n')
  const longest = lines
    .flatMap(l => l.match(/`+/g) ?? [])
    .reduce((most, run) => Math.max(most, run.length), 0)
  const fence = '`'.repeat(Math.max(3, longest + 1))
  return [fence, ...lines, fence].map(l => (l ? `${indent}${l}` : l)).join('\n')
}

/** Untrusted text for one line of HTML (a `<summary>`): entities for what HTML reads, no mention. */
export function htmlText(text: string): string {
  return inertText(visibleText(text))
    .replace(/\s*\n\s*/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
}
