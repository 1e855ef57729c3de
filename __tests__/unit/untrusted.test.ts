import { afterEach, describe, expect, it, vi } from 'vitest'
import { createActionsLog } from '../../src/action/log.js'
import { mergeFindings } from '../../src/loop/findings.js'
import { decodeState, renderStateMarker } from '../../src/loop/state-comment.js'
import { logText, plainText } from '../../src/loop/untrusted.js'
import { checkRunSummary, toAnnotations, unlocatedText } from '../../src/report/check-run.js'
import { renderComment } from '../../src/report/comment.js'
import { escapeMd, untrustedMarkdown } from '../../src/report/format.js'
import { renderJobSummary } from '../../src/report/summary.js'
import { finding, iteration, state } from './builders.js'

const links = { serverUrl: 'https://github.com', owner: 'acme', repo: 'widgets', pr: 7 }

/** What a hostile check or model prints: control bytes, terminal sequences, HTML, a mention. */
const HOSTILE =
  'nul\u0000byte \u001b[31mred\u001b[0m \u001b]8;;https://evil.example/\u001b\\link\u001b]8;;\u001b\\ cr\rover ' +
  '<img src=https://evil.example/p.png> </details> ![pixel](https://evil.example/q.png) @octocat'

// eslint-disable-next-line no-control-regex -- the bytes the test looks for
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/
/** HTML a renderer would act on: `<` neither escaped (`\<`, `&lt;`) nor inside code. */
const RAW_IMG = /(?<!\\)<img/
const RAW_CLOSE = /(?<!\\)<\/details>/g

/** The text outside fenced code blocks (code is shown as it is, never rendered). */
function outsideCode(markdown: string): string {
  return markdown.replace(/^ *```[^]*?^ *```/gm, '')
}

/** Checks a Markdown sink: no control byte, no HTML or image of the hostile text, no live mention. */
function expectSafeMarkdown(markdown: string): void {
  expect(markdown).not.toMatch(CONTROL)
  // the state comment's machine part is an HTML comment: nothing in it is rendered
  const text = outsideCode(markdown.replace(/<!-- review-loop:state [^]*? -->/, ''))
  expect(text).not.toMatch(RAW_IMG)
  expect(text).not.toContain('![pixel]')
  expect(text).not.toMatch(/@octocat/)
  // every </details> closes one of the renderer's own blocks
  expect((text.match(RAW_CLOSE) ?? []).length).toBe((text.match(/<details>/g) ?? []).length)
}

const hostileFinding = finding({
  title: `Title ${HOSTILE}`,
  description: `Description ${HOSTILE}\n\n\`\`\`\ncode <img src=x> stays\n`,
  suggestedFix: `<script>alert(1)</script> ${HOSTILE}`
})
const unlocated = { ...hostileFinding, id: 'RL-0000000002', file: undefined, line: undefined }
const hostileState = state({
  status: 'stalled',
  reason: `Stopped: ${HOSTILE}`,
  iterations: [
    iteration({
      summary: `Summary ${HOSTILE}`,
      failedCriteria: [HOSTILE],
      findings: [
        {
          id: hostileFinding.id,
          severity: 'high',
          title: hostileFinding.title,
          status: 'open',
          since: 1
        }
      ]
    })
  ]
})

describe('plainText: untrusted text with nothing in it that is not text', () => {
  it('removes control bytes and terminal sequences, keeps tabs and line ends, makes CR a line end', () => {
    expect(plainText('a\u0000b\u0007c\u001b[1;31md\u001b[0m\te\r\nf\rg\u009bh')).toBe(
      'abcd\te\nf\ngh'
    )
    expect(
      plainText('\u001b]8;;https://x\u001b\\link\u001b]8;;\u001b\\ and \u001b]0;title\u0007')
    ).toBe('link and ')
  })

  it('keeps ordinary text as it is', () => {
    const text = 'const x = "a" // ünïcödé ✓\n\tnext line'
    expect(plainText(text)).toBe(text)
  })
})

describe('every sink to GitHub gets untrusted text sanitised', () => {
  it('the sticky comment', () => {
    const body = renderComment(hostileState, [hostileFinding, unlocated], links)
    expectSafeMarkdown(body)
    // the code block of the description is kept as code, closed before the details end
    expect(body).toContain('code <img src=x> stays')
  })

  it('the check run: summary, text and annotations', () => {
    expectSafeMarkdown(checkRunSummary(hostileState, [hostileFinding], links, 'a note'))
    expectSafeMarkdown(unlocatedText([unlocated])!)
    const [annotation] = toAnnotations([hostileFinding])
    // annotations are plain text on GitHub (HTML in them is shown, not rendered): no control byte
    for (const text of [annotation!.title, annotation!.message, annotation!.details])
      expect(text).not.toMatch(CONTROL)
    expect(annotation!.message).toContain('<img src=https://evil.example/p.png>')
  })

  it('the job summary', () => {
    const summary = renderJobSummary({
      state: hostileState,
      findings: [hostileFinding, unlocated],
      gates: [],
      links,
      reviewSummary: `Summary ${HOSTILE}`,
      notes: [HOSTILE]
    } as Parameters<typeof renderJobSummary>[0])
    expectSafeMarkdown(summary)
  })

  it('replies and one-line texts (escapeMd, untrustedMarkdown)', () => {
    expectSafeMarkdown(escapeMd(HOSTILE))
    expectSafeMarkdown(untrustedMarkdown(`An answer: ${HOSTILE}\n\n<details>\n`))
    // code blocks stay as written; in a code span `<` gets a zero-width space, which no one sees
    expect(untrustedMarkdown('use `a<b` here\n```\n<b>\n```')).toBe(
      'use `a<\u200bb` here\n```\n<b>\n```'
    )
    // a block left open is closed: what follows cannot be taken into it
    expect(untrustedMarkdown('~~~\n</details>')).toBe('~~~\n</details>\n~~~')
  })

  it('the stored state and the findings it records', () => {
    const [merged] = mergeFindings([hostileFinding])
    for (const text of [merged!.title, merged!.description, merged!.suggestedFix])
      expect(text).not.toMatch(CONTROL)
    const decoded = decodeState(renderStateMarker(hostileState))
    expect(decoded.kind).toBe('ok')
    const json = JSON.stringify(decoded.kind === 'ok' ? decoded.state : undefined)
    expect(json).not.toMatch(/\\u00(0|1)[0-9a-f]|\\[btfr]/)
    expect(json).toContain('Title nulbyte red link cr\\nover')
  })

  describe('the run log', () => {
    const written: string[] = []
    afterEach(() => {
      vi.restoreAllMocks()
      written.length = 0
    })

    it('never starts a workflow command from text it logs', async () => {
      vi.spyOn(process.stdout, 'write').mockImplementation(chunk => {
        written.push(String(chunk))
        return true
      })
      const log = createActionsLog()
      log.info('fixed\n::add-mask::secret\n  ::set-output name=x::y\u0000')
      await log.group('::stop-commands::abc', async () => undefined)
      const lines = written.join('').split('\n')
      expect(lines.filter(l => /^\s*::(add-mask|set-output|stop-commands)/.test(l))).toEqual([])
      expect(written.join('')).not.toMatch(CONTROL)
      expect(logText('::error::x')).toBe(':\u200b:error::x')
      // the older form is read anywhere in a line
      expect(logText('error in x ##[set-output name=status;]go')).toBe(
        'error in x ##\u200b[set-output name=status;]go'
      )
    })
  })
})
