import type { Settings } from '../inputs.js'
import type { Finding } from '../loop/findings.js'
import { runGates, type GateResult } from '../gates/run-gates.js'
import type { CommandRunner } from '../process/command-runner.js'
import type { Decision, Usage } from '../loop/state.js'
import { zeroUsage } from '../loop/state.js'

/** What the AI reviewer returns, when there is one. */
export interface ReviewerVerdict {
  decision: Decision
  summary: string
  findings: Finding[]
  failedCriteria: string[]
  passedCriteria: string[]
  requiredRework: string[]
  usage: Usage
  /** Findings dropped because their file or line does not exist in the reviewed tree. */
  dropped: number
  /** Set when the verdict failed closed (invalid answer, API error). */
  error?: string
  /** Set when the budget did not allow the review call. */
  budgetExhausted?: boolean
}

export interface ReviewResult {
  gates: GateResult[]
  verdict?: ReviewerVerdict
  findings: Finding[]
  usage: Usage
}

export interface ReviewPhaseDeps {
  settings: Settings
  runner: CommandRunner
  repoRoot: string
  cwd: string
  env: Record<string, string>
  /** The AI reviewer, called with the gates' results; absent in gates-only mode. */
  reviewer?: (gates: GateResult[]) => Promise<ReviewerVerdict>
}

/** Gates first (they are cheap and the reviewer sees their results), then the AI reviewer. */
export async function reviewPhase(deps: ReviewPhaseDeps): Promise<ReviewResult> {
  const gates = await runGates(deps.settings.checks, deps.runner, {
    repoRoot: deps.repoRoot,
    cwd: deps.cwd,
    env: deps.env,
    timeoutMs: deps.settings.commandTimeoutMinutes * 60_000
  })
  const verdict = deps.reviewer ? await deps.reviewer(gates) : undefined
  const byId = new Map<string, Finding>()
  for (const f of [...gates.flatMap(g => g.findings), ...(verdict?.findings ?? [])]) {
    if (!byId.has(f.id)) byId.set(f.id, f)
  }
  return { gates, verdict, findings: [...byId.values()], usage: verdict?.usage ?? zeroUsage() }
}
