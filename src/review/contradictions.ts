import { atOrAbove } from '../loop/findings.js'
import type { Decision, DroppedFinding, Finding, Severity } from '../loop/types.js'

export interface StatedVerdict {
  decision: Decision
  failedCriteria: readonly string[]
  requiredRework: readonly string[]
}

/** An earlier finding the reviewer says is still open (or whose dispute it rejects). */
export interface StillOpen {
  id: string
  severity: Severity
  title: string
  status: string
}

/**
 * Why a verdict cannot stand as it is: several verdicts in one answer; an earlier blocking finding
 * the reviewer calls still open but does not raise; a NO_GO whose blockers could not be placed; a GO
 * that its own findings, criteria or rework contradict. Empty when it can stand. Pure: the reviewer
 * asks once for a repair naming these, then settles with `settleContradiction`.
 */
export function contradictions(
  verdict: StatedVerdict,
  located: readonly Finding[],
  dropped: readonly DroppedFinding[],
  threshold: Severity,
  others: readonly Decision[] = [],
  stillOpen: readonly StillOpen[] = []
): string[] {
  const out: string[] = []
  if (others.length)
    out.push(
      `The answer holds ${others.length + 1} verdicts (${[verdict.decision, ...others].join(', ')}); give exactly one.`
    )
  for (const e of stillOpen.filter(e => atOrAbove(e.severity, threshold)).slice(0, 5))
    if (!located.some(f => f.id === e.id))
      out.push(
        `Earlier finding ${e.id} ("${e.title}", ${e.severity}) is ${e.status} by your own answer but is not in findings: raise it again with previousId ${e.id}, or answer fixed.`
      )
  const blocking = located.filter(f => atOrAbove(f.severity, threshold))
  const droppedBlocking = dropped.filter(f => atOrAbove(f.severity, threshold))
  if (verdict.decision === 'NO_GO' && blocking.length === 0 && droppedBlocking.length)
    out.push(
      `The decision is NO_GO but none of its blocking findings could be placed (${droppedBlocking
        .slice(0, 3)
        .map(d => `"${d.title}" ${d.why}`)
        .join('; ')}): the fixer has nothing to act on; cite files and lines of the current head.`
    )
  if (verdict.decision !== 'GO') return out
  for (const f of blocking.slice(0, 5))
    out.push(
      `The decision is GO but the finding "${f.title}" is ${f.severity}, at or above the blocking severity ${threshold}.`
    )
  for (const d of droppedBlocking.slice(0, 5))
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
 * A verdict still contradictory after its repair never stands as GO. A GO that still carries a
 * blocker fails closed as NEEDS_DISCUSSION: the reviewer says both that the PR may merge and that it
 * may not, and a person decides. Otherwise NO_GO when it names blocking findings the fixer can act
 * on, else NEEDS_DISCUSSION (a human reads what the reviewer said).
 */
export function settleContradiction(
  stated: Decision,
  located: readonly Finding[],
  threshold: Severity
): Decision {
  if (stated === 'GO') return 'NEEDS_DISCUSSION'
  return located.some(f => atOrAbove(f.severity, threshold)) ? 'NO_GO' : 'NEEDS_DISCUSSION'
}
