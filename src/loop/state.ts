import type { Category, FindingStatus, Severity } from './findings.js'

export const LOOP_STATUSES = [
  'running',
  'go',
  'max_iterations',
  'needs_discussion',
  'stalled',
  'budget_exhausted',
  'stopped',
  'error'
] as const
export type LoopStatus = (typeof LOOP_STATUSES)[number]
export type TerminalStatus = Exclude<LoopStatus, 'running'>

export const DECISIONS = ['GO', 'NO_GO', 'NEEDS_DISCUSSION'] as const
export type Decision = (typeof DECISIONS)[number]

export interface Usage {
  inputTokens: number
  outputTokens: number
  cacheReadTokens: number
  cacheWriteTokens: number
  costUsd: number
}

export function zeroUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 }
}

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    costUsd: Math.round((a.costUsd + b.costUsd) * 1e6) / 1e6
  }
}

/** A finding as remembered in the state: small, because the state lives in a PR comment. */
export interface FindingRecord {
  id: string
  severity: Severity
  category?: Category
  title?: string
  file?: string
  line?: number
  source?: string
  status: FindingStatus
  /** Iteration (1-based, over the whole PR) in which this id was first seen open. */
  since: number
}

export type FixOutcome = 'pushed' | 'no_changes' | 'branch_moved' | 'push_failed'

export interface FixRecord {
  outcome: FixOutcome
  commitSha?: string
  filesChanged: string[]
  /** Changed files left out of `filesChanged` to keep the comment small. */
  filesOmitted?: number
  commands: Array<{ command: string; exitCode: number; durationMs: number }>
  disputes: Array<{ id: string; reason: string }>
  revertedProtected: string[]
  /** Artifact or path holding the patch when the commit could not be pushed. */
  patch?: string
  durationMs: number
}

export interface IterationRecord {
  /** 1-based over the whole PR. */
  n: number
  round: number
  reviewedSha: string
  baseSha: string
  runId: string
  runAttempt: number
  decision: Decision
  summary: string
  findings: FindingRecord[]
  /** Findings of this iteration left out of the state to keep the comment small. */
  omitted?: number
  /** Ids that were open in the previous iteration and are gone in this one. */
  resolved: string[]
  /** Resolved ids left out of `resolved` to keep the comment small. */
  resolvedOmitted?: number
  gates: Array<{ name: string; passed: boolean; durationMs: number }>
  fix?: FixRecord
  usage: Usage
  startedAt: string
  durationMs: number
}

export interface LoopState {
  schema: 1
  pr: number
  status: LoopStatus
  /** A round starts when the PR is opened, and again when a human pushes after a terminal state. */
  round: number
  maxIterations: number
  iterations: IterationRecord[]
  lastReviewedSha?: string
  /** The last commit the action itself pushed, to tell a human push from its own. */
  lastPushedSha?: string
  totals: Usage
  /** Why the loop ended, in words, for terminal states. */
  reason?: string
  updatedAt: string
}

export function newState(pr: number, maxIterations: number, now: Date): LoopState {
  return {
    schema: 1,
    pr,
    status: 'running',
    round: 1,
    maxIterations,
    iterations: [],
    totals: zeroUsage(),
    updatedAt: now.toISOString()
  }
}

export function isTerminal(status: LoopStatus): status is TerminalStatus {
  return status !== 'running'
}

export function roundIterations(state: LoopState): IterationRecord[] {
  return state.iterations.filter(i => i.round === state.round)
}

export function lastIteration(state: LoopState): IterationRecord | undefined {
  return state.iterations[state.iterations.length - 1]
}

/** How many files a fix changed, including those the state left out. */
export function filesChangedCount(fix: FixRecord): number {
  return fix.filesChanged.length + (fix.filesOmitted ?? 0)
}

/** How many findings an iteration resolved, including those the state left out. */
export function resolvedCount(it: IterationRecord): number {
  return it.resolved.length + (it.resolvedOmitted ?? 0)
}
