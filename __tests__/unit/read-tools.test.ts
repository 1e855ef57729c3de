import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGit } from '../../src/git/git.js'
import { toolSpecs } from '../../src/fix/workspace-tools.js'
import type { ToolUse } from '../../src/model/agent-runner.js'
import type { ContentBlock, Git } from '../../src/ports/index.js'
import { readTools, READ_LIMITS } from '../../src/review/read-tools.js'
import { git, writeFiles } from '../../test-support/git-fixture.js'

let dir: string
let work: string
let head: string
let port: Git

const lines = (n: number, line: (i: number) => string): string =>
  Array.from({ length: n }, (_, i) => `${line(i + 1)}\n`).join('')

// what the pull request's head commit holds; the work tree is changed after it (see beforeAll)
const HEAD_FILES: Record<string, string> = {
  'src/a.ts': 'export const token = 1\nexport function twice(n: number) {\n  return n * 2\n}\n',
  'src/util/b.ts': 'import { token } from "../a"\nexport const b = token\n',
  'docs/a:b.md': 'a name with a colon: token\n',
  'long.txt': lines(1000, i => `line ${i}`),
  'wide.txt': lines(400, i => `${String(i).padStart(4, '0')}${'w'.repeat(196)}`),
  'min.js': `${'x'.repeat(50_000)}\nsecond\n`,
  'needles.txt': lines(150, i => `needle ${i} ${'n'.repeat(400)}`),
  'hidden.ts': 'const ok = "\u200bzero\u202Eevil"\n',
  'empty.txt': '',
  'odd/in\u200bvisible.ts': 'a file name with a zero-width space\n'
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'rl-read-tools-'))
  work = path.join(dir, 'work')
  git(dir, ['init', '-q', work])
  writeFiles(work, HEAD_FILES)
  writeFiles(
    work,
    Object.fromEntries(
      lines(600, i => `many/m${i}.txt`)
        .trim()
        .split('\n')
        .map(f => [f, 'm\n'])
    )
  )
  writeFiles(work, { 'many/zz/x.txt': 'x\n', 'many/zz/y.txt': 'y\n' })
  git(work, ['add', '-A'])
  // a blob with a NUL byte, and a text file that holds the same words as a text one
  writeFiles(work, { 'bin.dat': 'token\0binary\n' })
  git(work, ['add', 'bin.dat'])
  git(work, ['commit', '-q', '-m', 'head'])
  head = git(work, ['rev-parse', 'HEAD'])
  // after the commit: the work tree changes, a new file appears; the tools must not see them
  writeFiles(work, {
    'src/a.ts': 'export const token = 666 // work tree only\n',
    'untracked.ts': 'token in the work tree\n'
  })
  rmSync(path.join(work, 'src/util/b.ts'))
  port = await createGit(work, { scratch: dir })
}, 60_000)

afterAll(() => rmSync(dir, { recursive: true, force: true }))

let ids = 0
const call = (name: string, input: unknown): ToolUse => ({
  type: 'tool_use',
  id: `toolu_${++ids}`,
  name,
  input
})

type Result = Extract<ContentBlock, { type: 'tool_result' }>

async function one(name: string, input: unknown, g: Git = port): Promise<Result> {
  const [result] = await readTools(g, head).run([call(name, input)])
  return result as Result
}

describe('Git.grep over a commit', () => {
  it('finds the fixed-string lines of the commit, by file and line, not those of the work tree', async () => {
    const hits = await port.grep(head, 'token')
    expect(hits).toEqual([
      { file: 'docs/a:b.md', line: 1, text: 'a name with a colon: token' },
      { file: 'src/a.ts', line: 1, text: 'export const token = 1' },
      { file: 'src/util/b.ts', line: 1, text: 'import { token } from "../a"' },
      { file: 'src/util/b.ts', line: 2, text: 'export const b = token' }
    ])
  })

  it('searches one folder or file, case-sensitively, as a fixed string, and finds nothing as []', async () => {
    expect((await port.grep(head, 'token', 'src/util')).map(h => h.line)).toEqual([1, 2])
    expect((await port.grep(head, 'token', 'src/a.ts')).map(h => h.file)).toEqual(['src/a.ts'])
    expect(await port.grep(head, 'TOKEN')).toEqual([])
    expect(await port.grep(head, 'n * 2')).toEqual([
      { file: 'src/a.ts', line: 3, text: '  return n * 2' }
    ])
    expect(await port.grep(head, '.*')).toEqual([])
    expect(await port.grep(head, 'token', 'src/*.ts')).toEqual([])
  })

  it('fails naming git when the commit is unknown', async () => {
    await expect(port.grep('0'.repeat(40), 'token')).rejects.toThrow(/git grep failed/)
  })
})

