import path from 'node:path'
import type { GateProblem } from '../problem.js'
import type { RunnerDirs } from '../paths.js'
import type { ReadProblem } from './problem-matchers.js'

/**
 * `cargo test` 1.73+: `thread 'name' (id) panicked at path:line:col:` then the message; before
 * 1.73: `thread 'name' panicked at 'message', path:line:col`. The path is relative to the Cargo
 * workspace's root, where the command ran from a member too (cargo 1.95).
 */
const PANIC = /^thread '(.+?)'(?: \(\d+\))? panicked at (?:'(.*)', )?([^\s'][^']*?):(\d+):(\d+):?$/

/** A placed path: relative to `base` when it names a file there, else as printed. */
function under(base: string | undefined, file: string, inRepo: (f: string) => boolean): string {
  const joined = base && !path.isAbsolute(file) ? path.join(base, file) : undefined
  return joined && inRepo(joined) ? joined : file
}

export function readCargoTests(
  lines: readonly string[],
  inRepo: (file: string) => boolean,
  dirs?: RunnerDirs
): ReadProblem[] {
  const out: ReadProblem[] = []
  lines.forEach((line, at) => {
    const m = PANIC.exec(line.trim())
    if (!m) return
    const next = lines[at + 1]?.trim()
    const message = m[2] ?? (next && !/^note: /.test(next) ? next : 'panicked')
    const problem: GateProblem = {
      file: under(dirs?.cargoRoot(), m[3]!, inRepo),
      line: Number(m[4]),
      column: Number(m[5]),
      level: 'error',
      testName: m[1],
      message
    }
    out.push({ at, problem })
  })
  return out
}

/** `--- FAIL: TestName (0.00s)` (indented for a subtest), or `=== RUN   TestName` with -v. */
const GO_TEST = /^(?:--- (FAIL|PASS|SKIP): (\S+) \(|=== (?:RUN|CONT|PAUSE|NAME)\s+(\S+)$)/
/** A test's log line: the test file's base name, as `t.Errorf` prints it. */
const GO_LOG = /^([\w.-]+\.go):(\d+): (.*)$/
/** The package's result, after its tests: `FAIL\tmodule/pkg\t0.01s`, `ok  \tmodule/pkg`. */
const GO_PACKAGE = /^(FAIL|ok)\s+(\S+)(?:\s|$)/

/**
 * `go test`: a failing test's `x_test.go:N: message` lines are relative to its package's folder,
 * which the package line after them names by import path (mapped through go.mod). The log lines of
 * a test that passed (`-v`) and of a package that passed are not failures.
 */
export function readGoTests(
  lines: readonly string[],
  inRepo: (file: string) => boolean,
  dirs?: RunnerDirs
): ReadProblem[] {
  const out: ReadProblem[] = []
  let waiting: Array<ReadProblem & { problem: GateProblem & { file: string } }> = []
  let test: string | undefined
  lines.forEach((raw, at) => {
    const line = raw.trim()
    const t = GO_TEST.exec(line)
    if (t) {
      test = t[2] ?? t[3]
      if (t[1] === 'PASS' || t[1] === 'SKIP')
        waiting = waiting.filter(w => w.problem.testName !== test)
      return
    }
    const log = test && GO_LOG.exec(line)
    if (log && raw !== line) {
      const problem = {
        file: log[1]!,
        line: Number(log[2]),
        level: 'error' as const,
        testName: test,
        message: log[3]!
      }
      waiting.push({ at, problem })
      return
    }
    const pkg = /^(?:FAIL|ok)\s/.test(raw) ? GO_PACKAGE.exec(line) : null
    if (!pkg) return
    const dir = pkg[1] === 'FAIL' ? dirs?.goPackage(pkg[2]!) : undefined
    for (const w of pkg[1] === 'FAIL' ? waiting : [])
      out.push({ ...w, problem: { ...w.problem, file: under(dir, w.problem.file, inRepo) } })
    waiting = []
    test = undefined
  })
  // no package line (the output was cut): each still a failure, its file unplaced
  return [...out, ...waiting]
}
