import { existsSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fingerprint } from '../loop/fingerprint.js'
import type { Category, Finding, GateResult } from '../loop/types.js'
import type { CommandRunner } from '../ports/index.js'
import { parseEslintJson, parseLocatedLines, tail, type GateProblem } from './parsers.js'

export interface GateOptions {
  /** Repository root: finding paths are made relative to it (annotations need that). */
  repoRoot: string
  /** Where commands run (the `working-directory` input). */
  cwd: string
  timeoutMs: number
  env: Record<string, string>
}

/**
 * The findings one check keeps: its most severe located problems first. A check that prints more
 * (a linter run over a whole repository) is counted in full (`problems`), and the rest stays in its
 * output; a hundred findings are more than a fixer or a reader can act on in one iteration.
 */
export const MAX_FINDINGS_PER_CHECK = 100

/** The lines of workspace files, read once each: fingerprint anchors and line clamping need them. */
export class FileLines {
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

function relativeToRoot(repoRoot: string, cwd: string, file: string): string | undefined {
  const absolute = path.resolve(cwd, file)
  const relative = path.relative(repoRoot, absolute)
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined
  return relative.split(path.sep).join('/')
}

/** Whether a path is a file, asked once per path (a noisy check names the same files again and again). */
function fileCheck(cwd: string): (file: string) => boolean {
  const seen = new Map<string, boolean>()
  return file => {
    const absolute = path.resolve(cwd, file)
    if (!seen.has(absolute)) {
      let isFile = false
      try {
        isFile = statSync(absolute).isFile()
      } catch {
        isFile = false
      }
      seen.set(absolute, isFile)
    }
    return seen.get(absolute)!
  }
}

/** A located problem on a line the file has: one past its end (a stale line number) is clamped to it. */
function clamp(
  p: GateProblem & { file: string },
  lines: FileLines
): GateProblem & { file: string } {
  const length = lines.of(p.file)?.length
  if (!length || !p.line) return p
  if (p.line > length) return { ...p, line: length, endLine: undefined }
  return p.endLine && p.endLine > length ? { ...p, endLine: length } : p
}

function toFinding(gate: string, category: Category, p: GateProblem, lines: FileLines): Finding {
  // without a rule id, the check's name says what kind of problem it is
  const title = `${p.rule ?? gate}: ${p.message}`.split('\n')[0]!.slice(0, 200)
  return {
    id: fingerprint({ title, file: p.file, anchor: lines.at(p.file, p.line) }),
    severity: p.level === 'error' ? 'high' : 'low',
    category,
    file: p.file,
    line: p.line,
    endLine: p.endLine && p.line && p.endLine >= p.line ? p.endLine : undefined,
    title,
    description: p.message,
    source: `gate:${gate}`
  }
}

/** Turns one command's result into findings: ESLint JSON, tsc, `path:line:col`, or the output's tail. */
export function findingsFromOutput(
  name: string,
  result: { exitCode: number; stdout: string; output: string; timedOut: boolean },
  options: Pick<GateOptions, 'repoRoot' | 'cwd'>
): Finding[] {
  return readGateOutput(name, result, options).findings
}

/**
 * A command's findings (at most MAX_FINDINGS_PER_CHECK, errors first) and the true count of the
 * located problems it printed. Lines past a file's end are clamped to its last line.
 */
export function readGateOutput(
  name: string,
  result: { exitCode: number; stdout: string; output: string; timedOut: boolean },
  options: Pick<GateOptions, 'repoRoot' | 'cwd'>
): { findings: Finding[]; problems: number; capped: boolean } {
  const { repoRoot, cwd } = options
  const lines = new FileLines(repoRoot)
  const eslint = parseEslintJson(result.stdout)
  const category: Category = eslint ? 'style' : 'logic'
  const problems = eslint ?? parseLocatedLines(result.output, fileCheck(cwd))
  const failed = result.exitCode !== 0
  const located = problems.flatMap(p => {
    const file = p.file ? relativeToRoot(repoRoot, cwd, p.file) : undefined
    // the exit status decides: what a passing command reports is never more than a warning
    return file ? [clamp({ ...p, file, level: failed ? p.level : 'warning' }, lines)] : []
  })
  // over the cap, errors first: what is left out is the least severe
  const ordered =
    located.length > MAX_FINDINGS_PER_CHECK
      ? [...located.filter(p => p.level === 'error'), ...located.filter(p => p.level !== 'error')]
      : located
  const findings = firstDistinct(ordered, MAX_FINDINGS_PER_CHECK, p =>
    toFinding(name, category, p, lines)
  )
  if (failed && !findings.some(f => f.severity === 'high')) {
    const what = result.timedOut ? 'timed out' : `failed (exit code ${result.exitCode})`
    const title = `Check '${name}' ${what}`
    findings.push({
      id: fingerprint({ title, file: `gate:${name}` }),
      severity: 'high',
      category: 'testing',
      title,
      description: `The last lines of its output:\n\n\`\`\`\n${tail(result.output)}\n\`\`\``,
      source: `gate:${name}`
    })
  }
  return { findings, problems: located.length, capped: located.length > MAX_FINDINGS_PER_CHECK }
}

/** The first `max` findings with distinct ids. */
function firstDistinct<P>(problems: P[], max: number, toFinding: (p: P) => Finding): Finding[] {
  const seen = new Map<string, Finding>()
  for (const p of problems) {
    if (seen.size >= max) break
    const f = toFinding(p)
    if (!seen.has(f.id)) seen.set(f.id, f)
  }
  return [...seen.values()]
}

export async function runGates(
  gates: ReadonlyArray<{ name: string; command: string }>,
  runner: CommandRunner,
  options: GateOptions
): Promise<GateResult[]> {
  if (!existsSync(options.cwd)) {
    throw new Error(`Input 'working-directory': ${options.cwd} does not exist in the checkout.`)
  }
  const results: GateResult[] = []
  for (const gate of gates) {
    const result = await runner.run(gate.command, {
      cwd: options.cwd,
      timeoutMs: options.timeoutMs,
      env: options.env
    })
    results.push({
      name: gate.name,
      command: gate.command,
      passed: result.exitCode === 0,
      exitCode: result.exitCode,
      timedOut: result.timedOut,
      durationMs: result.durationMs,
      ...readGateOutput(gate.name, result, options),
      outputTail: tail(result.output, 200, 20_000)
    })
  }
  return results
}
