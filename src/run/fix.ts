import {
  commitFix,
  deliverFix,
  prepareFix,
  runFixCommands,
  type FixCommit,
  type FixDelivery,
  type PreparedFix
} from '../fix/apply-fix.js'
import type { RunContext } from '../action/context.js'
import type { Settings } from '../loop/settings.js'
import { fixMessage } from '../loop/bot-commits.js'
import { runKey } from '../loop/unsaved-spend.js'
import { recordFix } from '../loop/record.js'
import {
  branchDeleted,
  disputeRound,
  disputedAgain,
  nextAfterFix,
  type DisputeRound,
  type Fixers
} from '../loop/rules.js'
import type { FixRecord, LoopState, PullRequest, ReviewResult, Usage } from '../loop/types.js'
import { zeroUsage } from '../loop/usage.js'
import type { AiAgents, Clock, FixerOutcome, Log } from '../ports/index.js'
import { maskSecrets } from '../process/secrets.js'
import { plural } from '../report/format.js'
import type { Plan } from './plan.js'
import { keptPatch } from './records-name.js'
import type { Workspace } from './workspace.js'

export interface FixDeps {
  settings: Settings
  log: Log
  clock: Clock
  /** The run, named in the fix commit's trailers. */
  ctx: Pick<RunContext, 'runId' | 'runAttempt'>
  /** The AI fixer; absent when only fix commands fix. */
  ai?: Pick<AiAgents, 'fix'>
}

export interface Fixed {
  /** The state with the fix recorded and the loop moved on. */
  state: LoopState
  /** Start the next iteration once the state is saved. */
  retrigger: boolean
  /** The branch's head after this run: the pushed fix, or a head that moved meanwhile. */
  headSha: string
  /** Records for the iteration's artifact. */
  files: Record<string, string>
  notes: string[]
  /** A commit to push once `state`, which counts it as `pushing`, is saved (write-ahead). */
  pending?: PendingPush
}

/** The fix commands, then the AI fixer; the fix commit is built from the work tree afterwards. */
async function runFixers(
  deps: FixDeps,
  input: { pull: PullRequest; state: LoopState; review: ReviewResult; ws: Workspace }
): Promise<{ commands: FixRecord['commands']; agent?: FixerOutcome }> {
  const { ws } = input
  const commands = await runFixCommands(deps.settings.fixCommands, {
    runner: ws.runner,
    cwd: ws.cwd,
    env: ws.env,
    timeoutMs: deps.settings.commandTimeoutMinutes * 60_000,
    log: line => deps.log.info(line)
  })
  const agent = deps.ai?.fix ? await deps.ai.fix({ ...input, workspace: ws }) : undefined
  return { commands, agent }
}

/** The branch's head after the fix: the pushed commit, a head that moved meanwhile, or the reviewed one. */
function headAfter(delivery: FixDelivery, reviewedSha: string): string {
  if (delivery.outcome === 'pushed') return delivery.commitSha
  if (delivery.outcome === 'branch_moved' && delivery.remoteSha) return delivery.remoteSha
  return reviewedSha
}

/** The patch, the transcript and the record for the artifact, and what the user should know. */
function fixFiles(
  n: number,
  record: FixRecord,
  fix: FixCommit,
  prepared: PreparedFix,
  agent: FixerOutcome | undefined,
  secrets: readonly string[],
  where: Pick<Settings, 'surface' | 'artifactsDir'>
): { files: Record<string, string>; notes: string[] } {
  const files: Record<string, string> = {}
  const notes: string[] = []
  for (const left of fix.leftOut)
    notes.push(`Left ${left.path} out of the fix commit: ${left.reason}.`)
  // every fix commit is kept as a patch before any push, so no fault after it loses the work
  if (prepared.kind !== 'none') {
    files[`fix-${n}.patch`] = prepared.patch
    record.patch = `fix-${n}.patch`
  }
  if (prepared.kind === 'kept')
    notes.push(
      `The fix commit was not pushed (${prepared.message}); it is kept as ${keptPatch(where, n)}.`
    )
  if (agent) {
    files[`fix-${n}-transcript.json`] = maskSecrets(
      JSON.stringify(agent.transcript, null, 2),
      secrets
    )
    for (const refusal of agent.refusals) notes.push(`The fixer was refused: ${refusal}`)
    if (agent.error)
      notes.push(`The fixer stopped early (${agent.error}); its changes so far were kept.`)
    else if (agent.stopReason === 'budget')
      notes.push('The max-cost-usd budget stopped the fixer; its changes so far were kept.')
  }
  files[`fix-${n}.json`] = JSON.stringify(record, null, 2)
  return { files, notes }
}

/** Every path kept out of the fix commit, with why: by the commit, and the fixer's refused writes. */
function leftOutOf(fix: FixCommit, agent: FixerOutcome | undefined): Pick<FixRecord, 'leftOut'> {
  const all = [...fix.leftOut, ...(agent?.keptOut ?? [])]
  if (all.length === 0) return {}
  return { leftOut: all.slice(0, 50).map(l => ({ path: l.path, reason: l.reason.slice(0, 500) })) }
}

/** What the fix phase leaves for the push, once the state that counts it is saved. */
export interface PendingPush {
  prepared: Extract<PreparedFix, { kind: 'push' }>
  record: FixRecord
  rounds: DisputeRound
}

/** The fix recorded in the state, and what comes next. */
function settle(
  state: LoopState,
  record: FixRecord,
  usage: Usage,
  rounds: DisputeRound,
  budgetStopped = false,
  fixers?: Fixers,
  again?: { ids: readonly string[]; withheld: boolean }
): { state: LoopState; retrigger: boolean } {
  const next = nextAfterFix(record.outcome, rounds, budgetStopped, fixers, again)
  return { state: recordFix(state, record, usage, next), retrigger: next.retrigger }
}

