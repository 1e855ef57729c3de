import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copySample, loadFixture, replay } from '../../test-support/gate-parity.js'
import { GATE_TOOLS } from '../../test-support/gate-tools.js'

/**
 * What the findings of linters' default and JSON formats say, and one finding for a problem a tool
 * prints on two channels — read from output captured from the tools (__tests__/fixtures/gates; the
 * parity test checks their places and severities, this one what a reader sees).
 */
let root: string
beforeAll(() => {
  root = copySample()
})
afterAll(() => rmSync(root, { recursive: true, force: true }))

function findings(id: string) {
  const tool = GATE_TOOLS.find(t => t.id === id)!
  return replay(tool, loadFixture(id), root)
}
const titles = (id: string) => findings(id).map(f => f.title)

describe("linters' findings read as the tool means them", () => {
  it("titles a Biome problem with its rule and message, without the report's decoration", () => {
    for (const id of ['biome', 'biome-tty', 'biome-ci-github'])
      expect(titles(id)).toEqual([
        'lint/correctness/noUnusedVariables: This variable unused is unused.',
        'lint/suspicious/noDebugger: This is an unexpected use of the debugger statement.'
      ])
  })

  it("keeps oxlint's rule whole in every format, and its located message without the location", () => {
    for (const id of ['oxlint', 'oxlint-tty', 'oxlint-json', 'oxlint-github'])
      expect(titles(id)).toEqual([
        "eslint(no-unused-vars): Variable 'unused' is declared but never used. Unused variables should start with a '_'.",
        'eslint(no-debugger): `debugger` statement is not allowed'
      ])
  })

  it("names RuboCop's cop once, in its default and JSON formats", () => {
    expect(titles('rubocop')).toEqual([
      'Style/FrozenStringLiteralComment: Missing frozen string literal comment.',
      'Lint/UselessAssignment: Useless assignment to variable - unused.',
      'Lint/Debugger: Remove debugger entry point binding.irb.'
    ])
    expect(titles('rubocop-json')[2]).toBe(
      'Lint/Debugger: Remove debugger entry point `binding.irb`.'
    )
  })

  it('finds the line and columns of a Biome 1 report, which gives byte offsets', () => {
    const [f] = findings('biome-1-json')
    expect([f?.file, f?.line, f?.column, f?.endColumn]).toEqual(['biome/app.js', 4, 3, 11])
  })

  it("gives a passing check's warning as a located, non-blocking finding", () => {
    expect(findings('oxlint-passing').map(f => [f.file, f.line, f.severity, f.title])).toEqual([
      [
        'oxlint/app.js',
        2,
        'low',
        "eslint(no-unused-vars): Variable 'unused' is declared but never used. Unused variables should start with a '_'."
      ]
    ])
  })
})

describe('a problem printed on two channels', () => {
  it("is one finding, titled with the test's name, where Vitest's workflow command puts it", () => {
    expect(findings('vitest-on-runner').map(f => [f.title, f.line, f.column])).toEqual([
      ['adds two numbers', 6, 21]
    ])
  })

  it('keeps two failing tests apart though both fail on one line', () => {
    const two = findings('vitest-on-runner-shared')
    expect(two.map(f => [f.title, f.line, f.column])).toEqual([
      ['sums two numbers', 5, 44],
      ['sums three numbers', 5, 44]
    ])
    expect(new Set(two.map(f => f.id)).size).toBe(2)
  })

  it("is one Biome finding with the command's end column", () => {
    expect(findings('biome-ci-github').map(f => [f.line, f.column, f.endColumn])).toEqual([
      [2, 9, 15],
      [4, 3, 11]
    ])
  })
})
