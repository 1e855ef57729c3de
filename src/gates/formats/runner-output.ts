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

/**
 * A runner's relative path read from `base` (an npm workspace's, a Go package's, a Cargo workspace's
 * folder) when it names a file of the repository there, else as printed.
 */
export function under(
  base: string | undefined,
  file: string,
  inRepo: (f: string) => boolean
): string {
  if (!base || path.isAbsolute(file) || /^[A-Za-z]:[\\/]|^file:/i.test(file)) return file
  const joined = path.join(base, file)
  return inRepo(joined) ? joined : file
}

/**
 * `test name ... ok` (`test name - should panic ... ok`), `... FAILED`, `... ignored`; the result
 * may come later, after what another test printed meanwhile (`--nocapture`).
 */
const CARGO_RESULT = /^test (\S+)(?: - should panic)? \.\.\.(?:\s*(ok|FAILED|ignored)\b)?/

interface CargoResults {
  /** Named in a `test name ...` line. */
  reported: Set<string>
  ok: Set<string>
  failed: Set<string>
  /** A `test result:` line was printed: the `failures:` list above it names every failure. */
  summary: boolean
}

/**
 * The tests `cargo test` reported: those that passed and those that failed (`... FAILED`, or named
 * under the closing `failures:` list). Over the whole output, not per test binary: cargo's lines and
 * the panics (stderr) and the results (stdout) arrive in an order of their own when merged.
 */
function cargoResults(lines: readonly string[]): CargoResults {
  const results: CargoResults = {
    reported: new Set(),
    ok: new Set(),
    failed: new Set(),
    summary: false
  }
  let listing = false
  for (const line of lines) {
    const text = line.trim()
    const r = CARGO_RESULT.exec(text)
    if (r) results.reported.add(r[1]!)
    if (r?.[2]) (r[2] === 'FAILED' ? results.failed : results.ok).add(r[1]!)
    if (text.startsWith('test result: ')) results.summary = true
    if (text === 'failures:') listing = true
    else if (listing && /^\s{4}\S+$/.test(line)) results.failed.add(text)
    else if (text) listing = false
  }
  return results
}

export function readCargoTests(
  lines: readonly string[],
  inRepo: (file: string) => boolean,
  dirs?: RunnerDirs
): ReadProblem[] {
  const out: ReadProblem[] = []
  let results: CargoResults | undefined
  lines.forEach((line, at) => {
    const m = PANIC.exec(line.trim())
    if (!m) return
    // a test that passed panicked on purpose (`#[should_panic]`, printed with `--nocapture`); a
    // panic outside a reported test (the output cut, a program's `main`) is kept
    const r = (results ??= cargoResults(lines))
    const name = m[1]!
    if (!r.failed.has(name) && r.reported.has(name) && (r.ok.has(name) || r.summary)) return
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
  let waiting: GoLog[] = []
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
    for (const w of pkg[1] === 'FAIL' ? perTest(waiting) : [])
      out.push({ ...w, problem: { ...w.problem, file: under(dir, w.problem.file, inRepo) } })
    waiting = []
    test = undefined
  })
  // no package line (the output was cut): each still a failure, its file unplaced
  return [...out, ...perTest(waiting)]
}

type GoLog = ReadProblem & { problem: GateProblem & { file: string } }

/**
 * One problem per failing test: on its last log line (`t.Error`, `t.Fatal` usually come last), with
 * all its lines, as printed, in its message; its other lines are read (claimed) with it.
 */
function perTest(logs: readonly GoLog[]): GoLog[] {
  const byTest = new Map<string | undefined, GoLog[]>()
  for (const log of logs) {
    const same = byTest.get(log.problem.testName)
    if (same) same.push(log)
    else byTest.set(log.problem.testName, [log])
  }
  return [...byTest.values()].map(group => {
    const last = group[group.length - 1]!
    if (group.length === 1) return last
    const message = group.map(g => `${g.problem.file}:${g.problem.line}: ${g.problem.message}`)
    return {
      ...last,
      also: group.slice(0, -1).map(g => g.at),
      problem: { ...last.problem, message: `${last.problem.message}\n\n${message.join('\n')}` }
    }
  })
}

/** PHPUnit 9-11's sections: `There was 1 failure:`, `There were 2 errors:` (risky, skipped: none). */
const PHPUNIT_SECTION = /^There (?:was|were) \d+ (failure|error|warning)s?:$/
/** A section's test: `1) CalcTest::testAdd` (`with data set #0 (…)` after it). */
const PHPUNIT_TEST = /^\d+\) (\S+::\S+.*)$/
/** A frame: a path and its line, alone on a line. */
const PHPUNIT_FRAME = /^(\S.*\.php):(\d+)$/
/** What ends the sections: the summary (`FAILURES!`, `ERRORS!`, `OK, but …`, `Tests: …`). */
const PHPUNIT_END = /^(?:[A-Z ]+!|OK\b|Tests: \d)/

/**
 * PHPUnit's default output: each failed test (a failure, an error, a warning) on the first frame of
 * its trace in the repository (a test file's line, or the code's where an exception was thrown),
 * titled with the test's name and its first line of message.
 */
export function readPhpunit(
  lines: readonly string[],
  inRepo: (file: string) => boolean
): ReadProblem[] {
  const out: ReadProblem[] = []
  let level: 'error' | 'warning' | undefined
  let test: { name: string; message?: string } | undefined
  lines.forEach((raw, at) => {
    const line = raw.trim()
    const section = PHPUNIT_SECTION.exec(line)
    if (section) level = section[1] === 'warning' ? 'warning' : 'error'
    // the summary starts its line; a diff's quoted `OK` (a context line) is indented
    if (section || PHPUNIT_END.test(raw))
      return void (test = section ? undefined : (level = undefined))
    if (!level) return
    const title = PHPUNIT_TEST.exec(line)
    if (title) return void (test = { name: title[1]! })
    const frame = test && PHPUNIT_FRAME.exec(line)
    if (test && frame && inRepo(frame[1]!)) {
      const { name, message = 'Test failed' } = test
      const problem = { file: frame[1]!, line: Number(frame[2]), level, testName: name, message }
      out.push({ at, problem })
      test = undefined
    } else if (test && line && !frame) test.message ??= line
  })
  return out
}
