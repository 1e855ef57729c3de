import { normaliseTitle } from './fingerprint.js'
import { roundIterations } from './state.js'
import type { Finding, FindingRecord, LoopState } from './types.js'

/** How far a re-raised finding's line may have moved (a fix above it shifts it). */
const LINE_SLACK = 15
/** Share of title words two findings must have in common to be the same problem. */
const TITLE_SIMILARITY = 0.5

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

/**
 * The earlier finding `f` raises again, if any: same source, same file, same category, a line within
 * reach (or neither has one), and a similar title. A fix changes the cited line, and with it the
 * fingerprint; this keeps the problem's id.
 */
export function sameProblem(f: Finding, earlier: FindingRecord): boolean {
  if ((earlier.source ?? 'ai') !== f.source) return false
  if ((earlier.file ?? '') !== (f.file ?? '')) return false
  if (earlier.category !== undefined && earlier.category !== f.category) return false
  if ((earlier.line === undefined) !== (f.line === undefined)) return false
  if (earlier.line !== undefined && f.line !== undefined) {
    const end = Math.max(f.endLine ?? f.line, f.line)
    if (earlier.line < f.line - LINE_SLACK || earlier.line > end + LINE_SLACK) return false
  }
  return titleSimilarity(f.title, earlier.title ?? '') >= TITLE_SIMILARITY
}

/**
 * The review's findings with the ids of the earlier findings of this round they raise again. A
 * finding whose id is already an earlier one (its fingerprint, or the reviewer's `previousId`) keeps
 * it; the others are matched by `sameProblem`, each earlier id given to one finding at most, the most
 * recent records first. Findings that end up with the same id are merged (the first stays).
 */
export function keepEarlierIds(findings: readonly Finding[], state: LoopState): Finding[] {
  const latest = new Map<string, FindingRecord>()
  for (const it of roundIterations(state)) for (const r of it.findings) latest.set(r.id, r)
  const records = [...latest.values()].reverse()
  const taken = new Set(findings.map(f => f.id).filter(id => latest.has(id)))
  const out: Finding[] = []
  const ids = new Set<string>()
  for (const f of findings) {
    let id = f.id
    if (!latest.has(id)) {
      const match = records.find(r => !taken.has(r.id) && sameProblem(f, r))
      if (match) {
        id = match.id
        taken.add(id)
      }
    }
    if (ids.has(id)) continue
    ids.add(id)
    out.push(id === f.id ? f : { ...f, id })
  }
  return out
}
