import type { ToolLevel } from '../../loop/settings.js'
import { toolLevel, type GateProblem } from '../problem.js'
import { isCargoMessage, readCargoMessage } from './cargo-messages.js'
import { isObject, num, plus1, str, type Json } from './json-values.js'
import { isRdjson, isRdjsonDiagnostic, readRdjson } from './rdjson.js'
import { isSarif, readSarif } from './sarif.js'

/**
 * The JSON reports tools write, each known by its shape. Every reader is pure: the report in,
 * problems with the paths as printed out. Sources of the shapes: the fixtures in
 * __tests__/fixtures/gates, each captured from the tool and version it names.
 */

interface ArrayShape {
  format: string
  accepts(item: Json): boolean
  read(item: Json): GateProblem[]
  /** What the problems of the whole list become (mypy's notes join the error above them). */
  fold?(problems: GateProblem[]): GateProblem[]
}

/**
 * Code Climate issues (GitLab code quality: Ruff --output-format gitlab, eslint-formatter-gitlab,
 * golangci-lint code-climate): `{ description, check_name, severity, location: { path, lines:
 * { begin } | positions: { begin: { line, column } } } }`, severity info, minor, major, critical or
 * blocker.
 */
function readCodeClimate(i: Json): GateProblem[] {
  const at = i['location'] as Json
  const lines = isObject(at['lines']) ? at['lines'] : {}
  const positions = isObject(at['positions']) ? at['positions'] : {}
  const begin = isObject(positions['begin']) ? positions['begin'] : {}
  const end = isObject(positions['end']) ? positions['end'] : {}
  const rule = str(i['check_name'])
  const text = str(i['description']) ?? 'Code Climate issue'
  return [
    {
      file: at['path'] as string,
      line: num(lines['begin']) ?? num(begin['line']),
      column: num(begin['column']),
      endLine: num(lines['end']) ?? num(end['line']),
      endColumn: num(end['column']),
      level: toolLevel(str(i['severity']), 'warning'),
      rule,
      // Ruff's description repeats its code
      message: rule && text.startsWith(`${rule}: `) ? text.slice(rule.length + 2) : text
    }
  ]
}

/** mypy -O json: a note (a line of its own in some versions) belongs to the error above it. */
function foldNotes(problems: GateProblem[]): GateProblem[] {
  const out: GateProblem[] = []
  for (const p of problems) {
    const above = out[out.length - 1]
    if (p.level === 'note' && above && above.file === p.file && above.level !== 'note')
      out[out.length - 1] = { ...above, message: `${above.message}\n${p.message}` }
    else out.push(p)
  }
  return out
}

/** Bandit's issue_severity: HIGH, MEDIUM, LOW. */
const BANDIT_LEVELS: Record<string, ToolLevel> = { HIGH: 'error', MEDIUM: 'warning', LOW: 'note' }
const banditLevel = (severity: string): ToolLevel =>
  Object.hasOwn(BANDIT_LEVELS, severity) ? BANDIT_LEVELS[severity]! : 'error'

