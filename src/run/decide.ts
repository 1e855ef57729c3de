import type { Settings } from '../loop/settings.js'
import { atOrAbove } from '../loop/findings.js'
import { appendReview, moveTo, setAsideCounts, type ReviewedIteration } from '../loop/record.js'
import {
  branchDeleted,
  decide,
  fixBlocker,
  isFork,
  nextAfterReview,
  type NextStep
} from '../loop/rules.js'
import { stopReason } from '../loop/reasons.js'
import { dismissedIds } from '../loop/state.js'
import type { Decision, Finding, HumanTrigger, LoopState, ReviewResult } from '../loop/types.js'
import type { Clock, Git, Log } from '../ports/index.js'
import { toAnnotations } from '../report/check-run.js'
import { plural } from '../report/format.js'
import { setAsideLine } from '../report/verification.js'
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
    : review.gates.length === 1
      ? 'The check passes.'
      : `All ${review.gates.length} checks pass.`
}

/** The review as the iteration record takes it. */
function reviewedIteration(
  deps: { run: { runId: string; runAttempt: number }; clock: Clock },
  plan: Extract<Plan, { kind: 'review' }>,
  review: ReviewResult,
  decision: Decision,
  trigger?: HumanTrigger
): ReviewedIteration {
  const { pull } = plan
  return {
    n: plan.n,
    reviewedSha: pull.headSha,
    baseSha: pull.baseSha,
    runId: deps.run.runId,
    runAttempt: deps.run.runAttempt,
    decision,
    summary: [review.history, review.verdict?.summary ?? gatesSummary(review)]
      .filter(Boolean)
      .join(' '),
    findings: review.findings,
    gates: review.gates.map(g => ({
      name: g.name,
      passed: g.passed,
      durationMs: g.durationMs,
      ...(g.capped
        ? { problems: g.problems, kept: g.findings.filter(f => f.file && f.line).length }
        : {})
    })),
    coverage: review.verdict?.coverage,
    usage: review.usage,
    tree: review.tree,
    changedLines: review.changedLines,
    rewritten: review.rewritten,
    fixDropped: review.fixDropped,
    error: review.verdict?.error,
    failedCriteria: review.verdict?.failedCriteria,
    dropped: review.verdict?.droppedFindings,
    setAside: review.verdict?.setAside,
    refuted: review.verdict?.refutedEarlier,
    answers: review.verdict?.earlier,
    startedAt: plan.started,
    durationMs: deps.clock.now().getTime() - plan.started.getTime(),
    ...(trigger ? { trigger } : {})
  }
}

/**
 * The verdict with the findings humans dismissed left out: they no longer block. The reviewer's own
 * NO_GO stands unless every blocker it raised was dismissed and it failed no criterion. A dismissal
 * by the PR's `author` does not count (the same rule as approve).
 */
export function verdictOf(
  review: ReviewResult,
  state: LoopState,
  threshold: Settings['severityThreshold'],
  author?: string
): Decision {
  const dismissed = dismissedIds(state, author)
  const findings = review.findings.filter(f => !dismissed.has(f.id))
  const blockers = review.findings.filter(f => atOrAbove(f.severity, threshold))
  const allDismissed =
    blockers.length > 0 &&
    blockers.every(f => dismissed.has(f.id)) &&
    !review.verdict?.failedCriteria.length
  const said = review.verdict?.decision
  return decide(
    {
      reviewerDecision: said === 'NO_GO' && allDismissed ? 'GO' : said,
      findings,
      gatesPassed: review.gates.every(g => g.passed),
      unreviewed: review.verdict?.coverage?.unreviewed.length
    },
    threshold
  )
}

/**
 * On a terminal the findings follow their review, as `file:line: level: [severity] title` lines an
 * editor reads (on GitHub they are the check run's annotations); one without a place names its source.
 */
function printFindings(log: Log, findings: readonly Finding[]): void {
  for (const a of toAnnotations(findings)) log.annotate(a)
  for (const f of findings)
    if (!(f.file && f.line && f.line > 0))
      log.info(`${f.file ?? f.source}: [${f.severity}] ${f.title}`)
}

/**
 * The findings the review did not act on: their count line in the log, and on a terminal each one
 * with its reason, as `file:line: [severity] title — why` lines.
 */
