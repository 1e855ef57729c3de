import { plainText } from '../../loop/untrusted.js'
import type { RunnerDirs } from '../paths.js'
import type { GateProblem } from '../problem.js'
import { toolLevel } from '../problem.js'
import { readWithMatchers, type ProblemMatcher, type ReadProblem } from './problem-matchers.js'
import { readFormatterChecks, readPathList, type PathList } from './formatters.js'
import { readCargoTests, readGoTests, readPhpunit, under } from './runner-output.js'
import { PY_FRAME, readTap, readTestFailures } from './test-failures.js'
import { readAzureLogIssues, readWorkflowCommands } from './workflow-commands.js'

/**
 * The loosest form, last: `path:line[:col][:] [level:] message [code]`, as gcc, go vet, mypy,
 * staticcheck, cppcheck and ShellCheck -f gcc print it; a path may hold spaces, tabs and quotes
 * inside, or be quoted as git quotes it (`"src/\303\251.js"`). What it finds is `loose`: kept only
 * where the path names a file of the tree or looks like a file's path (see read-output.ts), so a URL
 * or a time is never taken for a location.
 */
const GENERIC =
  /^(?:\.\/)?("(?:[^"\\]|\\.)+"|[^\s:<>|()](?:[^:<>|()\n]*[^\s:<>|()])?):(\d+)(?::(\d+))?(?::\s*|\s+)(?:(error|warning|note|info|information|style|performance|portability)\s*:\s*)?(.+)$/i
/**
 * A code at the end of the message: mypy's `[return-value]`, staticcheck's `(SA5009)`, `[SC2086]`,
 * gcc's `[-Wunused-variable]`.
 */
const TRAILING_CODE = /\s[[(]((?:SC|SA|S|ST|QF|U)?\d+|[a-z][\w-]*|-W[\w=+-]+)[\])]$/i
/** A level and a rule at the end: the unix format's `[Warning/eqeqeq]` (ESLint, oxlint). */
const TRAILING_LEVEL = /\s\[(error|warning|info|note)(?:\/([^\]\s]+))?\]$/i

/**
 * The generic form's problems. A `note:` right after an error or a warning (gcc's, clang's, mypy's,
 * with the source lines they quote between) is part of it: its text is added to the message, and its
 * line is read with it. A note after a blank line, with nothing above it, or with a rule of its own
 * is a problem of its own.
 */
function readGeneric(lines: readonly string[]): ReadProblem[] {
  const out: ReadProblem[] = []
  let host: (ReadProblem & { also: number[] }) | undefined
  lines.forEach((line, at) => {
    if (!line.trim()) host = undefined
    const m = GENERIC.exec(line.trim())
    if (!m) return
    let text = m[5]!.trim()
    const tail = m[4] ? null : TRAILING_LEVEL.exec(text)
    if (tail) text = text.slice(0, tail.index).trim()
    const code = tail ? null : TRAILING_CODE.exec(text)
    const level = toolLevel(m[4] ?? tail?.[1], 'error')
    const message = code ? text.slice(0, code.index).trim() : text
    // a note with a rule of its own (ShellCheck's `[SC2086]`) is a problem of its own
    if (host && level === 'note' && /^note$/i.test(m[4] ?? '') && !code && !tail) {
      host.problem = { ...host.problem, message: `${host.problem.message}\n${line.trim()}` }
      return void host.also.push(at)
    }
    const problem = {
      file: m[1],
      line: Number(m[2]),
      column: m[3] ? Number(m[3]) : undefined,
      level,
      rule: tail?.[2] ?? code?.[1],
      message,
      loose: true
    }
    const read = { at, problem, also: [] }
    out.push(read)
    host = level === 'note' ? undefined : read
  })
  return out
}

/**
 * Location shapes other tools print, each read as the loose form is (a file of the tree, or what
 * looks like a file's path): `"src/app.js", line 3[, column 5]: message` (C compilers and lints of
 * old), `src/app.js(3[,5]): warning[ CODE]: message` (MSBuild-like, with or without a column or
 * code), a `file:///…/src/app.js:3:1[: message]` URI, PHP's `[PHP ]Parse error: message in
 * path on line N` (`php -l`, a script's warnings and notices), JSHint's default `src/app.js: line 3,
 * col 5, message`, and a level in brackets first, `[ERROR] src/App.java:3:5: message` (Checkstyle's
 * plain).
 */
