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

/** Reads the text of one line of a file in the workspace: the anchor of a finding's fingerprint. */
export function lineAt(
  repoRoot: string,
  file: string | undefined,
  line: number | undefined
): string {
  if (!file || !line) return ''
  try {
    return readFileSync(path.join(repoRoot, file), 'utf8').split('\n')[line - 1] ?? ''
  } catch {
    return ''
  }
}

function relativeToRoot(repoRoot: string, cwd: string, file: string): string | undefined {
  const absolute = path.resolve(cwd, file)
  const relative = path.relative(repoRoot, absolute)
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined
  return relative.split(path.sep).join('/')
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile()
  } catch {
    return false
  }
}

function toFinding(gate: string, category: Category, p: GateProblem, repoRoot: string): Finding {
  // without a rule id, the check's name says what kind of problem it is
  const title = `${p.rule ?? gate}: ${p.message}`.split('\n')[0]!.slice(0, 200)
  return {
    id: fingerprint({ title, file: p.file, anchor: lineAt(repoRoot, p.file, p.line) }),
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
  const { repoRoot, cwd } = options
  const eslint = parseEslintJson(result.stdout)
  const category: Category = eslint ? 'style' : 'logic'
  const problems =
    eslint ?? parseLocatedLines(result.output, file => isFile(path.resolve(cwd, file)))
  const located = problems.flatMap(p => {
    const file = p.file ? relativeToRoot(repoRoot, cwd, p.file) : undefined
    return file ? [{ ...p, file }] : []
  })
  const failed = result.exitCode !== 0
  // the exit status decides: what a passing command reports is never more than a warning
  const findings = dedupe(
    located.map(p => toFinding(name, category, failed ? p : { ...p, level: 'warning' }, repoRoot))
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
  return findings
}

function dedupe(findings: Finding[]): Finding[] {
  const seen = new Map<string, Finding>()
  for (const f of findings) if (!seen.has(f.id)) seen.set(f.id, f)
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
      findings: findingsFromOutput(gate.name, result, options),
      outputTail: tail(result.output, 200, 20_000)
    })
  }
  return results
}
