import {
  closeSync,
  constants,
  existsSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  rmSync
} from 'node:fs'
import path from 'node:path'
import type { GateResult } from '../loop/types.js'
import type { CommandResult, CommandRunner, Git, Log } from '../ports/index.js'
import { compileMatchers, type ProblemMatcher } from './formats/problem-matchers.js'
import { tail } from './formats/text.js'
import { isInside } from './paths.js'
import type { CheckSpec } from '../loop/settings.js'
import { readGateOutput, timeoutCause, type GateReading, type ReadOptions } from './read-output.js'

export { readGateOutput, MAX_FINDINGS_PER_CHECK } from './read-output.js'

export interface GateOptions extends ReadOptions {
  timeoutMs: number
  env: Record<string, string>
  /** Each check's output goes to the run log, in a group of its own. */
  log?: Log
}

/** A report file is read up to this size; a bigger one is cut, as the command's output is. */
const MAX_REPORT_BYTES = 16 * 1024 * 1024

/** The lines of a check's output the run log shows (the artifact keeps 200). */
const LOG_LINES = 400

/**
 * The problem matcher files of the `problem-matchers` input, read from the PR's base commit (as the
 * guidelines are), so a PR cannot change how its own output is judged.
 */
export async function loadMatchers(
  git: Git,
  baseSha: string,
  files: readonly string[]
): Promise<ProblemMatcher[]> {
  const matchers: ProblemMatcher[] = []
  for (const file of files) {
    const text = await git.show(baseSha, file)
    if (text === undefined)
      throw new Error(
        `Input 'problem-matchers': ${file} does not exist on the base branch; give a path relative to the repository root, and merge the file before a PR relies on it.`
      )
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch (error) {
      throw new Error(
        `Input 'problem-matchers': ${file} is not JSON (${(error as Error).message}).`
      )
    }
    try {
      matchers.push(...compileMatchers(json, file))
    } catch (error) {
      throw new Error(`Input 'problem-matchers': ${(error as Error).message}`)
    }
  }
  return matchers
}

/** Where a check's report is, and when it (or each file of its folder) was last written before the run. */
interface ReportBefore {
  file: string
  mtimeMs?: number
  /** A folder's files as they were: name → last written. */
  files?: Map<string, number>
}

/** A folder's reports (Gradle and Surefire write one per test class): JUnit, JSON, SARIF files. */
const REPORT_FILE = /\.(xml|json|sarif)$/i
const MAX_REPORT_FILES = 1000

function reportFiles(folder: string): Map<string, number> {
  const files = new Map<string, number>()
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (!entry.isFile() || !REPORT_FILE.test(entry.name)) continue
    files.set(entry.name, lstatSync(path.join(folder, entry.name)).mtimeMs)
  }
  return files
}

function reportBefore(check: CheckSpec, options: GateOptions): ReportBefore | undefined {
  if (!check.report) return undefined
  const file = path.resolve(options.cwd, check.report)
  if (!isInside(options.repoRoot, file)) return undefined
  try {
    const stat = lstatSync(file)
    return {
      file,
      mtimeMs: stat.mtimeMs,
      files: stat.isDirectory() ? reportFiles(file) : undefined
    }
  } catch {
    return { file }
  }
}

/** Whether `p` is really in the repository, its folders' links followed (false when it is not there). */
function reallyInside(repoRoot: string, p: string): boolean {
  try {
    return isInside(realpathSync(repoRoot), realpathSync(p))
  } catch {
    return false
  }
}

/**
 * Removes a report the command made, only where its folder is really in the repository: PR code
 * could make a folder of the report's path a link to one of yours.
 */
function removeMade(file: string, repoRoot: string): void {
  if (reallyInside(repoRoot, path.dirname(file))) rmSync(file, { force: true })
}

/** Up to `max` bytes of a regular file inside the repository, never read through a link. */
function readCapped(file: string, repoRoot: string, max: number): string {
  if (!reallyInside(repoRoot, file)) throw new Error('outside')
  const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW)
  try {
    const buffer = Buffer.alloc(Math.min(lstatSync(file).size, max))
    return buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8')
  } finally {
    closeSync(fd)
  }
}

