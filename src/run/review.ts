import { runGates } from '../gates/run-gates.js'
import type { Settings } from '../inputs.js'
import { mergeFindings } from '../loop/findings.js'
import type { ReviewResult } from '../loop/types.js'
import { zeroUsage } from '../loop/usage.js'
import type { AiAgents, Log } from '../ports/index.js'
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
  return deps.log.group(`${plan.tag} review ${pull.headSha.slice(0, 7)}`, async () => {
    const gates = await runGates(deps.settings.gates, ws.runner, {
      repoRoot: ws.git.root,
      cwd: ws.cwd,
      env: ws.env,
      timeoutMs: deps.settings.commandTimeoutMinutes * 60_000
    })
    const verdict = deps.ai ? await deps.ai.review({ pull, state, git: ws.git, gates }) : undefined
    return {
      gates,
      verdict,
      findings: mergeFindings(
        gates.flatMap(g => g.findings),
        verdict?.findings ?? []
      ),
      usage: verdict?.usage ?? zeroUsage()
    }
  })
}
