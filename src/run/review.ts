import { runGates } from '../gates/run-gates.js'
import type { Settings } from '../loop/settings.js'
import { mergeFindings } from '../loop/findings.js'
import { keepEarlierIds } from '../loop/matching.js'
import { lastIteration } from '../loop/state.js'
import type { LoopState, PullRequest, ReviewResult } from '../loop/types.js'
import { zeroUsage } from '../loop/usage.js'
import type { AiAgents, Git, Log } from '../ports/index.js'
import { fixedLines } from '../review/changed-lines.js'
import type { Plan } from './plan.js'
import type { Workspace } from './workspace.js'

export interface ReviewDeps {
  settings: Settings
  log: Log
  /** The AI reviewer; absent in gates-only mode. */
  ai?: Pick<AiAgents, 'review'>
}

/** REVIEW: the gates first (they are cheap and the reviewer sees their results), then the AI reviewer. */
export async function reviewPhase(
  deps: ReviewDeps,
  plan: Extract<Plan, { kind: 'review' }>,
  ws: Workspace,
  /** A human's retry: the reviewer reads every part again. */
  fresh = false
): Promise<ReviewResult> {
  const { pull, state } = plan
  const since = Date.now()
  // each check's output is a log group of its own (groups do not nest), before the review's
  const gates = await runGates(deps.settings.gates, ws.runner, {
    repoRoot: ws.git.root,
    cwd: ws.cwd,
    env: ws.env,
    timeoutMs: deps.settings.commandTimeoutMinutes * 60_000,
    matchers: ws.matchers,
    log: deps.log
  })
  return deps.log.group(
    `${plan.tag} review ${pull.headSha.slice(0, 7)}`,
    async () => {
      const verdict = deps.ai
        ? await deps.ai.review({ pull, state, git: ws.git, gates, fresh })
        : undefined
      const merged = mergeFindings(
        gates.flatMap(g => g.findings),
        verdict?.findings ?? []
      )
      const history = await historyOf(ws.git, pull, state)
      return {
        gates,
        verdict,
        // a finding raised again keeps its id, though the fix changed the line it cites
        findings: keepEarlierIds(
          merged,
          state,
          new Set(
            (verdict?.earlier ?? [])
              .filter(a => a.status === 'fixed' || a.status === 'dispute_accepted')
              .map(a => a.id)
          )
        ),
        usage: verdict?.usage ?? zeroUsage(),
        tree: await ws.git.treeOf(pull.headSha),
        ...history
      }
    },
    { since }
  )
}

type History = Pick<ReviewResult, 'history' | 'changedLines' | 'rewritten' | 'fixDropped'>

/**
 * How the head relates to the base branch and to the loop's last pushed fix. A head that shares no
 * history with the base (a force-push to an unrelated history) is reviewed against the base's tip,
 * and the review says so. A head without the fix the previous iteration pushed (a human moved the
 * branch back, or rewrote it) is reviewed as a new head: a finding raised again there is not one the
 * fix failed to settle.
 */
async function historyOf(git: Git, pull: PullRequest, state: LoopState): Promise<History> {
  const notes: string[] = []
  const base = await git.reviewBase(pull.baseRef, pull.baseSha, pull.headSha)
  if (!base.shared)
    notes.push(
      `Head ${pull.headSha.slice(0, 7)} shares no history with ${pull.baseRef} (a force-push to an unrelated history?): it was reviewed against ${pull.baseRef}'s tip ${pull.baseSha.slice(0, 7)}, so every file that differs from there counts as changed.`
    )
  const previous = lastIteration(state)
  const fix = previous?.round === state.round ? previous.fix : undefined
  if (!previous || fix?.outcome !== 'pushed')
    return notes.length ? { history: notes.join(' ') } : {}
  const fixSha = fix.commitSha ?? previous.reviewedSha
  let kept = await git.isAncestor(fixSha, pull.headSha)
  if (kept === undefined && (await git.fullHistory()))
    kept = await git.isAncestor(fixSha, pull.headSha)
  if (!kept) {
    notes.push(
      `The branch no longer holds the fix ${fixSha.slice(0, 7)} pushed in iteration ${previous.n} (a human moved it back or rewrote it): head ${pull.headSha.slice(0, 7)} is reviewed as a new head, and a finding raised again is not counted as one the fix failed to settle.`
    )
    return { history: notes.join(' '), fixDropped: true }
  }
  const fixed = await fixedLines(git, previous, pull.headSha)
  return { ...(notes.length ? { history: notes.join(' ') } : {}), ...fixed }
}
