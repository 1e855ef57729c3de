import { runUrl } from '../action/context.js'
import { claimMessage, claimRef, readTrailers, type Trailers } from '../loop/bot-commits.js'
import { canFix } from '../loop/rules.js'
import { lastIteration } from '../loop/state.js'
import { runKey } from '../loop/unsaved-spend.js'
import type { Git } from '../ports/index.js'
import type { IterationDeps, ReviewPlan } from './deps.js'
import { loadState } from './state-store.js'

/** This run's hold on its iteration: the ref to remove when the run no longer needs it. */
export interface Claim {
  ref: string
}

export type Claimed = { kind: 'held'; claim?: Claim } | { kind: 'taken'; notice: string }

/** Whether the run may push a fix, so that its iteration is worth claiming. */
function mayPush(deps: IterationDeps, plan: ReviewPlan): boolean {
  if (deps.settings.surface === 'cli') return false
  const { fixCommands } = deps.settings
  return canFix({
    pull: plan.pull,
    fixCommands: fixCommands.length,
    aiFixer: Boolean(deps.ai?.fix)
  })
}

/**
 * CLAIM: before a run that may push a fix reviews a head, it takes iteration `n` on that head:
 * `refs/review-loop/<pr>/<n>-<head>` is created on origin only where none is, so of two runs at
 * once (a PR opened and reopened, a dispatch delivered twice, a re-run while the dispatched run
 * goes) one reviews and fixes, and the other stops with a notice naming the run that holds it.
 * A claim whose run has ended (an earlier attempt of this run, or a run cancelled or lost before it
 * recorded the iteration) is taken over, unless the state records the iteration by then. A claim
 * that cannot be made (origin unreachable) is warned about and the run goes on: the fix's push is
 * still refused when the branch moved, and every push the bot makes is found again by its commit
 * trailers. Cost: one git push (no API call), which also removes the previous iteration's claim;
 * when the claim is taken, one fetch and one API call (is its run still going?), and one more (the
 * state) when it is taken over.
 */
export async function claimPhase(
  deps: IterationDeps,
  plan: ReviewPlan,
  git: Git
): Promise<Claimed> {
  if (!mayPush(deps, plan)) return { kind: 'held' }
  const { settings, ctx, log } = deps
  const { pull, n } = plan
  const ref = claimRef(pull.number, n, pull.headSha)
  const run = runKey(ctx.runId, ctx.runAttempt)
  const message = claimMessage({ pr: pull.number, n, run, head: pull.headSha })
  // the previous iteration's claim is done with: the same push removes it
  const last = lastIteration(plan.state)
  const dropping = last ? [claimRef(pull.number, last.n, last.reviewedSha)] : []
  const claim = (replacing?: string) =>
    git.claimRef(ref, pull.headSha, message, settings.commitAuthor, { replacing, dropping })
  let result = await claim()
  let holder = result.kind === 'taken' ? readTrailers(result.message) : undefined
  if (result.kind === 'taken' && holder?.run !== run && (await ended(deps, holder))) {
    result = await claim(result.sha)
    if (result.kind === 'taken') holder = readTrailers(result.message)
    else if (result.kind === 'claimed' && (await recordedMeanwhile(deps, plan)))
      return {
        kind: 'taken',
        notice: `Skipped: iteration ${n} on ${pull.headSha.slice(0, 7)} was recorded by ${holder ? `run ${holder.run.split(':')[0]}` : 'another run'}, which claimed it first, while this run started.`
      }
  }
  if (result.kind === 'failed') {
    log.warning(
      `Could not claim iteration ${n} on ${pull.headSha.slice(0, 7)} (${result.message}); going on without the claim: a second run on this head would be refused at its push.`
    )
    return { kind: 'held' }
  }
  if (result.kind === 'taken' && holder?.run !== run)
    return { kind: 'taken', notice: taken(deps, plan, holder) }
  return { kind: 'held', claim: { ref } }
}

/** Whether the run holding a claim has ended: an earlier attempt of this run, or GitHub says so. */
async function ended(deps: IterationDeps, holder: Trailers | undefined): Promise<boolean> {
  const id = holder?.run.split(':')[0]
  if (!id) return false
  if (id === deps.ctx.runId) return true
  try {
    return await deps.github.runEnded(id)
  } catch (e) {
    deps.log.warning(
      `Could not ask whether run ${id}, which holds the claim, is still going: ${(e as Error).message}`
    )
    return false
  }
}

/** Whether the state records iteration `n` by now (a run that held the claim saved it and ended). */
async function recordedMeanwhile(deps: IterationDeps, plan: ReviewPlan): Promise<boolean> {
  const { state } = await loadState(deps.github, plan.pull.number, deps.log, deps.settings.stateKey)
  return (state?.iterations.at(-1)?.n ?? 0) >= plan.n
}

/** The notice of a run that finds the iteration taken: who holds it, and what to do if it stalls. */
function taken(deps: IterationDeps, plan: ReviewPlan, holder: Trailers | undefined): string {
  const by = holder?.run.split(':')[0]
  const ref = claimRef(plan.pull.number, plan.n, plan.pull.headSha)
  const who = by ? `run ${by} (${runUrl({ ...deps.ctx, runId: by })})` : `another run (${ref})`
  return `Skipped: iteration ${plan.n} on ${plan.pull.headSha.slice(0, 7)} is being reviewed and fixed by ${who}, which claimed it first. This run stops, so that one head is not fixed twice; if that run ends without recording the iteration, re-run this job (it takes the claim over).`
}

/** Removes a claim this run no longer needs; a failure only leaves a ref behind, said in the log. */
export async function release(
  deps: Pick<IterationDeps, 'log'>,
  git: Git,
  claim: Claim | undefined
): Promise<void> {
  if (!claim) return
  try {
    await git.deleteRemoteRefs([claim.ref])
  } catch (e) {
    deps.log.info(`Could not remove the claim ${claim.ref}: ${(e as Error).message}`)
  }
}
