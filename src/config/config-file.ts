import type { ErrorObject } from 'ajv'
import { isMap, isNode, isScalar, LineCounter, parseDocument, type Document } from 'yaml'
import schema from '../../schema/review-loop.schema.json' with { type: 'json' }
import { WORKFLOW_ONLY_INPUTS } from '../loop/settings.js'
import { badGlob } from '../review/ignore.js'
import { validate } from './config-validator.generated.js'

/** The repository's settings: every action input a key of the same name and meaning. */
export const CONFIG_PATH = '.github/review-loop.yml'

/** The file is refused beyond this size. */
export const MAX_CONFIG_BYTES = 256 * 1024

/** Values longer than this are described, never echoed: the file is untrusted text. */
const MAX_ECHO = 80

export interface RepoConfig {
  /** Input name → the string the input parser reads ('' never appears: unset keys are absent). */
  inputs: Record<string, string>
  pathInstructions: Array<{ path: string; instructions: string }>
}

/** A wrong config file; the message names the file, the key (and line when known) and the fix. */
export class ConfigError extends Error {
  constructor(
    message: string,
    readonly problems: readonly string[] = [message]
  ) {
    super(message)
    this.name = 'ConfigError'
  }
}

const PATH_INSTRUCTIONS = 'path-instructions'

type Kind = 'boolean' | 'number' | 'list' | 'string' | 'path-instructions'

interface PropertySchema {
  type?: string
  anyOf?: Array<{ type?: string }>
}

const properties = schema.properties as Record<string, PropertySchema>

/** What a key of the schema holds, read from its shape (see scripts/config-schema.ts). */
function kindOf(key: string): Kind {
  const property = properties[key]
  if (key === PATH_INSTRUCTIONS) return 'path-instructions'
  const types = property?.anyOf?.map(s => s.type) ?? [property?.type]
  if (types.includes('boolean')) return 'boolean'
  if (types.includes('number')) return 'number'
  if (types.includes('array')) return 'list'
  return 'string'
}

/** The inputs the file (and the CLI's --set) may give: every input but the workflow-only ones. */
export const SETTING_KEYS: readonly string[] = Object.keys(properties).filter(
  k => k !== PATH_INSTRUCTIONS
)

/** Reads `.github/review-loop.yml`: its settings as input strings, or a ConfigError naming each problem. */
export function parseConfigFile(text: string, source: string = `\`${CONFIG_PATH}\``): RepoConfig {
  const size = Buffer.byteLength(text, 'utf8')
  if (size > MAX_CONFIG_BYTES)
    throw new ConfigError(
      `${source} is ${Math.ceil(size / 1024)} KB; the limit is ${MAX_CONFIG_BYTES / 1024} KB. Keep long texts in the review guidelines file (the \`guidelines\` setting).`
    )
  const file = readYaml(text, source)
  if (file.values === undefined) return { inputs: {}, pathInstructions: [] }
  const values = withoutUnset(file.values)
  // ajv's code for the schema, generated at build time (scripts/validators.ts)
  if (!validate(values)) {
    const problems = describeErrors(validate.errors ?? [], values, file)
    throw new ConfigError(problems.join('\n'), problems)
  }
  const config = toConfig(values)
  const problems = config.pathInstructions.flatMap((entry, i) => globProblem(entry.path, i, file))
  if (problems.length > 0) throw new ConfigError(problems.join('\n'), problems)
  return config
}

/** An input getter that takes the workflow's value when given, else the file's: the workflow overrides. */
export function withConfig(
  get: (name: string) => string,
  config: RepoConfig | undefined
): (name: string) => string {
  if (!config) return get
  return name => {
    const given = get(name)
    if (given !== '') return given
    return Object.hasOwn(config.inputs, name) ? (config.inputs[name] ?? '') : ''
  }
}

interface ParsedFile {
  doc: Document.Parsed
  lines: LineCounter
  source: string
  /** The top-level mapping as plain values; undefined when the file holds no settings. */
  values?: Record<string, unknown>
}

function readYaml(text: string, source: string): ParsedFile {
  const lines = new LineCounter()
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, logLevel: 'error' })
  const file: ParsedFile = { doc, lines, source }
  const [error] = doc.errors
  if (error) {
    const line = lines.linePos(error.pos[0]).line
    const fix =
      error.code === 'DUPLICATE_KEY'
        ? 'Give each setting once.'
        : "Check the indentation, and quote values that contain ': ' or start with a special character."
    throw new ConfigError(
      `${where(file, line)}: is not valid YAML: ${clip(error.message, 200).replace(/\.$/, '')}. ${fix}`
    )
  }
  // an empty file, comments only, or a bare `---`
  if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)) return file
  if (!isMap(doc.contents))
    throw new ConfigError(
      `${where(file, lineOf(file, doc.contents))}: the top level must be a mapping of settings ('max-iterations: 5', one a line), not ${describe(doc.contents.toJSON())}.`
    )
  try {
    file.values = doc.toJS({ maxAliasCount: 100 }) as Record<string, unknown>
  } catch (e) {
    throw new ConfigError(
      `${source}: cannot be read: ${clip(e instanceof Error ? e.message : String(e), 200)}. Avoid YAML aliases.`
    )
  }
  return file
}

