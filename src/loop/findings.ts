/** The one finding schema shared by every source: AI reviewer, gates and human review comments. */
export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'suggestion'] as const
export type Severity = (typeof SEVERITIES)[number]

export const CATEGORIES = [
  'security',
  'architecture',
  'logic',
  'style',
  'performance',
  'testing',
  'documentation'
] as const
export type Category = (typeof CATEGORIES)[number]

/** `ai`, `human`, or `gate:NAME` for a configured check command. */
export type FindingSource = string

export interface Finding {
  /** Stable fingerprint: the same problem keeps its id across iterations. */
  id: string
  severity: Severity
  category: Category
  file?: string
  line?: number
  endLine?: number
  title: string
  description: string
  suggestedFix?: string
  source: FindingSource
}

export type FindingStatus = 'open' | 'fixed' | 'disputed'

/** Lower rank = more severe. */
export function severityRank(severity: Severity): number {
  return SEVERITIES.indexOf(severity)
}

/** True when `severity` is at or above `threshold` (critical is the highest). */
export function atOrAbove(severity: Severity, threshold: Severity): boolean {
  return severityRank(severity) <= severityRank(threshold)
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
