import { describe, expect, it } from 'vitest'
import { BIDI_CHAR, liveReferences } from '../../test-support/github-text.js'
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

  it('leaves no live reference and no direction control in any field GitHub receives, no image, and evidence code as written', async () => {
    // references, an escaped one, a SHA, direction controls (U+202E, U+2066..2069) and a zero-width
    // space, as a check prints them (printf's octal escapes spell their UTF-8)
    const refs =
      'see #123 GH-9 owner/repo#4 owner/repo@0123abc 0123456789abcdef0123456789abcdef01234567 \\\\#12'
    const hidden =
      '\\342\\200\\256rtl \\342\\201\\246a\\342\\201\\247b\\342\\201\\250c\\342\\201\\251 zero\\342\\200\\213width'
    const code = 'export const le = (a, b) => a <= b && `${a}` !== "```"'
    const hiddenText = '\u202Ertl \u2066a\u2067b\u2068c\u2069 zero\u200Bwidth'
    const modelRefs =
      'see #123, GH-9, owner/repo#4, owner/repo@0123abc, 0123456789abcdef0123456789abcdef01234567, \\#12'
    const report = await runScenario({
      base: { 'package.json': '{ "name": "sample" }\n', 'src/a.js': 'export const a = 1\n' },
      pr: {
        title: 'References',
        commits: [{ message: 'change', files: { 'src/a.js': `export const a = 2\n${code}\n` } }]
      },
      inputs: {
        checks: `refs: printf 'src/a.js:1:1: error: ${refs} ${hidden}\\n'; exit 1`,
        'review-model': 'claude-haiku-4-5',
        'max-iterations': '1'
      },
      maxRuns: 4,
      humanEvents: [
        {
          afterRun: 1,
          comment: { author: 'maintainer', permission: 'write', body: `/review-loop \u202Eevil#12` }
        },
        {
          afterRun: 2,
          comment: { author: 'maintainer', permission: 'write', body: '/review-loop status' }
        },
        {
          afterRun: 3,
          comment: {
            author: 'maintainer',
            permission: 'write',
            body: `/review-loop approve ${modelRefs} ${hiddenText} <img src=https://evil.example/a.png>`
          }
        }
      ],
      model: {
        replies: [
          {
            kind: 'json',
            value: {
              decision: 'NO_GO',
              summary: `Summary ${modelRefs} ${hiddenText} ![s](https://evil.example/s.png)`,
              findings: [
                {
                  severity: 'high',
                  category: 'logic',
                  file: 'src/a.js',
                  line: 2,
                  evidence: code,
                  title: `Title ${modelRefs} ${hiddenText}`,
                  description: `Text ${modelRefs} ${hiddenText}\n\n![pixel](https://evil.example/p.png) ![ref][r]\n\n[r]: https://evil.example/r.png\n\n<img src=https://evil.example/i.png>`,
                  suggestedFix: `Fix ${modelRefs} ${hiddenText}`
                },
                {
                  severity: 'high',
                  category: 'logic',
                  evidence: code,
                  title: `Unlocated ${modelRefs} ${hiddenText}`,
                  description: `Unlocated ${modelRefs} ${hiddenText} ![u](https://evil.example/u.png)`
                }
              ],
              failedCriteria: [modelRefs],
              passedCriteria: [],
              requiredRework: [modelRefs],
              earlierFindings: []
            }
          }
        ]
      }
    })
    const bot = report.comments.filter(c => c.author !== 'maintainer')
    // the state comment, the reply to the command it does not know and the status
    expect(bot.length).toBeGreaterThanOrEqual(3)
    const markdown = [
      ...bot.map(c => c.body.replace(/<!-- review-loop:state [^]*? -->/, '')),
      ...report.checkRuns.flatMap(c => [c.summary ?? '', c.text ?? '']),
      ...report.reviews.map(r => r.body),
      ...report.reviewComments.filter(c => c.author !== 'maintainer').map(c => c.body),
      ...report.runs.map(r => r.summary)
    ]
    const plain = [
      ...report.checkRuns.map(c => c.title ?? ''),
      ...report.checkRuns.flatMap(c =>
        c.annotations.flatMap(a => [a.title ?? '', a.message ?? '', a.raw_details ?? ''])
      ),
      ...report.statuses.map(s => s.description ?? '')
    ]
    expect(report.checkRuns.some(c => c.annotations.length > 0)).toBe(true)
    const state = JSON.stringify(report.finalState)
    const trusted = [
      ...new Set([...state.matchAll(/"[0-9a-f]{40}"/g)].map(m => m[0].slice(1, -1))),
      ...report.pushes.map(p => p.sha),
      ...report.checkRuns.map(c => c.headSha),
      '@maintainer'
    ]
    for (const text of markdown) {
      expect(liveReferences(text, { trusted }), text).toEqual([])
      expect(text).not.toMatch(BIDI_CHAR)
      // the images are text: no image syntax, no HTML image outside code
      expect(text).not.toMatch(/!\[(?:pixel|ref|s|u)\]/)
      expect(text).not.toMatch(/(?<!\\)<img/)
    }
    for (const text of plain) {
      expect(liveReferences(text, { plain: true, trusted }), text).toEqual([])
      expect(text).not.toMatch(BIDI_CHAR)
    }
    // what came hidden is shown, and the words are there to read
    const comment = bot[0]!.body
    expect(comment).toContain('⟦hidden: U+200B⟧')
    expect(comment.replaceAll('\u200b', '')).toContain('owner/repo#4')
    // the evidence, in a fence, byte for byte: `<=` and the backticks as in the file (the check
    // run of the review shows it; the comment, updated after the approval, no longer lists it)
    const summaries = report.checkRuns.map(c => c.summary ?? '').join('\n')
    const quoted = code.replace(/[$()*+.?[\\\]^{|}]/g, '\\$&')
    expect(summaries).toMatch(new RegExp(`^ *\`{4,}\\n *${quoted}\\n *\`{4,}$`, 'm'))
  })
})
