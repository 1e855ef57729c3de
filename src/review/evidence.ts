import type { Finding } from '../loop/types.js'
import { stripInvisible } from '../model/sanitize.js'

/** How far from the cited lines a quoted line may be found (a model's line numbers drift a little). */
export const EVIDENCE_SLACK = 5

/** A line as the model saw it (hidden characters shown as markers), compared without whitespace. */
const squeeze = (s: string) => stripInvisible(s, { mark: true }).replace(/\s+/g, '')

/** What a line can carry before its code as the reviewer was shown it. */
const GREP_HIT = /^\s*[\w./@+-]+:\d+:/ // a search tool's `path:12:` prefix
const NUMBER = /^\s*(?:L\d+\b[:|]?|\d+\s*[:|]|\d+(?=\t|\s{2}))/ // `12:`, `12|`, `L12`, `   12  ` (the prompt's)
const MARKER = /^[+\- ]/ // a diff's `+`, `-` or context space

/**
 * Lines that are not code: an elision (`...`, `// …`) stands for lines left out; a Markdown fence
 * (```` ```js ````) or a diff's hunk header (`@@ -1,7 +1,7 @@`) only frames what was copied.
 */
const NOT_CODE = /^(?:(\/\/|#|\/\*)?\s*(\.\.\.|…)\s*(\*\/)?|(`{3,}|~{3,})[\w+.-]*|@@ .* @@.*)$/
/** A Markdown quote's `> `. */
const QUOTE = /^\s*>\s?/

/**
 * The forms a quoted line may have been copied in, each squeezed: as quoted; without a search hit's
 * `path:N:`; without a line number (`12:`, `12|`, `L12`, the prompt's right-aligned numbers); without
 * a diff marker (`+`, `-`, a leading space); and without both. A form may be empty (the line was a
 * marker or a number alone). `removed` is set when the line carries a diff's `-`: it may quote a
 * line the PR removed.
 */
export function quoteForms(line: string): { forms: string[]; removed: boolean } {
  const plain = line.replace(QUOTE, '').replace(GREP_HIT, '')
  const unnumbered = plain.replace(NUMBER, '')
  const forms = new Set<string>([line, plain, unnumbered])
  let removed = false
  // a marker before or after a line number (`+  12  code`, `12: +code`)
  for (const f of [line, plain, unnumbered, unnumbered.trimStart()]) {
    const m = MARKER.exec(f)
    if (!m) continue
    forms.add(f.slice(1))
    forms.add(f.slice(1).replace(NUMBER, ''))
    if (m[0] === '-') removed = true
  }
  return { forms: [...new Set([...forms].map(squeeze))], removed }
}

/** The lines a file's diff removes (`-` lines, not the `---` header), as quoted from it. */
export function removedLines(fileDiff: string | undefined): string[] {
  if (!fileDiff) return []
  const at = fileDiff.search(/^@@ /m)
  if (at < 0) return []
  return fileDiff
    .slice(at)
    .split('\n')
    .filter(l => l.startsWith('-'))
    .map(l => l.slice(1))
}

/**
 * Whether a finding's `evidence` is in the head file at or near its lines: every non-empty quoted
 * line must be within a line of the file between `line − 5` and `endLine + 5`, compared without
 * regard to whitespace, in any form the reviewer was shown it (`quoteForms`: a diff's `+`/`-`/space,
 * a line number). A line quoted with a diff's `-` may instead be one the PR removed from the file
 * (`removed`, its diff's `-` lines). Returns why not, or undefined when it holds. Pure: `lines` is
 * the head file, split.
 */
export function evidenceProblem(
  finding: Pick<Finding, 'evidence' | 'line' | 'endLine' | 'file'>,
  lines: readonly string[],
  removed: readonly string[] = []
): string | undefined {
  // a line that is blank once its marker or number is gone quotes a blank line: it says nothing
  const quoted = (finding.evidence ?? '')
    .split('\n')
    .filter(l => !NOT_CODE.test(squeezeSpaces(l)) && !quoteForms(l).forms.includes(''))
  if (quoted.length === 0) return 'it quotes no code (evidence) from the file'
  const line = finding.line ?? 1
  const from = Math.max(1, line - EVIDENCE_SLACK)
  const to = Math.min(lines.length, Math.max(finding.endLine ?? line, line) + EVIDENCE_SLACK)
  const near = lines.slice(from - 1, to).map(squeeze)
  const gone = removed.map(squeeze)
  const found = (q: string) => {
    const { forms, removed: isRemoval } = quoteForms(q)
    if (forms.some(f => near.some(l => l.includes(f)))) return true
    return isRemoval && forms.some(f => gone.some(l => l.length > 0 && l === f))
  }
  const missing = quoted.find(q => !found(q))
  if (missing === undefined) return undefined
  const text = squeezeSpaces(missing)
  const shown = text.length > 80 ? `${text.slice(0, 79)}…` : text
  return `its evidence "${shown}" is not in ${finding.file ?? 'the file'} at lines ${from}-${to}`
}

/** A quoted line for a message: hidden characters marked, whitespace runs collapsed. */
const squeezeSpaces = (s: string) => stripInvisible(s, { mark: true }).replace(/\s+/g, ' ').trim()
