import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import {
  caseLine,
  scorecardMarkdown,
  summarize,
  summaryLines,
  type EvalCaseResult
} from '../report/eval-score.js'
import { UsageError } from '../wiring/usage-error.js'
import type { CliIo, EvalMergeOptions } from './args.js'

/** The parts of an eval's JSON report the merge reads. */
interface Report {
  dataset: string
  reviewModel: string
  judgeModel?: string
  context?: string
  tolerance: number
  reportSchema: number
  shard?: { index: number; of: number }
  /** The cases the run set out to take: a report missing some was cut off. */
  planned: string[]
  estimateUsd?: number
  finishedAt?: string
  cases: EvalCaseResult[]
  [field: string]: unknown
}

/** Fields every shard of one run has alike: a merge of different runs would mean nothing. */
const SAME = [
  'datasetDigest',
  'selection',
  'reviewModel',
  'fixModel',
  'judgeModel',
  'judgeMode',
  'severityThreshold',
  'tolerance',
  'context',
  'reviewMaxTurns',
  'verifyFindings',
  'loop',
  'inputs'
] as const

/**
 * `review-loop eval merge FILE...`: the shards' JSON reports as one, the cases in the order a single
 * run gives them and the totals summed from them, so the figures are the ones a single run prints.
 */
export async function mergeReports(options: EvalMergeOptions, io: CliIo): Promise<number> {
  const reports = options.files.map(f => readReport(path.resolve(io.cwd, f)))
  checkAlike(reports, options.files)
  checkShards(reports, options.files)
  checkWhole(reports, options.files)
  const results = reports.flatMap(r => r.cases).sort((a, b) => (a.id < b.id ? -1 : 1))
  const twice = results.find((r, i) => i > 0 && results[i - 1]!.id === r.id)
  if (twice)
    throw new UsageError(
      `case ${twice.id} is in more than one report: give each shard's report once.`
    )
  const summary = summarize(results)
  const first = reports[0]!
  const width = Math.max(...results.map(r => r.id.length), 2)
  for (const r of results) io.out(caseLine(r, width))
  io.out('')
  for (const line of summaryLines(summary, first.tolerance)) io.out(line)
  const merged = {
    ...first,
    shard: undefined,
    shards: reports.length,
    estimateUsd: reports.reduce((s, r) => s + (r.estimateUsd ?? 0), 0),
    finishedAt: reports
      .map(r => r.finishedAt ?? '')
      .sort()
      .at(-1),
    summary,
    cases: results
  }
  if (options.json) {
    writeFileSync(path.resolve(io.cwd, options.json), `${JSON.stringify(merged, null, 2)}\n`)
    io.out(`JSON: ${path.resolve(io.cwd, options.json)}`)
  }
  if (options.summary) {
    const facts = { ...first, context: first.context ?? 'tools', shards: reports.length }
    appendFileSync(
      path.resolve(io.cwd, options.summary),
      scorecardMarkdown(summary, facts, results)
    )
  }
  return summary.errors ? 1 : 0
}

/** One report, read and its shape checked; a usage error naming the file otherwise. */
function readReport(file: string): Report {
  let data: Partial<Report>
  try {
    data = JSON.parse(readFileSync(file, 'utf8')) as Partial<Report>
  } catch (e) {
    throw new UsageError(
      `eval merge: ${file} cannot be read as JSON (${(e as Error).message}): give the file review-loop eval --json wrote.`
    )
  }
  if (!Array.isArray(data.cases) || typeof data.reviewModel !== 'string')
    throw new UsageError(
      `eval merge: ${file} is not an eval report (it has no "cases" and "reviewModel"): give the file review-loop eval --json wrote.`
    )
  if (data.reportSchema !== 2 || !Array.isArray(data.planned))
    throw new UsageError(
      `eval merge: ${file} was written by an older review-loop (its report counts no duplicates and lists no planned cases): run its cases again with this version.`
    )
  const bad = data.cases.findIndex(c => !caseShaped(c))
  if (bad >= 0)
    throw new UsageError(
      `eval merge: ${file} has a case ${bad + 1} that is not a result of review-loop eval (an id, a status and its counts): give the file review-loop eval --json wrote.`
    )
  return data as Report
}