describe('the read tools (reviewer, verifier) over the head commit', () => {
  it('have the fixer tools names and input schemas, with their own descriptions', () => {
    const { specs } = readTools(port, head)
    const fixer = toolSpecs({ gates: [], sandboxed: false })
    expect(specs.map(s => s.name)).toEqual(['read_file', 'list_files', 'search'])
    for (const spec of specs) {
      const theirs = fixer.find(f => f.name === spec.name)!
      expect(spec.input_schema).toEqual(theirs.input_schema)
      expect(spec.description).toMatch(/head commit/)
    }
  })

  it("read the head commit's file with line numbers, not the work tree", async () => {
    const r = await one('read_file', { path: 'src/a.ts' })
    expect(r.is_error).toBeUndefined()
    expect(r.content).toBe(
      [
        '    1  export const token = 1',
        '    2  export function twice(n: number) {',
        '    3    return n * 2',
        '    4  }'
      ].join('\n')
    )
    expect((await one('read_file', { path: './src/util/b.ts' })).content).toContain(
      '    2  export const b = token'
    )
    const untracked = await one('read_file', { path: 'untracked.ts' })
    expect(untracked.is_error).toBe(true)
    expect(untracked.content).toMatch(/untracked.ts is not in the head commit/)
  })

  it('answer every call of a turn, in order, one result each', async () => {
    const calls = [
      call('list_files', { path: 'src' }),
      call('read_file', { path: 'nope.ts' }),
      call('search', { text: 'twice' })
    ]
    const results = (await readTools(port, head).run(calls)) as Result[]
    expect(results.map(r => [r.type, r.tool_use_id, r.is_error ?? false])).toEqual(
      calls.map((c, i) => ['tool_result', c.id, i === 1])
    )
    expect(results[0]!.content).toBe('src/a.ts\nsrc/util/b.ts')
    expect(results[2]!.content).toBe('src/a.ts:2: export function twice(n: number) {')
  })

  it('read at most 400 lines a call and say how to read on', async () => {
    const first = await one('read_file', { path: 'long.txt' })
    const shown = first.content.split('\n')
    expect(shown).toHaveLength(READ_LIMITS.lines + 1)
    expect(shown[399]).toBe('  400  line 400')
    expect(shown[400]).toBe('… lines 1–400 of 1000 shown; read on with offset 400')
    const next = await one('read_file', { path: 'long.txt', offset: 400, limit: 1000 })
    expect(next.content.split('\n')[0]).toBe('  401  line 401')
    const end = await one('read_file', { path: 'long.txt', offset: 990 })
    expect(end.content.split('\n')).toHaveLength(10)
    expect(end.content).not.toContain('…')
    const few = await one('read_file', { path: 'long.txt', offset: 10, limit: 2 })
    expect(few.content).toBe(
      '   11  line 11\n   12  line 12\n… lines 11–12 of 1000 shown; read on with offset 12'
    )
  })

  it('read at most 40,000 characters a call, in whole lines, and cut a longer line', async () => {
    const wide = await one('read_file', { path: 'wide.txt' })
    expect(wide.content.length).toBeLessThanOrEqual(READ_LIMITS.chars + 200)
    const note = wide.content.split('\n').at(-1)!
    const last = Number(/offset (\d+)$/.exec(note)?.[1])
    expect(note).toMatch(/^… lines 1–\d+ of 400 shown \(at most 40,000 characters a call\)/)
    expect(wide.content.split('\n').at(-2)).toMatch(
      new RegExp(`^ +${last}  ${String(last).padStart(4, '0')}w+$`)
    )
    const min = await one('read_file', { path: 'min.js' })
    expect(min.content.split('\n').slice(1)).toEqual([
      '… line 1 is longer than 40,000 characters: cut',
      '… lines 1–1 of 2 shown (at most 40,000 characters a call); read on with offset 1'
    ])
  })

  it('list the files of the head commit under a folder, at most 500', async () => {
    expect((await one('list_files', { path: '/src/' })).content).toBe('src/a.ts\nsrc/util/b.ts')
    const all = (await one('list_files', {})).content.split('\n')
    expect(all.slice(0, 5)).toEqual([
      'bin.dat',
      'docs/a:b.md',
      'empty.txt',
      'hidden.ts',
      'long.txt'
    ])
    expect(all.at(-1)).toBe(
      '… 500 of 613 files shown; not shown: 3 directly in the root, 107 in many/, 1 in odd/, 2 in src/; list a subfolder (path) to see its files'
    )
    expect(all).not.toContain('untracked.ts')
    expect((await one('list_files', { path: 'src/a.ts' })).content).toBe('src/a.ts')
    const many = (await one('list_files', { path: 'many' })).content.split('\n')
    expect(many).toHaveLength(READ_LIMITS.paths + 1)
    expect(many.at(-1)).toBe(
      '… 500 of 602 files shown; not shown: 100 directly in many, 2 in many/zz/; list a subfolder (path) to see its files'
    )
  })

  it('search the head commit: hits as file:line: text, none as a plain answer', async () => {
    const hits = await one('search', { text: 'token', path: 'src' })
    expect(hits.content).toBe(
      [
        'src/a.ts:1: export const token = 1',
        'src/util/b.ts:1: import { token } from "../a"',
        'src/util/b.ts:2: export const b = token'
      ].join('\n')
    )
    const none = await one('search', { text: 'work tree only' })
    expect(none.is_error).toBeUndefined()
    expect(none.content).toBe('no line holds "work tree only" at the head commit')
  })

  it('show at most 100 hits, each line at most 300 characters', async () => {
    const r = (await one('search', { text: 'needle' })).content.split('\n')
    expect(r).toHaveLength(READ_LIMITS.hits + 1)
    expect(r[0]).toBe(`needles.txt:1: needle 1 ${'n'.repeat(READ_LIMITS.hitChars - 9)}…`)
    expect(r.at(-1)).toBe('… 100 of 150 lines shown; narrow the search with path or a longer text')
  })

  it('remove invisible characters and mark direction controls before the model reads them', async () => {
    const read = await one('read_file', { path: 'hidden.ts' })
    expect(read.content).toBe('    1  const ok = "zero⟦hidden: U+202E⟧evil"')
    // a file name too: listed without the character, and read by the name as listed
    expect((await one('list_files', { path: 'odd' })).content).toBe('odd/invisible.ts')
    expect((await one('read_file', { path: 'odd/invisible.ts' })).content).toBe(
      '    1  a file name with a zero-width space'
    )
    const found = await one('search', { text: 'evil' })
    expect(found.content).toBe('hidden.ts:1: const ok = "zero⟦hidden: U+202E⟧evil"')
  })

  it('refuse what they cannot do, saying what to change', async () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['read_file', { path: '../outside.txt' }, /refused: \.\.\/outside.txt leaves the repository/],
      ['list_files', { path: 'src/../../x' }, /leaves the repository/],
      ['search', { text: 'token', path: '..' }, /leaves the repository/],
      ['read_file', { path: 'src' }, /src is a folder: list_files with path "src"/],
      ['read_file', { path: 'bin.dat' }, /bin.dat is a binary file/],
      ['read_file', { path: 'lib/a.ts' }, /not in the head commit .*files of that name: src\/a.ts/],
      ['read_file', {}, /path is required/],
      [
        'read_file',
        { path: 'long.txt', offset: 1000 },
        /offset 1000 is past the end of long.txt: it has 1000 lines/
      ],
      ['read_file', { path: 'long.txt', limit: 0 }, /limit must be a whole number of at least 1/],
      ['read_file', { path: 7 }, /path must be a string/],
      ['search', { text: '' }, /text is required/],
      ['search', { text: 'a\nb' }, /text must be one line/],
      ['search', { text: 'token', path: 'nowhere' }, /nowhere is not in the head commit/],
      [
        'write_file',
        { path: 'src/a.ts', content: '' },
        /unknown tool write_file: the tools here are read_file, list_files, search/
      ],
      ['list_files', 'src', /the input must be an object/]
    ]
    for (const [name, input, message] of cases) {
      const r = await one(name, input)
      expect({ name, input, error: r.is_error, content: r.content }).toEqual({
        name,
        input,
        error: true,
        content: expect.stringMatching(message)
      })
    }
    // `..` inside the repository is fine
    expect((await one('read_file', { path: 'src/util/../a.ts' })).is_error).toBeUndefined()
    expect((await one('read_file', { path: 'empty.txt' })).content).toBe('(empty file)')
  })

  it('read each file of the commit once, however often it is asked for', async () => {
    const shown: string[] = []
    const counting: Git = { ...port, show: (sha, file) => (shown.push(file), port.show(sha, file)) }
    const tools = readTools(counting, head)
    await tools.run([
      call('read_file', { path: 'long.txt' }),
      call('read_file', { path: 'long.txt', offset: 400 })
    ])
    await tools.run([call('read_file', { path: './long.txt', offset: 800 })])
    expect(shown).toEqual(['long.txt'])
  })
})
