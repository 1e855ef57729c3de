/**
 * The gates' parity harness: a temporary copy of the sample repository, a captured fixture replayed
 * through the gates as the action reads a command's result, and a tool run live through runGates.
 */
import { cpSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { readGateOutput, runGates } from '../src/gates/run-gates.js'
import { parseChecks } from '../src/inputs.js'
import type { Finding } from '../src/loop/types.js'
import { createCommandRunner } from '../src/process/command-runner.js'
import type { GateTool, Planted } from './gate-tools.js'

const here = path.dirname(fileURLToPath(import.meta.url))
export const PROJECT = path.resolve(here, '..')
export const SAMPLE = path.join(here, 'gate-sample')
export const FIXTURES = path.join(PROJECT, '__tests__/fixtures/gates')
/** Stands for the sample's temporary root in a fixture (tools print absolute paths). */
export const ROOT = '${ROOT}'

export interface GateFixture {
  tool: string
  format: string
  /** The tool's version, as it printed it. */
  version: string
  check: string
  /** How the fixture was made: the capture script and its date, or where it was copied from. */
  captured: string
  exitCode: number
  stdout: string
  output: string
  /** The report file's text, for a check with report=. */
  report?: string
}

/** A fresh copy of the sample repository, with the project's node_modules for the npm tools. */
export function copySample(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'rl-gate-sample-'))
  cpSync(SAMPLE, root, { recursive: true })
  symlinkSync(path.join(PROJECT, 'node_modules'), path.join(root, 'node_modules'))
  return root
}

export function loadFixture(id: string): GateFixture {
  return JSON.parse(readFileSync(path.join(FIXTURES, `${id}.json`), 'utf8')) as GateFixture
}

export function checkOf(tool: GateTool) {
  return parseChecks(tool.check)[0]!
}

/** The fixture's text with its stand-ins put back: the sample's root, a test's file name. */
function restore(text: string, tool: GateTool, root: string): string {
  let out = text.split(ROOT).join(root)
  for (const [from, to] of Object.entries(tool.replace ?? {}))
    out = out.split(from).join(to.split(ROOT).join(root))
  return out
}

/** The findings the gates make of a captured fixture, in a copy of the sample at `root`. */
export function replay(tool: GateTool, fixture: GateFixture, root: string): Finding[] {
  return readGateOutput(
    checkOf(tool),
    {
      exitCode: fixture.exitCode,
      stdout: restore(fixture.stdout, tool, root),
      output: restore(fixture.output, tool, root),
      timedOut: false,
      report: fixture.report === undefined ? undefined : restore(fixture.report, tool, root)
    },
    { repoRoot: root, cwd: root }
  ).findings
}

/** The environment the tools run in: the project's npm tools first on PATH. */
export function toolEnv(): Record<string, string> {
  // a test runner's own variables would make the sample's Vitest or Jest think it runs inside it;
  // `npm run -s` would silence the npm scripts the checks run (their `> name@version` headers)
  const inherited = Object.entries(process.env).filter(
    ([name]) => !/^(VITEST|JEST_WORKER_ID$|NODE_OPTIONS$|TEST$|npm_config_loglevel$)/.test(name)
  )
  return {
    ...(Object.fromEntries(inherited) as Record<string, string>),
    PATH: `${path.join(PROJECT, 'node_modules/.bin')}:${process.env['PATH'] ?? ''}`
  }
}

/** The tool run for real on the sample at `root`, through runGates as the action runs a check. */
export async function runLive(tool: GateTool, root: string): Promise<Finding[]> {
  const [result] = await runGates([checkOf(tool)], createCommandRunner(), {
    repoRoot: root,
    cwd: root,
    timeoutMs: 180_000,
    env: toolEnv()
  })
  return result!.findings
}

/** Findings as [file, line, severity], in a stable order, to compare with what was planted. */
export function located(findings: readonly Finding[]): Planted[] {
  return sortPlanted(
    findings.map(f => [f.file ?? null, f.file ? (f.line ?? null) : null, f.severity])
  )
}

export function sortPlanted(planted: readonly Planted[]): Planted[] {
  return [...planted].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))
}