/** Keys of the schema that map to null (`key:` with nothing after it) are not set. */
function withoutUnset(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values).filter(
      ([key, value]) => !(value === null && Object.hasOwn(properties, key))
    )
  )
}

function toConfig(values: Record<string, unknown>): RepoConfig {
  const inputs: Record<string, string> = {}
  let pathInstructions: RepoConfig['pathInstructions'] = []
  for (const [key, value] of Object.entries(values)) {
    if (key === PATH_INSTRUCTIONS) pathInstructions = value as RepoConfig['pathInstructions']
    else inputs[key] = Array.isArray(value) ? value.join('\n') : String(value)
  }
  return { inputs, pathInstructions }
}

/** A `path-instructions` glob the reviewer could not match: absolute, `./`, negated or empty. */
function globProblem(glob: string, index: number, file: ParsedFile): string[] {
  const bad = glob.startsWith('!') ? 'a negated glob matches no files here' : badGlob(glob)
  if (!bad) return []
  const line = lineAt(file, [PATH_INSTRUCTIONS, index, 'path'])
  return [
    `${where(file, line)}: \`${PATH_INSTRUCTIONS}\` entry ${index + 1}: the path ${describe(glob)}: ${bad} (for example 'src/api/**').`
  ]
}

// ---- messages ----

function where(file: ParsedFile, line: number | undefined): string {
  return line === undefined ? file.source : `${file.source} (line ${line})`
}

function lineOf(file: ParsedFile, node: unknown): number | undefined {
  if (!isNode(node) || !node.range) return undefined
  return file.lines.linePos(node.range[0]).line
}

/** The line of a top-level key, or of the node at a path below it. */
function lineAt(file: ParsedFile, path: Array<string | number>): number | undefined {
  const [key, ...rest] = path
  if (!isMap(file.doc.contents)) return undefined
  const pair = file.doc.contents.items.find(p => isScalar(p.key) && String(p.key.value) === key)
  if (!pair) return undefined
  const below = rest.length > 0 && isNode(pair.value) ? file.doc.getIn(path, true) : undefined
  return lineOf(file, below) ?? lineOf(file, pair.key)
}

/** Text taken from the file, shortened and stripped of control characters. */
function clip(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, ' ')
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean
}

/** A value as a message may show it: short text quoted, anything else by its kind. */
function describe(value: unknown): string {
  if (value === null || value === undefined) return 'empty'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object') return 'a mapping'
  if (typeof value !== 'string') return String(value)
  if (value.length > MAX_ECHO) return `a text of ${value.length} characters`
  return `'${clip(value, MAX_ECHO)}'`
}

/** A key from the file, in backticks when short enough to show. */
function keyName(key: string): string {
  return key.length > MAX_ECHO ? `a key of ${key.length} characters` : `\`${clip(key, MAX_ECHO)}\``
}

function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost)
    }
    previous = row
  }
  return previous[b.length]!
}

/** The closest known key, when the unknown one looks like a typo of it. */
export function suggestKey(key: string, known: readonly string[]): string | undefined {
  const plain = (k: string): string => k.toLowerCase().replace(/[-_\s]/g, '')
  let best: { key: string; cost: number } | undefined
  for (const candidate of known) {
    const cost = distance(plain(key), plain(candidate))
    if (!best || cost < best.cost) best = { key: candidate, cost }
  }
  if (!best || key.length > MAX_ECHO) return undefined
  return best.cost <= Math.max(2, Math.floor(best.key.length / 4)) ? best.key : undefined
}

// ---- schema errors → messages ----

