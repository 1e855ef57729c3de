import type { GateProblem } from '../problem.js'
import type { ReadProblem } from './problem-matchers.js'

/**
 * Failing tests, from what the runners print by default: Jest (`● name`, then `at … (path:l:c)`),
 * Vitest (` FAIL  path > name`, then `❯ path:l:c`), node:test (`✖ name`, then `at … (file:///…:l:c)`)
 * and pytest (`____ name ____`, then `path:line: Error`). A failure lands on the first stack frame
 * inside the repository (pytest prints the innermost frame last), titled with the test's name.
 * `inRepo` says whether a printed path names a file of the repository.
 */
const TITLES: ReadonlyArray<RegExp> = [
  /^●\s+(.+)$/, // Jest 29
  /^FAIL\s+\S+\s+>\s+(.+)$/, // Vitest 4
  /^✖\s+(.+?)(?:\s+\([\d.]+m?s\))?$/ // node:test 20-24 spec reporter
]
const PYTEST_TITLE = /^_{3,}\s+(.+?)\s+_{3,}$/
const PYTEST_END = /^={3,}/
const FRAMES: ReadonlyArray<RegExp> = [
  /^at\s+(?:.*?\()?((?:file:\/\/)?[^()\s]+?):(\d+):(\d+)\)?$/, // V8 stack frames
  /^❯\s+(\S+?):(\d+):(\d+)$/ // Vitest
]
const PYTEST_FRAME = /^(\S+?):(\d+):(?:\s+(.*))?$/
/** A test file's header: what follows belongs to it, not to an earlier failure. */
const FILE_HEADER = /^(PASS|FAIL)\s+\S+$/
/** Jest's sections that are not failures: what the tests logged. */
const NOT_FAILURES = new Set(['Console'])

interface Pending {
  title: string
  message?: string
}

export function readTestFailures(
  lines: readonly string[],
  inRepo: (file: string) => boolean
): ReadProblem[] {
  const out: ReadProblem[] = []
  let pending: Pending | undefined
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
    if (pytest) {
      if (PYTEST_END.test(line)) return closePytest()
      // the innermost frame is printed last: each one in the repository replaces the one before
      if (/^E\s+/.test(line)) pytest.message ??= line.replace(/^E\s+/, '')
      const frame = PYTEST_FRAME.exec(line)
      if (frame && inRepo(frame[1]!)) pytest.frame = { at, file: frame[1]!, line: frame[2]! }
      return
    }
    if (FILE_HEADER.test(line)) {
      pending = undefined
      return
    }
    const title = TITLES.map(re => re.exec(line)).find(Boolean)
    if (title && !line.endsWith(':')) {
      pending = NOT_FAILURES.has(title[1]!.trim()) ? undefined : { title: title[1]!.trim() }
      return
    }
    if (!pending) return
    const frame = FRAMES.map(re => re.exec(line)).find(Boolean)
    if (frame) {
      if (!inRepo(frame[1]!) || /node_modules\//.test(frame[1]!)) return
      out.push({ at, problem: located(pending, frame[1]!, frame[2]!, frame[3]) })
      pending = undefined
      return
    }
    if (!pending.message && line && !/^[-+]\s/.test(line)) pending.message = line
  })
  closePytest()
  return out
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
