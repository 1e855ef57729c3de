import { severityRank } from '../loop/findings.js'
import { decide } from '../loop/rules.js'
import type {
  Decision,
  EarlierAnswer,
  Finding,
  ReviewCoverage,
  ReviewerVerdict,
  Severity,
  Usage
} from '../loop/types.js'
import type { Batch, ReviewPlan } from './batches.js'
import type { BatchOutcome } from './review-batch.js'

/** Each batch with what its review came to. */
export interface BatchResult {
  batch: Batch
  outcome: BatchOutcome
}

/** Same id from two batches: the more severe one stands. */
export function mergeById(findings: Finding[]): Finding[] {
  const byId = new Map<string, Finding>()
  for (const f of findings) {
    const seen = byId.get(f.id)
    if (!seen || severityRank(f.severity) < severityRank(seen.severity)) byId.set(f.id, f)
  }
  return [...byId.values()]
}

const CAUTION: Record<EarlierAnswer['status'], number> = {
  still_open: 0,
  dispute_rejected: 1,
  dispute_accepted: 2,
  fixed: 3
}

/** One answer per earlier finding: where two batches answered, the more cautious one. */
export function mergeAnswers(answers: EarlierAnswer[]): EarlierAnswer[] {
  const byId = new Map<string, EarlierAnswer>()
  for (const a of answers) {
    const seen = byId.get(a.id)
    if (!seen || CAUTION[a.status] < CAUTION[seen.status]) byId.set(a.id, a)
  }
  return [...byId.values()]
}

const unique = (xs: string[]): string[] => [...new Set(xs)]

function fileList(files: readonly string[], max = 5): string {
  return files.length <= max
    ? files.join(', ')
    : `${files.slice(0, max).join(', ')} and ${files.length - max} more`
}

/**
 * What the review covered: every file of a failed batch is unreviewed (even when split), and so is
 * every file that could not be put in a batch.
 */
export function coverageOf(plan: ReviewPlan, results: readonly BatchResult[]): ReviewCoverage {
  const unreviewable = plan.files.filter(f => f.unreviewable)
  const missed = new Set([
    ...results.filter(r => r.outcome.kind === 'failed').flatMap(r => r.batch.files),
    ...unreviewable.map(f => f.path)
  ])
  const ignored = plan.files.filter(f => f.ignored).map(f => f.path)
  const toReview = plan.files.filter(f => !f.ignored).map(f => f.path)
  const unreviewed = toReview.filter(f => missed.has(f))
  return {
    files: plan.files.length,
    reviewed: toReview.length - unreviewed.length,
    ignored,
    unreviewed,
    failures: [
      ...unreviewable.map(f => `${f.path}: ${f.unreviewable}`),
      ...results.flatMap(r =>
        r.outcome.kind === 'failed'
          ? [
              `${plan.batches.length > 1 ? `part ${r.batch.index} of ${plan.batches.length} (${fileList(r.batch.files, 3)})` : 'the review'}: ${r.outcome.error}`
            ]
          : []
      )
    ],
    batches: plan.batches.length
  }
}

/**
 * The one decision of a review in parts: GO only when every part answered GO; NEEDS_DISCUSSION when
 * any part asks for a human; NO_GO when any part found something to fix. Files nobody reviewed are
 * ruled on by `decide`, as for any review: never GO.
 */
export function mergedDecision(
  decisions: readonly Decision[],
  unreviewed: number,
  findings: Finding[],
  threshold: Severity
): Decision {
  const said = decisions.includes('NEEDS_DISCUSSION')
    ? 'NEEDS_DISCUSSION'
    : decisions.includes('NO_GO')
      ? 'NO_GO'
      : 'GO'
  return decide({ reviewerDecision: said, findings, gatesPassed: true, unreviewed }, threshold)
}

