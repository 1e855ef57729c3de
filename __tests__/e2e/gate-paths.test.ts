import { describe, expect, it } from 'vitest'
import { runScenario } from '../../test-support/scenario.js'

describe("a check's paths with quotes, and paths git quoted, through dist/", () => {
  it('places a git-quoted path of the tree, and shows every path it cannot place without a location', async () => {
    const lint = [
      `src/quote"and'.js:2:1: error: double quote in the name`,
      "src/it's.js:1:1: error: single quote in the name",
      '"src/\\303\\251t\\303\\251.js":2:1: error: git quoted, in the tree',
      '"src/\\303\\251x.js":1:1: error: git quoted, not in the tree',
      '"src/a\\"b.js":3: error: a quote git quoted'
    ].join('\n')
    const report = await runScenario({
      base: { 'package.json': '{ "name": "sample" }\n', 'lint.txt': `${lint}\n` },
      pr: {
        title: 'Quoted paths',
        commits: [
          {
            message: 'odd names',
            files: {
              [`src/quote"and'.js`]: 'export const a = 1\nexport const b = 2\n',
              "src/it's.js": 'export const c = 3\n',
              'src/\u00e9t\u00e9.js': 'export const d = 4\nexport const e = 5\n'
            }
          }
        ]
      },
      inputs: { checks: 'lint: cat lint.txt; exit 1', 'max-iterations': '1' },
      maxRuns: 1
    })
    const check = report.checkRuns[0]!
    // the one it can place is an annotation on its line
    expect(check.annotations.map(a => [a.path, a.start_line])).toEqual([
      ['src/\u00e9t\u00e9.js', 2]
    ])
    expect(check.annotations[0]!.title).toContain('git quoted, in the tree')
    // the others are findings without a location, in the comment and the check run's text, each
    // naming its path (read back through whatever escaping Markdown needs)
    const plain = (markdown: string) =>
      markdown
        .replace(/&quot;|&#34;/g, '"')
        .replace(/&#39;|&apos;/g, "'")
        .replace(/\\(["'])/g, '$1')
    const body = plain(report.comments[0]!.body)
    const text = plain(`${check.summary}\n${check.text}`)
    for (const [what, where] of [
      ['double quote in the name', `src/quote"and'.js`],
      ['single quote in the name', "src/it's.js"],
      ['git quoted, not in the tree', 'src/\u00e9x.js'],
      ['a quote git quoted', 'src/a"b.js']
    ] as const) {
      const line = body.split('\n').find(l => l.startsWith('- ') && l.includes(what))
      expect(line).toContain(`(in ${where},`)
      expect(line).toContain('no location')
      expect(text).toContain(`${what} (in ${where},`)
    }
  })
})
