import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { reviewLocally, type LocalIo } from '../wiring/local-review.js'
import type { Settings } from '../loop/settings.js'
import { atOrAbove } from '../loop/findings.js'
import type { Finding, Usage } from '../loop/types.js'
import { plainText } from '../loop/untrusted.js'
import { addUsage, zeroUsage } from '../loop/usage.js'
import { Budget } from '../model/budget.js'
import type { Log } from '../ports/index.js'
import type { IterationOutcome } from '../loop/types.js'
import { NOT_ASKED, ownFailure } from '../review/own-failures.js'
import { createConfinement } from '../process/sandbox.js'
import {
  countMatches,
  placeMatches,
  type EvalCaseResult,
  type Match,
  type TestStatus
} from '../report/eval-score.js'
import { DatasetError, runCaseTest, type EvalCase } from './dataset.js'
import { buildAnyCaseRepo } from './external.js'
import { JUDGE_OUTPUT_RESERVE, judgeMatches, type Judge } from './judge.js'
import { judgePairs } from './pairwise.js'

/** How every case of one eval is run. */
export interface EvalRun {
  /** The action's inputs for each case's loop (--set, and the eval's own). */
  inputs: Record<string, string>
  settings: Settings
  loop: boolean
  /** Lines either side of a labelled issue that a finding may name and still match. */
  tolerance: number
  env: Record<string, string | undefined>
  /** Where each case's comment, artifacts and log go (a folder per case). */
  out: string
  /** The node_modules folder the JavaScript cases' test tools are taken from (it may not exist). */
  tools: string
  judge?: Judge & {
    /** `batch` (the default): one call per case; `pairwise`: one per (issue, finding) pair, as Martian's judge. */
    mode?: 'batch' | 'pairwise'
  }
  /** The eval's own temporary folder: each case's repository is made in it. */
  scratch: string
  /** The log of each case's loop, into its own file. */
  caseLog: (file: string) => Log
  /** Says a warning on the terminal, once however many cases give it. */
  warnOnce: (message: string) => void
}

/** The findings scored: the AI reviewer's, at or above the severity threshold (those the loop acts on). */
export function scoredFindings(findings: readonly Finding[], settings: Settings): Finding[] {
  return findings.filter(
    f => f.source === 'ai' && !f.carried && atOrAbove(f.severity, settings.severityThreshold)
  )
}

/**
 * One case: its PR built in a temporary repository, reviewed (and with --loop fixed) by the local
 * loop exactly as `review-loop` runs it, its findings matched to the labels, and with --loop its
 * test run before and after (both in the sandbox). `maxUsd` is what the eval's budget has left for
 * it. Every answered model call is counted, also when the loop fails after it.
 */