/**
 * FIX: the fixers, protected paths reverted, then one bot commit, kept as a patch. A commit to push
 * is recorded as `pushing` (write-ahead): the caller saves that state, then calls `pushPhase`.
 */
export async function fixPhase(
  deps: FixDeps,
  plan: Extract<Plan, { kind: 'review' }>,
  input: { state: LoopState; review: ReviewResult },
  ws: Workspace
): Promise<Fixed> {
  const { settings, log } = deps
  const { pull, n } = plan
  return log.group(`${plan.tag} fix`, async () => {
    const started = deps.clock.now()
    // what the gates left untracked (coverage, caches) is not the fixers' work
    const leftovers = new Set(await ws.git.untrackedPaths())
    const { commands, agent } = await runFixers(deps, { pull, ...input, ws })
    const fix = await commitFix(ws.git, {
      reviewedSha: pull.headSha,
      leftovers,
      protectedPaths: settings.protectedPaths,
      secrets: ws.secrets,
      message: fixMessage({ pr: pull.number, n, run: runKey(deps.ctx.runId, deps.ctx.runAttempt) }),
      author: settings.commitAuthor
    })
    const prepared = await prepareFix(ws.git, pull.headSha, fix, ws.secrets)
    const disputes = agent?.disputes ?? []
    const rounds = disputeRound(input.state, pull.headSha, disputes)
    // disputed again after the reviewer kept it: a human decides now, on the head they were shown,
    // so the fixer's changes of this turn are kept as a patch, not pushed
    const withheld = rounds === 'repeated' && prepared.kind === 'push'
    const outcome: FixRecord['outcome'] =
      prepared.kind === 'none' || withheld
        ? 'no_changes'
        : prepared.kind === 'kept'
          ? 'push_failed'
          : 'pushing'
    const record: FixRecord = {
      outcome,
      commitSha: prepared.kind === 'none' || withheld ? undefined : prepared.commitSha,
      filesChanged: prepared.kind === 'none' || withheld ? [] : prepared.filesChanged,
      commands,
      disputes,
      revertedProtected: fix.protectedLeftOut,
      ...leftOutOf(fix, agent),
      durationMs: deps.clock.now().getTime() - started.getTime(),
      ...(agent?.summary ? { summary: agent.summary.slice(0, 2000) } : {}),
      ...(agent && agent.stopReason !== 'done' ? { stopReason: agent.stopReason } : {})
    }
    const { files, notes } = fixFiles(n, record, fix, prepared, agent, ws.secrets, settings)
    if (withheld)
      notes.push(
        `The fixer disputes again what the reviewer kept, so its changes were not pushed; they are kept as ${keptPatch(settings, n)}.`
      )
    const usage = agent?.usage ?? zeroUsage()
    const fixers = { aiFixer: Boolean(deps.ai?.fix), surface: settings.surface }
    const budgetStopped = agent?.stopReason === 'budget'
    const again = { ids: disputedAgain(input.state, disputes), withheld }
    const settled = settle(input.state, record, usage, rounds, budgetStopped, fixers, again)
    const pending = prepared.kind === 'push' && !withheld ? { prepared, record, rounds } : undefined
    if (!pending) log.info(`${plan.tag} fix: ${outcome.replace('_', ' ')}`)
    return { ...settled, headSha: pull.headSha, files, notes, pending }
  })
}

/**
 * PUSH, once the state that counts the fix as `pushing` is saved: the commit goes to the PR branch
 * (never forced); the fix record is replaced by what became of it.
 */
export async function pushPhase(
  deps: Pick<FixDeps, 'log' | 'settings'>,
  plan: Extract<Plan, { kind: 'review' }>,
  fixed: Fixed & { pending: PendingPush },
  ws: Workspace
): Promise<Fixed> {
  const { pull, n, tag } = plan
  const { prepared, rounds } = fixed.pending
  const delivery = await deliverFix(ws.git, pull.headRef, pull.headSha, prepared)
  const record: FixRecord = { ...fixed.pending.record, outcome: delivery.outcome }
  const notes = [...fixed.notes]
  if ('message' in delivery)
    notes.push(
      `The fix commit was not pushed (${delivery.message}); it is kept as ${keptPatch(deps.settings, n)}.`
    )
  // the state saved ahead counted the fix's usage already: replace the record, count nothing twice;
  // a branch deleted meanwhile ends the loop (no push, no GO) instead of waiting for a head
  const settled =
    'deleted' in delivery && delivery.deleted
      ? {
          state: recordFix(fixed.state, record, zeroUsage(), branchDeleted(pull, record.patch)),
          retrigger: false
        }
      : settle(fixed.state, record, zeroUsage(), rounds)
  const files = plural(delivery.filesChanged.length, 'file', ' (', ')')
  // on a laptop the "push" goes to the loop's copy of your repository: the fix is committed
  const said =
    deps.settings.surface === 'cli' && delivery.outcome === 'pushed'
      ? 'committed'
      : delivery.outcome
  deps.log.info(`${tag} fix: ${said.replace('_', ' ')}${files}`)
  return {
    state: settled.state,
    retrigger: settled.retrigger,
    headSha: headAfter(delivery, pull.headSha),
    // the record as it ended (the one saved before the push says `pushing`)
    files: { ...fixed.files, [`fix-${n}.json`]: JSON.stringify(record, null, 2) },
    notes
  }
}
