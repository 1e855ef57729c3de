import { stamped } from '../loop/record.js'
import { addUsage } from '../loop/usage.js'
import { routeEvent, type Intent } from '../loop/router.js'
import { reportFailure } from './failure.js'
import { dismissedIds, lastIteration } from '../loop/state.js'
import { needsHuman, stepFailure } from '../loop/rules.js'
import type {
  Finding,
  HumanTrigger,
  IterationOutcome,
  LoopState,
  PullRequest,
  ReviewResult
} from '../loop/types.js'
import { zeroUsage } from '../loop/usage.js'
import { decideHumanFix, decidePhase, goOnBranch, type Decided } from './decide.js'
import type { HumanAsk, IterationDeps, ReviewPlan } from './deps.js'
import { escalate } from './escalate.js'
import { answerHuman } from './human.js'
import { fixPhase, pushPhase, type Fixed } from './fix.js'
import { planPhase, type Plan } from './plan.js'
import {
  recordHalt,
  recordPhase,
  writeState,
  retriggerPhase,
  saveState,
  type Recorded
} from './record.js'
import { readOnlyReport } from './read-only.js'
import { keptPatch } from './records-name.js'
import type { Settings } from '../loop/settings.js'
import { WritesWithheld } from './withheld.js'
import { reportPhase } from './report.js'
import { reviewPhase } from './review.js'
import { openWorkspace, type Workspace } from './workspace.js'
import { claimPhase, release } from './claim.js'
import { loadState } from './state-store.js'
import { newLedger } from './spend.js'

/**
 * One run: event → intent. A PR event or a dispatch plans a review; a human's comment, review or
 * button is answered (answerHuman), which may plan an iteration of its own.
 */
export async function runIteration(given: IterationDeps): Promise<IterationOutcome> {
  const deps = given.ledger ? given : { ...given, ledger: newLedger() }
  const { settings, ctx } = deps
  const intent = routeEvent({ ...ctx, inputPrNumber: settings.prNumber })
  if (intent.kind === 'skip') return { notice: intent.notice, findings: [] }
  try {
    return await runIntent(deps, intent)
  } catch (e) {
    // every failure leaves a line on the PR saying what failed and what to do
    throw await reportFailure(deps, intent.pr, e)
  }
}

async function runIntent(
  deps: IterationDeps,
  intent: Exclude<Intent, { kind: 'skip' }>
): Promise<IterationOutcome> {
  if (intent.kind !== 'review') {
    const answered = await answerHuman(deps, intent, (plan, human) => iterate(deps, plan, human))
    return keepGoing(deps, intent.pr, answered)
  }
  const plan = await planPhase(deps, intent.pr)
  if (plan.kind !== 'review') return notReviewed(deps, plan)
  return iterate(deps, plan)
}

/**
 * GitHub keeps one waiting run per concurrency group and cancels the one that waited before: a
 * comment's or a review's run can take the place of the loop's next run. A human's run that ran no
 * iteration therefore looks: when the loop is running and the run it dispatched last was
 * cancelled, it dispatches the next run again, so the loop never stays running with nothing to
 * start it.
 */
async function keepGoing(
  deps: IterationDeps,
  pr: number,
  outcome: IterationOutcome
): Promise<IterationOutcome> {
  const { settings, ctx, github, log } = deps
  if (outcome.decision || settings.retrigger !== 'dispatch' || !ctx.workflowFile) return outcome
  try {
    const state = outcome.state ?? (await loadState(github, pr, log, settings.stateKey)).state
    const last = state && lastIteration(state)
    if (state?.status !== 'running' || !last) return outcome
    const pull = await github.getPull(pr)
    const next = await github.latestDispatchedRun(ctx.workflowFile, pull.headRef)
    if (next?.conclusion !== 'cancelled' || Date.parse(next.createdAt) < Date.parse(last.startedAt))
      return outcome
    await github.dispatchWorkflow(ctx.workflowFile, pull.headRef, { 'pr-number': String(pr) })
    const notice = `GitHub cancelled the loop's waiting run (a concurrency group keeps one): dispatched ${ctx.workflowFile} on ${pull.headRef} again.`
    log.info(notice)
    return { ...outcome, notice: [outcome.notice, notice].filter(Boolean).join(' ') }
  } catch (e) {
    log.warning(`Could not check that the loop's next run is on its way: ${(e as Error).message}`)
    return outcome
  }
}