export async function runCase(
  c: EvalCase,
  run: EvalRun,
  maxUsd: number | undefined
): Promise<EvalCaseResult> {
  const started = Date.now()
  const work = mkdtempSync(path.join(run.scratch, `${c.id.slice(0, 40)}-`))
  const out = path.join(run.out, c.id)
  mkdirSync(out, { recursive: true })
  const base = { id: c.id, language: c.language, kind: c.kind }
  let usage = zeroUsage()
  const outcomes: IterationOutcome[] = []
  try {
    const repo = path.join(work, 'repo')
    await buildAnyCaseRepo(c, repo, run.env)
    const before = run.loop ? await caseTest(c, repo, run, work, 'before') : undefined
    let loopError: string | undefined
    await loopOn(repo, run, maxUsd, out, {
      onUsage: u => (usage = addUsage(usage, u)),
      onOutcome: o => outcomes.push(o)
    }).catch((e: unknown) => (loopError = firstLine(e)))
    // the first review is the reviewer's: with --loop, later ones review the fixer's work
    const review = outcomes.find(o => o.decision)
    if (!review) return unreviewed(c, outcomes.at(-1), loopError, usage, Date.now() - started)
    const short = cutShort(review)
    if (short) return unscored(c, 'skipped', short, usage, Date.now() - started)
    const findings = scoredFindings(review.findings, run.settings)
    writeFileSync(path.join(out, 'findings.json'), `${JSON.stringify(findings, null, 2)}\n`)
    const judged = await judge(
      c,
      findings,
      run,
      maxUsd === undefined ? undefined : maxUsd - usage.costUsd
    )
    usage = addUsage(usage, judged.usage)
    const after = before && !loopError ? await caseTest(c, repo, run, work, 'after') : undefined
    return {
      ...base,
      status: 'done',
      decision: review.decision,
      loopStatus: run.loop ? (loopError ? 'error' : outcomes.at(-1)?.state?.status) : undefined,
      ...countMatches(findings.length, c.issues.length, judged.matches),
      usage,
      wallMs: Date.now() - started,
      ...(before ? { test: { before, after: after ?? 'not run' } } : {}),
      ...(loopError || judged.error ? { error: loopError ?? judged.error } : {})
    }
  } catch (e) {
    return unscored(c, 'error', firstLine(e), usage, Date.now() - started)
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

const firstLine = (e: unknown): string =>
  plainText((e as Error).message ?? String(e))
    .split('\n')[0]!
    .slice(0, 300)

/**
 * A case the loop gave no review of: not run when the budget refused the review (its issues are
 * not counted as missed), else an error.
 */
function unreviewed(
  c: EvalCase,
  last: IterationOutcome | undefined,
  loopError: string | undefined,
  usage: Usage,
  wallMs: number
): EvalCaseResult {
  if (last?.state?.status === 'budget_exhausted')
    return unscored(c, 'skipped', 'budget', usage, wallMs)
  const why =
    loopError ?? `no review (${last?.notice ?? last?.state?.reason ?? 'the loop gave none'})`
  return unscored(c, 'error', why, usage, wallMs)
}

/**
 * Why the review was cut short, if it was: a part the budget, the time or an API error left
 * unreviewed, or a finding whose verification (or the reviewer's second look, hold-go-at) the same
 * causes kept from being made. Such a verdict is not the reviewer's answer on the whole PR: scored,
 * it would count the issues it never looked at as missed, and on a clean case its fail-closed verdict
 * as a false NO_GO. The model's own failures (its turns used up, a refusal, an answer it could not
 * get right) are its result, and are scored.
 */
export function cutShort(review: IterationOutcome): string | undefined {
  const coverage = review.state?.iterations.at(-1)?.coverage
  const failure = coverage?.failures?.find(f => !ownFailure(f))
  if (failure) return `the review was cut short: ${plainText(failure).slice(0, 300)}`
  for (const f of review.findings) {
    const v = f.verification
    const unverified = v?.unverifiable && !ownFailure(v.why) ? v.why : undefined
    const again = v?.reconsidered?.why
    const unasked = again?.startsWith(NOT_ASKED) && !ownFailure(again) ? again : undefined
    const why = unverified ?? unasked
    if (why)
      return `the review was cut short: ${unverified ? "a finding's verification could not be made" : 'the reviewer could not be asked again about a finding'} (${plainText(why).slice(0, 200)})`
  }
  return undefined
}

/** A case with no scores: not run, or failed to run; its issues are not counted as missed. */
export function unscored(
  c: EvalCase,
  status: 'skipped' | 'error',
  why: string,
  usage: Usage,
  wallMs: number
): EvalCaseResult {
  return {
    id: c.id,
    language: c.language,
    kind: c.kind,
    status,
    error: why,
    ...countMatches(0, c.issues.length, []),
    usage,
    wallMs
  }
}

/** The local loop on the case's branch: a dry run (one review), or with --loop the whole loop. */
function loopOn(
  repo: string,
  run: EvalRun,
  maxUsd: number | undefined,
  out: string,
  told: Pick<LocalIo, 'onUsage' | 'onOutcome'>
) {
  const inputs = {
    ...run.inputs,
    ...(maxUsd === undefined ? {} : { 'max-cost-usd': maxUsd.toFixed(6) })
  }
  return reviewLocally(
    {
      command: 'review',
      base: 'main',
      inputs,
      out,
      dryRun: !run.loop,
      verbose: false,
      lend: false
    },
    { cwd: repo, env: run.env, log: run.caseLog(path.join(out, 'log.txt')), ...told }
  )
}

/**
 * Matches by place, then (with a judge) by meaning among the findings and issues left unmatched.
 * The judge is asked only when what is left of the budget pays for its call; a judge that fails
 * leaves the place matches, with why.
 */
async function judge(
  c: EvalCase,
  findings: readonly Finding[],
  run: EvalRun,
  leftUsd: number | undefined
): Promise<{ matches: Match[]; usage: Usage; error?: string }> {
  const byPlace = placeMatches(c.issues, findings, run.tolerance)
  if (!run.judge) return { matches: byPlace, usage: zeroUsage() }
  const fLeft = findings.map((_, i) => i).filter(i => !byPlace.some(m => m[0] === i))
  const iLeft = c.issues.map((_, i) => i).filter(i => !byPlace.some(m => m[1] === i))
  const asked = { findings: fLeft.map(i => findings[i]!), issues: iLeft.map(i => c.issues[i]!) }
  if (run.judge.mode === 'pairwise') {
    const answer = await judgePairs(run.judge, asked.findings, asked.issues, leftUsd)
    const more = answer.matches.map(([f, i]) => [fLeft[f]!, iLeft[i]!] as const)
    return { matches: [...byPlace, ...more], usage: answer.usage, error: answer.error }
  }
  const chars = JSON.stringify(asked).length + 2000
  if (
    leftUsd !== undefined &&
    Budget.reserve(run.judge.model, chars, JUDGE_OUTPUT_RESERVE) > leftUsd
  )
    return { matches: byPlace, usage: zeroUsage(), error: 'judge not asked: the budget is spent' }
  try {
    const answer = await judgeMatches(run.judge, asked.findings, asked.issues)
    const more = answer.matches.map(([f, i]) => [fLeft[f]!, iLeft[i]!] as const)
    return { matches: [...byPlace, ...more], usage: answer.usage }
  } catch (e) {
    return { matches: byPlace, usage: zeroUsage(), error: `judge failed: ${firstLine(e)}` }
  }
}

/**
 * The case's test, in the sandbox (before the loop it runs the dataset's code, after it code a
 * model wrote), on a copy of the tree with the case's held-out test applied, its output kept in test-before.txt / test-after.txt. A sandbox that cannot start
 * makes the test unavailable, never failed.
 */
async function caseTest(
  c: EvalCase,
  repo: string,
  run: EvalRun,
  work: string,
  when: 'before' | 'after'
): Promise<TestStatus> {
  if (!c.testCommand) return 'not run'
  const scratch = mkdtempSync(path.join(work, `test-${when}-`))
  const gitConfig = path.join(scratch, 'gitconfig')
  writeFileSync(gitConfig, '')
  const record = path.join(run.out, c.id, `test-${when}.txt`)
  const log = run.caseLog(record)
  const tools = existsSync(run.tools) ? realpathSync(run.tools) : undefined
  const confine = createConfinement({
    mode: run.settings.sandbox,
    network: 'deny',
    passthrough: [],
    tempDir: scratch,
    env: run.env,
    log,
    setUp: false,
    surface: 'cli',
    binds: () => (tools ? [{ src: tools, dest: tools }] : [])
  })
  // the test runs on a copy of the PR's tree with the held-out test applied (runCaseTest), and may
  // write only there: the reviewed repository stays as it is
  const tree = path.join(scratch, 'tree')
  mkdirSync(tree)
  const confined = await confine({ root: tree, gitDir: path.join(repo, '.git'), gitConfig })
  if (confined.warning) run.warnOnce(`The cases' tests: ${confined.warning}`)
  const started = await confined.runner.run('true', {
    cwd: tree,
    timeoutMs: 60_000,
    env: confined.env
  })
  if (started.exitCode !== 0) {
    log.warning(`the sandbox could not start: ${plainText(started.output).trim()}`)
    return 'unavailable'
  }
  const how = { runner: confined.runner, env: confined.env, tools: tools ?? run.tools, copy: tree }
  // after the loop, a fix that changed the held-out test's files keeps heldout.patch from applying:
  // the test cannot run on that fix, so it fails (before the loop, it is the dataset's error)
  const r = await runCaseTest(c, repo, how).catch((e: unknown) => {
    if (when === 'before' || !(e instanceof DatasetError)) throw e
    return { status: 'failed' as const, detail: e.message }
  })
  log.info(`${c.testCommand}: ${r.status}\n${plainText(r.detail)}`)
  return r.status
}
