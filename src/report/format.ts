import type { LoopStatus, Severity, Usage } from '../loop/types.js'
import { logText, plainText } from '../loop/untrusted.js'

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

/** Escapes text from PRs and tools for one line of Markdown (tables, list items). */
export function escapeMd(text: string): string {
  return plainText(text)
    .replace(/\n/g, ' ')
    .replace(/([\\`*_[\]|<>#])/g, '\\$1')
    .replace(/@/g, '@\u200b')
}

/**
 * Untrusted text (a file path) as an inline code span: shown as it is, nothing in it parsed. The
 * fence is longer than any run of backticks inside (CommonMark), lines are joined.
 */
export function codeSpan(text: string): string {
  const flat = plainText(text).replace(/\n/g, ' ')
  const longest = (flat.match(/`+/g) ?? []).reduce((most, run) => Math.max(most, run.length), 0)
  const fence = '`'.repeat(longest + 1)
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : ''
  return `${fence}${pad}${flat}${pad}${fence}`
}

/** A fence that opens at the line's start: its backticks or tildes, and its info string. */
const OPENER = /^(`{3,}|~{3,})(.*)$/
/** A line that closes a fence (CommonMark): indented three spaces at most, spaces or tabs after. */
const CLOSER = /^ {0,3}(`{3,}|~{3,})[ \t]*$/

/**
 * One line outside a fence, made inert wherever the renderer puts it (paragraph, code span, list
 * item, quote): every `<` gets a zero-width space after it, so no tag, comment or autolink forms
 * (`<img>`, `</details>`, `<!--` show as written, in code too); an image becomes a link (`![x](u)`
 * loads nothing); a mention notifies no one; a fence indented one to three spaces becomes text,
 * so the only fences are those `untrustedMarkdown` tracks.
 */
function neutralLine(line: string): string {
  return line
    .replace(/<|!\[|@(?=\w)/g, m => (m === '![' ? '!\u200b[' : `${m}\u200b`))
    .replace(/^( {1,3})(?=`{3}|~{3})/, '$1\u200b')
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
  for (const line of plainText(text).split('\n').map(spacedIndent)) {
    if (fence) {
      const close = CLOSER.exec(line)?.[1]
      if (close && close[0] === fence[0] && close.length >= fence.length) fence = undefined
      out.push(line)
      continue
    }
    const [, open, info] = OPENER.exec(line) ?? []
    if (open && !(open[0] === '`' && info!.includes('`'))) {
      fence = open
      out.push(line)
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
 * Untrusted text (quoted code) as a fenced code block: shown as written, nothing in it parsed. The
 * fence is longer than any run of backticks inside, so no line closes it; every line is indented by
 * `indent` (a list item's), so the block stays in its item; a `<` or a mention is made inert as in
 * the rest of the comment, and no line starts a workflow command (`logText`).
 */
export function codeBlock(text: string, indent = ''): string {
  const lines = logText(text).split('\n').map(spacedIndent).map(neutralLine)
  const longest = lines
    .flatMap(l => l.match(/`+/g) ?? [])
    .reduce((most, run) => Math.max(most, run.length), 0)
  const fence = '`'.repeat(Math.max(3, longest + 1))
  return [fence, ...lines, fence].map(l => (l ? `${indent}${l}` : l)).join('\n')
}

/** Untrusted text for one line of HTML (a `<summary>`): entities for what HTML reads, no mention. */
export function htmlText(text: string): string {
  return plainText(text)
    .replace(/\s*\n\s*/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/@/g, '@\u200b')
}
