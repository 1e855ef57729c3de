/**
 * Loop analytics: what the review loop did over many pull requests, from their loop states alone.
 * Pure: the caller reads the states (one per PR) and writes the result where it wants it.
 */
import { lastIteration, reviewsNothing, roundReviews } from '../loop/state.js'
import {
  LOOP_STATUSES,
  type SetAsideCounts,
  type IterationRecord,
  type LoopState,
  type LoopStatus
} from '../loop/types.js'
import { escapeMd, STATUS_LABEL, tokens, usd } from './format.js'
import { setAsideWhy } from './verification.js'

export interface PrStats {
  pr: number
  status: LoopStatus
  /** Iterations over the whole PR, every round (the last iteration's `n`). */
  iterations: number
  /** The first round's first review decided GO. */
  firstPassGo: boolean
  /** Review iterations of the round that reached GO; only for a PR that ended `go`. */
  iterationsToGo?: number
  fixesPushed: number
  costUsd: number
  /** Distinct finding ids per category (findings whose category the state kept). */
  categories: Record<string, number>
  /** Distinct finding ids per source: `ai`, `human` or `gate:NAME`. */
  sources: Record<string, number>
  /** AI findings the reviews set aside (not acted on), by why, over every iteration. */
  setAside: SetAsideCounts
}

export interface LoopStats {
  prs: PrStats[]
  counted: number
  /** Share (0 to 1) of the PRs with a first review whose first review decided GO. */
  firstPassGoRate: number | undefined
  iterationsToGo: { median?: number; mean?: number }
  /** PRs per status, every status of LOOP_STATUSES present (0 when none). */
  byStatus: Record<string, number>
  topCategories: Array<[string, number]>
  topSources: Array<[string, number]>
  fixesPushed: number
  /** AI findings set aside (not acted on), by why, over every PR. */
  setAside: SetAsideCounts
  cost: { total: number; mean?: number; median?: number; max?: number }
  tokens: number
}

const TOP = 5
const DEFAULT_TITLE = 'Review-loop analytics'

function median(values: readonly number[]): number | undefined {
  if (!values.length) return undefined
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

function mean(values: readonly number[]): number | undefined {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : undefined
}

/**
 * The first round's first review. Compaction may have dropped earlier rounds from a long state;
 * then the earliest review still recorded stands in for it.
 */
function firstReview(state: LoopState): IterationRecord | undefined {
  const reviews = state.iterations.filter(it => !reviewsNothing(it.trigger))
  return reviews.find(it => it.n === 1) ?? reviews[0]
}

/** Distinct finding ids over all iterations, counted by the category and the source they carry. */
function findingCounts(state: LoopState): Pick<PrStats, 'categories' | 'sources'> {
  const category = new Map<string, string | undefined>()
  const source = new Map<string, string | undefined>()
  for (const it of state.iterations) {
    for (const f of it.findings) {
      if (!category.get(f.id)) category.set(f.id, f.category)
      if (!source.get(f.id)) source.set(f.id, f.source)
    }
  }
  const tally = (ids: Map<string, string | undefined>): Record<string, number> => {
    const out: Record<string, number> = {}
    for (const name of ids.values()) if (name) out[name] = (out[name] ?? 0) + 1
    return out
  }
  return { categories: tally(category), sources: tally(source) }
}

function prStats(state: LoopState): PrStats {
  const reviews = roundReviews(state)
  return {
    pr: state.pr,
    status: state.status,
    iterations: lastIteration(state)?.n ?? 0,
    firstPassGo: firstReview(state)?.decision === 'GO',
    // a GO a human gave (/review-loop approve) is no review's: it does not count as reaching GO
    ...(state.status === 'go' && !state.override && reviews > 0 ? { iterationsToGo: reviews } : {}),
    fixesPushed: state.iterations.filter(it => it.fix?.outcome === 'pushed').length,
    costUsd: state.totals.costUsd,
    setAside: sumRecords(state.iterations.map(it => it.setAside ?? {})),
    ...findingCounts(state)
  }
}

/** One state per PR: the most recently updated one when the same PR is given twice. */
function latestPerPr(states: readonly LoopState[]): LoopState[] {
  const byPr = new Map<number, LoopState>()
  for (const s of states) {
    const seen = byPr.get(s.pr)
    if (!seen || s.updatedAt >= seen.updatedAt) byPr.set(s.pr, s)
  }
  return [...byPr.values()]
}

function sumRecords(records: ReadonlyArray<Record<string, number>>): Record<string, number> {
  const out: Record<string, number> = {}
  for (const r of records) for (const [k, v] of Object.entries(r)) out[k] = (out[k] ?? 0) + v
  return out
}

/** The `n` largest entries, most first, ties by name. */
function top(counts: Record<string, number>, n = TOP): Array<[string, number]> {
  return Object.entries(counts)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, n)
}

