/**
 * Issue 37: incremental re-review reaches callers. The definitions a change since the last review
 * changed (definedNames, changedDefinitions: a heuristic over common languages), and the parts not
 * sent otherwise that name one anywhere in the head (withCallers): sent again, said in the log.
 */
import { describe, expect, it } from 'vitest'
import type { LoopState } from '../../src/loop/types.js'
import type { Git, GrepHit } from '../../src/ports/index.js'
import type { Batch, ReviewPlan } from '../../src/review/batches.js'
import {
  changedDefinitions,
  changedNames,
  definedNames,
  MAX_NAMES,
  namesWord,
  withCallers
} from '../../src/review/callers.js'
import { chooseParts, withReuseNote } from '../../src/review/incremental.js'
import type { SharedPrompt } from '../../src/review/review-prompt.js'
import { BASE, SHA_A, SHA_B, SHA_C, iteration, state } from './builders.js'

describe('definedNames: what a line defines, in common languages', () => {
  it.each([
    // JavaScript and TypeScript
    ['export function splitWords(text, sep) {', ['splitWords']],
    ['export async function* walkTree(root) {', ['walkTree']],
    ['export const DEFAULT_LIMIT = 20', ['DEFAULT_LIMIT']],
    ['const helper = (x) => x', ['helper']],
    ['export class Tokenizer extends Base {', ['Tokenizer']],
    ['export interface ParseOptions {', ['ParseOptions']],
    ['export type Token = { kind: string }', ['Token']],
    ["export { parse, tokenize as lex } from './parse.js'", ['parse', 'tokenize', 'lex']],
    ["export { default as render2 } from './r.js'", ['render2']],
    ['export default parseAll', ['parseAll']],
    ['module.exports = { parse, format: formatText }', ['parse', 'format', 'formatText']],
    ['exports.parseLine = function (x) {', ['parseLine']],
    ['  async fetchUser(id: string): Promise<User> {', ['fetchUser']],
    ['  static fromJSON(json) {', ['fromJSON']],
    ['Foo.prototype.render2 = function () {', ['render2']],
    // Python
    ['def parse_config(path, strict=False):', ['parse_config']],
    ['    def _read(self):', ['_read']],
    ['class ConfigLoader(Base):', ['ConfigLoader']],
    ['MAX_RETRIES = 5', ['MAX_RETRIES']],
    // Go
    ['func ParseArgs(args []string) (*Config, error) {', ['ParseArgs']],
    ['func (s *Server) HandleRequest(w http.ResponseWriter, r *http.Request) {', ['HandleRequest']],
    ['type Handler interface {', ['Handler']],
    // Rust
    ['pub fn parse_header(input: &str) -> Result<Header> {', ['parse_header']],
    ['pub(crate) async fn load_index() {', ['load_index']],
    ['pub struct Header {', ['Header']],
    ['pub trait Visitor {', ['Visitor']],
    ['impl<T> Visitor for Walker<T> {', ['Visitor', 'Walker']],
    ['pub const MAX_DEPTH: usize = 8;', ['MAX_DEPTH']],
    ['macro_rules! ensure_ok {', ['ensure_ok']],
    // Java, C#, C, Kotlin
    ['public static List<String> splitLines(String text, int max) {', ['splitLines']],
    ['    private void handleEvent(Event e) throws IOException {', ['handleEvent']],
    ['public static final int MAX_SIZE = 100;', ['MAX_SIZE']],
    ['public async Task<Order> GetOrderAsync(int id)', ['GetOrderAsync']],
    ['static int parse_line(const char *line, size_t n)', ['parse_line']],
    ['int *make_buffer(size_t n);', ['make_buffer']],
    ['#define BUFFER_SIZE 4096', ['BUFFER_SIZE']],
    ['fun computeTotal(items: List<Item>): Int {', ['computeTotal']],
    // Ruby, PHP
    ['  def full_name', ['full_name']],
    ['  def self.build(attrs)', ['build']],
    ['module Billing', ['Billing']],
    ['public function handleRequest(Request $req): Response {', ['handleRequest']]
  ])('%s', (line, names) => {
    expect(definedNames(line)).toEqual(names)
  })

  it.each([
    'return computeTotal(items);',
    'throw new ParseError(msg);',
    'const x = new Thing(a)',
    '  result = compute(a, b)',
    '  const words = text.split(" ")',
    '  if (x) {',
    '  for (const a of b) {',
    "describe('x', () => {",
    'splitWords(line).length',
    '// function commented(x) {',
    '# def commented(x):',
    'function go(a) {',
    'export const data = 1'
  ])('no definition in %s (a use, a comment, a local, a short or common name)', line => {
    expect(definedNames(line)).toEqual([])
  })
})