const ARRAY_SHAPES: readonly ArrayShape[] = [
  {
    // Bandit -f json: { results: [{ filename, line_number, col_offset, issue_severity, test_id, issue_text }] }
    format: 'bandit-json',
    accepts: i => typeof i['filename'] === 'string' && typeof i['issue_severity'] === 'string',
    read: i => [
      {
        file: i['filename'] as string,
        line: num(i['line_number']),
        column: plus1(i['col_offset']),
        level: banditLevel(i['issue_severity'] as string),
        rule: str(i['test_id']),
        message: str(i['issue_text']) ?? 'Bandit issue'
      }
    ]
  },
  {
    // ESLint 9 -f json: [{ filePath, messages: [{ ruleId, severity 1|2, message, line, column, endLine, endColumn }] }]
    format: 'eslint-json',
    accepts: i => typeof i['filePath'] === 'string' && Array.isArray(i['messages']),
    read: i =>
      (i['messages'] as unknown[]).filter(isObject).map(m => ({
        file: i['filePath'] as string,
        line: num(m['line']),
        column: num(m['column']),
        endLine: num(m['endLine']),
        endColumn: num(m['endColumn']),
        level: m['severity'] === 2 ? 'error' : 'warning',
        rule: str(m['ruleId']),
        message: str(m['message']) ?? 'ESLint problem'
      }))
  },
  {
    // stylelint 16-18 -f json: [{ source, warnings: [{ line, column, endLine, endColumn, rule, severity, text }] }]
    format: 'stylelint-json',
    accepts: i => typeof i['source'] === 'string' && Array.isArray(i['warnings']),
    read: i =>
      (i['warnings'] as unknown[]).filter(isObject).map(w => ({
        file: i['source'] as string,
        line: num(w['line']),
        column: num(w['column']),
        endLine: num(w['endLine']),
        endColumn: num(w['endColumn']),
        level: toolLevel(str(w['severity'])),
        rule: str(w['rule']),
        message: (str(w['text']) ?? 'stylelint problem').replace(/\s+\([\w/@-]+\)$/, '')
      }))
  },
  {
    // Ruff json / json-lines: [{ code, message, filename, location: { row, column }, end_location }]
    format: 'ruff-json',
    accepts: i =>
      typeof i['filename'] === 'string' && isObject(i['location']) && 'row' in i['location'],
    read: i => {
      const start = i['location'] as Json
      const end = isObject(i['end_location']) ? i['end_location'] : {}
      return [
        {
          file: i['filename'] as string,
          line: num(start['row']),
          column: num(start['column']),
          endLine: num(end['row']),
          endColumn: num(end['column']),
          level: toolLevel(str(i['severity'])),
          rule: str(i['code']),
          message: str(i['message']) ?? 'Ruff problem'
        }
      ]
    }
  },
  {
    // Pylint 2-3 -f json (json2's `messages` too): 0-based columns; its type is the level
    format: 'pylint-json',
    accepts: i =>
      typeof i['path'] === 'string' &&
      typeof i['type'] === 'string' &&
      (typeof i['message-id'] === 'string' || typeof i['messageId'] === 'string'),
    read: i => [
      {
        file: i['path'] as string,
        line: num(i['line']),
        column: plus1(i['column']),
        endLine: num(i['endLine']),
        endColumn: plus1(i['endColumn']),
        level: toolLevel(i['type'] as string),
        rule: str(i['message-id']) ?? str(i['messageId']),
        message: str(i['message']) ?? 'Pylint problem'
      }
    ]
  },
  {
    // ShellCheck 0.9 -f json (json1's `comments`) and hadolint 2 -f json: { file, line, column, level, code, message }
    format: 'shellcheck-json',
    accepts: i =>
      typeof i['file'] === 'string' &&
      typeof i['level'] === 'string' &&
      typeof i['line'] === 'number' &&
      (typeof i['code'] === 'number' || typeof i['code'] === 'string'),
    read: i => [
      {
        file: i['file'] as string,
        line: num(i['line']),
        column: num(i['column']),
        endLine: num(i['endLine']),
        endColumn: num(i['endColumn']),
        level: toolLevel(i['level'] as string),
        rule: typeof i['code'] === 'number' ? `SC${i['code']}` : (i['code'] as string),
        message: str(i['message']) ?? 'problem'
      }
    ]
  },
  {
    // staticcheck 2023 -f json (one object a line): { code, severity, location: { file, line, column }, end, message }
    format: 'staticcheck-json',
    accepts: i => isObject(i['location']) && typeof i['location']['file'] === 'string',
    read: i => {
      const at = i['location'] as Json
      const end = isObject(i['end']) ? i['end'] : {}
      return [
        {
          file: at['file'] as string,
          line: num(at['line']),
          column: num(at['column']),
          endLine: num(end['line']),
          endColumn: num(end['column']),
          level: toolLevel(str(i['severity'])),
          rule: str(i['code']),
          message: str(i['message']) ?? 'staticcheck problem'
        }
      ]
    }
  },
  {
    // golangci-lint 1-2 --out-format json's Issues: { FromLinter, Text, Severity, Pos: { Filename, Line, Column } }
    format: 'golangci-json',
    accepts: i => isObject(i['Pos']) && typeof i['Text'] === 'string',
    read: i => {
      const pos = i['Pos'] as Json
      return [
        {
          file: str(pos['Filename']),
          line: num(pos['Line']),
          column: num(pos['Column']) || undefined,
          level: toolLevel(str(i['Severity'])),
          rule: str(i['FromLinter']),
          message: i['Text'] as string
        }
      ]
    }
  },
  {
    format: 'code-climate',
    accepts: i =>
      typeof i['description'] === 'string' &&
      (i['type'] === undefined || i['type'] === 'issue') &&
      isObject(i['location']) &&
      typeof i['location']['path'] === 'string' &&
      (isObject(i['location']['lines']) || isObject(i['location']['positions'])),
    read: readCodeClimate
  },
  {
    // mypy 1.11+ -O json, one object a line: { file, line, column (0-based), message, hint, code, severity }
    format: 'mypy-json',
    accepts: i =>
      typeof i['file'] === 'string' &&
      typeof i['severity'] === 'string' &&
      typeof i['message'] === 'string' &&
      'hint' in i,
    read: i => [
      {
        file: i['file'] as string,
        line: num(i['line']),
        column: plus1(i['column']),
        endLine: num(i['end_line']),
        endColumn: num(i['end_column']),
        level: toolLevel(i['severity'] as string),
        rule: str(i['code']),
        message: [i['message'] as string, str(i['hint'])].filter(Boolean).join('\n')
      }
    ],
    fold: foldNotes
  },
  {
    format: 'cargo-json',
    accepts: isCargoMessage,
    read: readCargoMessage
  },
  {
    // reviewdog rdjsonl
    format: 'rdjsonl',
    accepts: isRdjsonDiagnostic,
    read: i => readRdjson([i])
  }
]

