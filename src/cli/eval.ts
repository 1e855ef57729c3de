import {
  accessSync,
  appendFileSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { InputError } from '../action/input-error.js'
import { settingsFrom } from '../wiring/repo-config.js'
import { suggestKey } from '../config/config-file.js'
import {
  changedFiles,
  datasetDigest,
  DatasetError,
  shownRepo,
  loadDataset,
  shippedDataset,
  type EvalCase
} from '../eval/dataset.js'
import { CACHE_ENV, evalCache } from '../eval/external.js'
import { JUDGE_OUTPUT_RESERVE } from '../eval/judge.js'
import { PAIRWISE_FINDINGS, pairwiseEstimateUsd } from '../eval/pairwise.js'
import { runCase, unscored, type EvalRun } from '../eval/run-case.js'
import type { Settings } from '../loop/settings.js'
import { zeroUsage } from '../loop/usage.js'
import { plural } from '../report/format.js'
import { Budget } from '../model/budget.js'
import { createModelClient } from '../model/providers.js'
import {
  caseLine,
  counted,
  scorecardMarkdown,
  summarize,
  summaryLines,
  type EvalCaseResult,
  type EvalRunFacts
} from '../report/eval-score.js'
import { BATCH_CHARS } from '../review/ai-reviewer.js'
import { READ_LIMITS } from '../review/read-tools.js'
import { REVIEW_OUTPUT_RESERVE } from '../review/review-batch.js'
import { checkedInputs, inputFromEnv } from '../wiring/local-review.js'
import { UsageError } from '../wiring/usage-error.js'
import type { CliIo, EvalOptions } from './args.js'
import { createTerminalLog } from './terminal-log.js'

/** The reviewer's prompt around a case's diff and files: its template, the part's framing, the schema. */
const PROMPT_OVERHEAD_CHARS = 12_000

/** `review-loop eval`: each case's PR reviewed (or looped), scored, and the totals; exit 1 when a case failed to run. */
export async function evaluate(options: EvalOptions, io: CliIo): Promise<number> {
  const dataset = path.resolve(io.cwd, options.dataset ?? shippedDataset())
  const all = loaded(dataset)
  const cases = sharded(chosen(all, options.cases), options.shard)
  if (options.list) {
    for (const line of listLines(cases)) io.out(line)
    return 0
  }
  refusePlaceless(cases, options)
  const settings = evalSettings(options, io.env)
  const estimates = cases.map(c => estimateUsd(c, settings, options.judgeModel, options.judgeMode))
  // a file that cannot be written is said before anything is paid for
  const json = writableFile(io, '--json', options.json)
  const scorecard = writableFile(io, '--summary', options.summary)
  for (const line of plan(io, options, settings, dataset, cases, estimates)) io.out(line)
  const out = options.out
    ? path.resolve(io.cwd, options.out)
    : path.join(tmpdir(), `review-loop-eval-${new Date().toISOString().replace(/[:.]/g, '-')}`)
  mkdirSync(out, { recursive: true })
  const scratch = mkdtempSync(path.join(tmpdir(), 'review-loop-eval-work-'))
  const release = removedOnExit(scratch)
  try {
    const run = evalRun(options, settings, io, { out, scratch })
    const digest = datasetDigest(all)
    // the JSON is written after each case: a run stopped half way keeps what it paid for
    const save = (results: readonly EvalCaseResult[]) =>
      json &&
      writeFileSync(
        json,
        `${JSON.stringify(report({ options, settings, dataset, digest, cases, estimates }, results), null, 2)}\n`
      )
    const results = await runAll(cases, estimates, options.maxCostUsd, run, io, save)
    save(results)
    const summary = summarize(results)
    io.out('')
    for (const line of summaryLines(summary, options.tolerance)) io.out(line)
    if (options.judgeModel) io.out(judgeLine(options))
    if (scorecard)
      appendFileSync(
        scorecard,
        scorecardMarkdown(summary, runFacts(options, settings, dataset), results)
      )
    io.out(`Each case's comment, scored findings, test output and log: ${out}`)
    if (json) io.out(`JSON: ${json}`)
    return summary.errors ? 1 : 0
  } finally {
    release()
  }
}

/**
 * A label with no place is scored by the judge alone: without --judge-model it could never be
 * found, and recall would count it missed. Such an eval is refused before anything is paid for.
 */
function refusePlaceless(cases: readonly EvalCase[], options: EvalOptions): void {
  if (options.judgeModel) return
  const placeless = cases.filter(c => c.issues.some(i => !i.file))
  if (!placeless.length) return
  const shown = placeless
    .slice(0, 3)
    .map(c => c.id)
    .join(', ')
  throw new UsageError(
    `${counted(placeless.length, 'case')} (${shown}${placeless.length > 3 ? ', …' : ''}) ${placeless.length === 1 ? 'has' : 'have'} labels with no place, which only a judge can match: add --judge-model MODEL (and --judge-mode pairwise to judge as Martian's benchmark does), or leave ${placeless.length === 1 ? 'it' : 'them'} out with --case.`
  )
}

/** What the summary says of the judge: its model and mode. */
function judgeLine(options: EvalOptions): string {
  return options.judgeMode === 'pairwise'
    ? `Judge ${options.judgeModel}, pairwise: one call per (labelled issue, finding) pair, as Martian's Code Review Bench judges`
    : `Judge ${options.judgeModel}, batch: one call per case for the findings and labels their places did not match`
}

/** The dataset's cases; a broken one is a usage error naming the case, the field and the fix. */
function loaded(dataset: string): EvalCase[] {
  try {
    return loadDataset(dataset)
  } catch (e) {
    throw e instanceof DatasetError ? new UsageError(e.message) : e
  }
}

/** A file an option names, refused before the run when its folder does not exist or cannot be written. */
function writableFile(io: CliIo, flag: string, given: string | undefined): string | undefined {
  if (given === undefined) return undefined
  const file = path.resolve(io.cwd, given)
  try {
    accessSync(path.dirname(file), constants.W_OK)
  } catch {
    throw new UsageError(
      `${flag} ${file}: the folder ${path.dirname(file)} does not exist or cannot be written; create it or name another file.`
    )
  }
  return file
}

/**
 * The eval's temporary folder goes when the eval ends, however it ends: Ctrl-C or a kill too (the
 * local loop's own handler exits the process then; this one exits it when the loop is not running).
 */
function removedOnExit(dir: string): () => void {
  const remove = () => rmSync(dir, { recursive: true, force: true })
  const onSignal = (signal: NodeJS.Signals) => {
    remove()
    setImmediate(() => process.exit(signal === 'SIGINT' ? 130 : 143))
  }
  process.on('exit', remove).on('SIGINT', onSignal).on('SIGTERM', onSignal)
  return () => {
    process.off('exit', remove).off('SIGINT', onSignal).off('SIGTERM', onSignal)
    remove()
  }
}

/**
 * Every case in turn, a line each as it finishes; before a case the budget's rest cannot pay for
 * (by its estimate), the eval stops and the rest are counted as not run.
 */
async function runAll(
  cases: readonly EvalCase[],
  estimates: ReadonlyArray<{ firstUsd: number }>,
  maxUsd: number | undefined,
  run: EvalRun,
  io: CliIo,
  save: (results: readonly EvalCaseResult[]) => void
): Promise<EvalCaseResult[]> {
  const results: EvalCaseResult[] = []
  const width = Math.max(...cases.map(c => c.id.length))
  const count = (i: number) =>
    `[${String(i + 1).padStart(String(cases.length).length)}/${cases.length}]`
  let spent = 0
  for (const [i, c] of cases.entries()) {
    const left = maxUsd === undefined ? undefined : maxUsd - spent
    if (left !== undefined && left < estimates[i]!.firstUsd) {
      io.out(
        `Stopped before ${c.id}: $${Math.max(0, left).toFixed(4)} is left of --max-cost-usd and the loop reserves $${estimates[i]!.firstUsd.toFixed(4)} before its review's first answer; ${plural(cases.length - i, 'case')} not run.`
      )
      return [...results, ...cases.slice(i).map(c => skipped(c))]
    }
    const result = await runCase(c, run, left)
    spent += result.usage.costUsd
    results.push(result)
    save(results)
    io.out(`${count(i)} ${caseLine(result, width)}`)
    const [first, second] = results
    if (
      i === 1 &&
      first?.status === 'error' &&
      second?.status === 'error' &&
      first.error === second.error
    ) {
      io.out(
        `Stopped: the first two cases failed the same way (${first.error}); the others would too. ${plural(cases.length - 2, 'case')} not run.`
      )
      return [...results, ...cases.slice(2).map(c => skipped(c, 'stopped'))]
    }
  }
  return results
}

/** --shard I/N: every Nth case from the Ith, so the shards of one run split it evenly. */
function sharded(cases: EvalCase[], shard: EvalOptions['shard']): EvalCase[] {
  return shard ? cases.filter((_, k) => k % shard.of === shard.index - 1) : cases
}

/** The cases --case names (all without it); an id not in the dataset is a usage error naming the nearest. */
function chosen(cases: EvalCase[], ids: readonly string[]): EvalCase[] {
  if (!ids.length) return cases
  const known = cases.map(c => c.id)
  for (const id of ids)
    if (!known.includes(id)) {
      const near = suggestKey(id, known)
      throw new UsageError(
        `--case ${id}: no such case in the dataset${near ? `; did you mean ${near}?` : ''} (review-loop eval --list names them).`
      )
    }
  return cases.filter(c => ids.includes(c.id))
}

/** `--list`: one line per case, then the counts. */
function listLines(cases: readonly EvalCase[]): string[] {
  const width = Math.max(...cases.map(c => c.id.length), 2)
  const lines = cases.map(
    c =>
      `${c.id.padEnd(width)}  ${c.language.padEnd(10)}  ${c.kind.padEnd(5)}  ${c.testCommand ? 'test' : 'no test'}`
  )
  const bugs = cases.filter(c => c.kind === 'bug').length
  const tested = cases.filter(c => c.testCommand).length
  return [
    ...lines,
    `${plural(cases.length, 'case')}: ${bugs} bug, ${cases.length - bugs} clean; ${tested} with a test`
  ]
}

/** The settings every case runs with; the eval needs a model. */
function evalSettings(options: EvalOptions, env: Record<string, string | undefined>): Settings {
  // the loop's own inputs, as the local loop gives them: no GitHub here
  const given: Record<string, string> = {
    ...checkedInputs(options.inputs),
    'github-token': 'local',
    'pr-number': '1'
  }
  const noModel = new UsageError(
    'eval measures the AI reviewer: set ANTHROPIC_API_KEY (or --set model-provider=bedrock or vertex with their credentials).'
  )
  let settings: Settings
  try {
    settings = settingsFrom(name => given[name] ?? inputFromEnv(name, env), undefined, env)
  } catch (e) {
    // without checks, the loop's own complaint is that nothing would review: the model is missing
    throw e instanceof InputError && e.input === 'checks' && !given['checks'] ? noModel : e
  }
  if (!settings.ai.provider) throw noModel
  return settings
}

/**
 * What a case's review costs: `atMostUsd`, an upper bound as the loop reserves each call (its prompt
 * as a cache write, the dearest way to send it, and the output reserve): every part of every pass
 * takes every turn (`review-max-turns`), each turn's prompt grown by the turns before it (their
 * output reserve and one read of the read tools' largest result); with verify-findings, one verifier
 * call of the same shape per labelled issue (one on a clean case); with a judge, its call on a bug
 * case. A repair asked for an invalid answer is not counted. `firstUsd`: what the loop reserves
 * before its first call (each part's prompt and one answer), below which it would not start.
 */
export function estimateUsd(
  c: EvalCase,
  settings: Settings,
  judgeModel?: string,
  judgeMode: EvalOptions['judgeMode'] = 'batch'
): CaseEstimate {
  const chars = caseChars(c)
  const parts = Math.max(1, Math.ceil(chars / BATCH_CHARS))
  const { reviewModel, reviewMaxTurns, reviewPasses, verifyFindings } = settings.ai
  const prompt = chars / parts + PROMPT_OVERHEAD_CHARS
  const call = callUpperBound(reviewModel, prompt, reviewMaxTurns)
  const verifierCalls = verifyFindings ? Math.max(1, c.issues.length) : 0
  const judge =
    !judgeModel || !c.issues.length
      ? 0
      : judgeMode === 'pairwise'
        ? pairwiseEstimateUsd(judgeModel, c.issues)
        : Budget.reserve(judgeModel, JUDGE_PROMPT_CHARS, JUDGE_OUTPUT_RESERVE)
  return {
    atMostUsd: call * (parts * reviewPasses + verifierCalls) + judge,
    firstUsd: parts * reviewPasses * Budget.reserve(reviewModel, prompt, REVIEW_OUTPUT_RESERVE),
    callUsd: call
  }
}

/** A case's cost, as `estimateUsd` bounds it. */
export interface CaseEstimate {
  /** Every call it counts, each answer within the output reserve. */
  atMostUsd: number
  /** What the loop reserves before the review's first answer: below it, it would not start. */
  firstUsd: number
  /** One review (or verifier, or reconsider) call's share of `atMostUsd`. */
  callUsd: number
}

/** What one review or verifier call of `turns` turns is reserved at, its first prompt `chars` long. */
export function callUpperBound(model: string, chars: number, turns: number): number {
  // each turn sends the ones before it again: their answer (the output reserve, at ~4 characters a
  // token) and what one tool call returned at most
  const growth = REVIEW_OUTPUT_RESERVE * 4 + READ_LIMITS.chars
  let usd = 0
  for (let turn = 0; turn < turns; turn++)
    usd += Budget.reserve(model, chars + turn * growth, REVIEW_OUTPUT_RESERVE)
  return usd
}

/**
 * The characters a case's review sends: its diff and the full text of the files it changes; a
 * fetched case's size is not known before it is fetched: an assumed size (eval/README.md).
 */
function caseChars(c: EvalCase): number {
  if (c.fetched) return FETCHED_CASE_CHARS
  const patch = statSync(path.join(c.dir, 'fix.patch')).size
  return changedFiles(c).reduce((sum, f) => {
    const file = path.join(c.dir, 'base', f)
    return sum + (existsSync(file) ? statSync(file).size : 0)
  }, patch)
}

/** A judge's prompt: its instructions, the labels and the findings left unmatched. */
const JUDGE_PROMPT_CHARS = 8000

/** A fetched case's diff and changed files, as its estimate assumes them (unknown until fetched). */
const FETCHED_CASE_CHARS = 100_000

/** What the eval is about to do and what it will cost, said before the first model call. */
function plan(
  io: CliIo,
  options: EvalOptions,
  settings: Settings,
  dataset: string,
  cases: readonly EvalCase[],
  estimates: readonly CaseEstimate[]
): string[] {
  const bugs = cases.filter(c => c.kind === 'bug').length
  const lines = [
    `review-loop eval: ${cases.length} cases (${bugs} bug, ${cases.length - bugs} clean) from ${dataset}`,
    `Reviewer ${settings.ai.reviewModel}${options.judgeModel ? `, judge ${options.judgeModel} (${options.judgeMode})` : ''}; ${options.loop ? `the whole loop (up to ${settings.maxIterations} iterations), then each case's test` : 'one review per case'}`,
    contextLine(settings),
    costLine(options, settings, estimates)
  ]
  if (options.maxCostUsd !== undefined) lines.push(budgetLine(options.maxCostUsd, estimates))
  const fetched = cases.filter(c => c.fetched).length
  if (fetched)
    lines.push(
      `${counted(fetched, 'case')} fetched from ${fetched === 1 ? 'its' : 'their'} repositories into ${evalCache(io.env)} (${CACHE_ENV} moves it); each is estimated at ${FETCHED_CASE_CHARS.toLocaleString('en')} characters, its size being unknown until fetched`
    )
  if (options.judgeModel && options.judgeMode === 'pairwise')
    lines.push(
      `Pairwise judge: one call per (labelled issue, finding) pair, estimated for ${PAIRWISE_FINDINGS} findings a case`
    )
  return [...lines, '']
}

/**
 * What --max-cost-usd pays for for sure: the cases whose upper bounds it covers. The eval goes on
 * while what is left pays for a case's first answer; a case the budget cuts short is not scored.
 */
function budgetLine(maxUsd: number, estimates: readonly CaseEstimate[]): string {
  let sum = 0
  const sure = estimates.filter(e => (sum += e.atMostUsd) <= maxUsd).length
  const n = estimates.length
  if (sure === n) return `--max-cost-usd ${maxUsd} covers the upper bound of every case.`
  return `--max-cost-usd ${maxUsd} covers the upper bound of ${sure} of ${n} cases: the eval goes on while what is left pays for a case's first answer, and a case the budget cuts short is not run (never scored).`
}

/** What the reviewer is given: the diff and the changed files, and with `tools` its read tools. */
function contextLine(settings: Settings): string {
  const turns = settings.ai.reviewMaxTurns
  return turns > 1
    ? `Context: tools (the diff, the changed files' full text, and read tools over the PR's tree for up to ${turns} turns)`
    : "Context: diff (the diff and the changed files' full text; no read tools)"
}

/**
 * The estimate, saying what it covers: every call it counts at most, each answer within the output
 * reserve; what it does not count, and that --max-cost-usd is the hard cap.
 */
function costLine(
  options: EvalOptions,
  settings: Settings,
  estimates: readonly CaseEstimate[]
): string {
  const { reviewMaxTurns: turns, verifyFindings } = settings.ai
  const total = estimates.reduce((s, e) => s + e.atMostUsd, 0)
  const call = Math.max(0, ...estimates.map(e => e.callUsd))
  const covers = [
    turns > 1
      ? `every review taking all its ${turns} turns (review-max-turns)`
      : 'every review in one answer',
    verifyFindings ? 'a verifier call per labelled issue (one on a clean case)' : '',
    options.judgeModel ? 'the judge' : ''
  ].filter(Boolean)
  const more = verifyFindings ? 'a further verifier or reconsider call' : 'a reconsider call'
  return `Estimated cost: at most $${total.toFixed(2)} if no answer is longer than the ${REVIEW_OUTPUT_RESERVE.toLocaleString('en-US')}-token output reserve, with ${covers.join(', ')}; ${more} adds up to $${call.toFixed(2)}${options.loop ? ', and the fixes and re-reviews of --loop add to it' : ''}. Only --max-cost-usd is a hard cap.`
}

function evalRun(
  options: EvalOptions,
  settings: Settings,
  io: CliIo,
  where: { out: string; scratch: string }
): EvalRun {
  const inputs = { ...options.inputs }
  // the case's tests are its own: the fixer may not change them to pass (the user's paths are added)
  if (options.loop)
    inputs['protected-paths'] = [...TEST_FILES, inputs['protected-paths'] ?? ''].join('\n').trim()
  const timeoutMs = settings.ai.reviewTimeoutMinutes * 60_000
  const warned = new Set<string>()
  return {
    inputs,
    settings,
    loop: options.loop,
    tolerance: options.tolerance,
    env: io.env,
    ...where,
    tools: path.resolve(path.dirname(process.argv[1] ?? ''), '..', 'node_modules'),
    judge: options.judgeModel
      ? {
          client: createModelClient(settings.ai.provider!, timeoutMs),
          model: options.judgeModel,
          provider: settings.ai.provider!.name,
          timeoutMs,
          mode: options.judgeMode
        }
      : undefined,
    caseLog: file =>
      createTerminalLog(line => appendFileSync(file, `${line}\n`), { verbose: true }),
    warnOnce: message => {
      if (!warned.has(message)) io.err(`warning: ${message}`)
      warned.add(message)
    }
  }
}

/** Where the dataset's tests live: protected from the fixer in --loop. */
const TEST_FILES = [
  'test/',
  'tests/',
  '__tests__/',
  '*_test.go',
  'test_*.py',
  '*_test.py',
  '*.test.*',
  '*.spec.*',
  'testdata/'
]

const skipped = (c: EvalCase, why = 'budget'): EvalCaseResult =>
  unscored(c, 'skipped', why, zeroUsage(), 0)

/** What a run's report is made of, besides its results. */
interface ReportOf {
  options: EvalOptions
  settings: Settings
  dataset: string
  /** What the dataset holds, as datasetDigest gives it: shards of one run hold the same. */
  digest: string
  /** The cases this run takes (its shard's), in order: a report missing some was cut off. */
  cases: readonly EvalCase[]
  estimates: ReadonlyArray<{ atMostUsd: number }>
}

/**
 * The JSON report. `reportSchema` 2: results with duplicates, the cases planned, the dataset's
 * digest; `review-loop eval merge` refuses reports without them.
 */
function report(of: ReportOf, results: readonly EvalCaseResult[]) {
  const { options, settings } = of
  return {
    reportSchema: 2,
    ...runFacts(options, settings, of.dataset),
    datasetDigest: of.digest,
    selection: options.cases,
    fixModel: options.loop ? settings.ai.fixModel : undefined,
    severityThreshold: settings.severityThreshold,
    reviewMaxTurns: settings.ai.reviewMaxTurns,
    verifyFindings: settings.ai.verifyFindings,
    loop: options.loop,
    inputs: withoutCredentials(options.inputs),
    shard: options.shard,
    planned: of.cases.map(c => c.id),
    estimateUsd: of.estimates.reduce((s, e) => s + e.atMostUsd, 0),
    finishedAt: new Date().toISOString(),
    summary: summarize(results),
    cases: results
  }
}

/** How the eval ran, as the report and the scorecard say it. */
function runFacts(options: EvalOptions, settings: Settings, dataset: string): EvalRunFacts {
  return {
    dataset,
    reviewModel: settings.ai.reviewModel,
    judgeModel: options.judgeModel,
    judgeMode: options.judgeModel ? options.judgeMode : undefined,
    context: settings.ai.reviewMaxTurns > 1 ? 'tools' : 'diff',
    tolerance: options.tolerance
  }
}

/** The inputs as the report gives them: a URL's user and password left out. */
function withoutCredentials(inputs: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, shownRepo(v)]))
}