/**
 * The reports the command wrote into a folder: each report file it made or changed (one left from
 * before is not read), at most MAX_REPORT_FILES and MAX_REPORT_BYTES in all; null when it wrote
 * none. The files it made are removed once read, so they are never part of a fix commit.
 */
function folderReports(before: ReportBefore, repoRoot: string): string[] | null {
  if (!reallyInside(repoRoot, before.file)) return null
  const old = before.files ?? new Map<string, number>()
  const written = [...reportFiles(before.file)]
    .filter(([name, mtime]) => old.get(name) !== mtime)
    .map(([name]) => name)
    .sort()
  const texts: string[] = []
  let left = MAX_REPORT_BYTES
  // every report it made is removed, though only the first MAX_REPORT_FILES are read
  written.forEach((name, i) => {
    const file = path.join(before.file, name)
    try {
      if (i < MAX_REPORT_FILES && left > 0 && lstatSync(file).isFile()) {
        const text = readCapped(file, repoRoot, left)
        texts.push(text)
        left -= Buffer.byteLength(text)
      }
    } catch {
      // a file that turned into a link, or left the repository: not read
    }
    if (!old.has(name)) removeMade(file, repoRoot)
  })
  return texts.length > 0 ? texts : null
}

/**
 * The report the command wrote: null when it wrote none (a file left from before is not read). Only
 * a regular file inside the repository is read, never through a link (PR code could point one at a
 * file of the runner), and at most MAX_REPORT_BYTES of it. One it created is removed once read, so
 * it is never part of a fix commit. A folder gives each report file written in it.
 */
function reportAfter(before: ReportBefore, repoRoot: string): string | string[] | null {
  let folder = false
  try {
    const stat = lstatSync(before.file)
    folder = stat.isDirectory()
    if (folder) return folderReports(before, repoRoot)
    if (!stat.isFile() || stat.mtimeMs === before.mtimeMs) return null
    return readCapped(before.file, repoRoot, MAX_REPORT_BYTES)
  } catch {
    return null
  } finally {
    if (before.mtimeMs === undefined && !folder) removeMade(before.file, repoRoot)
  }
}

/** One check run as the loop runs it: its command, then its report file and output read. */
export async function runOneCheck(
  check: CheckSpec,
  runner: CommandRunner,
  options: GateOptions
): Promise<{ result: CommandResult; read: GateReading }> {
  const before = reportBefore(check, options)
  const result = await runner.run(check.command, {
    cwd: options.cwd,
    timeoutMs: options.timeoutMs,
    env: options.env
  })
  const report = before ? reportAfter(before, options.repoRoot) : undefined
  return { result, read: readGateOutput(check, { ...result, report }, options) }
}

export async function runGates(
  gates: readonly CheckSpec[],
  runner: CommandRunner,
  options: GateOptions
): Promise<GateResult[]> {
  if (!existsSync(options.cwd)) {
    throw new Error(`Input 'working-directory': ${options.cwd} does not exist in the checkout.`)
  }
  const results: GateResult[] = []
  for (const gate of gates) {
    const { result, read } = await runOneCheck(gate, runner, options)
    const outcome = result.timedOut
      ? 'timed out'
      : `exit ${result.exitCode}${read.problems ? `, ${read.problems} located problem${read.problems === 1 ? '' : 's'}` : ''}`
    await options.log?.group(
      `check ${gate.name}: ${outcome}`,
      async () => {
        options.log!.info(`$ ${gate.command}`)
        options.log!.verbatim(tail(result.output, LOG_LINES, 60_000) || '(no output)')
        if (result.timedOut) options.log!.info(timeoutCause(result.output).cause)
      },
      { tookMs: result.durationMs, detail: result.exitCode === 0 && !result.timedOut }
    )
    results.push({
      name: gate.name,
      command: gate.command,
      passed: result.exitCode === 0,
      exitCode: result.exitCode,
      timedOut: result.timedOut,
      durationMs: result.durationMs,
      ...read,
      outputTail: tail(result.output, 200, 20_000)
    })
  }
  return results
}
