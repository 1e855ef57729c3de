// npm run docs: rewrites the inputs and outputs tables of README.md from action.yml, the table of
// tools the checks read from their fixtures (and docs/checks.md's table of tools), the sandbox's folder table from
// src/process/toolchains.ts, and the loop's transition table in src/loop/README.md from
// src/loop/transitions.ts, and the dataset's counts in eval/README.md from its cases, so they match.
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

export function replaceBetween(text: string, marker: string, content: string): string {
  const start = `<!-- ${marker}:start -->`
  const end = `<!-- ${marker}:end -->`
  const i = text.indexOf(start)
  const j = text.indexOf(end)
  if (i < 0 || j < 0) throw new Error(`the file lacks the ${start} … ${end} markers`)
  return `${text.slice(0, i + start.length)}\n${content}\n${text.slice(j)}`
}

if (process.argv[1]?.endsWith('readme-tables.ts')) {
  const action = parse(readFileSync('action.yml', 'utf8')) as ActionYml
  const { inputs, outputs } = tables(action)
  let readme = readFileSync('README.md', 'utf8')
  readme = replaceBetween(readme, 'inputs', inputs)
  readme = replaceBetween(readme, 'outputs', outputs)
  readme = replaceBetween(readme, 'gate-tools', gateToolsTable())
  readme = replaceBetween(readme, 'sandbox-folders', sandboxTable())
  writeFileSync('README.md', readme)
  writeFileSync(
    'docs/checks.md',
    replaceBetween(readFileSync('docs/checks.md', 'utf8'), 'tool-table', toolTable())
  )
  const loop = replaceBetween(
    readFileSync('src/loop/README.md', 'utf8'),
    'transitions',
    transitionTable()
  )
  writeFileSync('src/loop/README.md', loop)
  writeFileSync(
    'eval/README.md',
    replaceBetween(readFileSync('eval/README.md', 'utf8'), 'eval-cases', evalTable())
  )
  console.log(
    'README.md tables rewritten from action.yml and the gate fixtures; src/loop/README.md from transitions.ts; eval/README.md from the cases'
  )
}