/** A diff of one file, modified: its hunk's header line, removed and added lines. */
function modified(path: string, header: string, removed: string[], added: string[]): string {
  return [
    `diff --git a/${path} b/${path}`,
    'index 1111111..2222222 100644',
    `--- a/${path}`,
    `+++ b/${path}`,
    `@@ -1,${removed.length + 1} +1,${added.length + 1} @@ ${header}`,
    ' // unchanged',
    ...removed.map(l => `-${l}`),
    ...added.map(l => `+${l}`),
    ''
  ].join('\n')
}

describe('changedDefinitions: what a diff changes that others may name', () => {
  it('reads removed and added lines, each name once', () => {
    const diff = modified(
      'src/lib/words.js',
      '',
      ['export function splitWords(text) {', "  return text.split(' ')"],
      [
        'export function splitWords(text, sep) {',
        '  return text.split(sep)',
        'export const SEP = 1'
      ]
    )
    expect(changedDefinitions(diff)).toEqual(new Map([['src/lib/words.js', ['splitWords', 'SEP']]]))
  })

  it('a renamed definition gives both names', () => {
    const diff = modified('lib/a.py', '', ['def load(path):'], ['def load_file(path):'])
    expect(changedDefinitions(diff).get('lib/a.py')).toEqual(['load', 'load_file'])
  })

  it("a changed constructor stands for its class, named by the hunk's header", () => {
    const js = modified(
      'src/t.js',
      'export class Tokenizer {',
      ['  constructor(a) {'],
      ['  constructor(a, b) {']
    )
    const py = modified(
      't.py',
      'class Loader(Base):',
      ['    def __init__(self):'],
      ['    def __init__(self, path):']
    )
    expect(changedDefinitions(js + py)).toEqual(
      new Map([
        ['src/t.js', ['Tokenizer']],
        ['t.py', ['Loader']]
      ])
    )
  })

  it('leaves out a file the diff adds, prose and data, and lines that define nothing', () => {
    const added = [
      'diff --git a/src/new.js b/src/new.js',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/src/new.js',
      '@@ -0,0 +1 @@',
      '+export function fresh() {}',
      ''
    ].join('\n')
    const prose = modified(
      'README.md',
      '',
      ['class Parser handles input'],
      ['class Reader handles input']
    )
    const body = modified('src/b.js', 'function run() {', ['  return a + 1'], ['  return a + 2'])
    expect(changedDefinitions(added + prose + body)).toEqual(new Map())
  })
})

/** A Git port answering diff and grep from maps, recording the diffs asked for. */
function git(diffs: Record<string, string | Error>, lines: GrepHit[] | Error = []) {
  const asked: string[] = []
  const port: Pick<Git, 'diff' | 'grep'> = {
    async diff(base, head, paths = []) {
      asked.push(`${base.slice(0, 1)}..${head.slice(0, 1)} ${paths.join(' ')}`)
      const d = diffs[base]
      if (d instanceof Error) throw d
      return d ?? ''
    },
    async grep(_sha, text) {
      if (lines instanceof Error) throw lines
      return lines.filter(h => h.text.includes(text))
    }
  }
  return { port, asked }
}

const WORDS_FIX = modified(
  'src/lib/words.js',
  '',
  ['export function splitWords(text) {'],
  ['export function splitWords(text, sep) {']
)

/** Iterations 1 and 2 reviewed SHA_A and SHA_B; words.js was last read in 2, other.js in 1. */
const STATE: LoopState = state({
  iterations: [iteration({ n: 1, reviewedSha: SHA_A }), iteration({ n: 2, reviewedSha: SHA_B })],
  reviewed: {
    base: BASE,
    settings: 's',
    files: { 'src/lib/words.js': `2:${'1'.repeat(40)}`, 'src/other.js': `1:${'2'.repeat(40)}` }
  }
})

describe('changedNames: the definitions changed since the earlier review read each file', () => {
  it('diffs each file from the commit of the iteration that reviewed its blob to the head', async () => {
    const { port, asked } = git({ [SHA_B]: WORDS_FIX, [SHA_A]: '' })
    const out = await changedNames(port, STATE, SHA_C, [
      'src/lib/words.js',
      'src/other.js',
      'docs/a.md'
    ])
    expect(asked).toEqual(['b..c src/lib/words.js', 'a..c src/other.js'])
    expect(out).toEqual({ names: [{ name: 'splitWords', file: 'src/lib/words.js' }], left: 0 })
  })

  it('a diff that cannot be read places nothing: unreadable', async () => {
    const { port } = git({ [SHA_B]: new Error('bad object') })
    const out = await changedNames(port, STATE, SHA_C, ['src/lib/words.js'])
    expect(out.unreadable).toMatch(
      /the change to src\/lib\/words.js since bbbbbbb could not be read \(bad object\)/
    )
  })

  it(`searches for at most ${MAX_NAMES} names`, async () => {
    const many = modified(
      'src/lib/words.js',
      '',
      [],
      Array.from({ length: 25 }, (_, i) => `export const name${i} = ${i}`)
    )
    const out = await changedNames(git({ [SHA_B]: many }).port, STATE, SHA_C, ['src/lib/words.js'])
    expect(out.names).toHaveLength(MAX_NAMES)
    expect(out.left).toBe(5)
  })
})

