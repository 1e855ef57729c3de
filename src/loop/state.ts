import { STATE_SCHEMA } from './state-schema.js'
import { zeroUsage } from './usage.js'
import type {
  Finding,
  FindingRecord,
  FixRecord,
  IterationRecord,
  LoopState,
  LoopStatus,
  SetAsideStatus,
  TerminalStatus,
  Verification
} from './types.js'

export function newState(pr: number, maxIterations: number, now: Date): LoopState {
  return {
    schema: STATE_SCHEMA,
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

/** This round's findings by id, each as last recorded. */
export function latestRecords(state: LoopState): Map<string, FindingRecord> {
  return new Map(roundIterations(state).flatMap(it => it.findings.map(f => [f.id, f] as const)))
}

/**
 * The reviews this round counts towards its cap: a fix a human asked for on a carried review is an
 * iteration of its own but reviews nothing, so it takes no review from the cap.
 */
export function roundReviews(state: LoopState): number {
  return roundIterations(state).filter(it => !reviewsNothing(it.trigger)).length
}

/** An iteration a human started to fix (`fix`, a review's comments): its review is carried over. */
export function reviewsNothing(trigger: IterationRecord['trigger']): boolean {
  return trigger?.command === 'fix' || trigger?.command === 'feedback'
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

/**
 * The latest iteration's findings that are not fixed, as findings again (for a fix a human asked
 * for without a new review). Their descriptions are in the artifacts; the state keeps the titles.
 */
export function recordedFindings(state: LoopState): Finding[] {
  return (lastIteration(state)?.findings ?? [])
    .filter(f => f.status !== 'fixed')
    .map(f => ({
      id: f.id,
      severity: f.severity,
      category: f.category ?? 'logic',
      file: f.file,
      line: f.line,
      title: f.title ?? f.id,
      description: f.title ?? '',
      source: f.source ?? 'ai',
      ...(f.held ? { verification: heldVerification(f.held, f.since) } : {})
    }))
}

/** A finding held for a person in an earlier review, as its verification says it again. */
function heldVerification(status: SetAsideStatus, since: number): Verification {
  return {
    status,
    by: status === 'outvoted' ? 'votes' : status === 'unverified' ? 'evidence' : 'verifier',
    why: `held for a person since iteration ${since}: the reviewer kept it against this`,
    blocks: false,
    held: true
  }
}

/**
 * The latest iteration's open AI findings that `keep` picks, carried into a review that did not look
 * at them again (`carried`: never counted as raised again), `why` added to their description.
 */
export function carriedFindings(
  state: LoopState,
  keep: (f: Finding) => boolean,
  why: (f: Finding) => string
): Finding[] {
  return recordedFindings(state)
    .filter(f => f.source === 'ai' && keep(f))
    .map(f => ({ ...f, carried: true, description: `${f.description} (${why(f)})` }))
}

/**
 * The ids humans dismissed (won't fix): they no longer block. A dismissal by the PR's `author`
 * (recorded before review-loop refused those) does not count: an author cannot wave through their
 * own PR's blockers, as they cannot approve it.
 */
export function dismissedIds(state: LoopState, author?: string): Set<string> {
  const own = (by: string): boolean => author !== undefined && sameLogin(by, author)
  return new Set((state.dismissed ?? []).filter(d => !own(d.by)).map(d => d.id))
}

/** GitHub logins compare without regard to case. */
export function sameLogin(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase()
}

/** How many processed keys the state keeps; older ones are covered by the feedback floors. */
export const PROCESSED_KEPT = 200

/** A human action's key: `c` comment, `r` review, `t` review comment, `b` a button's run. */
export function wasProcessed(state: LoopState | undefined, key: string): boolean {
  if (!state) return false
  if (state.processed?.includes(key)) return true
  const id = Number(key.slice(1))
  const floor = state.feedbackSeen
  if (!floor) return false
  return (key[0] === 'r' && id <= floor.review) || (key[0] === 't' && id <= floor.comment)
}

/**
 * The keys added to what the state remembers as processed, the newest kept. GitHub gives a review
 * and its comments their ids when the draft starts, not when it is submitted, so feedback is
 * remembered by id rather than by a high-water mark; the ids that fall off the list raise the
 * floors (`feedbackSeen`) at or below which everything counts as processed.
 */
export function remember(state: LoopState, keys: readonly string[]): LoopState {
  const all = [...(state.processed ?? []).filter(k => !keys.includes(k)), ...keys]
  const kept = all.slice(-PROCESSED_KEPT)
  const dropped = all.slice(0, all.length - kept.length)
  const floor = { review: 0, comment: 0, ...state.feedbackSeen }
  for (const k of dropped) {
    if (k[0] === 'r') floor.review = Math.max(floor.review, Number(k.slice(1)))
    if (k[0] === 't') floor.comment = Math.max(floor.comment, Number(k.slice(1)))
  }
  const floors = floor.review || floor.comment ? { feedbackSeen: floor } : {}
  return { ...state, processed: kept, ...floors }
}
