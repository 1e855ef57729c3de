import type { Settings } from '../inputs.js'
import { appendReview, moveTo } from '../loop/record.js'
import { canFix, decide, isFork, nextAfterReview, type NextStep } from '../loop/rules.js'
import type { Decision, LoopState, ReviewResult } from '../loop/types.js'
import type { Clock, Log } from '../ports/index.js'
import { plural } from '../report/format.js'
import type { Plan } from './plan.js'

export interface Decided {
  decision: Decision
  /** The state with this review appended, and ended when the rules say so. */
  state: LoopState
  next: NextStep
  notes: string[]
}

export function gatesSummary(review: ReviewResult): string {
  if (review.gates.length === 0) return 'No checks configured.'
  const failed = review.gates.filter(g => !g.passed).map(g => g.name)
  return failed.length
    ? `Failing checks: ${failed.join(', ')}.`
    : `All ${review.gates.length} checks pass.`
}

/** DECIDE: the verdict, the review recorded in the state, and what comes next (the rules say). */
export function decidePhase(
  deps: {
    settings: Settings
    run: { runId: string; runAttempt: number }
    log: Log
    clock: Clock
    /** An AI fixer is configured. */
    aiFixer: boolean
  },
  plan: Extract<Plan, { kind: 'review' }>,
  review: ReviewResult
): Decided {
  const { settings, run } = deps
  const { pull } = plan
  const decision = decide(
    {
      reviewerDecision: review.verdict?.decision,
      findings: review.findings,
      gatesPassed: review.gates.every(g => g.passed)
    },
    settings.severityThreshold
  )
  deps.log.info(
    `${plan.tag} review: ${decision} (${plural(review.findings.length, 'finding') || 'no findings'})`
  )
  let state = appendReview(plan.state, {
    n: plan.n,
    reviewedSha: pull.headSha,
    baseSha: pull.baseSha,
    runId: run.runId,
    runAttempt: run.runAttempt,
    decision,
    summary: review.verdict?.summary ?? gatesSummary(review),
    findings: review.findings,
    gates: review.gates.map(g => ({ name: g.name, passed: g.passed, durationMs: g.durationMs })),
    usage: review.usage,
    tree: review.tree,
    changedLines: review.changedLines,
    error: review.verdict?.error,
    failedCriteria: review.verdict?.failedCriteria,
    dropped: review.verdict?.droppedFindings,
    answers: review.verdict?.earlier,
    startedAt: plan.started,
    durationMs: deps.clock.now().getTime() - plan.started.getTime()
  })
  const fixable = canFix({
    pull,
    fixCommands: settings.fixCommands.length,
    aiFixer: deps.aiFixer
  })
  const next = nextAfterReview(state, decision, settings.severityThreshold, fixable, {
    spentUsd: state.totals.costUsd,
    maxUsd: settings.ai.maxCostUsd,
    exhausted: review.verdict?.budgetExhausted === true
  })
  const notes: string[] = []
  if (isFork(pull) && next.kind === 'finish' && next.status === 'stalled')
    notes.push('Fork PRs are reviewed but not fixed: the action does not push to forks.')
  if (next.kind === 'finish') state = moveTo(state, next.status, next.reason)
  return { decision, state, next, notes }
}