function printSetAside(log: Log, tag: string, setAside: readonly Finding[], each: boolean): void {
  if (setAside.length === 0) return
  log.info(`${tag} ${setAsideLine(setAsideCounts(setAside))}`)
  if (!each) return
  for (const f of setAside) {
    const where = f.file ? `${f.file}${f.line ? `:${f.line}` : ''}` : f.source
    const why = f.verification ? `${f.verification.status}: ${f.verification.why}` : 'unverified'
    log.info(`${where}: [${f.severity}] ${f.title} — not acted on (${why})`)
  }
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
    /** A human asked for this review (retry, continue). */
    trigger?: HumanTrigger
  },
  plan: Extract<Plan, { kind: 'review' }>,
  review: ReviewResult
): Decided {
  const { settings } = deps
  const { pull } = plan
  const decision = verdictOf(review, plan.state, settings.severityThreshold, pull.author)
  deps.log.info(
    `${plan.tag} review: ${decision} (${plural(review.findings.length, 'finding') || 'no findings'})`
  )
  if (settings.surface === 'cli') printFindings(deps.log, review.findings)
  printSetAside(deps.log, plan.tag, review.verdict?.setAside ?? [], settings.surface === 'cli')
  let state = appendReview(
    plan.state,
    reviewedIteration(deps, plan, review, decision, deps.trigger)
  )
  const blocker = fixBlocker({
    pull,
    fixCommands: settings.fixCommands.length,
    aiFixer: deps.aiFixer,
    surface: settings.surface
  })
  const next = nextAfterReview(
    state,
    decision,
    settings.severityThreshold,
    blocker ?? true,
    {
      spentUsd: state.totals.costUsd,
      maxUsd: settings.ai.maxCostUsd,
      exhausted: review.verdict?.budgetExhausted === true,
      estimate: review.verdict?.estimateUsd
    },
    pull.author
  )
  if (next.kind === 'finish') state = moveTo(state, next.status, next.reason)
  // a fork's PR waits for its author's push: the loop goes on, and says why it fixed nothing
  if (next.kind === 'wait') state = { ...state, reason: next.reason }
  return { decision, state, next, notes: [] }
}

/**
 * A GO ends the loop only while origin still has the PR's branch: on a PR whose head branch was
 * deleted while it is open, the loop says no GO (`branchDeleted`). Origin is asked (one
 * `git ls-remote`) only then, never for a fork's PR (its branch is not on origin); when it cannot
 * be asked, the GO stands, with a warning: the review's verdict is about the code.
 */
export async function goOnBranch(
  deps: { log: Log },
  plan: Extract<Plan, { kind: 'review' }>,
  git: Pick<Git, 'remoteHead'>,
  decided: Decided
): Promise<Decided> {
  const { next } = decided
  if (next.kind !== 'finish' || next.status !== 'go' || isFork(plan.pull)) return decided
  const branch = plan.pull.headRef
  try {
    if ((await git.remoteHead(branch)) !== undefined) return decided
  } catch (e) {
    deps.log.warning(
      `Could not confirm that origin still has the branch ${branch} (${(e as Error).message}); the GO stands.`
    )
    return decided
  }
  const end = branchDeleted(plan.pull)
  deps.log.info(`${plan.tag} ${end.reason}`)
  const state = moveTo(decided.state, end.status, end.reason)
  return { ...decided, state, next: { kind: 'finish', ...end } }
}

/**
 * A fix a human asked for (`fix`, or a review's comments), on the latest review carried over: the
 * iteration is NO_GO with those findings, and the fixers run unless nothing can fix or the budget
 * is spent.
 */
export function decideHumanFix(
  deps: {
    settings: Settings
    run: { runId: string; runAttempt: number }
    clock: Clock
    aiFixer: boolean
  },
  plan: Extract<Plan, { kind: 'review' }>,
  review: ReviewResult,
  trigger: HumanTrigger
): Decided {
  const { settings } = deps
  const state = appendReview(plan.state, reviewedIteration(deps, plan, review, 'NO_GO', trigger))
  const spent = state.totals.costUsd
  const max = settings.ai.maxCostUsd
  const finish = (status: 'stalled' | 'budget_exhausted', reason: string): Decided => ({
    decision: 'NO_GO',
    state: moveTo(state, status, reason),
    next: { kind: 'finish', status, reason },
    notes: []
  })
  const blocker = fixBlocker({
    pull: plan.pull,
    fixCommands: settings.fixCommands.length,
    aiFixer: deps.aiFixer,
    surface: settings.surface
  })
  if (blocker)
    return finish('stalled', stopReason({ kind: 'human_fix', by: trigger.by, cause: blocker }))
  if (max !== undefined && spent >= max)
    return finish(
      'budget_exhausted',
      `@${trigger.by} asked for a fix, but $${spent.toFixed(2)} of the $${max.toFixed(2)} budget (max-cost-usd) is spent.`
    )
  return { decision: 'NO_GO', state, next: { kind: 'fix' }, notes: [] }
}
