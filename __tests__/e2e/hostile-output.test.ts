import { describe, expect, it } from 'vitest'
import { runScenario, type ScenarioReport } from '../../test-support/scenario.js'

/** Control bytes but tab and line feed (a carriage return is one too). */
// eslint-disable-next-line no-control-regex -- the bytes the test looks for
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/

/** What GitHub renders of a Markdown text: not the state's HTML comment, not code blocks. */
function rendered(markdown: string): string {
  return markdown.replace(/<!-- review-loop:state [^]*? -->/, '').replace(/^ *```[^]*?^ *```/gm, '')
}

function expectNothingHostile(markdown: string | undefined): void {
  const text = markdown ?? ''
  expect(text).not.toMatch(CONTROL)
  const shown = rendered(text)
  expect(shown).not.toMatch(/(?<!\\)<(img|script)/)
  expect(shown).not.toMatch(/@octocat/)
  const closes = shown.match(/(?<!\\)<\/details>/g) ?? []
  expect(closes.length).toBe((shown.match(/<details>/g) ?? []).length)
}

function findingsOf(report: ScenarioReport) {
  const state = report.finalState as {
    iterations: Array<{ findings: Array<{ id: string; title: string; file?: string }> }>
  }
  return state.iterations.at(-1)!.findings
}

describe('hostile and odd output from checks and the model, through dist/', () => {
  it('lets no control byte, HTML or mention of a check or the model reach the comment, check run or annotations', async () => {
    const hostile =
      "printf 'src/a.js:1:1: error: nul\\000byte esc\\033[31mred\\033[0m osc \\033]8;;https://evil.example/\\033\\\\link\\033]8;;\\033\\\\ cr\\rover <img src=https://evil.example/p.png> </details> @octocat\\n::add-mask::x\\n'; printf '\\000%.0s' $(seq 1 3000); exit 1"
    const report = await runScenario({
      base: { 'package.json': '{ "name": "sample" }\n', 'src/a.js': 'export const a = 1\n' },
      pr: {
        title: 'Hostile output',
        commits: [
          { message: 'change', files: { 'src/a.js': 'export const a = 2\nexport const b = 3\n' } }
        ]
      },
      inputs: {
        checks: `hostile: ${hostile}`,
        'review-model': 'claude-haiku-4-5',
        'max-iterations': '1'
      },
      maxRuns: 1,
      model: {
        replies: [
          {
            kind: 'json',
            value: {
              decision: 'NO_GO',
              summary:
                'Summary <img src=https://evil.example/s.png> </details> @octocat \u0000 \u001b[31m',
              findings: [
                {
                  severity: 'high',
                  category: 'logic',
                  file: 'src/a.js',
                  line: 2,
                  evidence: 'export const b = 3',
                  title:
                    'Model title <img src=https://evil.example/t.png> \u0007\u001b]8;;x\u001b\\',
                  description:
                    'Model text </details> <img src=https://evil.example/m.png> @octocat\r\n::set-output name=x::y \u0000',
                  suggestedFix: '<script>alert(1)</script>'
                }
              ],
              failedCriteria: ['<img src=https://evil.example/c.png>'],
              passedCriteria: [],
              requiredRework: ['</details>'],
              earlierFindings: []
            }
          }
        ]
      }
    })
    expect(report.comments).toHaveLength(1)
    expectNothingHostile(report.comments[0]!.body)
    const [check] = report.checkRuns
    expectNothingHostile(check!.summary)
    expectNothingHostile(check!.text)
    expect(check!.annotations.length).toBeGreaterThan(0)
    for (const a of check!.annotations) expect(JSON.stringify(a)).not.toMatch(/\\u00[01][0-9a-f]/)
    expectNothingHostile(report.runs[0]!.summary)
    expect(JSON.stringify(report.finalState)).not.toMatch(/\\u00[01][0-9a-f]|\\r/)
  })

  it('lists findings on deleted files and odd paths, and keeps tests apart that differ in case', async () => {
    const lint = [
      'src/old.js:1:1: error: on the deleted file',
      'src/my file.js:1:1: error: on a space',
      'src/tab\\tfile.js:1:1: error: on a tab',
      'src/bad\\377name.js:1:1: error: on an invalid byte'
    ].join('\\n')
    const report = await runScenario({
      base: {
        'package.json': '{ "name": "sample", "type": "module" }\n',
        'src/old.js': 'export const old = 1\n'
      },
      pr: {
        title: 'Odd paths',
        commits: [
          {
            message: 'odd paths',
            files: {
              'src/old.js': null,
              'src/my file.js': 'export const space = 1\n',
              'src/tab\tfile.js': 'export const tab = 1\n',
              'test/case.test.js': [
                "import test from 'node:test'",
                "import assert from 'node:assert/strict'",
                'const check = v => assert.equal(v, 0)',
                "test('parses Input', () => check(1))",
                "test('parses input', () => check(2))",
                ''
              ].join('\n')
            }
          }
        ]
      },
      inputs: {
        checks: `lint: printf '${lint}\\n'; exit 1\ntests: node --test --test-reporter=spec test/case.test.js`
      },
      maxRuns: 1
    })
    const findings = findingsOf(report)
    expect(new Set(findings.map(f => f.id)).size).toBe(findings.length)
    expect(findings.map(f => f.title)).toEqual(
      expect.arrayContaining(['parses Input', 'parses input'])
    )
    const body = report.comments[0]!.body
    const text = `${report.checkRuns[0]!.summary}\n${report.checkRuns[0]!.text}`
    for (const what of ['src/old.js', 'on a space', 'on a tab', 'on an invalid byte']) {
      expect(body).toContain(what)
      expect(text).toContain(what)
    }
    expect(report.checkRuns[0]!.annotations.map(a => a.path)).toEqual(
      expect.arrayContaining(['src/my file.js', 'src/tab\tfile.js'])
    )
  })
})
