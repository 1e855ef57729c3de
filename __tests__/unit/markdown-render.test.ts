import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { pathToFileURL } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { checkRunSummary, unlocatedText } from '../../src/report/check-run.js'
import { renderComment } from '../../src/report/comment.js'
import { readGateOutput } from '../../src/gates/run-gates.js'
import { plainField } from '../../src/loop/untrusted.js'
import {
  codeBlock,
  codeSpan,
  escapeMd,
  htmlText,
  safeBlock,
  untrustedMarkdown
} from '../../src/report/format.js'
import { BIDI_CHAR, liveReferences } from '../../test-support/github-text.js'
import { finding, iteration, state } from './builders.js'

/**
 * Untrusted Markdown through two real CommonMark renderers with raw HTML on (as GitHub keeps the
 * HTML it allows): markdown-it and micromark, both pinned dependencies of markdownlint-cli2 (a
 * devDependency), loaded from there.
 */
type Render = (markdown: string) => string
const fromCli2 = createRequire(createRequire(import.meta.url).resolve('markdownlint-cli2'))
const renderers: Record<string, Render> = {}

beforeAll(async () => {
  const MarkdownIt = fromCli2('markdown-it') as new (
    preset: string,
    options: { html: boolean }
  ) => { render: Render }
  const markdownIt = new MarkdownIt('commonmark', { html: true })
  renderers['markdown-it'] = markdown => markdownIt.render(markdown)
  const micromarkPath = createRequire(fromCli2.resolve('markdownlint')).resolve('micromark')
  const { micromark } = (await import(pathToFileURL(micromarkPath).href)) as {
    micromark: (markdown: string, options: { allowDangerousHtml: boolean }) => string
  }
  renderers.micromark = markdown => micromark(markdown, { allowDangerousHtml: true })
})

/** The elements plain Markdown makes; anything else came from raw HTML. */
const MARKDOWN_ELEMENTS = new Set(
  'p code pre em strong a ul ol li blockquote h1 h2 h3 h4 h5 h6 hr br'.split(' ')
)

/** What a text that wants out of its block tries, one per line of attack. */
const HOSTILE = [
  // an escaped backtick opens no code span
  'see \\`</details><img src="https://evil.example/p.png">\\` here',
  // a code span may run over a line end
  'a `x\ny` <img src=x> `z`',
  // a fence in a list item ends with the item
  '- item\n  ```\nx\n<img src="https://evil.example/p.png">',
  '> ```\n> in quote\n<img src=x>',
  '- a\n    ```\n<img src=x>',
  '</details>',
  '<img src=x onerror=alert(1)>',
  '<!-- hidden\n\n</details>',
  '<script>alert(1)</script>',
  '<pre>\n\n</details>\n\n</pre>',
  '<div>\nblock\n</div>',
  '<https://evil.example/> <mailto:a@b.c> <a@b.c>',
  '&lt;img src=x&gt; &#60;img src=x&#62; &amp;lt;',
  '![pixel](https://evil.example/q.png) ![ref][r]\n\n[r]: https://evil.example/r.png',
  '!\\[not](x) \\![still not](y) !![two](z)',
  '````\n```\n<img src=x>\n````\n<img src=y>',
  '~~~\n```\n</details>\n~~~~\n<img src=z>',
  '```js `tick`\n<img src=x>\n```',
  '   ```\n<img src=x>\n```',
  '```\n<img src=x>\n```\u00a0\n</details>',
  '```\nleft open <img src=x>',
  '\\\\\\<img src=x> \\\\<b>bold</b> \\<i>',
  '\t```\n<img src=x>\n\t```',
  '```\t\n<img src=x>\n```\t',
  '    indented <img src=x>\n\n<img src=y>',
  'x\n===\n<h1>raw</h1>',
  '<?php echo 1 ?> <!DOCTYPE html> <![CDATA[ x ]]>',
  '[link](javascript:alert(1)) [l2](<https://x> "t")',
  '<details><summary>fake</summary>\n\ninside\n\n</details>',
  '@octocat and @org/team',
  '- a\n\t```\n<img src=x>',
  '1. one\n   ~~~\n   <img src=x>',
  // a tab after the two spaces that indent a list item reaches only the fourth column
  '```\n\t```\n<img src=x>',
  ' \t```\n<img src=x>\n\n</details>',
  '```\n  \t```\n<img src=x>',
  // an info string is an attribute's text
  '```"><img src=x>\ncode\n```',
  '~~~ `<script>`\n~~~'
]