/** The PRs that had a first review: the denominator of the first-pass GO rate. */
function reviewedPrs(prs: readonly PrStats[]): PrStats[] {
  return prs.filter(p => p.iterations > 0)
}

export function computeStats(states: readonly LoopState[]): LoopStats {
  const kept = latestPerPr(states)
  const prs = kept.map(prStats)
  const reviewed = reviewedPrs(prs)
  const toGo = prs.flatMap(p => (p.iterationsToGo === undefined ? [] : [p.iterationsToGo]))
  const costs = prs.map(p => p.costUsd)
  const byStatus: Record<string, number> = Object.fromEntries(LOOP_STATUSES.map(s => [s, 0]))
  for (const p of prs) byStatus[p.status] = (byStatus[p.status] ?? 0) + 1
  return {
    prs,
    counted: prs.length,
    firstPassGoRate: reviewed.length
      ? reviewed.filter(p => p.firstPassGo).length / reviewed.length
      : undefined,
    iterationsToGo: { median: median(toGo), mean: mean(toGo) },
    byStatus,
    topCategories: top(sumRecords(prs.map(p => p.categories))),
    topSources: top(sumRecords(prs.map(p => p.sources))),
    fixesPushed: prs.reduce((a, p) => a + p.fixesPushed, 0),
    setAside: sumRecords(prs.map(p => p.setAside)),
    cost: {
      total: costs.reduce((a, b) => a + b, 0),
      mean: mean(costs),
      median: median(costs),
      max: costs.length ? costs.reduce((a, b) => Math.max(a, b)) : undefined
    },
    tokens: kept.reduce((a, s) => a + tokens(s.totals), 0)
  }
}

/** 2, 2.5, 2.3: whole numbers as they are, others to one decimal. */
function num(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1)
}

function money(value: number | undefined): string {
  return value === undefined ? '—' : usd(value)
}

function firstPassText(stats: LoopStats): string {
  if (stats.firstPassGoRate === undefined) return 'no PR reviewed yet'
  const reviewed = reviewedPrs(stats.prs)
  const go = reviewed.filter(p => p.firstPassGo).length
  return `${Math.round(stats.firstPassGoRate * 100)}% (${go} of ${reviewed.length})`
}

function toGoText(stats: LoopStats): string {
  const { median: med, mean: avg } = stats.iterationsToGo
  if (med === undefined || avg === undefined) return 'no PR reached GO'
  const n = stats.prs.filter(p => p.iterationsToGo !== undefined).length
  return `median ${num(med)}, mean ${avg.toFixed(1)} (over ${n} PR${n === 1 ? '' : 's'} that reached GO)`
}

function fixesText(stats: LoopStats): string {
  return `${stats.fixesPushed} (${(stats.fixesPushed / stats.counted).toFixed(2)} per PR)`
}

/** "3: 1 quotes code that is not in the file, 2 refuted by the verifier", or nothing when none. */
function setAsideText(stats: LoopStats): string[] {
  const { total, why } = setAsideWhy(stats.setAside)
  return total ? [`${total}: ${why}`] : []
}

function costText(stats: LoopStats): string {
  const c = stats.cost
  return `mean ${money(c.mean)}, median ${money(c.median)}, max ${money(c.max)}`
}

/** The terminal statuses that occurred, in LOOP_STATUSES order, with their counts. */
function ended(stats: LoopStats): Array<[LoopStatus, number]> {
  return LOOP_STATUSES.filter(s => s !== 'running' && (stats.byStatus[s] ?? 0) > 0).map(s => [
    s,
    stats.byStatus[s]!
  ])
}

function endedText(stats: LoopStats): string {
  const parts = ended(stats).map(([s, n]) => `${STATUS_LABEL[s]}: ${n}`)
  return parts.length ? parts.join(' · ') : 'none yet'
}

function headlineTable(stats: LoopStats): string[] {
  return [
    '| figure | value |',
    '|---|---|',
    `| pull requests with loop state | ${stats.counted} |`,
    `| first-pass GO | ${firstPassText(stats)} |`,
    `| iterations to GO | ${toGoText(stats)} |`,
    `| ended | ${endedText(stats)} |`,
    `| still running | ${stats.byStatus['running'] ?? 0} |`,
    `| fixes pushed | ${fixesText(stats)} |`,
    ...setAsideText(stats).map(t => `| findings not acted on | ${t} |`),
    `| cost per PR | ${costText(stats)} |`,
    `| total cost | ${usd(stats.cost.total)} |`,
    `| tokens | ${stats.tokens.toLocaleString('en-US')} |`
  ]
}

