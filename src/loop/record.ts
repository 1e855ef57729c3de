import { lastIteration, reviewsNothing } from './state.js'
import type {
  CoverageRecord,
  DroppedFinding,
  EarlierAnswer,
  Finding,
  FindingRecord,
  FixRecord,
  IterationRecord,
  LoopState,
  LoopStatus,
  ReviewCoverage,
  ReviewedContent,
  ReviewedFiles,
  RefutedEarlier,
  SetAsideCounts,
  SetAsideStatus,
  VerificationStatus,
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
  | 'tree'
  | 'error'
  | 'trigger'
> & {
  findings: readonly Finding[]
  startedAt: Date
  failedCriteria?: readonly string[]
  dropped?: readonly DroppedFinding[]
  answers?: readonly EarlierAnswer[]
  /** What the AI review covered of the changed files. */
  coverage?: ReviewCoverage
  /**
   * Lines (of the previously reviewed version, per file) that the pushed fix since then changed:
   * a finding gone from there was fixed; gone from elsewhere it is only no longer raised.
   */
  changedLines?: Readonly<Record<string, ReadonlyArray<readonly [number, number]>>>
  /** The previous iteration's pushed fix is not in this head: nothing here was raised after it. */
  fixDropped?: boolean
  /** AI findings the review did not act on (`ReviewerVerdict.setAside`): the state counts them by why. */
  setAside?: readonly Finding[]
  /**
   * Files the pushed fix rewrote (it replaced most of their previous lines): a finding gone from
   * there is fixed only on the reviewer's word.
   */
  rewritten?: readonly string[]
  /** Earlier blockers the verifier refuted at unchanged code: closed as refuted, never fixed. */
  refuted?: readonly RefutedEarlier[]
}

/** The fix changed the lines of the finding (a finding without a line: its file). */
export function touched(
  f: Pick<FindingRecord, 'file' | 'line'>,
  changed: ReviewedIteration['changedLines']
): boolean {
  const ranges = f.file ? changed?.[f.file] : undefined
  if (!ranges?.length) return false
  if (f.line === undefined) return true
  return ranges.some(([a, b]) => a <= f.line! + 2 && b >= f.line! - 2)
}

/**
 * A finding open before and no longer raised was fixed: the reviewer answered so, or the pushed fix
 * changed its lines in a normal edit. Never one the fixer disputed (that is its word, not a fix),
 * and never on a rewrite of its whole file alone (every line changed, so "its lines" says nothing).
 */
function resolvedBy(
  f: FindingRecord,
  r: Pick<ReviewedIteration, 'changedLines' | 'rewritten'> & {
    disputed: ReadonlySet<string>
    confirmed: ReadonlySet<string>
  }
): boolean {
  if (r.disputed.has(f.id)) return false
  if (r.confirmed.has(f.id)) return true
  return touched(f, r.changedLines) && !(f.file && r.rewritten?.includes(f.file))
}

/** Why a held finding was set aside, as the state keeps it (a held finding is never confirmed). */
const heldAs = (status: VerificationStatus): SetAsideStatus =>
  status === 'confirmed' ? 'unverified' : status

/** `s` cut to `n` characters, an ellipsis marking the cut. */
export const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s)

/** The coverage as the state keeps it: counts, and at most 50 paths of each list. */
export function coverageRecord(c: ReviewCoverage): CoverageRecord {
  const paths = (xs: readonly string[]) => xs.slice(0, 50).map(p => clip(p, 500))
  return {
    files: c.files,
    reviewed: c.reviewed,
    ignored: c.ignored.length,
    batches: c.batches,
    ...(c.ignored.length ? { ignoredFiles: paths(c.ignored) } : {}),
    ...(c.unreviewed.length ? { unreviewed: paths(c.unreviewed) } : {}),
    ...(c.unreviewed.length > 50 ? { unreviewedOmitted: c.unreviewed.length - 50 } : {}),
    ...(c.failures.length ? { failures: c.failures.slice(0, 5).map(f => clip(f, 300)) } : {}),
    ...(c.unchanged && Object.keys(c.unchanged).length
      ? { unchanged: Object.keys(c.unchanged).length }
      : {}),
    ...(c.skipped ? { skipped: c.skipped } : {})
  }
}