/** The review of the head, or the latest review carried into a fix a human asked for. */
async function reviewOrCarry(
  deps: IterationDeps,
  plan: ReviewPlan,
  ws: Workspace,
  human?: HumanAsk
): Promise<{ review: ReviewResult; decided: Decided }> {
  const run = { ...deps, run: deps.ctx, aiFixer: Boolean(deps.ai?.fix) }
  if (human?.findings) {
    const review = carriedReview(human.trigger, human.findings, human.rework ?? [])
    return { review, decided: decideHumanFix(run, plan, review, human.trigger) }
  }
  const fresh = human?.trigger.command === 'retry'
  const review = await keepingSpend(deps, plan, reviewPhase(deps, plan, ws, fresh))
  const decided = decidePhase({ ...run, trigger: human?.trigger }, plan, review)
  return { review, decided: await goOnBranch(deps, plan, ws.git, decided) }
}

/** The latest review's findings (and a human's instructions) as the review a human's fix works on. */
function carriedReview(trigger: HumanTrigger, findings: Finding[], rework: string[]): ReviewResult {
  const summary =
    trigger.command === 'feedback'
      ? `@${trigger.by}'s review asked for changes: fixed without another review.`
      : `@${trigger.by} asked for a fix of the latest review${trigger.instructions ? `: ${trigger.instructions}` : ''}.`
  return {
    gates: [],
    findings,
    usage: zeroUsage(),
    verdict: {
      decision: 'NO_GO',
      summary,
      findings,
      failedCriteria: [],
      passedCriteria: [],
      requiredRework: rework,
      usage: zeroUsage(),
      dropped: 0
    }
  }
}

/**
 * One iteration on a plan: claim → review (or carry) → decide → fix → record → push → retrigger →
 * report. A run that finds the iteration claimed by another run stops with a notice (claim.ts).
 */
export async function iterate(
  deps: IterationDeps,
  plan: ReviewPlan,
  human?: HumanAsk
): Promise<IterationOutcome> {
  const ws = await openWorkspace({ ...deps, workspace: deps.ctx.workspace }, plan.pull)
  const claimed = await claimPhase(deps, plan, ws.git)
  if (claimed.kind === 'taken') {
    const { pull, state } = plan
    return { notice: claimed.notice, state, findings: [], headSha: pull.headSha, claimTaken: true }
  }
  const progress = { recorded: false }
  try {
    // the claim stays when the run ends: a run that planned this iteration before this one saved
    // it finds it taken; the next iteration's claim removes it
    return await iterateHeld(deps, plan, { ws, progress }, human)
  } catch (e) {
    // the iteration is not recorded: whoever runs it next may claim it
    if (!progress.recorded) await release(deps, ws.git, claimed.claim)
    throw e
  }
}

