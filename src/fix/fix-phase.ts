import type { Git } from '../git/git.js'
import type { PullInfo } from '../github/port.js'
import type { Settings } from '../inputs.js'
import type { Log } from '../log.js'
import { zeroUsage, type FixRecord, type LoopState, type Usage } from '../loop/state.js'
import type { CommandRunner } from '../process/command-runner.js'
import type { ReviewResult } from '../review/review-phase.js'
import { commitAndPush, revertProtected, runFixCommands, type PublishResult } from './apply-fix.js'

/** What the AI fixer reports back. */
export interface FixerOutcome {
  disputes: FixRecord['disputes']
  /** Boundaries the fixer tried to cross (paths outside the workspace, protected files). */
  refusals: string[]
  usage: Usage
  transcript: unknown
  stopReason: string
  error?: string
}

export type AiFixer = (input: {
  pull: PullInfo
  state: LoopState
  review: ReviewResult
  git: Git
  cwd: string
  env: Record<string, string>
}) => Promise<FixerOutcome>

export interface FixPhaseResult {
  record: FixRecord
  published: PublishResult
  usage: Usage
  /** Records for the iteration's artifact. */
  files: Record<string, string>
  notes: string[]
}

/**
 * FIX: the fix commands, then the AI fixer; fixer commits are folded into one bot commit so that
 * protected paths are reverted in them too; then commit and push (never force).
 */
export async function fixPhase(
  deps: {
    settings: Settings
    git: Git
    runner: CommandRunner
    log: Log
    now: () => Date
    fixer?: AiFixer
  },
  input: {
    pull: PullInfo
    state: LoopState
    review: ReviewResult
    n: number
    cwd: string
    env: Record<string, string>
  }
): Promise<FixPhaseResult> {
  const { settings, git, log } = deps
  const { pull, n } = input
  const started = deps.now()
  // what the checks left untracked (coverage, caches) is not the fixers' work
  const leftovers = new Set(await git.untrackedPaths())
  const commands = await runFixCommands(settings.fixCommands, {
    runner: deps.runner,
    cwd: input.cwd,
    env: input.env,
    timeoutMs: settings.commandTimeoutMinutes * 60_000,
    log: line => log.info(line)
  })
  const agent = deps.fixer
    ? await deps.fixer({
        pull,
        state: input.state,
        review: input.review,
        git,
        cwd: input.cwd,
        env: input.env
      })
    : undefined
  if ((await git.head()) !== pull.headSha) await git.resetSoft(pull.headSha)
  const reverted = await revertProtected(git, settings.protectedPaths, leftovers)
  const notes: string[] = []
  if (reverted.length)
    notes.push(`Reverted the fixers' changes to protected paths: ${reverted.join(', ')}`)
  const published = await commitAndPush(
    git,
    pull.headRef,
    pull.headSha,
    `review-loop: address review (iteration ${n})`,
    settings.commitAuthor,
    leftovers
  )
  const record: FixRecord = {
    outcome: published.outcome,
    commitSha: published.outcome === 'no_changes' ? undefined : published.commitSha,
    filesChanged: published.filesChanged,
    commands,
    disputes: agent?.disputes ?? [],
    revertedProtected: reverted,
    durationMs: deps.now().getTime() - started.getTime()
  }
  const files: Record<string, string> = {}
  if ('patch' in published) {
    files[`fix-${n}.patch`] = published.patch
    record.patch = `fix-${n}.patch`
    notes.push(
      `The fix commit was not pushed (${published.message}); it is kept as fix-${n}.patch in the artifact.`
    )
  }
  if (agent) {
    files[`fix-${n}-transcript.json`] = JSON.stringify(agent.transcript, null, 2)
    for (const refusal of agent.refusals) notes.push(`The fixer was refused: ${refusal}`)
    if (agent.error)
      notes.push(`The fixer stopped early (${agent.error}); its changes so far were kept.`)
  }
  files[`fix-${n}.json`] = JSON.stringify(record, null, 2)
  return { record, published, usage: agent?.usage ?? zeroUsage(), files, notes }
}
