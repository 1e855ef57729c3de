/**
 * What this run spent on the model that no saved state holds yet, so that a run whose state save
 * fails can carry it on the PR (src/loop/unsaved-spend.ts) instead of losing it from the budget.
 */
import type { RunContext } from '../action/context.js'
import { carrySpend, readSpendMarkers, runKey, type UnsavedSpend } from '../loop/unsaved-spend.js'
import type { LoopState, PrComment, PullRequest, Usage } from '../loop/types.js'
import { usageSince, zeroUsage } from '../loop/usage.js'
import type { AiAgents, GitHubPort, Log } from '../ports/index.js'
import type { Settings } from '../loop/settings.js'

/** The run's spend at its last saved state, and the carried spend of earlier runs not saved yet. */
export interface SpendLedger {
  saved: Usage
  pending: UnsavedSpend[]
}

export const newLedger = (): SpendLedger => ({ saved: zeroUsage(), pending: [] })

interface LedgerDeps {
  ai?: AiAgents
  ledger?: SpendLedger
}

/** A state that holds everything spent so far was saved. */
export function markSaved(deps: LedgerDeps): void {
  if (!deps.ledger) return
  deps.ledger.saved = deps.ai?.spent?.() ?? zeroUsage()
  deps.ledger.pending = []
}

/** What no saved state holds: carried spend of earlier runs, and this run's own since its save. */
export function unsavedSpend(deps: LedgerDeps & { ctx: RunContext }): UnsavedSpend[] {
  if (!deps.ledger) return []
  const own = usageSince(deps.ai?.spent?.() ?? zeroUsage(), deps.ledger.saved)
  const spent = own.costUsd > 0 || own.inputTokens + own.outputTokens > 0
  const self = { run: runKey(deps.ctx.runId, deps.ctx.runAttempt), usage: own }
  return [...deps.ledger.pending, ...(spent ? [self] : [])]
}

/** Failed check runs of this PR carry `runId:attempt` in their external id after this prefix. */
export const failedCheckPrefix = (pr: number): string => `${pr}:failed:`

/**
 * `state` with the spend earlier runs could not save: markers in the sticky comment's failure line,
 * and, on a re-run (the remedy a failed run names), in the failed check runs on the head. What it
 * took becomes pending in the ledger until a state holding it is saved.
 */
export async function withUnsavedSpend(
  deps: LedgerDeps & { ctx: RunContext; github: GitHubPort; log: Log; settings: Settings },
  pull: PullRequest,
  comment: PrComment | undefined,
  state: LoopState
): Promise<LoopState> {
  const found = readSpendMarkers(comment?.body ?? '')
  if (deps.ctx.runAttempt > 1) {
    try {
      const prefix = failedCheckPrefix(pull.number)
      const summaries = await deps.github.checkRunSummaries(
        pull.headSha,
        deps.settings.checkName,
        prefix
      )
      for (const summary of summaries) found.push(...readSpendMarkers(summary))
    } catch (e) {
      deps.log.warning(
        `Could not look for spend a failed run left unsaved: ${(e as Error).message}`
      )
    }
  }
  const self = runKey(deps.ctx.runId, deps.ctx.runAttempt)
  const { state: carried, carried: entries } = carrySpend(state, found, self)
  if (entries.length) {
    deps.log.info(
      `Carried the model spend of ${entries.map(e => `run ${e.run}`).join(', ')}, which its own state save lost, into the totals.`
    )
    if (deps.ledger) deps.ledger.pending.push(...entries)
  }
  return carried
}
