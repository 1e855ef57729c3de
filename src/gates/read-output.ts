import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fingerprint, normaliseAnchor } from '../loop/fingerprint.js'
import { plainText } from '../loop/untrusted.js'
import { atOrAbove, bySeverity } from '../loop/findings.js'
import { codeBlock } from '../report/format.js'
import type { Category, Finding, Severity } from '../loop/types.js'
import { readCheckstyle } from './formats/checkstyle.js'
import { pathListMode, type PathList } from './formats/formatters.js'
import { readJsonReport } from './formats/json-reports.js'
import { readJunit } from './formats/junit.js'
import type { ProblemMatcher } from './formats/problem-matchers.js'
import { readText, tail } from './formats/text.js'
import { builtInMatchers } from './matchers.js'
import { commandDir, PathPlacer, runnerDirs, unquoteGitPath, type RunnerDirs } from './paths.js'
import type { CheckSpec, ToolLevel } from '../loop/settings.js'
import type { GateProblem } from './problem.js'

/**
 * The findings one check keeps: its most severe located problems first. A check that prints more
 * (a linter run over a whole repository) is counted in full (`problems`), and the rest stays in its
 * output; a hundred findings are more than a fixer or a reader can act on in one iteration.
 */
export const MAX_FINDINGS_PER_CHECK = 100

/** error → high, warning → medium, convention/info/note → low; a check's options can say otherwise. */
const DEFAULT_LEVELS: Record<ToolLevel, Severity> = {
  error: 'high',
  warning: 'medium',
  note: 'low'
}

export interface ReadOptions {
  /** Repository root: finding paths are made relative to it (annotations need that). */
  repoRoot: string
  /** Where commands run (the `working-directory` input). */
  cwd: string
  /** The `problem-matchers` input's matchers, tried before the built-in ones. */
  matchers?: readonly ProblemMatcher[]
}

/** A check's findings, and how many located problems it printed (more than it keeps when capped). */
export interface GateReading {
  findings: Finding[]
  problems: number
  capped: boolean
}

export interface CommandOutput {
  exitCode: number
  stdout: string
  output: string
  timedOut: boolean
  /**
   * The report file's text (`report=PATH`), each report's text when PATH is a folder, or null when
   * the command did not write it.
   */
  report?: string | readonly string[] | null
}

/** The lines of workspace files, read once each: fingerprint anchors and line clamping need them. */
class FileLines {
  private readonly cache = new Map<string, string[] | undefined>()
  constructor(private readonly repoRoot: string) {}

  of(file: string): string[] | undefined {
    if (!this.cache.has(file)) {
      let lines: string[] | undefined
      try {
        lines = readFileSync(path.join(this.repoRoot, file), 'utf8').split('\n')
        if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop()
      } catch {
        lines = undefined
      }
      this.cache.set(file, lines)
    }
    return this.cache.get(file)
  }

  /** The text of one line: the anchor of a finding's fingerprint. */
  at(file: string | undefined, line: number | undefined): string {
    return file && line ? (this.of(file)?.[line - 1] ?? '') : ''
  }
}

/** The problems a command reported: its report file, else a JSON or XML report it printed, else its text. */
function problemsOf(
  result: CommandOutput,
  matchers: readonly ProblemMatcher[],
  inRepo: (file: string) => boolean,
  dirs?: RunnerDirs,
  list?: PathList
): { problems: GateProblem[]; category?: Category } {
  const structured = (text: string) => {
    try {
      const json = readJsonReport(text)
      if (json) return { problems: json.problems, format: json.format }
      const xml = readCheckstyle(text)
      if (xml) return { problems: xml, format: 'checkstyle' }
      const junit = readJunit(text, { inRepo, dirs })
      return junit && { problems: junit, format: 'junit' }
    } catch {
      // a report of a shape no reader expects: its text is read instead
      return undefined
    }
  }
  const text = (t: string) =>
    readText(t, { user: matchers, builtIn: builtInMatchers() }, inRepo, dirs, list)
  if (typeof result.report === 'string' || Array.isArray(result.report)) {
    const reports: readonly string[] =
      typeof result.report === 'string' ? [result.report] : result.report
    return { problems: reports.flatMap(r => structured(r)?.problems ?? text(r)) }
  }
  if (result.report === null) return { problems: [] }
  // stylelint 16+ writes its report to stderr; output is stdout itself when nothing else was printed
  const found =
    structured(result.stdout) ??
    (result.output === result.stdout ? undefined : structured(result.output))
  if (found)
    return {
      problems: found.problems,
      category: /^(eslint|stylelint|oxlint|biome|rubocop)/.test(found.format) ? 'style' : undefined
    }
  return { problems: text(result.output) }
}

