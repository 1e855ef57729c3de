import { severityRank } from './findings.js'
import { encodeStateJson } from './state-comment.js'
import type { CoverageRecord, FindingRecord, IterationRecord, LoopState } from './types.js'

/** The state's share of the sticky comment; the rest is for people. */
export const STATE_JSON_BUDGET = 30_000

/** Measured as written into the comment, where each `<`, `>` and `&` takes six characters. */
function size(state: LoopState): number {
  return encodeStateJson(state).length
}

/**
 * The coverage with at most `paths` paths of each list (unreviewed ones first to stay): what must
 * not be lost is that files went unreviewed, and how many.
 */
function shrinkCoverage(c: CoverageRecord, paths: number): CoverageRecord {
  const unreviewed = c.unreviewed?.slice(0, paths)
  const omitted =
    (c.unreviewedOmitted ?? 0) + (c.unreviewed?.length ?? 0) - (unreviewed?.length ?? 0)
  const ignoredFiles = c.ignoredFiles?.slice(0, Math.floor(paths / 2))
  return {
    files: c.files,
    reviewed: c.reviewed,
    ignored: c.ignored,
    batches: c.batches,
    ...(ignoredFiles?.length ? { ignoredFiles } : {}),
    ...(unreviewed?.length ? { unreviewed } : {}),
    ...(omitted ? { unreviewedOmitted: omitted } : {}),
    ...(c.failures?.length
      ? { failures: c.failures.slice(0, Math.max(1, Math.floor(paths / 10))) }
      : {})
  }
}

function trimIteration(it: IterationRecord, keep: number, slim: boolean): IterationRecord {
  const sorted = [...it.findings].sort(
    (a, b) => severityRank(a.severity) - severityRank(b.severity)
  )
  const kept = sorted.slice(0, keep).map((f): FindingRecord =>
    slim
      ? {
          id: f.id,
          severity: f.severity,
          status: f.status,
          since: f.since,
          ...(f.reraised ? { reraised: true } : {}),
          // a held finding holds GO until a person settles it: the hold outlives compaction
          ...(f.held ? { held: f.held } : {})
        }
      : { ...f, title: f.title?.slice(0, 120), file: f.file?.slice(0, 200) }
  )
  const resolved = it.resolved.slice(0, slim ? 50 : 200)
  const fix = it.fix
  return {
    ...it,
    summary: it.summary.slice(0, slim ? 200 : 1000),
    findings: kept,
    omitted: (it.omitted ?? 0) + (it.findings.length - kept.length) || undefined,
    resolved,
    resolvedOmitted:
      (it.resolvedOmitted ?? 0) + (it.resolved.length - resolved.length) || undefined,
    gone: it.gone?.slice(0, slim ? 50 : 200),
    refuted: it.refuted
      ?.slice(0, slim ? 10 : 30)
      .map(x => ({ ...x, why: x.why.slice(0, slim ? 100 : 500) })),
    // what people read in the comment shrinks with the findings kept; the full text is in the artifact
    dropped: slim ? undefined : it.dropped?.slice(0, Math.min(20, Math.ceil(keep / 10))),
    answers: slim
      ? undefined
      : it.answers
          ?.slice(0, Math.min(30, Math.ceil(keep / 10)))
          .map(a => ({ ...a, note: a.note.slice(0, keep >= 100 ? 500 : 150) })),
    failedCriteria: it.failedCriteria?.slice(0, slim ? 3 : Math.min(20, Math.ceil(keep / 5))),
    gates: it.gates.slice(0, 30).map(g => ({ ...g, name: g.name.slice(0, 100) })),
    coverage:
      it.coverage && shrinkCoverage(it.coverage, slim ? 10 : Math.min(50, Math.ceil(keep / 4))),
    fix: fix && {
      ...fix,
      ...(fix.summary ? { summary: fix.summary.slice(0, slim ? 200 : 2000) } : {}),
      filesChanged: fix.filesChanged.slice(0, slim ? 20 : 100),
      filesOmitted:
        (fix.filesOmitted ?? 0) +
          (fix.filesChanged.length - Math.min(fix.filesChanged.length, slim ? 20 : 100)) ||
        undefined,
      commands: fix.commands.slice(0, 20).map(c => ({ ...c, command: c.command.slice(0, 200) })),
      revertedProtected: fix.revertedProtected.slice(0, 20),
      ...(fix.leftOut
        ? {
            leftOut: fix.leftOut
              .slice(0, 20)
              .map(l => ({ path: l.path.slice(0, 300), reason: l.reason.slice(0, 300) }))
          }
        : {}),
      disputes: fix.disputes.slice(0, 20).map(d => ({ id: d.id, reason: d.reason.slice(0, 300) }))
    }
  }
}

/**
 * Shrinks the state until its JSON fits the budget: older iterations keep ids and severities only,
 * the latest keeps its most severe findings. The full records live in the artifacts.
 */
export function compactState(state: LoopState, budget = STATE_JSON_BUDGET): LoopState {
  const steps: Array<[number, number]> = [
    [200, 200],
    [100, 50],
    [60, 20],
    [30, 10],
    // older iterations keep their most severe ids: the stall check compares them
    [10, 10]
  ]
  let compact = state
  let whole = state
  for (const [step, [latestKeep, olderKeep]] of steps.entries()) {
    if (size(compact) <= budget) return compact
    // once older iterations are slimmed and it still does not fit, what each file was reviewed at
    // goes (a PR of many files, a long loop): the next review reads the whole PR again, which costs
    // money but loses nothing
    if (step === 2 && whole.reviewed) {
      const { reviewed: _reviewed, ...rest } = whole
      whole = rest
    }
    const last = whole.iterations.length - 1
    compact = {
      ...whole,
      iterations: state.iterations.map((it, i) =>
        i === last ? trimIteration(it, latestKeep, false) : trimIteration(it, olderKeep, true)
      )
    }
  }
  // Still too big: only many rounds get here. Drop earlier rounds (never the current round's
  // iterations, which count towards the cap); n keeps counting over the whole PR.
  while (size(compact) > budget && (compact.iterations[0]?.round ?? state.round) < state.round) {
    compact = { ...compact, iterations: compact.iterations.slice(1) }
  }
  return compact
}
