import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { parseMode, parseSettings } from '../../src/inputs.js'
import {
  evalTable,
  gateToolsTable,
  sandboxTable,
  tables,
  toolTable,
  transitionTable
} from '../../scripts/readme-tables.js'
import { FIXTURES } from '../../test-support/gate-parity.js'
import { byTool } from '../../test-support/gate-tool-kinds.js'
import { GATE_TOOLS } from '../../test-support/gate-tools.js'

const action = parse(readFileSync('action.yml', 'utf8')) as Parameters<typeof tables>[0] & {
  runs: { using: string; main: string }
}
const readme = readFileSync('README.md', 'utf8')
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }

describe('documentation matches the code', () => {
  it('README tables are the ones action.yml gives (npm run docs rewrites them)', () => {
    const { inputs, outputs } = tables(action)
    expect(readme).toContain(inputs)
    expect(readme).toContain(outputs)
  })

  it('the README lists every tool the checks read, each with its planted problems located', () => {
    const table = gateToolsTable()
    expect(readme).toContain(table)
    for (const row of table.split('\n').slice(2)) {
      const [planted, found] = row.split(' | ').slice(3, 5)
      expect(found, row).toBe(planted)
    }
  })

  it('docs/checks.md names, for at least 40 tools, a check whose real output the parity test replays', () => {
    const table = toolTable()
    const doc = readFileSync('docs/checks.md', 'utf8')
    const written = doc.slice(
      doc.indexOf('<!-- tool-table:start -->\n') + 26,
      doc.indexOf('\n<!-- tool-table:end -->')
    )
    expect(written).toBe(table)
    const rows = table.split('\n').slice(2)
    expect(rows.length).toBeGreaterThanOrEqual(40)
    for (const row of rows) {
      const check = /\| `(.+)` \|/.exec(row)![1]!.replace(/\\\|/g, '|')
      const replayed = GATE_TOOLS.find(t => t.check === check)
      expect(replayed, row).toBeDefined()
      expect(existsSync(path.join(FIXTURES, `${replayed!.id}.json`)), row).toBe(true)
    }
  })

  it('each tool has at most one row marked best for the tool table', () => {
    for (const [tool, rows] of byTool(GATE_TOOLS))
      expect(rows.filter(r => r.best).length, tool).toBeLessThanOrEqual(1)
  })

  it("the README's sandbox table is the toolchain and credential lists of the code (npm run docs)", () => {
    expect(readme).toContain(sandboxTable())
  })

  it("eval/README.md counts the dataset's cases as their case.json files say (npm run docs rewrites it)", () => {
    const table = evalTable()
    expect(readFileSync('eval/README.md', 'utf8')).toContain(table)
    // the issue asks for at least 40 bug cases across JavaScript/TypeScript, Python and Go, 10 clean
    const all = table.split('\n').at(-1)!.split(' | ')
    expect(Number(all[1])).toBeGreaterThanOrEqual(40)
    expect(Number(all[2])).toBeGreaterThanOrEqual(10)
  })

  it('src/loop/README.md shows the transition table the code has (npm run docs rewrites it)', () => {
    expect(readFileSync('src/loop/README.md', 'utf8')).toContain(transitionTable())
  })

  it('the action reads exactly the inputs action.yml declares', () => {
    const read = new Set<string>()
    const get = (name: string): string => {
      read.add(name)
      return name === 'github-token' ? 'ghs_x' : name === 'checks' ? 'a: true' : ''
    }
    parseSettings(get)
    parseMode(name => (name === 'mode' ? (get(name), 'stats') : get(name)))
    expect([...read].sort()).toEqual(Object.keys(action.inputs).sort())
  })

  it('runs on node24 and the quick start commands exist', () => {
    expect(action.runs).toEqual({ using: 'node24', main: 'dist/index.cjs' })
    expect(readme).toContain('npm ci && npm run demo')
    expect(readme).toContain('npm ci && npm test')
    expect(pkg.scripts['demo']).toBeTruthy()
    expect(pkg.scripts['test']).toBe('vitest run')
  })
})