/** One message per wrong key (or list item), in the order of the file. */
function describeErrors(
  errors: ErrorObject[],
  values: Record<string, unknown>,
  file: ParsedFile
): string[] {
  const problems = new Map<string, { line?: number; text: string }>()
  const described = new Set<string>()
  for (const error of errors) {
    const [key = '', ...rest] = pointer(error.instancePath)
    if (error.instancePath === '' && error.keyword === 'additionalProperties') {
      const unknown = String((error.params as { additionalProperty: string }).additionalProperty)
      problems.set(unknown, { line: lineAt(file, [unknown]), text: unknownKey(unknown) })
    } else if (key === PATH_INSTRUCTIONS) {
      const problem = pathInstructionProblem(error, rest, values[key], file)
      problems.set(`${key}/${rest.join('/')}/${problem.text}`, problem)
    } else if (key !== '' && !described.has(key)) {
      described.add(key)
      for (const [i, problem] of valueProblems(key, values[key], file).entries())
        problems.set(`${key}/${i}`, problem)
    }
  }
  return [...problems.values()]
    .sort((a, b) => (a.line ?? 0) - (b.line ?? 0))
    .map(p => `${where(file, p.line)}: ${p.text}`)
}

function pointer(instancePath: string): string[] {
  return instancePath
    .split('/')
    .slice(1)
    .map(s => s.replace(/~1/g, '/').replace(/~0/g, '~'))
}

function unknownKey(key: string): string {
  if (WORKFLOW_ONLY_INPUTS.includes(key))
    return `\`${key}\` cannot be set in ${CONFIG_PATH}: it is a secret or a per-run setting; pass it in the workflow's \`with:\`.`
  const suggestion = suggestKey(key, Object.keys(properties))
  const hint = suggestion ? `; did you mean \`${suggestion}\`?` : ''
  return `${keyName(key)} is not a review-loop setting${hint} (keys: see schema/review-loop.schema.json)`
}

const CHECK_HINT =
  "; a 'name: command' line in a YAML list must be quoted (- 'lint: npm run lint') or the list written as a block string (checks: |)"

/** What is wrong with a key's value, by what the key holds: the whole value, or each wrong list item. */
function valueProblems(
  key: string,
  value: unknown,
  file: ParsedFile
): Array<{ line?: number; text: string }> {
  const kind = kindOf(key)
  const line = lineAt(file, [key])
  if (kind === 'boolean')
    return [{ line, text: `\`${key}\` must be true or false, not ${describe(value)}.` }]
  if (kind === 'number')
    return [{ line, text: `\`${key}\` must be a number such as 5, not ${describe(value)}.` }]
  if (kind === 'string') {
    const quote =
      typeof value === 'number' || typeof value === 'boolean'
        ? `; quote it: ${key}: '${value}'`
        : ''
    return [{ line, text: `\`${key}\` must be a string, not ${describe(value)}${quote}.` }]
  }
  if (!Array.isArray(value))
    return [
      {
        line,
        text: `\`${key}\` must be a list of strings or one string with an item a line (${key}: |), not ${describe(value)}${key === 'checks' ? CHECK_HINT : ''}.`
      }
    ]
  return value.flatMap((item, i) =>
    typeof item === 'string'
      ? []
      : [
          {
            line: lineAt(file, [key, i]),
            text: `\`${key}\` item ${i + 1} must be a string, not ${describe(item)}${key === 'checks' && typeof item === 'object' && item !== null ? CHECK_HINT : ''}.`
          }
        ]
  )
}

/** What is wrong with `path-instructions` or one of its entries. */
function pathInstructionProblem(
  error: ErrorObject,
  rest: string[],
  value: unknown,
  file: ParsedFile
): { line?: number; text: string } {
  const [index, field] = rest
  const path = [PATH_INSTRUCTIONS, ...rest.map(s => (/^\d+$/.test(s) ? Number(s) : s))]
  const line = lineAt(file, path)
  const shape =
    "a list of entries with a `path` (a glob such as 'src/api/**') and `instructions` (a string)"
  if (index === undefined)
    return { line, text: `\`${PATH_INSTRUCTIONS}\` must be ${shape}, not ${describe(value)}.` }
  const entry = `\`${PATH_INSTRUCTIONS}\` entry ${Number(index) + 1}`
  if (field !== undefined)
    return { line, text: `${entry}: \`${field}\` must be a non-empty string.` }
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty: string }).missingProperty
    return {
      line,
      text: `${entry} lacks \`${missing}\`; each entry has a \`path\` and \`instructions\`.`
    }
  }
  if (error.keyword === 'additionalProperties') {
    const extra = String((error.params as { additionalProperty: string }).additionalProperty)
    const suggestion = suggestKey(extra, ['path', 'instructions'])
    const hint = suggestion ? `; did you mean \`${suggestion}\`?` : '.'
    return {
      line: lineAt(file, [...path, extra]) ?? line,
      text: `${entry}: ${keyName(extra)} is not allowed; an entry has only \`path\` and \`instructions\`${hint}`
    }
  }
  const item = Array.isArray(value) ? (value as unknown[])[Number(index)] : undefined
  return {
    line,
    text: `${entry} must be a mapping with \`path\` and \`instructions\`, not ${describe(item)}.`
  }
}
