import type { GateProblem } from '../problem.js'
import { toolLevel } from '../problem.js'
import { readWithMatchers, type ProblemMatcher, type ReadProblem } from './problem-matchers.js'
import { readTestFailures } from './test-failures.js'
import { readWorkflowCommands } from './workflow-commands.js'

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*[A-Za-z]|\u001b\][^\u0007]*\u0007/g

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '')
}

/**
 * The loosest form, last: `path:line[:col][:] [error|warning|note:] message [code]`, as gcc, go vet,
 * mypy, staticcheck and ShellCheck -f gcc print it. What it finds is `loose`: kept only where the
 * path names a file of the tree, so a URL or a time is never taken for a location.
 */
const GENERIC =
  /^(?:\.\/)?([^\s:"'<>|()]+):(\d+)(?::(\d+))?(?::\s*|\s+)(?:(error|warning|note|info)\s*:\s*)?(.+?)(?:\s+[[(]((?:SC|SA|S|ST|QF|U)?\d+|[a-z][\w-]*)[\])])?$/i

function readGeneric(lines: readonly string[]): ReadProblem[] {
  const out: ReadProblem[] = []
  lines.forEach((line, at) => {
    const m = GENERIC.exec(line.trim())
    if (!m) return
    out.push({
      at,
      problem: {
        file: m[1],
        line: Number(m[2]),
        column: m[3] ? Number(m[3]) : undefined,
        level: toolLevel(m[4], 'error'),
        rule: m[6],
        message: m[5]!.trim(),
        loose: true
      }
    })
  })
  return out
}

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
  const lines = stripAnsi(output).split(/\r?\n/)
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
    const found = read().filter(r => !claimed.has(r.at))
    for (const r of found) claimed.add(r.at)
    problems.push(...found)
  }
  // in the order they were printed
  return problems.sort((a, b) => a.at - b.at).map(r => r.problem)
}

/** The last lines of an output, for a failing command whose output names no location. */
export function tail(output: string, maxLines = 40, maxChars = 3000): string {
  const lines = stripAnsi(output).trimEnd().split(/\r?\n/)
  let text = lines.slice(-maxLines).join('\n')
  if (text.length > maxChars) text = text.slice(-maxChars)
  return text
}
