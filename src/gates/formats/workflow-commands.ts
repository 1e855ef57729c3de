import { toolLevel } from '../problem.js'
import type { ReadProblem } from './problem-matchers.js'

/**
 * GitHub workflow commands (`::error file=…,line=…,col=…::message`): what yamllint prints by itself
 * on a runner (GITHUB_ACTIONS and GITHUB_WORKFLOW set), Vitest with GITHUB_ACTIONS=true, and Ruff
 * and others with their `github` format. Escaping as the runner reads it
 * (actions/toolkit packages/core/src/command.ts): `%25 %0D %0A` in the message, and also `%3A %2C`
 * in properties, which end at the first `::`.
 */
const COMMAND = /^::(error|warning|notice)(?:\s+(.*?))?::(.*)$/

function unescapeData(s: string): string {
  return s.replace(/%0D/gi, '\r').replace(/%0A/gi, '\n').replace(/%25/g, '%')
}

function unescapeProperty(s: string): string {
  return unescapeData(s.replace(/%3A/gi, ':').replace(/%2C/gi, ','))
}

function positive(value: string | undefined): number | undefined {
  const n = value === undefined ? NaN : Number(value)
  return Number.isInteger(n) && n > 0 ? n : undefined
}

/** A message without the `path:line[:col]: ` it starts with when that is the file and line given. */
function withoutLocation(message: string, file: string, line: number): string {
  const prefix = `${file}:${line}`
  if (!message.startsWith(prefix)) return message
  const rest = /^(?::\d+)?:\s+/.exec(message.slice(prefix.length))
  return rest ? message.slice(prefix.length + rest[0].length) : message
}

export function readWorkflowCommands(lines: readonly string[]): ReadProblem[] {
  const out: ReadProblem[] = []
  lines.forEach((raw, at) => {
    const m = COMMAND.exec(raw.trim())
    if (!m) return
    const props: Record<string, string> = {}
    for (const pair of (m[2] ?? '').split(',')) {
      const eq = pair.indexOf('=')
      if (eq > 0) props[pair.slice(0, eq).trim()] = unescapeProperty(pair.slice(eq + 1))
    }
    const file = props['file'] || undefined
    const line = positive(props['line'])
    // oxlint starts its message with the location the properties already give
    let message = unescapeData(m[3] ?? '').trim()
    if (file && line) message = withoutLocation(message, file, line)
    out.push({
      at,
      problem: {
        file,
        line,
        endLine: positive(props['endLine']),
        // Vitest 4 writes `column=`, the runner's name is `col`
        column: positive(props['col'] ?? props['column']),
        endColumn: positive(props['endColumn']),
        level: toolLevel(m[1]),
        // a tool's own title names the rule (Ruff's `ruff (F401)`) or the test (Vitest's)
        rule: props['title'] || undefined,
        message: message || props['title'] || m[1]!,
        workflowCommand: true
      }
    })
  })
  return out
}

/**
 * Azure Pipelines' logging command, as Ruff's `azure` format prints it:
 * `##vso[task.logissue type=error;sourcepath=…;linenumber=…;columnnumber=…;code=…;]message`.
 * Escaping as the agent reads it: `%AZP25` for `%`, `%3B` `%0D` `%0A` `%5D` in properties and
 * message.
 */
const AZURE = /^##vso\[task\.logissue\s+([^\]]*)\](.*)$/i

function unescapeAzure(s: string): string {
  return s
    .replace(/%3B/gi, ';')
    .replace(/%0D/gi, '\r')
    .replace(/%0A/gi, '\n')
    .replace(/%5D/gi, ']')
    .replace(/%AZP25/gi, '%')
}

export function readAzureLogIssues(lines: readonly string[]): ReadProblem[] {
  const out: ReadProblem[] = []
  lines.forEach((raw, at) => {
    const m = AZURE.exec(raw.trim())
    if (!m) return
    const props: Record<string, string> = {}
    for (const pair of m[1]!.split(';')) {
      const eq = pair.indexOf('=')
      if (eq > 0) props[pair.slice(0, eq).trim().toLowerCase()] = unescapeAzure(pair.slice(eq + 1))
    }
    out.push({
      at,
      problem: {
        file: props['sourcepath'] || undefined,
        line: positive(props['linenumber']),
        column: positive(props['columnnumber']),
        level: toolLevel(props['type'], 'error'),
        rule: props['code'] || undefined,
        message: unescapeAzure(m[2] ?? '').trim() || props['type'] || 'issue'
      }
    })
  })
  return out
}