type Placed = GateProblem & { file?: string; unplaced?: string; why?: string }

/**
 * A path as a tool prints a file's, though no file of the head has it (one the PR deleted or renamed
 * away, one whose name had bytes that are not UTF-8): relative, a folder and a name with an
 * extension, no spaces. A URL, a time of day or a file outside the repository is none.
 */
const FILE_LIKE = /^(?!.*:\/\/|\.\.\/|\/)[^\s/]*\/(?:[^\s/]+\/)*[^\s/]*\.[A-Za-z][\w-]*$/

/**
 * Each problem once, with how many times it was printed: a flood of one line (a linter in a loop)
 * costs one problem's work and memory, not one per line.
 */
function collapse(problems: readonly GateProblem[]): Array<{ p: GateProblem; times: number }> {
  const byKey = new Map<string, { p: GateProblem; times: number }>()
  for (const p of problems) {
    const key = JSON.stringify([
      p.file,
      p.line,
      p.column,
      p.endLine,
      p.endColumn,
      p.level,
      p.rule,
      p.message,
      p.testName,
      p.loose
    ])
    const seen = byKey.get(key)
    if (seen) seen.times++
    else byKey.set(key, { p, times: 1 })
  }
  return [...byKey.values()]
}

/** A problem's path placed in the repository; an unplaceable one keeps what the tool printed. */
function place(p: GateProblem, placer: PathPlacer): Placed | undefined {
  if (!p.file) return p
  const placed = placer.place(p.file)
  if ('file' in placed) return { ...p, file: placed.file }
  // the loose form's non-files are not locations at all (a URL, a time of day); a path git quoted
  // is one, and so is a file of the tree no annotation names (a quote in its name): both are shown
  const aPath =
    FILE_LIKE.test(placed.unplaced) || placed.inTree || unquoteGitPath(p.file) !== undefined
  return p.loose && !aPath
    ? undefined
    : { ...p, file: undefined, unplaced: placed.unplaced, why: placed.why }
}

/** A located problem on a line the file has: one past its end (a stale line number) is clamped to it. */
function clamp(p: Placed, lines: FileLines): Placed {
  const length = p.file ? lines.of(p.file)?.length : undefined
  if (!length || !p.line) return p
  if (p.line > length)
    return { ...p, line: length, endLine: undefined, column: undefined, endColumn: undefined }
  return p.endLine && p.endLine > length ? { ...p, endLine: length, endColumn: undefined } : p
}

/** What identifies a problem on one channel: its place and rule and message, or the test that failed. */
function channelKeys(p: Placed): string[] {
  const at = [p.file, p.level]
  if (p.testName) return [JSON.stringify([...at, 'test', p.testName])]
  if (!p.workflowCommand) return [JSON.stringify([...at, p.line, p.column, p.rule, p.message])]
  // Jest titles its command with the test's name (`describe › test`); Vitest with
  // `path > describe > test`, where the test's name is a tail of it
  const tests = (p.rule ?? '')
    .split(' > ')
    .map((_, i, parts) => JSON.stringify([...at, 'test', parts.slice(i).join(' > ')]))
  // a whole file's problem (Biome's `format`), which its command puts on some line
  const whole = JSON.stringify([...at, undefined, undefined, p.rule, p.message])
  return [JSON.stringify([...at, p.line, p.column, p.rule, p.message]), whole, ...tests]
}

/**
 * Each problem once though its tool printed it on two channels: a workflow command (Vitest, Jest's
 * github-actions reporter and `biome ci` add one on a runner) and its usual report. A command's twin is a problem another
 * reader read in the same file at the same level: the same line, column, rule and message (or the
 * same rule and message for the whole file), or the failure of the same test. The usual report's
 * reading is kept (a test's name is its title), with the command's location, which the tool chose,
 * unless it is about the whole file. Two problems on one line stay two.
 */
