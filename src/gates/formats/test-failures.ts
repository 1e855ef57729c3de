import type { GateProblem } from '../problem.js'
import type { ReadProblem } from './problem-matchers.js'

/**
 * Failing tests, from what the runners print by default: Jest (`● name`, then `at … (path:l:c)`),
 * Vitest (` FAIL  path > name`, then `❯ path:l:c`), node:test (`✖ name`, then `at … (file:///…:l:c)`),
 * mocha (`1) suite` and the test's name up to a `:`, then `at Context.<anonymous> (path:l:c)`) and
 * pytest (`____ name ____`, then `path:line: Error`). A failure lands on the first stack frame
 * inside the repository (pytest prints the innermost frame last), titled with the test's name.
 * A stack printed outside a test (a crash: `Error: boom` then `at f (src/app.js:3:9)`) lands on
 * its first frame in the repository. `inRepo` says whether a printed path names a file of it.
 */
const TITLES: ReadonlyArray<RegExp> = [
  /^●\s+(.+)$/, // Jest 29
  /^FAIL\s+\S+\s+>\s+(.+)$/, // Vitest 4
  /^✖\s+(.+?)(?:\s+\([\d.]+m?s\))?$/ // node:test 20-24 spec reporter
]
/** mocha 11 spec: `1) suite`, then the nested suites and the test, the last ending in `:`. */
const MOCHA_TITLE = /^\d+\)\s+(.+)$/
const PYTEST_TITLE = /^_{3,}\s+(.+?)\s+_{3,}$/
const PYTEST_END = /^={3,}/
const FRAMES: ReadonlyArray<RegExp> = [
  /^at\s+(?:.*?\()?((?:file:\/\/)?[^()\s]+?):(\d+):(\d+)\)?$/, // V8 stack frames
  /^❯\s+(\S+?):(\d+):(\d+)$/ // Vitest
]
const PYTEST_FRAME = /^(\S+?):(\d+):(?:\s+(.*))?$/
/** A Python traceback's frame: `File "src/app.py", line 3[, in f]`. */
export const PY_FRAME = /^\s*File "(.+)", line (\d+)(?:, in .+)?$/
/** A frame that is a path and a line alone, as PHPUnit prints its trace. */
const BARE_FRAME = /^((?:file:\/\/)?[^\s:()]+):(\d+)()$/
/** A test file's header: what follows belongs to it, not to an earlier failure. */
const FILE_HEADER = /^(PASS|FAIL)\s+\S+$/
/** Jest's sections that are not failures: what the tests logged. */
const NOT_FAILURES = new Set(['Console'])
/** Vitest's sections of what a test logged: `stdout | src/app.test.js > name` (and `stderr |`). */
const VITEST_LOGGED = /^std(?:out|err) \| \S/
/** Vitest's file line, ` ❯ src/app.test.js (2 tests | 1 failed)`: logged output ends before it. */
const VITEST_FILE = /^❯\s+\S+\s+\(\d+ tests?\b/
/** The line before a crash's stack: an error's name and message (`TypeError: x`, `Error: boom`). */
const ERROR_LINE = /^(?:Uncaught\s+)?(?:[\w$.]*(?:Error|Exception)|Error)\b(?:\s*\[[\w-]+\])?:?\s/

interface Pending {
  title: string
  message?: string
}

type Frame = [file: string, line: string, column: string]

class Reader {
  readonly out: ReadProblem[] = []
  private pending: Pending | undefined
  private mocha: string[] | undefined
  /** Within a stack already read (or logged): its other frames are no more findings. */
  private inStack = false
  /**
   * Within a section of logged output (Jest's `● Console`, Vitest's `stderr | file > test`, until the
   * next title, file header or Vitest's `❯ file`): a stack there is no crash.
   */
  private quiet = false
  private lastText = ''

  constructor(private readonly inRepo: (file: string) => boolean) {}

  read(line: string, at: number): void {
    const frame = FRAMES.map(re => re.exec(line)).find(Boolean)
    if (frame) return this.frame([frame[1]!, frame[2]!, frame[3]!], at)
    this.inStack = false
    if (VITEST_LOGGED.test(line)) {
      this.quiet = true
      return this.start(undefined)
    }
    if (VITEST_FILE.test(line)) return void (this.quiet = false)
    if (FILE_HEADER.test(line)) {
      this.quiet = false
      return void (this.pending = undefined)
    }
    if (this.title(line)) return
    if (line && !/^[-+]\s/.test(line)) {
      if (this.pending) this.pending.message ??= line
      this.lastText = line
    }
  }

  /** A failure's title: Jest's, Vitest's, node:test's, or mocha's over several lines. */
  private title(line: string): boolean {
    const mocha = MOCHA_TITLE.exec(line)
    if (mocha) this.mocha = [mocha[1]!]
    else if (this.mocha && line) this.mocha.push(line)
    else this.mocha = undefined
    if (this.mocha) {
      if (line.endsWith(':')) {
        this.start(this.mocha.join(' ').slice(0, -1))
        this.mocha = undefined
      }
      return true
    }
    const title = TITLES.map(re => re.exec(line)).find(Boolean)
    if (!title || line.endsWith(':')) return false
    const name = title[1]!.trim()
    this.quiet = NOT_FAILURES.has(name)
    this.start(this.quiet ? undefined : name)
    return true
  }

  private start(title: string | undefined): void {
    this.pending = title === undefined ? undefined : { title }
    this.lastText = ''
  }

  private frame(frame: Frame, at: number): void {
    const usable = usableFile(frame[0], this.inRepo)
    if (this.pending) {
      if (!usable) return
      this.out.push({ at, problem: located(this.pending, ...frame) })
      this.pending = undefined
      this.inStack = true
      return
    }
    if (this.inStack || this.quiet || !ERROR_LINE.test(this.lastText)) return
    if (!usable) return
    // a crash outside any test: its message is the error's line above the stack
    const [file, line, column] = frame
    const problem = { file, line: Number(line), column: Number(column), level: 'error' as const }
    this.out.push({ at, problem: { ...problem, message: this.lastText, crash: true } })
    this.inStack = true
  }
}

export function readTestFailures(
  lines: readonly string[],
  inRepo: (file: string) => boolean
): ReadProblem[] {
  const reader = new Reader(inRepo)
  const out: ReadProblem[] = []
  let pytest: (Pending & { frame?: { at: number; file: string; line: string } }) | undefined
  const closePytest = () => {
    const frame = pytest?.frame
    if (pytest && frame)
      out.push({ at: frame.at, problem: located(pytest, frame.file, frame.line) })
    pytest = undefined
  }
  lines.forEach((raw, at) => {
    const line = raw.trim()
    const py = PYTEST_TITLE.exec(line)
    if (py) {
      closePytest()
      pytest = { title: py[1]! }
      return
    }
    if (!pytest) return reader.read(line, at)
    if (PYTEST_END.test(line)) return closePytest()
    // the innermost frame is printed last: each one in the repository replaces the one before
    if (/^E\s+/.test(line)) pytest.message ??= line.replace(/^E\s+/, '')
    const frame = PYTEST_FRAME.exec(line)
    if (frame && inRepo(frame[1]!)) pytest.frame = { at, file: frame[1]!, line: frame[2]! }
  })
  closePytest()
  return [...out, ...reader.out]
}

function located(failure: Pending, file: string, line: string, column?: string): GateProblem {
  return {
    file,
    line: Number(line),
    column: column ? Number(column) : undefined,
    level: 'error',
    testName: failure.title,
    message: failure.message ?? 'Test failed'
  }
}

/** TAP's failing test (node:test 18-20 off a terminal): `not ok 2 - name`, not a TODO or SKIP. */
const TAP_NOT_OK = /^(\s*)not ok \d+(?: - (.*?))?(?:\s+#\s*(TODO|SKIP)\b.*)?$/i
/** A frame of the YAML block's `stack: |-`, without V8's `at`. */
const TAP_FRAME = /^(?:at\s+)?(?:.*?\()?((?:file:\/\/)?[^()\s]+?):(\d+):(\d+)\)?$/
const MAX_TAP_BLOCK = 400
const yamlString = (v: string) => v.replace(/^'(.*)'$/, (_, s: string) => s.replace(/''/g, "'"))

/**
 * TAP as node:test prints it: each `not ok` with its YAML block (`location: '/abs/x.test.js:L:C'`,
 * `error`, `stack`). A failure lands on its stack's first frame in the repository, else on the test's
 * `location`, else on no file (still its own finding, with its error). A parent whose subtests failed
 * (`failureType: 'subtestsFailed'`, a test file run as a whole) is no failure of its own.
 */
export function readTap(
  lines: readonly string[],
  inRepo: (file: string) => boolean
): ReadProblem[] {
  const out: ReadProblem[] = []
  lines.forEach((line, at) => {
    const m = TAP_NOT_OK.exec(line)
    if (!m || m[3] || lines[at + 1]?.trim() !== '---') return
    const indent = m[1]!.length + 2
    const block: string[] = []
    // a block is short: one left open (the output was cut) is read no further than this
    const end = Math.min(lines.length, at + 2 + MAX_TAP_BLOCK)
    for (let i = at + 2; i < end && lines[i]!.trim() !== '...'; i++) block.push(lines[i]!)
    const field = (name: string) => {
      const i = block.findIndex(l => l.slice(indent).startsWith(`${name}:`))
      if (i < 0) return undefined
      const value = block[i]!.slice(indent + name.length + 1).trim()
      const deeper = block.slice(i + 1).findIndex(l => !l.startsWith(' '.repeat(indent + 1)))
      const more = block.slice(i + 1, deeper < 0 ? undefined : i + 1 + deeper).map(l => l.trim())
      return /^[|>]-?$/.test(value) ? more : [yamlString(value)]
    }
    if (field('failureType')?.[0] === 'subtestsFailed') return
    const usable = (f: RegExpExecArray | null) =>
      f && usableFile(f[1]!, inRepo) ? ([f[1]!, f[2]!, f[3]!] as Frame) : undefined
    const frame =
      (field('stack') ?? []).map(l => usable(TAP_FRAME.exec(l))).find(Boolean) ??
      usable(TAP_FRAME.exec(field('location')?.[0] ?? ''))
    const failure = { title: m[2] || 'a test', message: field('error')?.find(Boolean) }
    out.push({
      at,
      problem: frame
        ? located(failure, ...frame)
        : { level: 'error', testName: failure.title, message: failure.message ?? 'Test failed' }
    })
  })
  return out
}

/**
 * Where a failure's text (a test report's, such as JUnit XML's) says it happened: its first stack
 * frame in the repository (V8's, Vitest's, PHPUnit's bare `path:line`), else its innermost Python
 * frame in the repository (pytest's `path:line: Error`, a traceback's `File "path", line N`).
 */
export function failureFrame(
  lines: readonly string[],
  inRepo: (file: string) => boolean
): { file: string; line: number; column?: number } | undefined {
  let python: { file: string; line: number } | undefined
  for (const raw of lines) {
    const line = raw.trim()
    const frame = [...FRAMES, BARE_FRAME].map(re => re.exec(line)).find(Boolean)
    if (frame && usableFile(frame[1]!, inRepo))
      return { file: frame[1]!, line: Number(frame[2]), column: Number(frame[3]) || undefined }
    const py = PYTEST_FRAME.exec(line) ?? PY_FRAME.exec(raw)
    if (py && inRepo(py[1]!)) python = { file: py[1]!, line: Number(py[2]) }
  }
  return python
}

function usableFile(file: string, inRepo: (file: string) => boolean): boolean {
  return inRepo(file) && !/node_modules\//.test(file)
}