async function iterateHeld(
  deps: IterationDeps,
  plan: ReviewPlan,
  { ws, progress }: { ws: Workspace; progress: { recorded: boolean } },
  human?: HumanAsk
): Promise<IterationOutcome> {
  const reviewed = await reviewOrCarry(deps, plan, ws, human)
  const { review } = reviewed
  const decided = {
    ...reviewed.decided,
    state: human?.remember?.(reviewed.decided.state) ?? reviewed.decided.state
  }
  const fixed = await fixAsDecided(deps, plan, { ...decided, review }, ws)
  const { decision } = decided
  const state = fixed?.state ?? decided.state
  const { headSha } = plan.pull
  const done = { state, decision, findings: review.findings, reviewedSha: headSha, headSha }
  // the state is saved before the push: a run that dies while pushing leaves the fix counted
  let recorded: Recorded
  try {
    recorded = await explained(
      recordPhase(deps, plan, {
        review,
        decision,
        state,
        files: fixed?.files ?? {},
        notes: [...(ws.warning ? [ws.warning] : []), ...decided.notes, ...(fixed?.notes ?? [])],
        warnings: ws.warning ? [ws.warning] : []
      }),
      fixed?.pending &&
        `so the fix was not pushed; it is kept as ${keptPatch(deps.settings, plan.n)}. ${goOn(deps.settings)}`
    )
  } catch (e) {
    // a read-only token reports what it can; with a fix waiting to be pushed the step fails instead
    // (explained above), naming the permission to grant
    if (!(e instanceof WritesWithheld)) throw e
    const report = await readOnlyReport(deps, plan, { review, decision, state, withheld: e })
    return { ...done, ...report }
  }
  progress.recorded = true
  const final = fixed?.pending
    ? await pushPhase(deps, plan, { ...fixed, pending: fixed.pending }, ws)
    : fixed
  if (final && fixed?.pending)
    recorded = await explained(
      afterPush(deps, plan, recorded, final),
      `after the fix was pushed; the next run counts the fix. ${goOn(deps.settings)}`
    )
  const retriggered = await retriggerPhase(deps, plan, recorded, final?.retrigger ?? false)
  recorded = retriggered
  const { checkRunId } = await reportPhase(deps, plan, { review, decision, recorded })
  return {
    ...done,
    state: recorded.state,
    headSha: final?.headSha ?? plan.pull.headSha,
    commentUrl: recorded.comment.htmlUrl,
    checkRunId,
    reviewJson: recorded.reviewJson,
    failure: retriggered.failure ?? stepFailure(recorded.state, deps.settings.failOn)
  }
}

/**
 * FIX, when the decision asks for it; what humans dismissed is not the fixers' work, nor is a finding
 * held for a person (a human's `/review-loop fix` hands it over without the hold).
 */
async function fixAsDecided(
  deps: IterationDeps,
  plan: Extract<Plan, { kind: 'review' }>,
  decided: { next: { kind: string }; state: LoopState; review: ReviewResult },
  ws: Workspace
): Promise<Fixed | undefined> {
  if (decided.next.kind !== 'fix') return undefined
  const { review, state } = decided
  const dismissed = dismissedIds(state, plan.pull.author)
  const toFix = {
    ...review,
    findings: review.findings.filter(f => !dismissed.has(f.id) && !f.verification?.held)
  }
  return keepingSpend(deps, plan, fixPhase(deps, plan, { state, review: toFix }, ws))
}

/**
 * A review or fix that failed after paying for model calls (the fixer could not start, a call timed
 * out): the state is saved as it was, plus what was spent, so re-runs cannot spend past max-cost-usd
 * unseen. The failure is then raised as it was.
 */
async function keepingSpend<T>(
  deps: IterationDeps,
  plan: Extract<Plan, { kind: 'review' }>,
  phase: Promise<T>
): Promise<T> {
  try {
    return await phase
  } catch (e) {
    const spent = deps.ai?.spent?.()
    if (spent && spent.costUsd > 0) {
      const state = stamped(
        { ...plan.state, totals: addUsage(plan.state.totals, spent) },
        deps.clock.now()
      )
      await saveState(
        deps,
        plan,
        { state, findings: [], notes: [], uploaded: false, comment: plan.comment },
        state
      ).catch((saving: unknown) =>
        deps.log.warning(
          `Could not keep this run's model spend in the state: ${(saving as Error).message}`
        )
      )
    }
    throw e
  }
}

/** How to go on after a run that could not save its state: on a laptop there is no job to re-run. */
const goOn = (settings: Settings): string =>
  settings.surface === 'cli' ? 'Run review-loop again to go on.' : 'Re-run the job to go on.'