function oneChannel<T extends { p: Placed }>(problems: T[]): T[] {
  if (!problems.some(({ p }) => p.workflowCommand)) return problems
  const others = new Map<string, T>()
  for (const item of problems)
    if (!item.p.workflowCommand) for (const key of channelKeys(item.p)) others.set(key, item)
  const twins = new Map<T, Placed>()
  for (const item of problems) {
    if (!item.p.workflowCommand || !item.p.file) continue
    const twin = channelKeys(item.p)
      .map(key => others.get(key))
      .find(other => other && !twins.has(other))
    if (twin) twins.set(twin, item.p)
  }
  const merged = new Set(twins.values())
  return problems.flatMap(item => {
    if (merged.has(item.p)) return []
    const command = twins.get(item)
    if (!command?.line || !item.p.line) return [item]
    // on the same line, what the command leaves out the other reading may give
    const same: Partial<Placed> = command.line === item.p.line ? item.p : {}
    const {
      line,
      column = same.column,
      endLine = same.endLine,
      endColumn = same.endColumn
    } = command
    return [{ ...item, p: { ...item.p, line, column, endLine, endColumn } }]
  })
}

function severityOf(level: ToolLevel, check: CheckSpec, passed: boolean): Severity {
  const chosen = check.levels?.[level]
  if (chosen) return chosen
  const severity = DEFAULT_LEVELS[level]
  // the exit status decides: what a passing command reports never blocks on its own
  return passed && atOrAbove(severity, 'medium') ? 'low' : severity
}

function toFinding(
  check: CheckSpec,
  p: Placed,
  severity: Severity,
  category: Category,
  lines: FileLines
): Finding {
  // without a rule id, the check's name says what kind of problem it is
  const base = plainText(p.testName ?? `${p.rule ?? check.name}: ${p.message}`)
  const where = p.unplaced ? ` (in ${p.unplaced}, ${p.why})` : ''
  const title = `${base.split('\n')[0]!.slice(0, 200)}${where.slice(0, 240)}`
  const endLine = p.endLine && p.line && p.endLine >= p.line ? p.endLine : undefined
  return {
    id: fingerprint({ title, file: p.file, anchor: lines.at(p.file, p.line) }),
    severity,
    category: p.testName ? 'testing' : category,
    file: p.file,
    line: p.file ? p.line : undefined,
    endLine: p.file ? endLine : undefined,
    column: p.file && p.line ? p.column : undefined,
    endColumn:
      p.file && p.line && p.column && p.endColumn && (endLine ?? p.line) === p.line
        ? p.endColumn
        : undefined,
    title,
    description: plainText(p.message),
    source: `gate:${check.name}`
  }
}

/**
 * A command's findings (at most MAX_FINDINGS_PER_CHECK, the most severe first) and the true count of
 * the problems it printed. Paths are read relative to where the command ran (a leading `cd DIR &&`
 * included); lines past a file's end are clamped to its last line; a path outside the repository
 * gives an unlocated finding, never one on another file.
 */
export function readGateOutput(
  check: CheckSpec,
  result: CommandOutput,
  options: ReadOptions
): GateReading {
  const { repoRoot, cwd } = options
  const dir = commandDir(check.command, cwd, repoRoot)
  const placer = new PathPlacer(repoRoot, dir)
  const lines = new FileLines(repoRoot)
  const inRepo = (f: string) => 'file' in placer.place(f)
  const passed = result.exitCode === 0
  const list = pathListMode(check.command, passed)
  const read = problemsOf(result, options.matchers ?? [], inRepo, runnerDirs(repoRoot, dir), list)
  // a passing check's logged stack (a test that prints an error on purpose) is no problem, nor one
  // printed beside failing tests: a crash counts only in an output where no test failed
  const tests = read.problems.some(p => p.testName)
  const problems = passed || tests ? read.problems.filter(p => !p.crash) : read.problems
  const placed = collapse(problems).flatMap(({ p, times }) => {
    const at = place(p, placer)
    return at ? [{ p: clamp(at, lines), times }] : []
  })
  const graded = oneChannel(placed).map(({ p, times }) => ({
    p,
    severity: severityOf(p.level, check, passed),
    times
  }))
  const count = (which: typeof graded) => which.reduce((n, { times }) => n + times, 0)
  // over the cap, the most severe first: what is left out is the least severe
  const ordered = graded.length > MAX_FINDINGS_PER_CHECK ? [...graded].sort(bySeverity) : graded
  const category: Category = read.category ?? 'logic'
  const findings = firstDistinct(
    ordered,
    MAX_FINDINGS_PER_CHECK,
    ({ p, severity }) => toFinding(check, p, severity, category, lines),
    ({ p }) => `${p.file ?? ''}\0${normaliseAnchor(lines.at(p.file, p.line))}`
  )
  if (!passed && !findings.some(f => atOrAbove(f.severity, 'high'))) {
    findings.push(failedFinding(check.name, result))
  }
  return {
    findings,
    problems: count(graded.filter(({ p }) => p.file)),
    capped: count(graded) > MAX_FINDINGS_PER_CHECK
  }
}

