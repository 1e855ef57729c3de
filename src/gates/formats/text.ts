import { plainText } from '../../loop/untrusted.js'
import type { GateProblem } from '../problem.js'
import { toolLevel } from '../problem.js'
import { readWithMatchers, type ProblemMatcher, type ReadProblem } from './problem-matchers.js'
import { readTestFailures } from './test-failures.js'
import { readWorkflowCommands } from './workflow-commands.js'

/**
 * The loosest form, last: `path:line[:col][:] [error|warning|note:] message [code]`, as gcc, go vet,
 * mypy, staticcheck and ShellCheck -f gcc print it; a path may hold spaces and tabs inside. What it
 * finds is `loose`: kept only where the path names a file of the tree or looks like a file's path
 * (see read-output.ts), so a URL or a time is never taken for a location.
 */
const GENERIC =
  /^(?:\.\/)?([^\s:"'<>|()](?:[^:"'<>|()\n]*[^\s:"'<>|()])?):(\d+)(?::(\d+))?(?::\s*|\s+)(?:(error|warning|note|info)\s*:\s*)?(.+)$/i
/** A code at the end of the message: mypy's `[return-value]`, staticcheck's `(SA5009)`, `[SC2086]`. */
const TRAILING_CODE = /\s[[(]((?:SC|SA|S|ST|QF|U)?\d+|[a-z][\w-]*)[\])]$/i

function readGeneric(lines: readonly string[]): ReadProblem[] {
  const out: ReadProblem[] = []
  lines.forEach((line, at) => {
    const m = GENERIC.exec(line.trim())
    if (!m) return
    const text = m[5]!.trim()
    const code = TRAILING_CODE.exec(text)
    out.push({
      at,
      problem: {
        file: m[1],
        line: Number(m[2]),
        column: m[3] ? Number(m[3]) : undefined,
        level: toolLevel(m[4], 'error'),
        rule: code?.[1],
        message: code ? text.slice(0, code.index).trim() : text,
        loose: true
      }
    })
  })
  return out
}

/** The longest line the text readers read (PR code prints what it likes; regexps are not free). */
const MAX_LINE = 4000

/**
 * Located problems in a command's printed output. Readers in order — workflow commands, the user's
 * problem matchers, failing tests, the built-in matchers, the loose form — and the first to read a
 * line keeps it, so one printed line is never two findings.
 */
export function readText(
  output: string,
  matchers: { user: readonly ProblemMatcher[]; builtIn: readonly ProblemMatcher[] },
  inRepo: (file: string) => boolean
): GateProblem[] {
  // a location is at a line's start: the rest of a very long line only slows the regexps down
  // colours and links gone, and a carriage return ends a line (`plainText`), as on a terminal
  const lines = plainText(output)
    .split('\n')
    .map(l => (l.length > MAX_LINE ? l.slice(0, MAX_LINE) : l))
  const claimed = new Set<number>()
  const problems: ReadProblem[] = []
  const readers: Array<() => ReadProblem[]> = [
    () => readWorkflowCommands(lines),
    () => readWithMatchers(lines, matchers.user),
    () => readTestFailures(lines, inRepo),
    () => readWithMatchers(lines, matchers.builtIn),
    () => readGeneric(lines)
  ]
  for (const read of readers) {
    // one by one: a flood of problems spread into push() would overflow the call stack
    for (const r of read()) {
      if (claimed.has(r.at)) continue
      // all the lines a problem was read from: a later reader does not read its first line again
      for (let i = r.from ?? r.at; i <= r.at; i++) claimed.add(i)
      problems.push(r)
    }
  }
  // in the order they were printed
  return problems.sort((a, b) => a.at - b.at).map(r => r.problem)
}

/** The last lines of an output, for a failing command whose output names no location. */
export function tail(output: string, maxLines = 40, maxChars = 3000): string {
  const lines = plainText(output).trimEnd().split('\n')
  let text = lines.slice(-maxLines).join('\n')
  if (text.length > maxChars) text = text.slice(-maxChars)
  return text
}