describe('withCallers: the parts that name a changed definition are sent again', () => {
  const batch = (index: number, files: string[]): Batch => ({
    index,
    files,
    partial: [],
    lines: {},
    text: ''
  })
  const PLAN: ReviewPlan = {
    files: [],
    batches: [
      batch(1, ['src/cli/main.js']),
      batch(2, ['src/lib/index.js', 'src/lib/words.js']),
      batch(3, ['src/x/y.js'])
    ]
  }
  const BLOBS = new Map([
    ['src/cli/main.js', '3'.repeat(40)],
    ['src/lib/index.js', '4'.repeat(40)],
    ['src/lib/words.js', '9'.repeat(40)],
    ['src/x/y.js', '5'.repeat(40)]
  ])
  const S: LoopState = {
    ...STATE,
    reviewed: {
      base: BASE,
      settings: 's',
      files: {
        'src/cli/main.js': `1:${'3'.repeat(40)}`,
        'src/lib/index.js': `1:${'4'.repeat(40)}`,
        'src/lib/words.js': `2:${'1'.repeat(40)}`,
        'src/x/y.js': `1:${'5'.repeat(40)}`
      }
    }
  }
  const choose = (more: ReadonlySet<number>) =>
    chooseParts(PLAN, {
      previous: S.reviewed,
      base: BASE,
      settings: 's',
      blobs: BLOBS,
      mustSend: more
    })
  const HEAD: GrepHit[] = [
    { file: 'src/lib/index.js', line: 1, text: "export { splitWords } from './words.js'" },
    {
      file: 'src/cli/main.js',
      line: 2,
      text: 'export const count = line => splitWords(line).length'
    },
    { file: 'src/x/y.js', line: 7, text: 'const n = splitWordsFast(s) // another name' }
  ]
  const run = async (g: ReturnType<typeof git>) => {
    const log: string[] = []
    const choice = await withCallers(
      g.port,
      { info: m => log.push(m) },
      { state: S, head: SHA_C, all: PLAN.batches },
      choose(new Set()),
      choose
    )
    return { choice, log, sent: choice.send.map(b => b.index) }
  }

  it("sends a caller's part that imports the name through a re-export, and says why", async () => {
    const { choice, log, sent } = await run(git({ [SHA_B]: WORDS_FIX }, HEAD))
    // part 3 holds only a longer name (splitWordsFast): no word match, not sent
    expect(sent).toEqual([1, 2])
    expect(choice.reuse.map(r => r.batch.index)).toEqual([3])
    expect(choice.callers).toEqual({ 1: 'splitWords, changed in src/lib/words.js' })
    expect(log).toContain(
      'review: part 1 sent again: it names splitWords, changed in src/lib/words.js'
    )
    const shared: SharedPrompt = { system: [], shared: 'S', shape: 'json' }
    expect(withReuseNote(shared, choice, 1).shared).toContain(
      'part 1 (splitWords, changed in src/lib/words.js)'
    )
  })

  it('sends nothing more when no definition changed', async () => {
    const body = modified('src/lib/words.js', '', ['  return 1'], ['  return 2'])
    const { sent, choice } = await run(git({ [SHA_B]: body }, HEAD))
    expect(sent).toEqual([2])
    expect(choice.callers).toBeUndefined()
  })

  it('sends every part when the change cannot be read or a name search fails (fail safe)', async () => {
    const unreadable = await run(git({ [SHA_B]: new Error('missing commit') }, HEAD))
    expect(unreadable.sent).toEqual([1, 2, 3])
    expect(unreadable.log.at(-1)).toMatch(
      /^review: every part is sent again: the change to src\/lib\/words.js/
    )
    const grepFails = await run(git({ [SHA_B]: WORDS_FIX }, new Error('git grep failed')))
    expect(grepFails.sent).toEqual([1, 2, 3])
    expect(grepFails.log.at(-1)).toMatch(/the search for splitWords failed/)
  })
})

describe('namesWord', () => {
  it('matches the whole name only', () => {
    expect(namesWord('x = splitWords(a)', 'splitWords')).toBe(true)
    expect(namesWord('import { splitWords } from', 'splitWords')).toBe(true)
    expect(namesWord('splitWordsFast(a)', 'splitWords')).toBe(false)
    expect(namesWord('$splitWords', 'splitWords')).toBe(false)
    expect(namesWord('obj.$el', '$el')).toBe(true)
  })
})
