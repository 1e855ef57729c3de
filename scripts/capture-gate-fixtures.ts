/**
 * Regenerates __tests__/fixtures/gates/<id>.json from the tools that install here (npm: ESLint,
 * TypeScript, Prettier, Pyright, stylelint, markdownlint-cli2, Jest, Vitest; Debian: ShellCheck,
 * yamllint, Pylint, flake8, mypy, pytest, Go, staticcheck; rustup: clippy; by hand: oxlint, Biome,
 * RuboCop, mocha, Node 20, and the further tools of test-support/gate-tools-more.ts, see `capture`),
 * each run on a fresh copy of test-support/gate-sample. Fixtures copied from a tool's own test snapshots (Ruff,
 * golangci-lint, hadolint, MSBuild) are left as they are. Tools CI does not install (a `capture`
 * entry: mocha, Node 20) run from CAPTURE_PATH, put first on PATH, e.g.
 * `CAPTURE_PATH=/tmp/m/node_modules/.bin npm run capture-gates -- mocha-spec`; for Node 20,
 * `CAPTURE_PATH=/usr/bin`; for Ruff, Black and isort, a venv's bin/; ESLint's `-f unix` also needs
 * `NODE_PATH` at the node_modules holding eslint-formatter-unix. cppcheck, gcc, php and phpunit are
 * Debian's, installed by hand. Usage: npm run capture-gates [-- id…]
 */
import { execSync } from 'node:child_process'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { createCommandRunner } from '../src/process/command-runner.js'
import {
  checkOf,
  copySample,
  FIXTURES,
  ROOT,
  toolEnv,
  type GateFixture
} from '../test-support/gate-parity.js'
import { GATE_TOOLS } from '../test-support/gate-tools.js'

const only = process.argv.slice(2)
const runner = createCommandRunner()
const today = new Date().toISOString().slice(0, 10)

function version(command: string, cwd: string): string | undefined {
  try {
    return execSync(command, {
      cwd,
      env: env(),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore']
    })
      .trim()
      .split('\n')[0]
  } catch {
    return undefined
  }
}

/** Tools CI does not install (a `capture` entry) run from CAPTURE_PATH, put first on PATH. */
function env(): Record<string, string> {
  const base = toolEnv()
  const extra = process.env['CAPTURE_PATH']
  return extra ? { ...base, PATH: `${extra}:${base['PATH']}` } : base
}

for (const tool of GATE_TOOLS) {
  const how = tool.run ?? tool.capture
  if (!how || (only.length > 0 && !only.includes(tool.id))) continue
  const root = copySample()
  try {
    const v = version(how.version, root)
    if (!v) {
      console.log(`${tool.id}: skipped, not installed (${tool.run?.from ?? tool.capture?.install})`)
      continue
    }
    const check = checkOf(tool)
    const result = await runner.run(check.command, {
      cwd: root,
      timeoutMs: 300_000,
      env: env()
    })
    const hide = (text: string) => text.split(root).join(ROOT)
    let report: string | undefined
    if (check.report) report = hide(readFileSync(path.join(root, check.report), 'utf8'))
    const fixture: GateFixture = {
      tool: tool.tool,
      format: tool.format,
      version: v,
      check: tool.check,
      captured: `scripts/capture-gate-fixtures.ts, ${today}`,
      exitCode: result.exitCode,
      stdout: hide(result.stdout),
      output: hide(result.output),
      ...(report === undefined ? {} : { report })
    }
    writeFileSync(path.join(FIXTURES, `${tool.id}.json`), `${JSON.stringify(fixture, null, 2)}\n`)
    console.log(`${tool.id}: ${v}, exit ${result.exitCode}, ${result.output.length} characters`)
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}
