import {
  commitFix,
  pushFix,
  runFixCommands,
  type FixCommit,
  type FixDelivery
} from '../fix/apply-fix.js'
import type { Settings } from '../inputs.js'
import { recordFix } from '../loop/record.js'
import { disputeRound, nextAfterFix } from '../loop/rules.js'
import type { FixRecord, LoopState, PullRequest, ReviewResult } from '../loop/types.js'
import { zeroUsage } from '../loop/usage.js'
import type { AiAgents, Clock, FixerOutcome, Log } from '../ports/index.js'
import { maskSecrets } from '../process/secrets.js'
import { plural } from '../report/format.js'
import type { Plan } from './plan.js'
import type { Workspace } from './workspace.js'

export interface FixDeps {
  settings: Settings
  log: Log
  clock: Clock
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
  /** What became of the fix, in words for the log. */
  outcome: string
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
  const agent = deps.ai ? await deps.ai.fix({ ...input, workspace: ws }) : undefined
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
  delivery: FixDelivery,
  agent: FixerOutcome | undefined,
  secrets: readonly string[]
): { files: Record<string, string>; notes: string[] } {
  const files: Record<string, string> = {}
  const notes: string[] = []
  if (record.revertedProtected.length)
    notes.push(
      `Left the fixers' changes to protected paths out of the fix commit: ${record.revertedProtected.join(', ')}`
    )
  for (const left of fix.leftOut)
    notes.push(`Left ${left.path} out of the fix commit: ${left.reason}.`)
  if ('patch' in delivery) {
    files[`fix-${n}.patch`] = delivery.patch
    record.patch = `fix-${n}.patch`
    notes.push(
      `The fix commit was not pushed (${delivery.message}); it is kept as fix-${n}.patch in the artifact.`
    )
  }
  if (agent) {
    files[`fix-${n}-transcript.json`] = maskSecrets(
      JSON.stringify(agent.transcript, null, 2),
      secrets
    )
    for (const refusal of agent.refusals) notes.push(`The fixer was refused: ${refusal}`)
    if (agent.error)
      notes.push(`The fixer stopped early (${agent.error}); its changes so far were kept.`)
  }
  files[`fix-${n}.json`] = JSON.stringify(record, null, 2)
  return { files, notes }
}

/**
 * FIX: the fixers, protected paths reverted, then one bot commit pushed (never forced); a commit
 * that cannot be pushed is kept as a patch. The rules then say where the loop goes.
 */
export async function fixPhase(
  deps: FixDeps,
  plan: Extract<Plan, { kind: 'review' }>,
  input: { state: LoopState; review: ReviewResult },
  ws: Workspace
): Promise<Fixed> {
  const { settings, log } = deps
  const { pull, n } = plan
  const fixed = await log.group(`${plan.tag} fix`, async () => {
    const started = deps.clock.now()
    // what the gates left untracked (coverage, caches) is not the fixers' work
    const leftovers = new Set(await ws.git.untrackedPaths())
    const { commands, agent } = await runFixers(deps, { pull, ...input, ws })
    const fix = await commitFix(ws.git, {
      reviewedSha: pull.headSha,
      leftovers,
      protectedPaths: settings.protectedPaths,
      secrets: ws.secrets,
      message: `review-loop: address review (iteration ${n})`,
      author: settings.commitAuthor
    })
    const delivery = await pushFix(ws.git, pull.headRef, pull.headSha, fix, ws.secrets)
    const record: FixRecord = {
      outcome: delivery.outcome,
      commitSha: delivery.outcome === 'no_changes' ? undefined : delivery.commitSha,
      filesChanged: delivery.filesChanged,
      commands,
      disputes: agent?.disputes ?? [],
      revertedProtected: fix.protectedLeftOut,
      durationMs: deps.clock.now().getTime() - started.getTime()
    }
    const { files, notes } = fixFiles(n, record, fix, delivery, agent, ws.secrets)
    const rounds = disputeRound(input.state, pull.headSha, record.disputes.length)
    const next = nextAfterFix(delivery.outcome, rounds)
    const state = recordFix(input.state, record, agent?.usage ?? zeroUsage(), next)
    const headSha = headAfter(delivery, pull.headSha)
    const outcome = `${delivery.outcome.replace('_', ' ')}${plural(delivery.filesChanged.length, 'file', ' (', ')')}`
    return { state, retrigger: next.retrigger, headSha, files, notes, outcome }
  })
  log.info(`${plan.tag} fix: ${fixed.outcome}`)
  return fixed
}
