import { atOrAbove } from '../loop/findings.js'
import type { Decision, DroppedFinding, Finding, Severity } from '../loop/types.js'

export type { DroppedFinding }

export interface StatedVerdict {
  decision: Decision
  failedCriteria: readonly string[]
  requiredRework: readonly string[]
}

/**
 * Why a verdict cannot stand as it is: a GO that its own findings, criteria or rework contradict, or
 * several different verdicts in one answer. Empty when it can stand. Pure: the reviewer asks once for
 * a repair naming these, then settles with `settleContradiction`.
 */
export function contradictions(
  verdict: StatedVerdict,
  located: readonly Finding[],
  dropped: readonly DroppedFinding[],
  threshold: Severity,
  others: readonly Decision[] = []
): string[] {
  const out: string[] = []
  const differing = others.filter(d => d !== verdict.decision)
  if (differing.length)
    out.push(
      `The answer holds ${others.length + 1} verdicts (${[verdict.decision, ...others].join(', ')}); give exactly one.`
    )
  if (verdict.decision !== 'GO') return out
  const blocking = located.filter(f => atOrAbove(f.severity, threshold))
  for (const f of blocking.slice(0, 5))
    out.push(
      `The decision is GO but the finding "${f.title}" is ${f.severity}, at or above the blocking severity ${threshold}.`
    )
  for (const d of dropped.filter(f => atOrAbove(f.severity, threshold)).slice(0, 5))
    out.push(
      `The decision is GO but the ${d.severity} finding "${d.title}" ${d.why}; cite a file and line of the current head, or lower its severity if it does not block.`
    )
  if (verdict.failedCriteria.length)
    out.push(
      `The decision is GO but ${verdict.failedCriteria.length} criteria failed (${verdict.failedCriteria.slice(0, 3).join('; ')}).`
    )
  if (verdict.requiredRework.length)
    out.push(
      `The decision is GO but rework is required (${verdict.requiredRework.slice(0, 3).join('; ')}).`
    )
  return out
}

/**
 * A verdict still contradictory after its repair never stands as GO: NO_GO when it names blocking
 * findings the fixer can act on, else NEEDS_DISCUSSION (a human reads what the reviewer said).
 */
export function settleContradiction(located: readonly Finding[], threshold: Severity): Decision {
  return located.some(f => atOrAbove(f.severity, threshold)) ? 'NO_GO' : 'NEEDS_DISCUSSION'
}
