import { runGates } from '../gates/run-gates.js'
import type { Settings } from '../inputs.js'
import { mergeFindings } from '../loop/findings.js'
import parseDiff from 'parse-diff'
import { keepEarlierIds } from '../loop/matching.js'
import { lastIteration } from '../loop/state.js'
import type { LoopState, ReviewResult } from '../loop/types.js'
import { zeroUsage } from '../loop/usage.js'
import type { AiAgents, Git, Log } from '../ports/index.js'
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
  ws: Workspace
): Promise<ReviewResult> {
  const { pull, state } = plan
  // each check's output is a log group of its own (groups do not nest), before the review's
  const gates = await runGates(deps.settings.gates, ws.runner, {
    repoRoot: ws.git.root,
    cwd: ws.cwd,
    env: ws.env,
    timeoutMs: deps.settings.commandTimeoutMinutes * 60_000,
    matchers: ws.matchers,
    log: deps.log
  })
  return deps.log.group(`${plan.tag} review ${pull.headSha.slice(0, 7)}`, async () => {
    const verdict = deps.ai ? await deps.ai.review({ pull, state, git: ws.git, gates }) : undefined
    const merged = mergeFindings(
      gates.flatMap(g => g.findings),
      verdict?.findings ?? []
    )
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
      changedLines: await fixedLines(ws.git, state, pull.headSha)
    }
  })
}

/**
 * The lines (old side) the pushed fix of the previous iteration changed in the files its open
 * findings cite: a finding gone from there was fixed, gone from elsewhere only no longer raised.
 */
async function fixedLines(
  git: Git,
  state: LoopState,
  headSha: string
): Promise<Record<string, Array<[number, number]>> | undefined> {
  const previous = lastIteration(state)
  if (!previous || previous.round !== state.round || previous.fix?.outcome !== 'pushed')
    return undefined
  const files = [...new Set(previous.findings.flatMap(f => (f.file ? [f.file] : [])))]
  if (files.length === 0) return undefined
  const ranges: Record<string, Array<[number, number]>> = {}
  for (const file of parseDiff(await git.diff(previous.reviewedSha, headSha, files))) {
    const path = file.from && file.from !== '/dev/null' ? file.from : file.to
    if (!path) continue
    for (const chunk of file.chunks) {
      // the old side's lines the hunk replaced; a pure insertion touches the line before it
      const start = Math.max(1, chunk.oldStart)
      const end = Math.max(start, chunk.oldStart + chunk.oldLines - 1)
      ;(ranges[path] ??= []).push([start, end])
    }
  }
  return ranges
}