/**
 * The content the AI review stands on as the state keeps it: per file `n:blob`, with `:open` when
 * its part was not clean; n is this iteration's for the files sent now.
 */
export function reviewedFiles(content: ReviewedContent, n: number): ReviewedFiles {
  const files: Record<string, string> = {}
  // a path longer than the state allows is left out: its part is sent again
  for (const [path, f] of Object.entries(content.files))
    if (path.length <= 1000) files[path] = `${f.n ?? n}:${f.blob}${f.clean ? '' : ':open'}`
  return { base: content.base, settings: content.settings, files }
}

/** The set-aside findings counted by why (one without a status counts as unverified). */
export function setAsideCounts(findings: readonly Finding[]): SetAsideCounts {
  const counts: SetAsideCounts = {}
  for (const f of findings) {
    const status = f.verification?.status
    const key: SetAsideStatus = status && status !== 'confirmed' ? status : 'unverified'
    counts[key] = (counts[key] ?? 0) + 1
  }
  return counts
}

/** The review's tree, error, failed criteria, dropped and set-aside findings, clipped to the state schema's limits. */
function reviewerNotes(
  r: ReviewedIteration
): Pick<
  IterationRecord,
  'tree' | 'error' | 'failedCriteria' | 'dropped' | 'coverage' | 'setAside'
> {
  return {
    ...(r.setAside?.length ? { setAside: setAsideCounts(r.setAside) } : {}),
    ...(r.coverage ? { coverage: coverageRecord(r.coverage) } : {}),
    ...(r.tree ? { tree: r.tree } : {}),
    ...(r.failedCriteria?.length
      ? { failedCriteria: r.failedCriteria.slice(0, 20).map(c => clip(c, 300)) }
      : {}),
    ...(r.error ? { error: clip(r.error, 1000) } : {}),
    ...(r.dropped?.length
      ? {
          dropped: r.dropped.slice(0, 20).map(d => ({
            ...d,
            title: clip(d.title, 300),
            why: clip(d.why, 300),
            ...(d.file ? { file: clip(d.file, 500) } : {})
          }))
        }
      : {})
  }
}

/**
 * The findings open before and not raised now, settled: refuted (the verifier refuted them at code
 * nobody changed, with why), fixed (`resolvedBy`), or else no longer raised (`gone`).
 */
function settledNow(
  left: readonly FindingRecord[],
  r: Pick<ReviewedIteration, 'changedLines' | 'rewritten' | 'refuted'>,
  said: { disputed: ReadonlySet<string>; confirmed: ReadonlySet<string> }
): { fixed: FindingRecord[]; gone: FindingRecord[]; refuted: RefutedEarlier[] } {
  const why = new Map((r.refuted ?? []).map(x => [x.id, x.why]))
  const fixed = left.filter(f => !why.has(f.id) && resolvedBy(f, { ...r, ...said }))
  // the state keeps 30 refuted with why; any more are no longer raised, never fixed
  const refuted = left.filter(f => why.has(f.id)).slice(0, 30)
  return {
    fixed,
    gone: left.filter(f => !fixed.includes(f) && !refuted.includes(f)),
    refuted: refuted.map(f => ({ id: f.id, why: clip(why.get(f.id)!, 500) }))
  }
}

/**
 * Appends a review to the state. Findings keep the iteration they were first seen in (`since`); a
 * finding open before a pushed fix and raised again is `reraised`, as is one that was settled earlier
 * in the round and is back. Ids open before and gone now are `resolved` (fixed: see `resolvedBy`)
 * or `gone` (no longer raised: a disputed finding, one in a rewritten file the reviewer did not
 * confirm fixed, or one whose lines the fix did not change), or `refuted` (the verifier refuted it
 * at code nobody changed: `r.refuted`, with why).
 */
