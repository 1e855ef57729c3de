import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { filesUnder } from '../../test-support/files.js'

/**
 * docs/troubleshooting.md "## Error messages": one list item per message, under `###` groups,
 * each starting with a piece of the message as the code has it, in a code span:
 *
 *     - `a literal piece of the message`: what it means and what to do.
 */
const SECTION = '## Error messages'

interface Entry {
  line: string
  fragment: string
}

/** The section's entries; a list item that does not start with a code span is an entry without one. */
function entries(page: string): Entry[] {
  const start = page.indexOf(`\n${SECTION}\n`)
  if (start === -1) return []
  const rest = page.slice(start + SECTION.length + 2)
  const end = rest.search(/^## /m)
  const section = end === -1 ? rest : rest.slice(0, end)
  return section
    .split('\n')
    .filter(line => line.startsWith('- '))
    .map(line => ({ line, fragment: /^- (`+) ?(.+?) ?\1(?!`)/.exec(line)?.[2] ?? '' }))
}

/** What is wrong with each entry: no quoted piece, one too short or with a `${}`, or none in `sources`. */
function unquoted(page: string, sources: readonly string[]): string[] {
  return entries(page).flatMap(({ line, fragment }) => {
    if (fragment.length < 20) return [`${line} (no quoted piece of 20 characters or more)`]
    if (fragment.includes('${')) return [`${line} (the quoted piece has a \${} part)`]
    return sources.some(text => text.includes(fragment)) ? [] : [`${line} (not in src/)`]
  })
}

const page = readFileSync('docs/troubleshooting.md', 'utf8')
/** A file's code without its comments: a message reworded in code but left in a comment is gone. */
const code = (text: string): string =>
  text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
const sources = filesUnder('src', name => name.endsWith('.ts')).map(file =>
  code(readFileSync(file, 'utf8'))
)

describe('docs/troubleshooting.md lists the error messages the code prints', () => {
  it('quotes at least 30 messages, under groups, at the end of the page', () => {
    expect(entries(page).length).toBeGreaterThanOrEqual(30)
    const after = page.slice(page.indexOf(`\n${SECTION}\n`) + SECTION.length + 2)
    expect(after.match(/^### /gm)?.length ?? 0).toBeGreaterThanOrEqual(5)
    expect(after).not.toMatch(/^#{1,2} /m)
  })

  it('quotes each message as some src/ file has it', () => {
    expect(unquoted(page, sources)).toEqual([])
  })

  it('does not take a message that only a comment still holds', () => {
    const made = `# T\n\n${SECTION}\n\n### Group\n\n- \`the old wording of a message\`: reworded since.\n`
    const source = code(
      "/**\n * Says 'the old wording of a message'\n */\n// the old wording of a message\nthrow new Error('the new wording')"
    )
    expect(unquoted(made, [source])).toEqual([
      '- `the old wording of a message`: reworded since. (not in src/)'
    ])
  })

  it('reports a quoted piece no src/ file has, an entry without one, and a ${} part', () => {
    const made = [
      '# T',
      '',
      SECTION,
      '',
      '### Group',
      '',
      '- `is not a whole number from`: kept.',
      '- `the review-loop cannot frobnicate the token`: made up.',
      '- no code span here.',
      '- `${name} is not a whole number`: a template part.',
      '- ``is not `name: command` here``: made up, with backticks.',
      '',
      '## After',
      '',
      '- `not counted, in another section`: after the section.'
    ].join('\n')
    const source = "throw new InputError(name, `'${raw}' is not a whole number from ${min}.`)"
    expect(entries(made).map(e => e.fragment)).toEqual([
      'is not a whole number from',
      'the review-loop cannot frobnicate the token',
      '',
      '${name} is not a whole number',
      'is not `name: command` here'
    ])
    expect(unquoted(made, [source])).toEqual([
      '- `the review-loop cannot frobnicate the token`: made up. (not in src/)',
      '- no code span here. (no quoted piece of 20 characters or more)',
      '- `${name} is not a whole number`: a template part. (the quoted piece has a ${} part)',
      '- ``is not `name: command` here``: made up, with backticks. (not in src/)'
    ])
  })
})
