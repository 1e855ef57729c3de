/** A problem located by a gate's output, before it becomes a finding. */
export interface GateProblem {
  file?: string
  line?: number
  column?: number
  endLine?: number
  level: 'error' | 'warning'
  rule?: string
  message: string
}

interface EslintMessage {
  ruleId?: string | null
  severity?: number
  message?: string
  line?: number
  column?: number
  endLine?: number
}

function parseJsonArray(stdout: string): unknown[] | undefined {
  const trimmed = stdout.trim()
  const start = trimmed.indexOf('[{')
  for (const candidate of [trimmed, start >= 0 ? trimmed.slice(start) : '']) {
    if (!candidate.startsWith('[')) continue
    try {
      const parsed: unknown = JSON.parse(candidate)
      if (Array.isArray(parsed)) return parsed
    } catch {
      // not JSON: other parsers get their turn
    }
  }
  return undefined
}

/** ESLint's `-f json` format: an array of { filePath, messages[] }. */
export function parseEslintJson(stdout: string): GateProblem[] | undefined {
  const parsed = parseJsonArray(stdout)
  if (!parsed || !parsed.every(r => typeof r === 'object' && r !== null && 'filePath' in r)) {
    return undefined
  }
  const problems: GateProblem[] = []
  for (const result of parsed as Array<{ filePath: string; messages?: EslintMessage[] }>) {
    for (const m of result.messages ?? []) {
      problems.push({
        file: result.filePath,
        line: m.line,
        column: m.column,
        endLine: m.endLine,
        level: m.severity === 2 ? 'error' : 'warning',
        rule: m.ruleId ?? undefined,
        message: m.message ?? 'ESLint problem'
      })
    }
  }
  return problems
}

const TSC_PLAIN = /^(.+?)\((\d+),(\d+)\): (error|warning) (TS\d+): (.*)$/
const TSC_PRETTY = /^(.+?):(\d+):(\d+) - (error|warning) (TS\d+): (.*)$/
// path:line[:col][:] [error|warning:] message — the form of gcc, go vet, flake8, ruff, shellcheck -f gcc, ...
const FILE_LINE_COL =
  /^(?:\.\/)?([^\s:"'<>|]+\.[\w-]+):(\d+)(?::(\d+))?:?\s*(?:(error|warning|note|info)\s*:?\s*)?(.+)$/i

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g

/**
 * Located problems in line-oriented output: `tsc` diagnostics and the common `path:line:col: message`
 * form. `exists` filters out lines that merely look like locations (URLs, timestamps).
 */
export function parseLocatedLines(
  output: string,
  exists: (file: string) => boolean
): GateProblem[] {
  const problems: GateProblem[] = []
  for (const raw of output.replace(ANSI, '').split(/\r?\n/)) {
    const line = raw.trim()
    const tsc = TSC_PLAIN.exec(line) ?? TSC_PRETTY.exec(line)
    if (tsc) {
      const [, file, l, c, level, code, message] = tsc as unknown as string[]
      if (file && exists(file)) {
        problems.push({
          file,
          line: Number(l),
          column: Number(c),
          level: level === 'warning' ? 'warning' : 'error',
          rule: code,
          message: message ?? ''
        })
      }
      continue
    }
    const generic = FILE_LINE_COL.exec(line)
    if (generic) {
      const [, file, l, c, level, message] = generic as unknown as Array<string | undefined>
      if (file && exists(file)) {
        problems.push({
          file,
          line: Number(l),
          column: c ? Number(c) : undefined,
          level: /warn|note|info/i.test(level ?? '') ? 'warning' : 'error',
          message: (message ?? '').trim()
        })
      }
    }
  }
  return problems
}

/** The last lines of an output, for a failing command whose output names no location. */
export function tail(output: string, maxLines = 40, maxChars = 3000): string {
  const lines = output.replace(ANSI, '').trimEnd().split(/\r?\n/)
  let text = lines.slice(-maxLines).join('\n')
  if (text.length > maxChars) text = text.slice(-maxChars)
  return text
}