/** A 1-based line and column at a UTF-8 byte offset of a text (Biome 1's spans). */
function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  const before = new TextDecoder().decode(new TextEncoder().encode(text).slice(0, offset))
  const lines = before.split('\n')
  return { line: lines.length, column: lines[lines.length - 1]!.length + 1 }
}

/**
 * Biome --reporter=json: `{ diagnostics: [{ category, severity, location }] }`. Biome 2 gives
 * `location: { path, start: { line, column }, end }` and `message`; Biome 1 `location: { path:
 * { file }, span: [from, to], sourceCode }` (byte offsets into sourceCode) and `description`.
 */
function readBiome(d: Json): GateProblem {
  const at = isObject(d['location']) ? d['location'] : {}
  const path = isObject(at['path']) ? str(at['path']['file']) : str(at['path'])
  let start = isObject(at['start']) ? at['start'] : {}
  let end = isObject(at['end']) ? at['end'] : {}
  const span = at['span']
  const source = str(at['sourceCode'])
  if (Array.isArray(span) && typeof span[0] === 'number' && typeof span[1] === 'number' && source) {
    start = lineColumnAt(source, span[0])
    end = lineColumnAt(source, span[1])
  }
  return {
    file: path,
    line: num(start['line']),
    column: num(start['column']),
    endLine: num(end['line']),
    endColumn: num(end['column']),
    level: toolLevel(str(d['severity'])),
    rule: str(d['category']),
    message: str(d['message']) ?? str(d['description']) ?? 'Biome problem'
  }
}

/** oxlint 1 -f json: `{ diagnostics: [{ code, severity, message, filename, labels: [{ span: { line, column } }] }] }`. */
function readOxlint(d: Json): GateProblem {
  const labels = Array.isArray(d['labels']) ? d['labels'].filter(isObject) : []
  const span = isObject(labels[0]?.['span']) ? labels[0]['span'] : {}
  return {
    file: str(d['filename']),
    line: num(span['line']),
    column: num(span['column']),
    level: toolLevel(str(d['severity'])),
    rule: str(d['code']),
    message: str(d['message']) ?? 'oxlint problem'
  }
}

/** RuboCop --format json: `{ files: [{ path, offenses: [{ severity, cop_name, message, location }] }] }`. */
function readRubocop(files: Json[]): GateProblem[] {
  return files.flatMap(f =>
    (Array.isArray(f['offenses']) ? f['offenses'].filter(isObject) : []).map(o => {
      const at = isObject(o['location']) ? o['location'] : {}
      const rule = str(o['cop_name'])
      const message = str(o['message']) ?? 'RuboCop offense'
      return {
        file: str(f['path']),
        line: num(at['start_line']) ?? num(at['line']),
        column: num(at['start_column']) ?? num(at['column']),
        endLine: num(at['last_line']),
        endColumn: plus1(at['last_column']),
        level: toolLevel(str(o['severity'])),
        rule,
        // its message repeats the cop's name
        message: rule && message.startsWith(`${rule}: `) ? message.slice(rule.length + 2) : message
      }
    })
  )
}

