import type { RunContext } from '../action/context.js'
import type { Settings } from '../loop/settings.js'
import { lastIteration } from '../loop/state.js'
import { recordPushes, unrecordedPushes } from '../loop/bot-commits.js'
import { behindLoopPush, planPull, type HumanEvent } from '../loop/rules.js'
import type { LoopState, PrComment, PullRequest } from '../loop/types.js'
import type { Clock, Git, GitHubPort, Log } from '../ports/index.js'
import { withUnsavedSpend, type SpendLedger } from './spend.js'
import { loadState, type LoadedState, type UntrustedState } from './state-store.js'

export type Plan =
  | {
      kind: 'skip'
      notice: string
      pull: PullRequest
      state?: LoopState
      comment?: PrComment
      /** A re-run of a head dealt with already: the step ends as that run did. */
      repeats?: boolean
    }
  | {
      kind: 'stop'
      notice: string
      pull: PullRequest
      state?: LoopState
      comment?: PrComment
      /** The state became stopped in this run, so the comment is written. */
      changed: boolean
    }
  | {
      /** The state found cannot be trusted: the run reports it and halts as needs_discussion. */
      kind: 'halt'
      notice: string
      pull: PullRequest
      /** needs_discussion, for the outputs and the check; never saved. */
      state: LoopState
      untrusted: UntrustedState
      /** The earlier notice about it, to update. */
      existingNotice?: PrComment
    }
  | {
      kind: 'review'
      pull: PullRequest
      state: LoopState
      comment?: PrComment
      /** 1-based over the whole PR. */
      n: number
      /** `[iteration/cap]`, the prefix of this run's log lines. */
      tag: string
      started: Date
    }

export interface PlanDeps {
  settings: Settings
  ctx: RunContext
  github: GitHubPort
  log: Log
  clock: Clock
  ledger?: SpendLedger
  /** Reads the branch's real head when the pulls API may lag behind the loop's push. */
  openGit?: (dir: string) => Promise<Git>
}

/**
 * The PR as the pulls API shows it, its head confirmed by the branch itself when the API shows a
 * head the loop pushed past (`behindLoopPush`): GitHub's API can lag behind a push, and its stale
 * head taken for a human's move back would be reviewed again, using an iteration, and the fix's push
 * would then fail as "branch moved". When the branch says otherwise, its head is the PR's head (the
 * loop's own fix, reviewed next as it would have been). Unreadable, the API's head stands.
 */
async function confirmedHead(
  deps: PlanDeps,
  pull: PullRequest,
  state: LoopState | undefined
): Promise<PullRequest> {
  if (!deps.openGit || !behindLoopPush(state, pull)) return pull
  const shown = pull.headSha.slice(0, 7)
  try {
    const git = await deps.openGit(deps.ctx.workspace)
    const real = await git.remoteHead(pull.headRef)
    if (!real || real === pull.headSha) return pull
    deps.log.info(
      `GitHub's API shows ${shown} as the head of PR #${pull.number}, but origin/${pull.headRef} is at ${real.slice(0, 7)}: the API lags behind a push, so the branch's head is the one reviewed.`
    )
    return { ...pull, headSha: real }
  } catch (e) {
    deps.log.warning(
      `Could not read origin/${pull.headRef} to confirm its head (${(e as Error).message}): ${shown}, which the loop pushed past, is taken as moved back by a human.`
    )
    return pull
  }
}

/**
 * The state with the bot's pushes it does not record, found on the branch by their commit
 * trailers (src/loop/bot-commits.ts) and recorded as pushed, so each counts against the cap. Looked
 * for only when the state may have lost one: state comments were merged (two runs at once), or the
 * last fix's push was refused or found the branch moved (another run's push may have landed).
 */
async function withBotPushes(
  deps: PlanDeps,
  pull: PullRequest,
  loaded: LoadedState
): Promise<LoopState | undefined> {
  const { state } = loaded
  const outcome = state && lastIteration(state)?.fix?.outcome
  const doubtful = loaded.merged || outcome === 'branch_moved' || outcome === 'push_failed'
  if (!state || !doubtful || !deps.openGit || deps.settings.surface === 'cli') return state
  try {
    const git = await deps.openGit(deps.ctx.workspace)
    const { name, email } = deps.settings.commitAuthor
    const bot = { committer: `${name} <${email}>`, baseSha: pull.baseSha }
    const pushes = unrecordedPushes(state, await git.recentCommits(pull.headSha, 50), bot)
    if (pushes.length === 0) return state
    const shas = pushes.map(p => `${p.sha.slice(0, 7)} (iteration ${p.n}, run ${p.run})`)
    deps.log.warning(
      `Found the bot's push of ${shas.join(', ')} on ${pull.headRef}, which no saved state recorded (two runs at once): recorded as pushed, and counted against the cap.`
    )
    return recordPushes(state, pushes, deps.clock.now().toISOString())
  } catch (e) {
    deps.log.warning(
      `Could not read ${pull.headRef}'s recent commits for pushes the state may not record: ${(e as Error).message}`
    )
    return state
  }
}

/** PLAN: the PR and its loop state, and whether this run reviews the head (the rules decide). */
export async function planPhase(
  deps: PlanDeps,
  pr: number,
  human?: { event: HumanEvent; roundCap?: number; loaded?: LoadedState; pull?: PullRequest }
): Promise<Plan> {
  const { settings, ctx, github, log } = deps
  const shown = human?.pull ?? (await github.getPull(pr))
  const loaded = human?.loaded ?? (await loadState(github, shown.number, log, settings.stateKey))
  // a human's request plans its own event; only a head's event reads what the head means
  const pull = human ? shown : await confirmedHead(deps, shown, loaded.state)
  const { untrusted } = loaded
  const state = await withBotPushes(deps, pull, loaded)
  const started = deps.clock.now()
  const plan = planPull({
    pull,
    state,
    maxIterations: settings.maxIterations,
    reviewDrafts: settings.reviewDrafts,
    allowForks: settings.allowForks,
    runId: ctx.runId,
    runAttempt: ctx.runAttempt,
    now: started,
    stopLabel: settings.stopLabel,
    eventName: ctx.eventName,
    human: human?.event,
    roundCap: human?.roundCap,
    untrusted:
      untrusted &&
      `The review-loop state in ${untrusted.comment.htmlUrl} cannot be trusted: ${untrusted.reason}.`
  })
  const found = { pull, comment: loaded.comment }
  if (plan.kind === 'skip')
    return {
      ...found,
      kind: 'skip',
      notice: plan.notice,
      state,
      repeats: plan.repeats
    }
  if (plan.kind === 'halt') {
    // planPull halts only when it was told why the state is untrusted
    const { notice, state } = plan
    return {
      kind: 'halt',
      notice,
      pull,
      state,
      untrusted: untrusted!,
      existingNotice: loaded.notice
    }
  }
  if (plan.kind === 'stop') {
    const stopped = { state: plan.state ?? state, changed: Boolean(plan.state) }
    return { ...found, kind: 'stop', notice: plan.notice, ...stopped }
  }
  const tag = `[${plan.iteration}/${plan.state.maxIterations}]`
  if (plan.newRound)
    log.info(`${tag} a new commit after the loop ended: starting round ${plan.state.round}`)
  const n = (lastIteration(plan.state)?.n ?? 0) + 1
  const carried = await withUnsavedSpend(deps, pull, loaded.comment, plan.state)
  return { ...found, kind: 'review', state: carried, n, tag, started }
}
