import { severityRank } from './findings.js'
import { normaliseTitle } from './fingerprint.js'
import { roundIterations } from './state.js'
import type { Finding, FindingRecord, LoopState } from './types.js'

/** How far a re-raised finding's line may have moved (a fix above it shifts it). */
const LINE_SLACK = 15
/** Share of title words two findings must have in common to be the same problem... */
const TITLE_SIMILARITY = 0.7
/** ...or, a few lines apart at most, this share. Sibling findings ("for email", "for phone") differ. */
const NEAR_SIMILARITY = 0.5
const NEAR_LINES = 3

/** Words that say nothing about which problem a title names. */
const FILLER = new Set(
  'the and for with without not its this that from are was has have does into after before still when then than can may should must also only'.split(
    ' '
  )
)

function words(title: string): Set<string> {
  return new Set(
    normaliseTitle(title)
      .split(/[^a-z0-9_]+/)
      .filter(w => w.length > 2 && !FILLER.has(w))
  )
}

/** Jaccard similarity of the titles' words. */
export function titleSimilarity(a: string, b: string): number {
  const x = words(a)
  const y = words(b)
  if (x.size === 0 || y.size === 0) return normaliseTitle(a) === normaliseTitle(b) ? 1 : 0
  let both = 0
  for (const w of x) if (y.has(w)) both++
  return both / (x.size + y.size - both)
}

/** Lines between an earlier finding's line and a new finding's range; 0 for neither having one. */
/** What of an earlier finding tells whether a new one raises it again: a record, or a finding. */
type Earlier = Pick<FindingRecord, 'source' | 'file' | 'category' | 'line' | 'title'>

function distance(f: Finding, earlier: Earlier): number {
  if (earlier.line === undefined || f.line === undefined) return 0
  const end = Math.max(f.endLine ?? f.line, f.line)
  return earlier.line < f.line ? f.line - earlier.line : Math.max(0, earlier.line - end)
}

/**
 * The earlier finding `f` raises again, if any: same source, same file, same category, a line within
 * reach (or neither has one), and a similar title — very similar, or similar a few lines apart. A fix
 * changes the cited line, and with it the fingerprint; this keeps the problem's id.
 */
export function sameProblem(f: Finding, earlier: Earlier): boolean {
  if ((earlier.source ?? 'ai') !== f.source) return false
  if ((earlier.file ?? '') !== (f.file ?? '')) return false
  if (earlier.category !== undefined && earlier.category !== f.category) return false
  if ((earlier.line === undefined) !== (f.line === undefined)) return false
  const lines = distance(f, earlier)
  if (lines > LINE_SLACK) return false
  const similarity = titleSimilarity(f.title, earlier.title ?? '')
  return similarity >= TITLE_SIMILARITY || (similarity >= NEAR_SIMILARITY && lines <= NEAR_LINES)
}

/** Findings of this round that are open still, or were only no longer raised: the ones a new finding may raise again. */
function matchable(state: LoopState, settled: ReadonlySet<string>): Map<string, FindingRecord> {
  const latest = new Map<string, FindingRecord>()
  for (const it of roundIterations(state)) {
    for (const r of it.findings) latest.set(r.id, r)
    // fixed (the fix changed its lines, or the reviewer confirmed it): a similar finding is another one
    for (const id of it.resolved) latest.delete(id)
  }
  for (const id of settled) latest.delete(id)
  return latest
}

/**
 * The review's findings with the ids of the earlier findings of this round they raise again. A
 * finding whose id is already an earlier one (its fingerprint, or the reviewer's `previousId`) keeps
 * it; the others are matched by `sameProblem` against earlier findings not settled (fixed, or
 * answered fixed or dispute accepted in `settled`), each earlier id given to one finding at most, the
 * most recent records first, and to a finding of the very same title before a similar one (of two
 * tests differing only in case, each keeps its own). Findings that end up with one id are merged:
 * the most severe stays.
 */
export function keepEarlierIds(
  findings: readonly Finding[],
  state: LoopState,
  settled: ReadonlySet<string> = new Set()
): Finding[] {
  const latest = matchable(state, settled)
  const records = [...latest.values()].reverse()
  const taken = new Set(findings.map(f => f.id).filter(id => latest.has(id)))
  const ids = findings.map(f => f.id)
  const first = new Map<string, number>()
  ids.forEach((id, i) => first.has(id) || first.set(id, i))
  for (const exact of [true, false]) {
    findings.forEach((f, i) => {
      // kept as it is: an earlier id already, matched in the first pass, or merged with one above
      if (latest.has(f.id) || ids[i] !== f.id || first.get(f.id) !== i) return
      const match = records.find(
        r => !taken.has(r.id) && (!exact || r.title === f.title) && sameProblem(f, r)
      )
      if (match) {
        ids[i] = match.id
        taken.add(match.id)
      }
    })
  }
  const byId = new Map<string, Finding>()
  findings.forEach((f, i) => {
    const id = ids[i]!
    const kept = byId.get(id)
    if (!kept || severityRank(f.severity) < severityRank(kept.severity))
      byId.set(id, id === f.id ? f : { ...f, id })
  })
  return [...byId.values()]
}