const SHAPES: ReadonlyArray<RegExp> = [
  /^"(?<file>[^"]+)", line (?<line>\d+)(?:[.,]\s*col(?:umn)?\.?\s*(?<col>\d+))?:\s*(?:(?<level>error|warning|note|info)\s*:\s*)?(?<msg>.+)$/i,
  /^(?<file>[^\s()"'][^()"']*?)\((?<line>\d+)(?:,(?<col>\d+))?\)\s*:\s*(?<level>fatal error|error|warning|note|info)(?:\s+(?<code>[A-Z]+\d+))?\s*:\s*(?<msg>.+)$/i,
  /^(?<file>file:\/\/\/\S+?):(?<line>\d+):(?<col>\d+)(?::?\s+(?<msg>.*))?$/,
  /^(?:PHP )?(?<level>Parse error|Fatal error|Warning|Notice|Deprecated):(?=.* on line \d+$)\s+(?<msg>.+) in (?<file>\S.*?) on line (?<line>\d+)$/,
  /^(?<file>[^\s:][^:]*?): line (?<line>\d+), col (?<col>\d+), (?<msg>.+)$/,
  /^\[(?<level>error|warn|warning|info)\]\s+(?<file>[^\s:][^:]*?):(?<line>\d+)(?::(?<col>\d+))?:\s*(?<msg>.+)$/i
]

function readShapes(lines: readonly string[]): ReadProblem[] {
  const out: ReadProblem[] = []
  lines.forEach((line, at) => {
    const g = SHAPES.map(re => re.exec(line.trim())).find(Boolean)?.groups
    if (!g) return
    const level = g['level']?.replace(/^(?:fatal|parse) /i, '')
    out.push({
      at,
      problem: {
        file: g['file'],
        line: Number(g['line']),
        column: g['col'] ? Number(g['col']) : undefined,
        level: toolLevel(level, 'error'),
        rule: g['code'],
        message: g['msg']?.trim() || `${level ?? 'problem'} at this line`,
        loose: true
      }
    })
  })
  return out
}

/** Ruff's `grouped` format: a file's path alone on a line, then its problems indented. */
const GROUP_FILE = /^(\S(?:.*\S)?):$/
const GROUP_ITEM = /^\s+(\d+):(\d+)\s+([A-Z]+\d+|[a-z][\w-]*)\s+(?:\[\*\]\s+)?(.+)$/

function readGrouped(lines: readonly string[]): ReadProblem[] {
  const out: ReadProblem[] = []
  let file: string | undefined
  lines.forEach((line, at) => {
    const item = file ? GROUP_ITEM.exec(line) : null
    if (item) {
      const [, row, column, rule, message] = item
      const problem = { file, line: Number(row), column: Number(column), rule, message: message! }
      return out.push({ at, problem: { ...problem, level: 'error', loose: true } })
    }
    file = GROUP_FILE.exec(line)?.[1]
  })
  return out
}

/** pytest's sections of what a test printed: `----- Captured log call -----` (stdout, stderr). */
const PYTEST_CAPTURED = /^-{3,} Captured (?:log|stdout|stderr) (?:setup|call|teardown) -{3,}$/
/** What ends one: the next test's title (`____ test_x ____`) or a summary's (`==== … ====`). */
const PYTEST_SECTION = /^(?:_{3,}|={3,})\s.*\s(?:_{3,}|={3,})$/

/**
 * Python tracebacks (a crash, a SyntaxError): one problem on the innermost frame in the repository
 * (printed last), with the exception's line, the first unindented line after the frames. A frame
 * followed by `raise X('message')` is left to setup-python's matcher (matchers.ts), as on a runner.
 */
function readTracebacks(
  lines: readonly string[],
  inRepo: (file: string) => boolean
): ReadProblem[] {
  const out: ReadProblem[] = []
  let frames = false
  let last: { at: number; file: string; line: string } | undefined
  let captured = false
  lines.forEach((raw, at) => {
    // what a test logged (`logging.exception` in pytest's "Captured log call") is no crash
    if (PYTEST_CAPTURED.test(raw.trim())) captured = true
    else if (PYTEST_SECTION.test(raw.trim())) captured = false
    if (captured) return
    const frame = PY_FRAME.exec(raw)
    if (frame) {
      frames = true
      if (inRepo(frame[1]!)) last = { at, file: frame[1]!, line: frame[2]! }
      return
    }
    // the source line and its caret are indented; the exception's line is not
    if (!frames || !raw.trim() || /^\s/.test(raw)) return
    // a frame with its `raise X('message')` is setup-python's matcher's, read after this
    const raise = last && /^\s*raise\s(.*)\('(.*)'\)$/.test(lines[last.at + 1] ?? '')
    if (last && !raise) {
      const problem = {
        file: last.file,
        line: Number(last.line),
        level: 'error' as const,
        message: raw.trim(),
        crash: true
      }
      out.push({ at: last.at, problem })
    }
    frames = false
    last = undefined
  })
  return out
}

/** npm's header before a script's output: `> name@version script` (npm 7+). */
const NPM_HEADER = /^> (@?[^\s@]+)(?:@\S+)? [\w:.-]+$/

/**
 * npm runs a script in its package's folder (`npm run x -w packages/app`, `--workspaces`): the
 * relative paths printed after `> @scope/app@1.0.0 x` start there, when they name a file there.
 */
function inWorkspaces(
  lines: readonly string[],
  problems: ReadProblem[],
  inRepo: (file: string) => boolean,
  dirs: RunnerDirs | undefined
): ReadProblem[] {
  if (!dirs || !lines.some(l => l.startsWith('> '))) return problems
  const base: Array<string | undefined> = []
  let dir: string | undefined
  lines.forEach((line, at) => {
    const header = NPM_HEADER.exec(line)
    dir = (header && dirs.npmPackage(header[1]!)) || dir
    base[at] = dir
  })
  return problems.map(r => {
    const file = r.problem.file
    const placed = file && under(base[r.at], file, inRepo)
    return placed && placed !== file ? { ...r, problem: { ...r.problem, file: placed } } : r
  })
}

/** The longest line the text readers read (PR code prints what it likes; regexps are not free). */
const MAX_LINE = 4000
/** A line as the readers read it: its first MAX_LINE characters. */
export const cutLine = (l: string): string => (l.length > MAX_LINE ? l.slice(0, MAX_LINE) : l)

/**
 * Located problems in a command's printed output. Readers in order — workflow commands, the user's
 * problem matchers, failing tests (and crashes' stacks), formatter checks, the built-in matchers,
 * other location shapes, the loose form, a bare list of paths (as `list` says) — and the first to
 * read a line keeps it, so one printed line is never two findings. `dirs` says where runners'
 * relative paths start (see RunnerDirs).
 */
export function readText(
  output: string,
  matchers: { user: readonly ProblemMatcher[]; builtIn: readonly ProblemMatcher[] },
  inRepo: (file: string) => boolean,
  dirs?: RunnerDirs,
  list?: PathList
): GateProblem[] {
  // a location is at a line's start: the rest of a very long line only slows the regexps down
  // colours and links gone, and a carriage return ends a line (`plainText`), as on a terminal
  const lines = plainText(output).split('\n').map(cutLine)
  const claimed = new Set<number>()
  const problems: ReadProblem[] = []
  const readers: Array<() => ReadProblem[]> = [
    () => readWorkflowCommands(lines),
    () => readAzureLogIssues(lines),
    () => readWithMatchers(lines, matchers.user),
    () => readTestFailures(lines, inRepo),
    () => readTap(lines, inRepo),
    () => readCargoTests(lines, inRepo, dirs),
    () => readGoTests(lines, inRepo, dirs),
    () => readPhpunit(lines, inRepo),
    () => readTracebacks(lines, inRepo),
    () => readFormatterChecks(lines),
    () => readWithMatchers(lines, matchers.builtIn),
    () => readGrouped(lines),
    () => readShapes(lines),
    () => readGeneric(lines),
    () => readPathList(lines, inRepo, list)
  ]
  for (const read of readers) {
    // one by one: a flood of problems spread into push() would overflow the call stack
    for (const r of read()) {
      if (claimed.has(r.at)) continue
      // all the lines a problem was read from: a later reader does not read its first line again
      for (let i = r.from ?? r.at; i <= r.at; i++) claimed.add(i)
      for (const i of r.also ?? []) claimed.add(i)
      problems.push(r)
    }
  }
  // in the order they were printed
  return inWorkspaces(lines, problems, inRepo, dirs)
    .sort((a, b) => a.at - b.at)
    .map(r => r.problem)
}

/** The last lines of an output, for a failing command whose output names no location. */
export function tail(output: string, maxLines = 40, maxChars = 3000): string {
  const lines = plainText(output).trimEnd().split('\n')
  let text = lines.slice(-maxLines).join('\n')
  if (text.length > maxChars) text = text.slice(-maxChars)
  return text
}
