import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseMode, parseSettings } from '../../src/inputs.js'
import { between, generatedTables, readAction } from '../../scripts/readme-tables.js'
import { FIXTURES } from '../../test-support/gate-parity.js'
import { byTool } from '../../test-support/gate-tool-kinds.js'
import { GATE_TOOLS } from '../../test-support/gate-tools.js'
import { filesUnder } from '../../test-support/files.js'
import { brokenLinks } from '../../test-support/markdown-links.js'

const action = readAction() as ReturnType<typeof readAction> & {
  runs: { using: string; main: string }
}
const readme = readFileSync('README.md', 'utf8')
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }

const written = (file: string, marker: string): string => {
  const text = between(readFileSync(file, 'utf8'), marker)
  if (text === undefined) throw new Error(`${file} lacks the ${marker} markers`)
  return text
}

/** Our Markdown: every .md file but the eval cases' (other projects' code) and what is not ours. */
const markdownFiles = (): string[] =>
  filesUnder(
    '.',
    name => name.endsWith('.md'),
    new Set(['node_modules', '.git', 'dist', 'out', 'coverage', 'cases', '.dist-tmp'])
  )

describe('documentation matches the code', () => {
  it.each(generatedTables(action).map(g => [`${g.file} ${g.marker}`, g] as const))(
    'the %s table is the one the code gives (npm run docs rewrites it)',
    (_, { file, marker, make }) => {
      expect(written(file, marker)).toBe(make())
    }
  )

  it('the table of tools the checks read has each planted problem located', () => {
    const rows = written('docs/checks.md', 'gate-tools').split('\n').slice(2)
    expect(rows.length).toBeGreaterThan(100)
    for (const row of rows) {
      const [planted, found] = row.split(' | ').slice(3, 5)
      expect(found, row).toBe(planted)
    }
  })

  it('docs/checks.md names, for at least 40 tools, a check whose real output the parity test replays', () => {
    const rows = written('docs/checks.md', 'tool-table').split('\n').slice(2)
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

  it("eval/README.md counts at least 40 bug cases and 10 clean ones (the dataset's issue asks for them)", () => {
    const all = written('eval/README.md', 'eval-cases').split('\n').at(-1)!.split(' | ')
    expect(Number(all[1])).toBeGreaterThanOrEqual(40)
    expect(Number(all[2])).toBeGreaterThanOrEqual(10)
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

describe('the README is the front door, the docs pages the manual', () => {
  const pages = readdirSync('docs').filter(f => f.endsWith('.md'))

  it('keeps the README to 300 lines and links every docs page from it', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(300)
    expect(pages.length).toBeGreaterThanOrEqual(5)
    for (const page of pages) expect(readme, page).toContain(`](docs/${page})`)
  })

  it('resolves every relative link and image of our Markdown, to a file and to a heading', () => {
    const files = markdownFiles()
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/configuration.md']))
    expect(files.flatMap(file => brokenLinks(file))).toEqual([])
  })

  it('finds a link to a missing file, a missing heading, or a folder up too far, in every link form', () => {
    const docs: Record<string, string> = {
      'README.md': [
        '# Title\n\n## Quick start\n\n## Dup\n\n## Dup-1\n\n## Dup\n',
        '[a](docs/a.md#setup) [b](#quick-start) [g](docs/a.md#set-up-x) [h](#dup-2) [i](#Quick-Start)'
      ].join('\n'),
      'docs/a.md': [
        '# A\n\n## Set-up `x`\n',
        '[c](../README.md#nowhere) ![d](images/d.png) [e](../../x.md)',
        "[f](<gone file.md>) [g](gone2.md 'title') [a [b] c](gone3.md)",
        '<a href="gone4.md">x</a> <img src="gone5.png">\n\n[ref]: gone6.md',
        '```md\n[f](gone.md)\n```\n`[s](gone7.md)`'
      ].join('\n')
    }
    const read = (file: string): string | undefined => docs[file]
    expect(brokenLinks('README.md', read)).toEqual([
      'README.md: docs/a.md#setup (no such heading)',
      'README.md: #Quick-Start (no such heading)'
    ])
    expect(brokenLinks('docs/a.md', read)).toEqual([
      'docs/a.md: ../README.md#nowhere (no such heading)',
      'docs/a.md: images/d.png (no such file)',
      'docs/a.md: ../../x.md (outside the repository)',
      'docs/a.md: gone file.md (no such file)',
      'docs/a.md: gone2.md (no such file)',
      'docs/a.md: gone3.md (no such file)',
      'docs/a.md: gone6.md (no such file)',
      'docs/a.md: gone4.md (no such file)',
      'docs/a.md: gone5.png (no such file)'
    ])
  })
})