/** Reports that wrap a list of their own: Biome's and oxlint's diagnostics, RuboCop's files. */
function unwrapLinter(json: Json): { format: string; problems: GateProblem[] } | undefined {
  const diagnostics = Array.isArray(json['diagnostics']) ? json['diagnostics'] : undefined
  if (diagnostics?.every(d => isObject(d) && typeof d['filename'] === 'string'))
    return { format: 'oxlint-json', problems: (diagnostics as Json[]).map(readOxlint) }
  if (
    diagnostics?.every(d => isObject(d) && typeof d['category'] === 'string') &&
    isObject(json['summary'])
  )
    return { format: 'biome-json', problems: (diagnostics as Json[]).map(readBiome) }
  const files = json['files']
  if (
    Array.isArray(files) &&
    files.every(f => isObject(f) && typeof f['path'] === 'string' && Array.isArray(f['offenses']))
  )
    return { format: 'rubocop-json', problems: readRubocop(files as Json[]) }
  return undefined
}

/** Objects that wrap a list: Pyright's generalDiagnostics, ShellCheck json1, Pylint json2, golangci-lint. */
function unwrap(json: Json): { format: string; problems: GateProblem[] } | undefined {
  if (isSarif(json)) return { format: 'sarif', problems: readSarif(json) }
  const linter = unwrapLinter(json)
  if (linter) return linter
  if (isRdjson(json))
    return {
      format: 'rdjson',
      problems: readRdjson(json['diagnostics'] as unknown[], str(json['severity']))
    }
  if (Array.isArray(json['generalDiagnostics'])) {
    // Pyright --outputjson: 0-based lines and characters
    return {
      format: 'pyright-json',
      problems: (json['generalDiagnostics'] as unknown[]).filter(isObject).map(d => {
        const range = isObject(d['range']) ? d['range'] : {}
        const start = isObject(range['start']) ? range['start'] : {}
        const end = isObject(range['end']) ? range['end'] : {}
        return {
          file: str(d['file']),
          line: plus1(start['line']),
          column: plus1(start['character']),
          endLine: plus1(end['line']),
          endColumn: plus1(end['character']),
          level: toolLevel(str(d['severity'])),
          rule: str(d['rule']),
          message: str(d['message']) ?? 'Pyright problem'
        }
      })
    }
  }
  // ESLint -f json-with-metadata: { results, metadata }
  for (const key of ['comments', 'messages', 'Issues', 'results']) {
    if (Array.isArray(json[key])) return readArray(json[key] as unknown[])
  }
  return readArray([json])
}

function readArray(
  items: readonly unknown[]
): { format: string; problems: GateProblem[] } | undefined {
  if (!items.every(isObject)) return undefined
  if (items.length === 0) return { format: 'json', problems: [] }
  const shape = ARRAY_SHAPES.find(s => (items as Json[]).every(i => s.accepts(i)))
  if (!shape) return undefined
  const problems = (items as Json[]).flatMap(i => shape.read(i))
  return { format: shape.format, problems: shape.fold ? shape.fold(problems) : problems }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/**
 * A JSON report in a command's stdout: the whole of it, or from the first line that opens an array
 * or object (npm prints a banner before a script's output), or one object a line (JSON Lines).
 * Undefined when it is none of the shapes above, so the text readers get their turn.
 */
export function readJsonReport(
  stdout: string
): { format: string; problems: GateProblem[] } | undefined {
  const text = stdout.trim()
  if (!text) return undefined
  const lines = text.split(/\r?\n/)
  const start = lines.findIndex(l => /^\s*[[{]/.test(l))
  if (start < 0) return undefined
  for (const candidate of [text, lines.slice(start).join('\n')]) {
    const json = parse(candidate)
    if (Array.isArray(json)) return readArray(json)
    if (isObject(json)) return unwrap(json)
  }
  const objects = lines.slice(start).filter(l => l.trim())
  if (!objects.every(l => l.trim().startsWith('{'))) return undefined
  const parsed = objects.map(l => parse(l))
  return parsed.every(isObject) ? readArray(parsed) : undefined
}
