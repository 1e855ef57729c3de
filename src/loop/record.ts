import { lastIteration } from './state.js'
import type {
  Finding,
  FindingRecord,
  FixRecord,
  IterationRecord,
  LoopState,
  LoopStatus,
  Usage
} from './types.js'
import { addUsage } from './usage.js'

export type ReviewedIteration = Pick<
  IterationRecord,
  | 'n'
  | 'reviewedSha'
  | 'baseSha'
  | 'runId'
  | 'runAttempt'
  | 'decision'
  | 'summary'
  | 'gates'
  | 'usage'
  | 'durationMs'
> & {
  findings: readonly Finding[]
  startedAt: Date
}

/**
 * Appends a review to the state. Findings keep the iteration they were first seen in (`since`) when
 * the previous iteration had them open; ids open before and gone now are `resolved`.
 */
export function appendReview(state: LoopState, r: ReviewedIteration): LoopState {
  const previous = lastIteration(state)
  const previousOpen = new Map(
    (previous?.round === state.round ? previous.findings : [])
      .filter(f => f.status !== 'fixed')
      .map(f => [f.id, f])
  )
  const disputed = new Set(previous?.fix?.disputes.map(d => d.id) ?? [])
  const findings: FindingRecord[] = r.findings.map(f => ({
    id: f.id,
    severity: f.severity,
    category: f.category,
    // clipped to the state schema's limits: a state over them is unreadable by the next run
    title: f.title.slice(0, 1000),
    file: f.file?.slice(0, 1000),
    line: f.line,
    source: f.source.slice(0, 200),
    status: disputed.has(f.id) ? 'disputed' : 'open',
    since: previousOpen.get(f.id)?.since ?? r.n
  }))
  const current = new Set(findings.map(f => f.id))
  const record: IterationRecord = {
    n: r.n,
    round: state.round,
    reviewedSha: r.reviewedSha,
    baseSha: r.baseSha,
    runId: r.runId,
    runAttempt: r.runAttempt,
    decision: r.decision,
    summary: r.summary.slice(0, 4000),
    findings,
    resolved: [...previousOpen.keys()].filter(id => !current.has(id)),
    gates: r.gates,
    usage: r.usage,
    startedAt: r.startedAt.toISOString(),
    durationMs: r.durationMs
  }
  return {
    ...state,
    iterations: [...state.iterations, record],
    lastReviewedSha: r.reviewedSha,
    totals: addUsage(state.totals, r.usage)
  }
}

/** Replaces the latest iteration (to attach its fix). */
export function updateLast(
  state: LoopState,
  update: (it: IterationRecord) => IterationRecord
): LoopState {
  const last = lastIteration(state)
  if (!last) return state
  return { ...state, iterations: [...state.iterations.slice(0, -1), update(last)] }
}

/** Attaches the fix to the latest iteration, counts its usage, and moves the loop on. */
export function recordFix(
  state: LoopState,
  fix: FixRecord,
  usage: Usage,
  next: { status: LoopStatus; reason?: string }
): LoopState {
  const updated = updateLast(state, it => ({ ...it, fix, usage: addUsage(it.usage, usage) }))
  return {
    ...updated,
    status: next.status,
    reason: next.reason,
    totals: addUsage(updated.totals, usage),
    ...(fix.outcome === 'pushed' && fix.commitSha ? { lastPushedSha: fix.commitSha } : {})
  }
}

/** The state as saved at `now`. */
export function stamped(state: LoopState, now: Date): LoopState {
  return { ...state, updatedAt: now.toISOString() }
}

/** Ends the loop (or keeps it running) with the reason in words. */
export function moveTo(state: LoopState, status: LoopStatus, reason?: string): LoopState {
  return { ...state, status, reason }
}