/** How the loops ended, as a Mermaid pie chart; labels quoted as mermaid.ts quotes them. */
function endedPie(stats: LoopStats): string[] {
  const slices = ended(stats)
  if (!slices.length) return ['No loop has ended yet.']
  return [
    '```mermaid',
    'pie showData',
    ...slices.map(([s, n]) => `  ${JSON.stringify(STATUS_LABEL[s])} : ${n}`),
    '```'
  ]
}

/** How many PRs took 1, 2, 3... review iterations to GO, as a Mermaid bar chart. */
function toGoChart(stats: LoopStats): string[] {
  const toGo = stats.prs.flatMap(p => (p.iterationsToGo === undefined ? [] : [p.iterationsToGo]))
  if (!toGo.length) return []
  const max = toGo.reduce((a, b) => Math.max(a, b), -Infinity)
  const buckets = Array.from({ length: max }, (_, i) => toGo.filter(n => n === i + 1).length)
  const labels = buckets.map((_, i) => JSON.stringify(String(i + 1)))
  return [
    '```mermaid',
    'xychart-beta',
    '  title "Review iterations to GO"',
    `  x-axis "review iterations" [${labels.join(', ')}]`,
    `  y-axis "pull requests" 0 --> ${buckets.reduce((a, b) => Math.max(a, b), 0)}`,
    `  bar [${buckets.join(', ')}]`,
    '```'
  ]
}

function topTable(stats: LoopStats): string[] {
  const rows = Math.max(stats.topCategories.length, stats.topSources.length)
  if (!rows) return ['No findings recorded.']
  const cell = (entry: [string, number] | undefined): string =>
    entry ? `${escapeMd(entry[0])} | ${entry[1]}` : ' | '
  return [
    '| # | category | findings | source | findings |',
    '|---|---|---|---|---|',
    ...Array.from(
      { length: rows },
      (_, i) => `| ${i + 1} | ${cell(stats.topCategories[i])} | ${cell(stats.topSources[i])} |`
    )
  ]
}

function prTable(stats: LoopStats): string[] {
  return [
    '| PR | status | iterations | first-pass GO | to GO | fixes pushed | cost |',
    '|---|---|---|---|---|---|---|',
    ...stats.prs.map(
      p =>
        `| #${p.pr} | ${STATUS_LABEL[p.status] ?? escapeMd(p.status)} | ${p.iterations} | ${p.firstPassGo ? 'yes' : 'no'} | ${p.iterationsToGo ?? '—'} | ${p.fixesPushed} | ${usd(p.costUsd)} |`
    )
  ]
}

/** The analytics as GitHub-flavoured Markdown for a job summary. */
export function renderStats(stats: LoopStats, options: { title?: string; window: string }): string {
  const heading = `## ${escapeMd(options.title ?? DEFAULT_TITLE)}`
  const window = escapeMd(options.window)
  if (!stats.counted)
    return [heading, '', `No review-loop state found in ${window}.`, ''].join('\n')
  const chart = toGoChart(stats)
  const parts = [
    heading,
    '',
    `Over ${window}: ${stats.counted} pull request${stats.counted === 1 ? '' : 's'} with review-loop state.`,
    '',
    ...headlineTable(stats),
    '',
    '### How loops ended',
    '',
    ...endedPie(stats),
    ...(chart.length ? ['', '### Iterations to GO', '', ...chart] : []),
    '',
    `### Top finding categories and sources`,
    '',
    ...topTable(stats),
    '',
    '### Pull requests',
    '',
    ...prTable(stats)
  ]
  return `${parts.join('\n')}\n`
}

function topText(entries: ReadonlyArray<[string, number]>): string {
  return entries.length ? entries.map(([name, n]) => `${name} ${n}`).join(', ') : 'none'
}

/** The same figures as plain lines for a terminal. */
export function statsLines(stats: LoopStats): string[] {
  if (!stats.counted) return ['No review-loop state found.']
  return [
    `Pull requests with loop state: ${stats.counted}`,
    `First-pass GO: ${firstPassText(stats)}`,
    `Iterations to GO: ${toGoText(stats)}`,
    `Ended: ${endedText(stats)}`,
    `Still running: ${stats.byStatus['running'] ?? 0}`,
    `Top categories: ${topText(stats.topCategories)}`,
    `Top sources: ${topText(stats.topSources)}`,
    `Fixes pushed: ${fixesText(stats)}`,
    ...setAsideText(stats).map(t => `Findings not acted on: ${t}`),
    `Cost per PR: ${costText(stats)}; total ${usd(stats.cost.total)}`,
    `Tokens: ${stats.tokens.toLocaleString('en-US')}`
  ]
}
