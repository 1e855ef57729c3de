// `review-loop eval` through the committed bundle (dist/), as a user runs it, against the local
// model server: its exit code, output and JSON report.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { defaultNode } from './harness.js'
import type { ModelServer } from './model-server.js'
import { TEST_API_KEY } from './scenario.js'

export const BIN = path.resolve('bin/review-loop.mjs')

/** The parts of the eval's JSON report the tests read. */
export interface EvalJson {
  estimateUsd: number
  context: string
  shard?: { index: number; of: number }
  summary: {
    cases: number
    done: number
    skipped: number
    errors: number
    findings: number
    trueFindings: number
    duplicates: number
    issues: number
    foundIssues: number
    precision?: number
    recall?: number
    f1?: number
    falseNoGo: { count: number; of: number }
    missedGo: { count: number; of: number }
    fixed?: { count: number; of: number; rate?: number }
    usage: { costUsd: number }
  }
  cases: Array<{
    id: string
    status: string
    decision?: string
    test?: unknown
    error?: string
    loopStatus?: string
    usage: { costUsd: number; inputTokens: number }
  }>
}

export interface CliRun {
  code: number | null
  out: string
  err: string
}

/** `review-loop ARGS` in `cwd`, with only PATH, HOME, LANG and the test API key set. */
export function runCli(args: string[], cwd: string, bin = BIN): Promise<CliRun> {
  return new Promise(resolve => {
    const child = spawn(defaultNode(), [bin, ...args], {
      cwd,
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: os.homedir(),
        LANG: 'C.UTF-8',
        ANTHROPIC_API_KEY: TEST_API_KEY
      }
    })
    let out = ''
    let err = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    child.on('close', code => resolve({ code, out, err }))
  })
}

/** A JSON report, or an empty object when there is none (the test's expectations then fail with the output). */
export function readJson(file: string): EvalJson {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as EvalJson
  } catch {
    return {} as EvalJson
  }
}

/**
 * `review-loop eval ARGS --json … --out …` against `server`, in a new folder (pushed on `dirs` for
 * the caller to remove).
 */
export async function evalCli(
  server: ModelServer,
  args: string[],
  dirs: string[],
  options: { bin?: string; json?: string } = {}
): Promise<CliRun & { json: EvalJson; dir: string }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'review-loop-eval-test-'))
  dirs.push(dir)
  const json = options.json ?? path.join(dir, 'eval.json')
  const run = await runCli(
    [
      'eval',
      ...args,
      '--set',
      `anthropic-base-url=${server.url}`,
      '--json',
      json,
      '--out',
      path.join(dir, 'out')
    ],
    dir,
    options.bin
  )
  return { ...run, json: readJson(json), dir }
}
