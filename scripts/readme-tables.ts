// npm run docs: rewrites the tables the documentation shows from the code, so they match: the inputs
// and outputs of docs/configuration.md from action.yml, docs/checks.md's tables of tools from the gate
// fixtures, docs/security.md's sandbox folders from src/process/toolchains.ts, src/loop/README.md's
// transitions from src/loop/transitions.ts, and eval/README.md's counts from the cases
// (generatedTables lists them).
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { parse } from 'yaml'
import { loadDataset, type EvalCase } from '../src/eval/dataset.js'
import { INPUT_DEFAULTS } from '../src/inputs.js'
import { LOOP_EVENTS, TRANSITIONS, type Transition } from '../src/loop/transitions.js'
import { LOOP_STATUSES } from '../src/loop/types.js'
import { CREDENTIALS, TOOLCHAIN_HOMES } from '../src/process/toolchains.js'
import { copySample, loadFixture, located, replay } from '../test-support/gate-parity.js'
import { bestRow, byTool, toolKind } from '../test-support/gate-tool-kinds.js'
import type { GateTool } from '../test-support/gate-tool-types.js'
import { GATE_TOOLS } from '../test-support/gate-tools.js'

interface ActionYml {
  inputs: Record<string, { description: string; default?: string }>
  outputs: Record<string, { description: string }>
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')

export function tables(action: ActionYml): { inputs: string; outputs: string } {
  const inputs = [
    '| input | default | what it does |',
    '|---|---|---|',
    ...Object.entries(action.inputs).map(([name, i]) => {
      // action.yml declares only github-token's default; the others are the parser's
      const fallback = i.default ?? INPUT_DEFAULTS[name]
      return `| \`${name}\` | ${fallback ? `\`${cell(fallback)}\`` : ''} | ${cell(i.description)} |`
    })
  ].join('\n')
  const outputs = [
    '| output | what it holds |',
    '|---|---|',
    ...Object.entries(action.outputs).map(([name, o]) => `| \`${name}\` | ${cell(o.description)} |`)
  ].join('\n')
  return { inputs, outputs }
}

/** One cell: `to · then`, `(new round)` when a terminal state is left, `—` when it cannot happen. */
export function transitionCell(t: Transition | undefined): string {
  if (!t) return '—'
  return `${t.to} · ${t.then}${t.newRound ? ' (new round)' : ''}`
}

/** The transition table: an event a row, a status a column. */
export function transitionTable(): string {
  return [
    `| event | ${LOOP_STATUSES.join(' | ')} |`,
    `|---|${LOOP_STATUSES.map(() => '---').join('|')}|`,
    ...LOOP_EVENTS.map(
      e => `| \`${e}\` | ${LOOP_STATUSES.map(s => transitionCell(TRANSITIONS[s][e])).join(' | ')} |`
    )
  ].join('\n')
}

/**
 * The tools the checks read: each fixture of real output replayed through the gates, counting the
 * planted problems found on their file and line with the tool's severity.
 */
export function gateToolsTable(): string {
  const root = copySample()
  try {
    const rows = GATE_TOOLS.map(t => {
      const fixture = loadFixture(t.id)
      const found = located(replay(t, fixture, root)).map(p => JSON.stringify(p))
      const planted = t.planted.filter(p => p[0] !== null)
      const hits = planted.filter(p => {
        const i = found.indexOf(JSON.stringify(p))
        if (i >= 0) found.splice(i, 1)
        return i >= 0
      }).length
      const from = origin(t, fixture.version)
      return `| ${t.tool} | ${t.format} | \`${cell(t.check)}\` | ${planted.length} | ${hits} | ${cell(from)} |`
    })
    return [
      '| tool | format | check | planted | located | output captured from |',
      '|---|---|---|---|---|---|',
      ...rows
    ].join('\n')
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}

/** Where a row's output came from: run here by CI, captured here by hand, or a tool's own tests. */
export function origin(t: GateTool, version: string): string {
  if (t.run) return `${version}, run here`
  if (t.capture) return `${version}, captured here (${t.capture.install})`
  if (/\bhere\b/.test(t.source ?? '')) return `${version}, captured here (${t.source})`
  return `${version}, from ${t.source}: does not install here`
}

/** The version number a tool printed: `Version 5.9.3` and `go version go1.19.8 linux/amd64` alike. */
export const shortVersion = (printed: string): string =>
  /\d+\.\d+(?:\.\d+)?(?:[-+][\w.]+)?/.exec(printed)?.[0] ?? printed

/**
 * docs/checks.md's table: a row a tool, with what it is, the check whose output reads best (a row
 * of GATE_TOOLS, so a fixture the parity test replays), where that output came from, and how many
 * of the tool's formats are tested.
 */
export function toolTable(tools: readonly GateTool[] = GATE_TOOLS): string {
  // a group that plants nothing (a passing listing such as `find`) is a guard, not a tool to pick
  const groups = [...byTool(tools)].filter(([, group]) => group.some(r => r.planted.length > 0))
  const rows = groups.map(([name, group]) => {
    const best = bestRow(group)
    const from = origin(best, shortVersion(loadFixture(best.id).version))
    return `| ${cell(name)} | ${toolKind(group)} | \`${cell(best.check)}\` | ${cell(from)} | ${group.length} |`
  })
  return [
    '| tool | kind | check that reads best | its output captured from | formats tested |',
    '|---|---|---|---|---|',
    ...rows
  ].join('\n')
}

/** The sandbox's view of a runner's home: toolchain homes shown, credentials hidden, and why. */
export function sandboxTable(): string {
  const where = (h: { path: string; default?: string; only?: readonly string[] }): string =>
    `\`${h.path}\`${h.default ? ` (default \`${h.default}\`)` : ''}${h.only ? `: ${h.only.map(o => `\`${o}\``).join(', ')}` : ''}`
  return [
    '| folder | in the sandbox | why |',
    '|---|---|---|',
    ...TOOLCHAIN_HOMES.map(
      h =>
        `| ${where(h)} | shown read-only${!h.path.startsWith('$') ? '' : h.private ? ', variable left private' : ', variable passed'} | ${cell(h.why)} |`
    ),
    ...CREDENTIALS.map(
      c => `| ${where(c)} | hidden, masked inside shown folders | ${cell(c.why)} |`
    )
  ].join('\n')
}

/** eval/README.md's counts: the dataset's cases per language and kind, with a test, from case.json. */
export function evalTable(cases: EvalCase[] = loadDataset('eval')): string {
  const row = (label: string, of: EvalCase[]): string => {
    const count = (kind: string): number => of.filter(c => c.kind === kind).length
    const repos = new Set(of.map(c => c.repo)).size
    return `| ${label} | ${count('bug')} | ${count('clean')} | ${of.filter(c => c.hasTest).length} | ${repos} |`
  }
  const languages = ['javascript', 'typescript', 'python', 'go'] as const
  return [
    '| language | bug cases | clean cases | with a test | repositories |',
    '|---|---|---|---|---|',
    ...languages.map(l =>
      row(
        l,
        cases.filter(c => c.language === l)
      )
    ),
    row('all', cases)
  ].join('\n')
}

/** A file's text around a generated table: through the start marker's line, the table, from the end marker's line on. */
function section(
  text: string,
  marker: string
): { before: string; table: string; after: string } | undefined {
  const start = `<!-- ${marker}:start -->\n`
  const i = text.indexOf(start)
  const j = i < 0 ? -1 : text.indexOf(`\n<!-- ${marker}:end -->`, i + start.length - 1)
  if (j < 0) return undefined
  const from = i + start.length
  return {
    before: text.slice(0, from),
    table: text.slice(from, Math.max(from, j)),
    after: text.slice(j)
  }
}

export function replaceBetween(text: string, marker: string, content: string): string {
  const s = section(text, marker)
  if (!s)
    throw new Error(`the file lacks the <!-- ${marker}:start --> … <!-- ${marker}:end --> markers`)
  return `${s.before}${content}${s.after}`
}

/** A table `npm run docs` writes between `<!-- marker:start -->` and `<!-- marker:end -->` of a file. */
export interface GeneratedTable {
  file: string
  marker: string
  make: () => string
}

/** Every generated table, where it lives: the script writes them and docs.test.ts compares them. */
export function generatedTables(action: ActionYml): GeneratedTable[] {
  const { inputs, outputs } = tables(action)
  return [
    { file: 'docs/configuration.md', marker: 'inputs', make: () => inputs },
    { file: 'docs/configuration.md', marker: 'outputs', make: () => outputs },
    { file: 'docs/checks.md', marker: 'tool-table', make: () => toolTable() },
    { file: 'docs/checks.md', marker: 'gate-tools', make: () => gateToolsTable() },
    { file: 'docs/security.md', marker: 'sandbox-folders', make: sandboxTable },
    { file: 'src/loop/README.md', marker: 'transitions', make: transitionTable },
    { file: 'eval/README.md', marker: 'eval-cases', make: () => evalTable() }
  ]
}

/** What a file holds between a marker's start and end lines (undefined without the markers). */
export const between = (text: string, marker: string): string | undefined =>
  section(text, marker)?.table

export const readAction = (): ActionYml => parse(readFileSync('action.yml', 'utf8')) as ActionYml

if (process.argv[1]?.endsWith('readme-tables.ts')) {
  for (const { file, marker, make } of generatedTables(readAction()))
    writeFileSync(file, replaceBetween(readFileSync(file, 'utf8'), marker, make()))
  console.log(
    'Tables rewritten: the inputs and outputs from action.yml, the tools from the gate fixtures, the sandbox from toolchains.ts, the transitions from transitions.ts, the eval counts from the cases'
  )
}