/** The tags of the rendered HTML that plain Markdown does not make. */
function strangeTags(html: string): string[] {
  return [...html.matchAll(/<\/?([a-zA-Z][\w-]*)|<!--|<\?|<!/g)]
    .map(m => m[1]?.toLowerCase() ?? m[0])
    .filter(tag => !MARKDOWN_ELEMENTS.has(tag))
}

/**
 * Each sink, fed every hostile text, holds only the HTML it makes of a plain text, through every
 * renderer, and closes every details block where it does with plain text; `more` checks each HTML.
 */
function expectOwnHtmlOnly(
  sinks: (text: string) => string[],
  more?: (html: string, label: string) => void
): void {
  /** The HTML a sink makes of its own, whatever the text: what it makes of a plain one. */
  const own = (html: string): string[] => strangeTags(html).sort()
  const plain = sinks('plain words')
  for (const text of HOSTILE)
    for (const [name, render] of Object.entries(renderers))
      sinks(text).forEach((markdown, i) => {
        const html = render(markdown)
        expect(own(html), `${name}: ${text}`).toEqual(own(render(plain[i]!)))
        // every details block closes where the sink closes it, not earlier, not never
        expect(html.match(/<\/?details>/g)?.join(''), `${name}: ${text}`).toBe(
          render(plain[i]!)
            .match(/<\/?details>/g)
            ?.join('')
        )
        more?.(html, `${name}: ${text}`)
      })
}

describe('untrusted Markdown through a CommonMark renderer', () => {
  it.each(HOSTILE.map((text, i) => [i, text]))(
    'hostile text %i makes no HTML of its own and stays inside its details block',
    (_i, text) => {
      for (const [name, render] of Object.entries(renderers)) {
        // as the sticky comment and the fixer's summary embed it
        const wrapped = `<details><summary>Details</summary>\n\n${safeBlock(text, 4000)}\n\n</details>\n\nAFTER`
        const html = render(wrapped)
        expect(
          strangeTags(html).filter(t => t !== 'details' && t !== 'summary'),
          name
        ).toEqual([])
        expect(html.match(/<\/?details>/g), name).toEqual(['<details>', '</details>'])
        expect(html.trimEnd(), name).toMatch(/<\/details>\n<p>AFTER<\/p>$/)
        // as the check run and a thread reply embed it
        const reply = render(`${untrustedMarkdown(text)}\n\n<sub>Answered by a model</sub>`)
        expect(
          strangeTags(reply).filter(t => t !== 'sub'),
          name
        ).toEqual([])
        expect(reply.trimEnd(), name).toMatch(/<p><sub>Answered by a model<\/sub><\/p>$/)
      }
    }
  )

  it('in a list item, as the sticky comment indents a finding', () => {
    for (const text of HOSTILE)
      for (const [name, render] of Object.entries(renderers)) {
        const block = `<details><summary>Details</summary>\n\n${safeBlock(text, 4000)}\n\n</details>`
        const html = render(`- **a finding**\n${block.replace(/^(?=.)/gm, '  ')}\n\nAFTER`)
        expect(
          strangeTags(html).filter(t => t !== 'details' && t !== 'summary'),
          name
        ).toEqual([])
        expect(html.match(/<\/?details>/g), name).toEqual(['<details>', '</details>'])
        expect(html.trimEnd(), name).toMatch(/<\/ul>\n<p>AFTER<\/p>$/)
      }
  })

  it('shows code as written and text as the author wrote it', () => {
    for (const [name, render] of Object.entries(renderers)) {
      const html = render(untrustedMarkdown('use `a<b` here\n\n```ts\nif (a < b) x()\n```'))
      // a zero-width space after `<` is all that differs, and no one sees it
      expect(html.replaceAll('\u200b', '').trimEnd(), name).toBe(
        '<p>use <code>a&lt;b</code> here</p>\n<pre><code class="language-ts">if (a &lt; b) x()\n</code></pre>'
      )
      expect(
        render(untrustedMarkdown('a <b> and ![x](y)')).replaceAll('\u200b', '').trimEnd(),
        name
      ).toBe('<p>a &lt;b&gt; and ![x](y)</p>')
    }
  })

  it('the sticky comment and the check run, as they are rendered, hold only their own HTML', () => {
    const links = { serverUrl: 'https://github.com', owner: 'acme', repo: 'widgets', pr: 7 }
    const sinks = (text: string): string[] => {
      const f = finding({ description: text, suggestedFix: text })
      const s = state({
        status: 'stalled',
        iterations: [
          iteration({
            findings: [
              { id: f.id, severity: f.severity, title: f.title, status: 'open', since: 1 }
            ],
            fix: {
              outcome: 'no_changes',
              filesChanged: [],
              commands: [],
              disputes: [],
              revertedProtected: [],
              durationMs: 1,
              summary: text
            }
          })
        ]
      })
      return [
        renderComment(s, [f], links),
        unlocatedText([{ ...f, file: undefined, line: undefined }])!
      ]
    }
    expectOwnHtmlOnly(sinks)
  })

  it('evidence, verdicts and findings not acted on, hostile, hold only the HTML their sinks make', () => {
    const links = { serverUrl: 'https://github.com', owner: 'acme', repo: 'widgets', pr: 7 }
    const sinks = (text: string): string[] => {
      const verification = (status: 'confirmed' | 'refuted' | 'uncertain') => ({
        status,
        by: 'verifier' as const,
        why: text,
        cited: [{ file: text, line: 3 }],
        blocks: status === 'confirmed'
      })
      const f = finding({ evidence: text, verification: verification('confirmed') })
      const setAside = (['refuted', 'uncertain'] as const).map(status =>
        finding({
          id: `RL-${status}`,
          title: text,
          description: text,
          evidence: text,
          verification: verification(status)
        })
      )
      const s = state({
        iterations: [
          iteration({
            findings: [{ id: f.id, severity: f.severity, title: f.title, status: 'open', since: 1 }]
          })
        ]
      })
      return [
        renderComment(s, [f], links, { setAside }),
        checkRunSummary(s, [f], links, undefined, undefined, setAside)
      ]
    }
    expectOwnHtmlOnly(sinks, (html, label) =>
      // what follows the findings is still text of its own: nothing above swallowed it
      expect(html, label).toMatch(/<h3>Not acted on \(2\)<\/h3>/)
    )
  })
})