/** A failed state save, said with what became of the fix and what to do. */
async function explained<T>(saving: Promise<T>, what: string | false | undefined): Promise<T> {
  try {
    return await saving
  } catch (e) {
    if (!what) throw e
    throw new Error(`Could not save the loop state (${(e as Error).message}), ${what}`)
  }
}

/**
 * The state after the push. With retrigger: push a pushed fix is left as written ahead: the push
 * has started the next run, which settles `pushing` itself, and a second write here could race it.
 */
async function afterPush(
  deps: IterationDeps,
  plan: Extract<Plan, { kind: 'review' }>,
  recorded: Recorded,
  final: Fixed
): Promise<Recorded> {
  const fix = lastIteration(final.state)?.fix
  if (fix?.outcome === 'pushed' && deps.settings.retrigger === 'push') return recorded
  const notes = final.notes.filter(n => !recorded.notes.includes(n))
  const patch = fix?.patch && final.files[fix.patch]
  if (fix?.outcome !== 'pushed' && patch && !recorded.uploaded) {
    // the artifact could not be uploaded: the job's log keeps the fix instead
    notes.push(
      `The artifact was not uploaded, so ${fix.patch} is printed in the log (group "${fix.patch}").`
    )
    // as written (a patch's lines are not commands to the runner, nor changed by the log)
    await deps.log.group(fix.patch!, async () => deps.log.verbatim(patch))
  }
  const record = `fix-${plan.n}.json`
  if (deps.settings.surface === 'cli' && !recorded.uploaded && recorded.artifact && fix?.patch)
    // records in a folder (no artifact service): the fix record there becomes the final one
    await deps.artifacts.save(recorded.artifact.split('/').pop()!, {
      [record]: final.files[record]!
    })
  const saved = await saveState(deps, plan, recorded, stamped(final.state, deps.clock.now()))
  return { ...saved, notes: [...saved.notes, ...notes] }
}

/**
 * A PR this run does not review: skipped with a notice, stopped by the label, or halted on a state
 * it cannot trust (as needs_discussion, failing the step as fail-on says).
 */
async function notReviewed(
  deps: IterationDeps,
  plan: Exclude<Plan, { kind: 'review' }>
): Promise<IterationOutcome> {
  if (plan.kind === 'halt') {
    const { comment, checkRunId } = await recordHalt(deps, plan)
    return {
      notice: plan.notice,
      state: plan.state,
      findings: [],
      headSha: plan.pull.headSha,
      commentUrl: comment.htmlUrl,
      checkRunId,
      failure: stepFailure(plan.state, deps.settings.failOn)
    }
  }
  // a re-run of a finished run ends as it did: a red run stays red
  const repeats = plan.kind === 'skip' && plan.repeats && plan.state
  const outcome = {
    notice: plan.notice,
    state: plan.state,
    findings: [],
    headSha: plan.pull.headSha,
    commentUrl: plan.comment?.htmlUrl,
    failure: repeats ? stepFailure(repeats, deps.settings.failOn) : undefined
  }
  if (plan.kind === 'skip' || !plan.changed || !plan.state) return outcome
  const comment = await writeState(deps, plan.pull, plan.state, plan.comment)
  const ended = { ...outcome, commentUrl: comment.htmlUrl }
  return needsHuman(plan.state.status) ? endedForHuman(deps, plan.pull, plan.state, ended) : ended
}

/** A loop that ended without a review (its round used up): a human is called, as after one. */
async function endedForHuman(
  deps: IterationDeps,
  pull: PullRequest,
  state: LoopState,
  outcome: IterationOutcome
): Promise<IterationOutcome> {
  const { settings } = deps
  const body = `review-loop: ${state.status} — ${state.reason ?? ''}`
  await escalate(deps.github, pull, state.status, pull.headSha, body, settings, deps.log)
  return { ...outcome, failure: stepFailure(state, settings.failOn) }
}