function mergedSummary(plan: ReviewPlan, results: readonly BatchResult[]): string {
  const answered = results.flatMap(r => (r.outcome.kind === 'verdict' ? [r] : []))
  if (plan.batches.length === 0) {
    const unreviewable = plan.files.filter(f => f.unreviewable).length
    if (unreviewable)
      return `Nothing could be sent to the reviewer: ${unreviewable} changed file(s) cannot be reviewed, the rest are ignored.`
    return plan.files.length
      ? `Nothing to review: all ${plan.files.length} changed file(s) are ignored.`
      : 'Nothing to review: the PR changes no file.'
  }
  if (plan.batches.length === 1 && answered.length === 1)
    return (answered[0]!.outcome as Extract<BatchOutcome, { kind: 'verdict' }>).verdict.summary
  const reused = answered.filter(r => r.outcome.kind === 'verdict' && r.outcome.reused)
  const parts = answered
    .filter(r => !reused.includes(r))
    .map(r => {
      const v = (r.outcome as Extract<BatchOutcome, { kind: 'verdict' }>).verdict
      return `Part ${r.batch.index} (${fileList(r.batch.files, 3)}): ${v.decision}. ${v.summary}`
    })
  if (reused.length) {
    const when = [
      ...new Set(reused.flatMap(r => (r.outcome.kind === 'verdict' && r.outcome.reused) || []))
    ].sort((a, b) => a - b)
    parts.push(
      `${reused.length === 1 ? 'Part' : 'Parts'} ${reused.map(r => r.batch.index).join(', ')}: reviewed in iteration ${when.join(', ')} at their current content, unchanged since (not sent again; nothing blocking was found there).`
    )
  }
  const failed = results.length - answered.length
  const head =
    plan.batches.length === 1
      ? 'The AI review failed closed.'
      : `Reviewed in ${plan.batches.length} parts${failed ? `, ${failed} of which could not be reviewed` : ''}.`
  return [head, ...parts].join('\n\n')
}

/**
 * The verdicts of a review's batches as one: findings merged by id (the more severe kept), criteria
 * and rework together, each earlier finding answered once, the coverage counted, and the failures
 * of unreviewed batches said in `error`.
 */
export function mergeBatches(
  plan: ReviewPlan,
  results: readonly BatchResult[],
  threshold: Severity,
  usage: Usage
): ReviewerVerdict {
  const verdicts = results.flatMap(r => (r.outcome.kind === 'verdict' ? [r.outcome.verdict] : []))
  const failures = results.flatMap(r => (r.outcome.kind === 'failed' ? [r.outcome] : []))
  const coverage = coverageOf(plan, results)
  const findings = mergeById(verdicts.flatMap(v => v.findings))
  const dropped = verdicts.flatMap(v => v.droppedFindings ?? [])
  const setAside = mergeById(verdicts.flatMap(v => v.setAside ?? [])).filter(
    f => !findings.some(kept => kept.id === f.id)
  )
  const errors = [
    ...(coverage.unreviewed.length
      ? [
          `${coverage.unreviewed.length} file(s) could not be reviewed (${fileList(coverage.unreviewed)}): ${coverage.failures.join('; ')}`
        ]
      : []),
    ...verdicts.flatMap(v => (v.error ? [v.error] : []))
  ]
  return {
    decision: mergedDecision(
      verdicts.map(v => v.decision),
      coverage.unreviewed.length,
      findings,
      threshold
    ),
    summary: mergedSummary(plan, results),
    findings,
    failedCriteria: unique(verdicts.flatMap(v => v.failedCriteria)),
    passedCriteria: unique(verdicts.flatMap(v => v.passedCriteria)),
    requiredRework: unique(verdicts.flatMap(v => v.requiredRework)),
    earlier: mergeAnswers(verdicts.flatMap(v => v.earlier ?? [])),
    usage,
    dropped: dropped.length,
    droppedFindings: dropped,
    ...(setAside.length ? { setAside } : {}),
    ...(errors.length ? { error: errors.join(' ') } : {}),
    ...(failures.some(f => f.budgetExhausted) ? { budgetExhausted: true } : {}),
    coverage
  }
}
