import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { reviewLocally } from '../cli/review.js'
import type { Settings } from '../inputs.js'
import { atOrAbove } from '../loop/findings.js'
import type { Finding } from '../loop/types.js'
import { addUsage, zeroUsage } from '../loop/usage.js'
import type { ProviderName } from '../model/provider.js'
import type { CommandRunner, Log, ModelClient } from '../ports/index.js'
import { createConfinement } from '../process/sandbox.js'
import {
  countMatches,
  placeMatches,
  type EvalCaseResult,
  type Match,
  type TestStatus
} from '../report/eval-score.js'
import { buildCaseRepo, runCaseTest, type EvalCase } from './dataset.js'
import { judgeMatches } from './judge.js'

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
  /** The node_modules folder the JavaScript cases' test tools are taken from. */
  tools: string
  judge?: { client: ModelClient; model: string; provider: ProviderName; timeoutMs: number }
  /** Runs the case's test before the loop (the dataset's own code); the sandbox runs it after. */
  runner: CommandRunner
  /** The log of each case's loop, into its own file. */
  caseLog: (file: string) => Log
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
 * test run before and after. `maxUsd` is what the eval's budget has left for it.
 */
export async function runCase(
  c: EvalCase,
  run: EvalRun,
  maxUsd: number | undefined
): Promise<EvalCaseResult> {
  const started = Date.now()
  const work = mkdtempSync(path.join(tmpdir(), 'review-loop-eval-'))
  const out = path.join(run.out, c.id)
  mkdirSync(out, { recursive: true })
  const base = { id: c.id, language: c.language, kind: c.kind }
  // what the case spent so far: a case that fails after a model call still counts its cost
  let usage = zeroUsage()
  try {
    const repo = path.join(work, c.id)
    buildCaseRepo(c, repo)
    const before = run.loop ? await testBefore(c, repo, run) : undefined
    const result = await loopOn(repo, run, maxUsd, out)
    const outcome = result.outcome
    usage = outcome?.state?.totals ?? usage
    // the first review is the reviewer's: with --loop, later ones review the fixer's work
    const review = result.outcomes.find(o => o.decision)
    const findings = scoredFindings(review?.findings ?? [], run.settings)
    writeFileSync(path.join(out, 'findings.json'), `${JSON.stringify(findings, null, 2)}\n`)
    const judged = await judge(c, findings, run)
    usage = addUsage(usage, judged.usage)
    const after = before ? await testAfter(c, repo, run, work) : undefined
    return {
      ...base,
      status: 'done',
      decision: review?.decision,
      loopStatus: run.loop ? outcome?.state?.status : undefined,
      ...countMatches(findings.length, c.issues.length, judged.matches),
      usage,
      wallMs: Date.now() - started,
      ...(before ? { test: { before, after: after ?? 'not run' } } : {})
    }
  } catch (e) {
    return {
      ...base,
      status: 'error',
      error: (e as Error).message.split('\n')[0]!.slice(0, 300),
      ...countMatches(0, c.issues.length, []),
      usage,
      wallMs: Date.now() - started
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

/** The local loop on the case's branch: a dry run (one review), or with --loop the whole loop. */
function loopOn(repo: string, run: EvalRun, maxUsd: number | undefined, out: string) {
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
    { cwd: repo, env: run.env, log: run.caseLog(path.join(out, 'log.txt')) }
  )
}

/** Matches by place, then (with a judge) by meaning among the findings and issues left unmatched. */
async function judge(
  c: EvalCase,
  findings: readonly Finding[],
  run: EvalRun
): Promise<{ matches: Match[]; usage: ReturnType<typeof zeroUsage> }> {
  const byPlace = placeMatches(c.issues, findings, run.tolerance)
  if (!run.judge) return { matches: byPlace, usage: zeroUsage() }
  const fLeft = findings.map((_, i) => i).filter(i => !byPlace.some(m => m[0] === i))
  const iLeft = c.issues.map((_, i) => i).filter(i => !byPlace.some(m => m[1] === i))
  const answer = await judgeMatches(
    run.judge,
    fLeft.map(i => findings[i]!),
    iLeft.map(i => c.issues[i]!)
  )
  const more = answer.matches.map(([f, i]) => [fLeft[f]!, iLeft[i]!] as const)
  return { matches: [...byPlace, ...more], usage: answer.usage }
}

async function testBefore(c: EvalCase, repo: string, run: EvalRun): Promise<TestStatus> {
  if (!c.testCommand) return 'not run'
  const r = await runCaseTest(c, repo, { runner: run.runner, env: run.env, tools: run.tools })
  return r.status
}

/** The case's test on the branch the loop left, in the sandbox: it runs code a model wrote. */
async function testAfter(
  c: EvalCase,
  repo: string,
  run: EvalRun,
  work: string
): Promise<TestStatus> {
  const scratch = path.join(work, 'test-after')
  mkdirSync(scratch)
  const gitConfig = path.join(scratch, 'gitconfig')
  writeFileSync(gitConfig, '')
  const confine = createConfinement({
    mode: run.settings.sandbox,
    network: 'deny',
    passthrough: [],
    tempDir: scratch,
    env: run.env,
    log: run.caseLog(path.join(run.out, c.id, 'test-after.txt')),
    setUp: false,
    surface: 'cli',
    binds: () => [{ src: run.tools, dest: run.tools }]
  })
  const confined = await confine({ root: repo, gitDir: path.join(repo, '.git'), gitConfig })
  const r = await runCaseTest(c, repo, {
    runner: confined.runner,
    env: confined.env,
    tools: run.tools
  })
  return r.status
}