/** What a renderer shows as text: tags out, the entities it writes decoded. */
function shownText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
}

/** The text of every code block a renderer made, decoded. */
function codeBlocks(html: string): string[] {
  return [...html.matchAll(/<pre><code[^>]*>([^]*?)<\/code><\/pre>/g)].map(m => shownText(m[1]!))
}

/** References, mentions and SHAs GitHub would link, in every form the issue measured. */
const REFERENCES =
  'see #123, GH-9, gh-10, acme/other#4, acme/other@0123abc, ' +
  '0123456789abcdef0123456789abcdef01234567, \\#12, @octocat, &#35;77 and &commat;hubot, ' +
  'https://github.com/acme/other/issues/5 and https://github.com/acme/other/pull/6'

describe('references, hidden characters, images and code, as GitHub would show them', () => {
  it('leaves no reference, mention or SHA live in any sink, and the reader sees the words', () => {
    for (const [name, render] of Object.entries(renderers))
      for (const markdown of [
        escapeMd(REFERENCES),
        untrustedMarkdown(REFERENCES),
        `<details><summary>${htmlText(REFERENCES)}</summary>\n\nx\n\n</details>`
      ]) {
        const text = shownText(render(markdown))
        expect(liveReferences(text, { plain: true }), `${name}: ${markdown}`).toEqual([])
        expect(text.replaceAll('\u200b', ''), name).toContain('#123, GH-9, gh-10, acme/other#4')
        expect(text.replaceAll('\u200b', ''), name).toContain(
          'acme/other@0123abc, 0123456789abcdef0123456789abcdef01234567'
        )
        expect(text.replaceAll('\u200b', ''), name).toContain(
          'https://github.com/acme/other/issues/5 and https://github.com/acme/other/pull/6'
        )
      }
    // annotations are plain text: the same words, nothing live in them either
    expect(liveReferences(plainField(REFERENCES), { plain: true })).toEqual([])
  })

  it('strips direction controls from prose, marks them in code, and marks zero-width characters', () => {
    const text = 'a\u202Eb\u2066c\u2069 zero\u200Bwidth join\u2060er bom\uFEFF ⚠️ 👩‍💻 &#x202E;x'
    for (const [name, render] of Object.entries(renderers)) {
      const shown = shownText(
        render(untrustedMarkdown(`${text}\n\n\`\`\`\nif (x\u202E) y\n\`\`\``))
      )
      expect(shown, name).not.toMatch(BIDI_CHAR)
      expect(shown, name).toContain('abc zero⟦hidden: U+200B⟧width join⟦hidden: U+2060⟧er')
      // an emoji's parts are seen; a character reference is shown as written, decoding nothing
      expect(shown.replaceAll('\u200b', ''), name).toContain('bom⟦hidden: U+FEFF⟧ ⚠️ 👩‍💻 &#x202E;x')
      expect(codeBlocks(render(codeBlock('if (x\u202E) y'))), name).toEqual([
        'if (x⟦hidden: U+202E⟧) y\n'
      ])
      expect(shown, name).toContain('if (x⟦hidden: U+202E⟧) y')
    }
    expect(escapeMd('a\u202Eb\u200Bc')).toBe('ab⟦hidden: U+200B⟧c')
    expect(plainField('a\u2067b\u200Dc')).toBe('ab⟦hidden: U+200D⟧c')
    expect(codeSpan('src/\u202Etxt.js')).toBe('`src/⟦hidden: U+202E⟧txt.js`')
  })

  it('renders no image of untrusted text: inline, by reference or as HTML', () => {
    const images = [
      '![pixel](https://evil.example/p.png)',
      '![a][r]\n\n[r]: https://evil.example/r.png',
      '![r]\n\n[r]: https://evil.example/r.png',
      '![nested [alt]](https://evil.example/n.png)',
      '<img src="https://evil.example/i.png">',
      '`![in code](https://evil.example/c.png)`'
    ]
    for (const [name, render] of Object.entries(renderers))
      for (const text of images) {
        const html = render(untrustedMarkdown(text))
        expect(html, `${name}: ${text}`).not.toMatch(/<img/)
        // a pixel in a link, where the alt text hides the address, is no better
        expect(html, `${name}: ${text}`).not.toMatch(
          /<a href="https:\/\/evil\.example\/p\.png">pixel/
        )
      }
  })

  it('keeps code in fences byte for byte, at the top level and in a list item', () => {
    const code = 'if (a <= b && c.includes("```")) {\n\treturn `@x #12 <img>` // 0123abc\n  }\n~~~'
    for (const [name, render] of Object.entries(renderers)) {
      expect(codeBlocks(render(codeBlock(code))), name).toEqual([`${code}\n`])
      const fenced = `text\n\n\`\`\`\`ts\n${code}\n\`\`\`\`\n\nmore`
      expect(codeBlocks(render(untrustedMarkdown(fenced))), name).toEqual([`${code}\n`])
    }
    // in a list item, as the comment indents evidence (micromark drops the line ends of code in a
    // tight list item, which CommonMark and GitHub keep: markdown-it alone reads it)
    const render = renderers['markdown-it']!
    expect(codeBlocks(render(`- a finding\n${codeBlock(code, '  ')}\n\nafter`))).toEqual([
      `${code}\n`
    ])
    const indented = untrustedMarkdown(`\`\`\`\`ts\n${code}\n\`\`\`\``).replace(/^(?=.)/gm, '  ')
    expect(codeBlocks(render(`- a finding\n\n${indented}`))).toEqual([`${code}\n`])
  })

  it("keeps a failing check's output in its block: no line of it closes the fence", () => {
    const output =
      'step 1\n```\n# Looks like our heading\n[Click to approve](https://evil.example/)\n<=  a && b'
    const [finding] = readGateOutput(
      { name: 'build', command: '' },
      { exitCode: 1, stdout: output, output, timedOut: false },
      { repoRoot: tmpdir(), cwd: tmpdir() }
    ).findings
    for (const [name, render] of Object.entries(renderers)) {
      const html = render(untrustedMarkdown(finding!.description))
      expect(html, name).not.toMatch(/<h1|<a /)
      expect(codeBlocks(html), name).toEqual([`${output}\n`])
    }
  })

  it('makes no suggested change, math, diagram or map of untrusted fences: plain code, as written', () => {
    for (const info of [
      'suggestion',
      'math',
      'mermaid',
      'geojson',
      'topojson',
      'stl',
      'Suggestion x'
    ]) {
      const md = untrustedMarkdown(`Try this:\n\n\`\`\`${info}\nreturn a + b\n\`\`\``)
      expect(md, info).toBe('Try this:\n\n```text\nreturn a + b\n```')
    }
    // a language stays
    expect(untrustedMarkdown('```ts\nx\n```')).toBe('```ts\nx\n```')
    expect(untrustedMarkdown('```suggestions-list\nx\n```')).toBe('```suggestions-list\nx\n```')
  })
})