/** A case result as the eval writes it: an id, a status, and numbers for its counts and cost. */
function caseShaped(c: unknown): c is EvalCaseResult {
  const r = c as Partial<Record<string, unknown>> | null
  const counts = ['findings', 'trueFindings', 'duplicates', 'issues', 'foundIssues', 'wallMs']
  return (
    typeof r === 'object' &&
    r !== null &&
    typeof r.id === 'string' &&
    ['done', 'error', 'skipped'].includes(r.status as string) &&
    counts.every(k => typeof r[k] === 'number') &&
    typeof (r.usage as { costUsd?: unknown } | undefined)?.costUsd === 'number'
  )
}

/** Each report holds a result for every case it planned: a job cut off (cancelled, timed out) does not. */
function checkWhole(reports: readonly Report[], files: readonly string[]): void {
  for (const [i, r] of reports.entries()) {
    const got = new Set(r.cases.map(c => c.id))
    const missing = r.planned.filter(id => !got.has(id))
    if (missing.length)
      throw new UsageError(
        `eval merge: ${files[i]} stopped before ${missing.length} of its ${r.planned.length} cases (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''}): its run was cut off (cancelled, timed out); run it again${r.shard ? ` with --shard ${r.shard.index}/${r.shard.of}` : ''}.`
      )
  }
}

/**
 * The reports come from one run: the same dataset, models and settings. Where the calls were sent
 * (an `…-base-url` input: a proxy, a gateway) may differ from job to job.
 */
function checkAlike(reports: readonly Report[], files: readonly string[]): void {
  const first = reports[0]!
  const setting = (r: Report, field: (typeof SAME)[number]) =>
    JSON.stringify(
      field === 'inputs'
        ? Object.fromEntries(
            Object.entries((r.inputs ?? {}) as Record<string, string>).filter(
              ([k]) => !k.endsWith('-base-url')
            )
          )
        : r[field]
    )
  for (const [i, r] of reports.entries())
    for (const field of SAME) {
      const [a, b] = [setting(first, field), setting(r, field)]
      if (a !== b)
        throw new UsageError(
          `eval merge: ${files[0]} and ${files[i]} were run with a different ${field} (${a ?? 'none'} and ${b ?? 'none'}): merge the shards of one run.`
        )
    }
}

/** Shards, when the reports are shards: each of 1…N once, all of the same N. */
function checkShards(reports: readonly Report[], files: readonly string[]): void {
  const sharded = reports.filter(r => r.shard)
  if (!sharded.length) return
  if (sharded.length < reports.length)
    throw new UsageError(
      `eval merge: ${files[reports.findIndex(r => !r.shard)]} is a whole run and the others are shards: merge the shards of one run.`
    )
  const of = reports[0]!.shard!.of
  const seen = new Map<number, string>()
  for (const [i, r] of reports.entries()) {
    if (r.shard!.of !== of)
      throw new UsageError(
        `eval merge: ${files[0]} is a shard of ${of} and ${files[i]} of ${r.shard!.of}: merge the shards of one run.`
      )
    const again = seen.get(r.shard!.index)
    if (again)
      throw new UsageError(
        `eval merge: ${again} and ${files[i]} are both shard ${r.shard!.index}/${of}: give each shard once.`
      )
    seen.set(r.shard!.index, files[i]!)
  }
  const missing = Array.from({ length: of }, (_, k) => k + 1).filter(k => !seen.has(k))
  if (missing.length)
    throw new UsageError(
      `eval merge: shard${missing.length > 1 ? 's' : ''} ${missing.map(k => `${k}/${of}`).join(', ')} missing: give every shard's report (a shard that failed can be run again alone with --shard).`
    )
}
