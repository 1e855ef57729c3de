import { atOrAbove, type Finding, type Severity } from './findings.js'
import {
  roundIterations,
  type Decision,
  type FixOutcome,
  type LoopState,
  type LoopStatus
} from './state.js'

export interface ReviewOutcome {
  /** The AI reviewer's own decision; undefined in gates-only mode. */
  reviewerDecision?: Decision
  findings: Finding[]
  gatesPassed: boolean
}

/** GO requires: the reviewer says GO (or there is none), no finding at/above the threshold, every gate passes. */
export function decide(outcome: ReviewOutcome, threshold: Severity): Decision {
  if (outcome.reviewerDecision === 'NEEDS_DISCUSSION') return 'NEEDS_DISCUSSION'
  const blocking = outcome.findings.some(f => atOrAbove(f.severity, threshold))
  if (outcome.reviewerDecision === 'NO_GO' || blocking || !outcome.gatesPassed) return 'NO_GO'
  return 'GO'
}

export function blockingIds(
  findings: ReadonlyArray<{ id: string; severity: Severity }>,
  threshold: Severity
): string[] {
  return findings.filter(f => atOrAbove(f.severity, threshold)).map(f => f.id)
}

export type NextStep =
  { kind: 'finish'; status: Exclude<LoopStatus, 'running'>; reason: string } | { kind: 'fix' }

/**
 * After the review of iteration `n` (already appended to `state.iterations`): end the loop, or fix.
 * The cap wins over a stall at the last iteration, because that is where the loop ends anyway.
 */
export function nextAfterReview(
  state: LoopState,
  decision: Decision,
  threshold: Severity,
  canFix: boolean,
  budget?: { spentUsd: number; maxUsd?: number; exhausted?: boolean }
): NextStep {
  const round = roundIterations(state)
  const n = round.length
  if (decision === 'GO') return { kind: 'finish', status: 'go', reason: 'The review passed: GO.' }
  if (budget?.exhausted) {
    return {
      kind: 'finish',
      status: 'budget_exhausted',
      reason: `The max-cost-usd budget ($${budget.maxUsd?.toFixed(2) ?? '?'}) does not allow another review; $${budget.spentUsd.toFixed(4)} spent.`
    }
  }
  if (decision === 'NEEDS_DISCUSSION') {
    return {
      kind: 'finish',
      status: 'needs_discussion',
      reason: 'The reviewer needs a human to decide.'
    }
  }
  if (n >= state.maxIterations) {
    return {
      kind: 'finish',
      status: 'max_iterations',
      reason: `Still NO_GO after ${n} of ${state.maxIterations} iterations.`
    }
  }
  const repeated = repeatedBlocker(state, threshold)
  if (repeated) {
    return {
      kind: 'finish',
      status: 'stalled',
      reason: `Finding ${repeated} survived two fix attempts; a human should look at it.`
    }
  }
  if (budget?.maxUsd !== undefined && budget.spentUsd >= budget.maxUsd) {
    return {
      kind: 'finish',
      status: 'budget_exhausted',
      reason: `Spent $${budget.spentUsd.toFixed(2)} of the $${budget.maxUsd.toFixed(2)} budget (max-cost-usd).`
    }
  }
  if (!canFix) {
    return {
      kind: 'finish',
      status: 'stalled',
      reason:
        'NO_GO and no fixer is configured (fix-commands is empty and there is no anthropic-api-key): a human must fix it.'
    }
  }
  return { kind: 'fix' }
}

/** A blocking id open in this review and in the two before it, with a pushed fix after each of those. */
export function repeatedBlocker(state: LoopState, threshold: Severity): string | undefined {
  const round = roundIterations(state)
  if (round.length < 3) return undefined
  const [a, b, c] = round.slice(-3) as [(typeof round)[0], (typeof round)[0], (typeof round)[0]]
  if (a.fix?.outcome !== 'pushed' || b.fix?.outcome !== 'pushed') return undefined
  const inB = new Set(blockingIds(b.findings, threshold))
  const inA = new Set(blockingIds(a.findings, threshold))
  return blockingIds(c.findings, threshold).find(id => inA.has(id) && inB.has(id))
}

/**
 * After the fix: what the loop's status becomes, and whether to re-trigger. Disputes without code
 * changes send the head back to the reviewer once; disputed again on the same head, a human decides.
 */
export function nextAfterFix(
  outcome: FixOutcome,
  disputes: 'none' | 'first' | 'repeated' = 'none'
): { status: LoopStatus; reason?: string; retrigger: boolean } {
  switch (outcome) {
    case 'pushed':
      return { status: 'running', retrigger: true }
    case 'no_changes':
      if (disputes === 'first') {
        return {
          status: 'running',
          reason:
            'The fixer disputed findings instead of changing code; the next review weighs the disputes.',
          retrigger: true
        }
      }
      if (disputes === 'repeated') {
        return {
          status: 'needs_discussion',
          reason:
            'The reviewer kept findings the fixer disputes again without changing code; a human should decide.',
          retrigger: false
        }
      }
      return {
        status: 'stalled',
        reason: 'The fixers changed nothing; more iterations would not help.',
        retrigger: false
      }
    case 'branch_moved':
      return {
        status: 'running',
        reason:
          'The branch moved during this run; the fix was not pushed and the new head is reviewed next.',
        retrigger: false
      }
    case 'push_failed':
      return {
        status: 'error',
        reason: 'The fix could not be pushed; it is kept as a patch artifact.',
        retrigger: false
      }
  }
}
