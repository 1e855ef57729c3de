import { SEVERITIES, type Finding, type Severity } from './types.js'
import { plainText } from './untrusted.js'

/** Lower rank = more severe. */
export function severityRank(severity: Severity): number {
  return SEVERITIES.indexOf(severity)
}

/** `file:line` (or the file alone) where a finding is; undefined when it has no file. */
export function locationOf(f: { file?: string; line?: number }): string | undefined {
  return f.file ? `${f.file}${f.line ? `:${f.line}` : ''}` : undefined
}

/** True when `severity` is at or above `threshold` (critical is the highest). */
export function atOrAbove(severity: Severity, threshold: Severity): boolean {
  return severityRank(severity) <= severityRank(threshold)
}

/** Whether a finding of this severity, set aside, still holds GO (`hold-go-at`; `none`: never). */
export function holdsGo(severity: Severity, holdGoAt: Severity | 'none'): boolean {
  return holdGoAt !== 'none' && atOrAbove(severity, holdGoAt)
}

export function bySeverity<T extends { severity: Severity }>(a: T, b: T): number {
  return severityRank(a.severity) - severityRank(b.severity)
}

export function countBySeverity(
  findings: ReadonlyArray<{ severity: Severity }>
): Record<Severity, number> {
  const counts = Object.fromEntries(SEVERITIES.map(s => [s, 0])) as Record<Severity, number>
  for (const f of findings) counts[f.severity]++
  return counts
}

/**
 * Findings of several sources merged by id; the first source to report an id keeps it. Their texts
 * (a tool's or a model's words) are plain text from here on (`plainText`).
 */
export function mergeFindings(...sources: ReadonlyArray<readonly Finding[]>): Finding[] {
  const byId = new Map<string, Finding>()
  for (const source of sources)
    for (const f of source) if (!byId.has(f.id)) byId.set(f.id, plainFinding(f))
  return [...byId.values()]
}

function plainFinding(f: Finding): Finding {
  return {
    ...f,
    title: plainText(f.title),
    description: plainText(f.description),
    ...(f.suggestedFix === undefined ? {} : { suggestedFix: plainText(f.suggestedFix) })
  }
}