/** What a watching tool prints last: Vitest, Jest, tsc --watch, nodemon. */
const WATCHING =
  /waiting for file changes|watching for (?:file )?changes|press h to show help|watch usage|\bwatching path/i

/**
 * Why a check that timed out did, as far as its last lines tell: a watch mode (a test runner that
 * waits for file changes, as Vitest does where CI is not set), else the usual causes.
 */
export function timeoutCause(output: string): { watching: boolean; cause: string } {
  const once = 'run it once (`vitest run`, `jest --watchAll=false`) or with CI=true'
  if (WATCHING.test(tail(output, 10)))
    return {
      watching: true,
      cause: `Its last lines show a watch mode: it waits for file changes and never ends (Vitest watches where CI is not set): ${once}.`
    }
  return {
    watching: false,
    cause: `A check that times out is usually waiting: a test runner in watch mode (Vitest watches where CI is not set: ${once}), a prompt for input, or a server it started; if it only needs longer, raise command-timeout-minutes.`
  }
}

function failedFinding(name: string, result: CommandOutput): Finding {
  const timeout = result.timedOut ? timeoutCause(result.output) : undefined
  const what = timeout
    ? `timed out${timeout.watching ? ' in watch mode' : ''}`
    : `failed (exit code ${result.exitCode})`
  const title = `Check '${name}' ${what}`
  const missing =
    result.report === null ? '\n\nIt did not write its report file (the `report=` option).' : ''
  return {
    id: fingerprint({ title, file: `gate:${name}` }),
    severity: 'high',
    category: 'testing',
    title,
    // a fence longer than any run of backticks in the output, so no line of it closes the block
    description: `The last lines of its output:\n\n${codeBlock(tail(result.output))}${missing}${timeout ? `\n\n${timeout.cause}` : ''}`,
    source: `gate:${name}`
  }
}

/**
 * The first `max` distinct findings, each with an id that neither the order a tool prints them in
 * nor lines moving above them changes. The same problem printed again (same title and place) is one
 * finding. A finding alone under its usual id (normalised title, file, the text of its line) keeps
 * it; findings that share one (titles differing only in case, the same message on two lines of
 * identical code) each get an id that also hashes their exact title and their rank among the
 * group's findings of that exact title, counted in line order.
 */
function firstDistinct<P>(
  problems: P[],
  max: number,
  toFinding: (p: P) => Finding,
  where: (p: P) => string
): Finding[] {
  const groups = new Map<string, Map<string, Finding>>()
  // the file and line text of the kept findings: past the cap, a problem elsewhere shares no id
  const kept = new Set<string>()
  for (const p of problems) {
    const full = groups.size >= max
    const at = where(p)
    if (full && !kept.has(at)) continue
    const f = toFinding(p)
    const group = groups.get(f.id)
    const key = JSON.stringify([f.title, f.line, f.column])
    if (group) {
      if (!group.has(key)) group.set(key, f)
    } else if (!full) {
      groups.set(f.id, new Map([[key, f]]))
      kept.add(at)
    }
  }
  const findings: Finding[] = []
  for (const group of groups.values()) {
    const members = group.size === 1 ? [...group.values()] : distinctIds([...group.values()])
    // no spread: a group can hold a flood of findings
    for (const f of members) if (findings.length < max) findings.push(f)
    if (findings.length >= max) break
  }
  return findings
}

/**
 * A colliding group's findings (in the order printed), each with its own id: the group's usual id
 * (which hashes the text of their line), their exact title, and their rank among the group's
 * findings of that title in line order (a finding on the same title's first line has rank 0).
 */
function distinctIds(group: readonly Finding[]): Finding[] {
  const inLines = [...group].sort(
    (a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0)
  )
  const ranks = new Map<Finding, number>()
  const counts = new Map<string, number>()
  for (const f of inLines) {
    const rank = counts.get(f.title) ?? 0
    counts.set(f.title, rank + 1)
    ranks.set(f, rank)
  }
  return group.map(f => {
    const rank = ranks.get(f)!
    const distinct = `${f.id}:title:${f.title}${rank > 0 ? `#${rank}` : ''}`
    return { ...f, id: fingerprint({ title: f.title, file: f.file, distinct }) }
  })
}