export function appendReview(state: LoopState, r: ReviewedIteration): LoopState {
  const previous = lastIteration(state)
  const round = state.iterations.filter(it => it.round === state.round)
  const previousOpen = new Map(
    (previous?.round === state.round ? previous.findings : [])
      .filter(f => f.status !== 'fixed')
      .map(f => [f.id, f])
  )
  const firstSeen = new Map<string, number>()
  for (const it of round)
    for (const f of it.findings) if (!firstSeen.has(f.id)) firstSeen.set(f.id, f.since)
  const settledBefore = new Set(
    round.flatMap(it => [...it.resolved, ...(it.gone ?? []), ...(it.refuted ?? []).map(x => x.id)])
  )
  const disputed = new Set(previous?.fix?.disputes.map(d => d.id) ?? [])
  const fix = previous?.round === state.round && !r.fixDropped ? previous.fix : undefined
  // a fix attempted it: the pushed fix changed its lines, or the fixers ran to the end without disputing it
  const attempted = (f: FindingRecord) =>
    fix?.outcome === 'pushed' &&
    !disputed.has(f.id) &&
    (touched(f, r.changedLines) || fix.stopReason === undefined)
  const findings: FindingRecord[] = r.findings.map(f => {
    const before = previousOpen.get(f.id)
    // a review carried into a human's fix raises nothing again: nobody reviewed anew
    const reraised =
      !reviewsNothing(r.trigger) &&
      !f.carried &&
      (before ? attempted(before) : settledBefore.has(f.id))
    return {
      id: f.id,
      severity: f.severity,
      category: f.category,
      // clipped to the state schema's limits: a state over them is unreadable by the next run
      title: f.title.slice(0, 1000),
      file: f.file?.slice(0, 1000),
      line: f.line,
      source: f.source.slice(0, 200),
      status: disputed.has(f.id) ? 'disputed' : 'open',
      since: previousOpen.get(f.id)?.since ?? firstSeen.get(f.id) ?? r.n,
      ...(reraised ? { reraised: true } : {}),
      ...(f.verification?.held ? { held: heldAs(f.verification.status) } : {})
    }
  })
  const current = new Set(findings.map(f => f.id))
  const confirmed = new Set((r.answers ?? []).filter(a => a.status === 'fixed').map(a => a.id))
  const left = [...previousOpen.values()].filter(f => !current.has(f.id))
  const { fixed, gone, refuted } = settledNow(left, r, { disputed, confirmed })
  const answers = (r.answers ?? [])
    .filter(a => previousOpen.has(a.id) || current.has(a.id))
    .slice(0, 30)
    .map(a => ({ ...a, note: clip(a.note, 500) }))
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
    resolved: fixed.map(f => f.id),
    gates: r.gates,
    usage: r.usage,
    startedAt: r.startedAt.toISOString(),
    durationMs: r.durationMs,
    ...(gone.length ? { gone: gone.map(f => f.id) } : {}),
    ...(refuted.length ? { refuted } : {}),
    ...reviewerNotes(r),
    ...(answers.length ? { answers } : {}),
    ...(r.trigger ? { trigger: r.trigger } : {})
  }
  // a carried review saw nothing anew; a review without the content (gates only, incremental-review
  // off) leaves nothing a later review can stand on
  const { reviewed: before, ...rest } = state
  const content = r.coverage?.content
  const reviewed = reviewsNothing(r.trigger) ? before : content && reviewedFiles(content, r.n)
  return {
    ...rest,
    iterations: [...state.iterations, record],
    lastReviewedSha: r.reviewedSha,
    totals: addUsage(state.totals, r.usage),
    ...(reviewed ? { reviewed } : {})
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
