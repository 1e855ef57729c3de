import type { Finding } from '../loop/types.js'
import { stripInvisible } from '../model/sanitize.js'

/** How far from the cited lines a quoted line may be found (a model's line numbers drift a little). */
export const EVIDENCE_SLACK = 5

/** A line as the model saw it (hidden characters shown as markers), whitespace runs collapsed. */
const squeeze = (s: string) => stripInvisible(s, { mark: true }).replace(/\s+/g, ' ').trim()

/**
 * Whether a finding's `evidence` is in the head file at or near its lines: every non-empty quoted line,
 * whitespace runs collapsed, must be a line of the file (or within one) between `line − 5` and
 * `endLine + 5`. Returns why not, or undefined when it holds. Pure: `lines` is the head file, split.
 */
export function evidenceProblem(
  finding: Pick<Finding, 'evidence' | 'line' | 'endLine' | 'file'>,
  lines: readonly string[]
): string | undefined {
  const quoted = (finding.evidence ?? '')
    .split('\n')
    .map(squeeze)
    // an elision (`...`, `// …`) stands for lines left out, not for code
    .filter(l => l.length > 0 && !/^(\/\/|#|\/\*)?\s*(\.\.\.|…)\s*(\*\/)?$/.test(l))
  if (quoted.length === 0) return 'it quotes no code (evidence) from the file'
  const line = finding.line ?? 1
  const from = Math.max(1, line - EVIDENCE_SLACK)
  const to = Math.min(lines.length, Math.max(finding.endLine ?? line, line) + EVIDENCE_SLACK)
  const near = lines.slice(from - 1, to).map(squeeze)
  const missing = quoted.find(q => !near.some(l => l.includes(q)))
  if (missing === undefined) return undefined
  const shown = missing.length > 80 ? `${missing.slice(0, 79)}…` : missing
  return `its evidence "${shown}" is not in ${finding.file ?? 'the file'} at lines ${from}-${to}`
}
