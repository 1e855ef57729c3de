import { validate } from './matchers-validator.generated.js'
import path from 'node:path'
import { knownLevel, type GateProblem } from '../problem.js'

/**
 * GitHub problem matchers, the format `::add-matcher::` takes, with the runner's semantics
 * (actions/runner src/Runner.Worker/IssueMatcher.cs): a matcher is one pattern, or several that
 * must match consecutive lines, the last of which may `loop`; a line one matcher matches resets the
 * others; a level it does not know skips the problem; members it does not know are ignored. Users
 * teach the gates a tool with a JSON file; the built-in ones are in `matchers.ts`.
 */
export interface MatcherPattern {
  regexp: string
  file?: number
  fromPath?: number
  line?: number
  column?: number
  severity?: number
  code?: number
  message?: number
  loop?: boolean
}

export interface MatcherConfig {
  owner: string
  severity?: string
  pattern: MatcherPattern[]
  /** Built-in matchers only: a match whose path is no file of the tree is not a problem at all. */
  loose?: boolean
}

const GROUPS = ['file', 'fromPath', 'line', 'column', 'severity', 'code', 'message'] as const
type Group = (typeof GROUPS)[number]

/** A problem matcher file's shape (scripts/validators.ts generates its validator). */
export const MATCHER_SCHEMA = {
  type: 'object',
  required: ['problemMatcher'],
  properties: {
    problemMatcher: {
      type: 'array',
      items: {
        type: 'object',
        required: ['owner', 'pattern'],
        properties: {
          owner: { type: 'string', minLength: 1 },
          severity: {
            type: 'string',
            pattern:
              '^(?:[Ee][Rr][Rr][Oo][Rr]|[Ww][Aa][Rr][Nn][Ii][Nn][Gg]|[Nn][Oo][Tt][Ii][Cc][Ee])?$'
          },
          pattern: {
            type: 'array',
            minItems: 1,
            items: {
              type: 'object',
              required: ['regexp'],
              properties: {
                regexp: { type: 'string' },
                loop: { type: 'boolean' },
                ...Object.fromEntries(GROUPS.map(g => [g, { type: 'integer', minimum: 0 }]))
              }
            }
          }
        }
      }
    }
  }
} as const

/** One matcher, compiled: `match` is fed every line of an output in turn. */
export class ProblemMatcher {
  private readonly patterns: Array<MatcherPattern & { re: RegExp }>
  private state: Array<Partial<Record<Group, string>> | undefined> = []
  /** Where the running match's first line was, for each pattern matched so far. */
  private starts: Array<number | undefined> = []
  /** The first line of the problem `match` last returned (its pattern's first line). */
  from = 0

  constructor(readonly config: MatcherConfig) {
    this.patterns = config.pattern.map(p => ({ ...p, re: new RegExp(p.regexp) }))
    this.reset()
  }

  reset(): void {
    this.state = new Array<undefined>(Math.max(0, this.patterns.length - 1)).fill(undefined)
    this.starts = this.state.map(() => undefined)
  }

  /** The problem a line (line `at` of the output) completes, as the runner's IssueMatcher.Match decides it. */
  match(line: string, at = 0): GateProblem | undefined {
    const last = this.patterns.length - 1
    for (let i = last; i >= 0; i--) {
      const running = i > 0 ? this.state[i - 1] : {}
      if (!running) continue
      const pattern = this.patterns[i]!
      const m = pattern.re.exec(line)
      if (!m) {
        if (i === last) {
          if (i > 0) this.state[i - 1] = undefined
        } else this.state[i] = undefined
        continue
      }
      const values = { ...captured(pattern, m), ...running }
      const from = (i > 0 ? this.starts[i - 1] : undefined) ?? at
      if (i < last) {
        this.state[i] = values
        this.starts[i] = from
        continue
      }
      this.reset()
      // a loop's next problems are their own line only
      if (pattern.loop && i > 0) this.state[i - 1] = running
      this.from = from
      return this.toProblem(values)
    }
    return undefined
  }

  private toProblem(v: Partial<Record<Group, string>>): GateProblem | undefined {
    if (!v.message) return undefined
    const line = v.line ? Number(v.line) : undefined
    const column = v.column ? Number(v.column) : undefined
    // the runner skips what names a level it does not know
    const level = knownLevel(v.severity || this.config.severity || 'error')
    if (!level) return undefined
    let file = v.file || undefined
    // fromPath names a project file the paths are relative to (the runner's convention)
    if (file && v.fromPath && !/^([\\/]|[A-Za-z]:)/.test(file))
      file = path.posix.join(path.posix.dirname(v.fromPath.replace(/\\/g, '/')), file)
    return {
      file,
      line: line && line > 0 ? line : undefined,
      column: column && column > 0 ? column : undefined,
      level,
      // a code in brackets (`[SC2086]`, `(SA5009)`) without them; oxlint's `eslint(no-debugger)` whole
      rule: v.code?.replace(/^[([](.*)[)\]]$/, '$1') || undefined,
      message: v.message.trim(),
      loose: this.config.loose
    }
  }
}

function captured(pattern: MatcherPattern, m: RegExpExecArray): Partial<Record<Group, string>> {
  const out: Partial<Record<Group, string>> = {}
  for (const g of GROUPS) {
    const index = pattern[g]
    if (index !== undefined && m[index] !== undefined) out[g] = m[index]
  }
  return out
}

/**
 * The matchers of one `problemMatcher` file, checked as the runner checks them; the error names the
 * file and what to change.
 */
export function compileMatchers(json: unknown, source: string): ProblemMatcher[] {
  if (!validate(json)) {
    const e = validate.errors?.[0]
    throw new Error(
      `${source} is not a problem matcher file: ${e?.instancePath || '/'} ${e?.message ?? 'is invalid'} (see GitHub's problem matcher format: { "problemMatcher": [{ "owner", "pattern": [{ "regexp", "file", "line", "message", ... }] }] }).`
    )
  }
  const owners = new Set<string>()
  return (json as { problemMatcher: MatcherConfig[] }).problemMatcher.map(config => {
    const where = `${source}: matcher '${config.owner}'`
    if (owners.has(config.owner.toLowerCase())) throw new Error(`${where} is defined twice.`)
    owners.add(config.owner.toLowerCase())
    const set = new Set<Group>()
    config.pattern.forEach((p, i) => {
      let re: RegExp
      try {
        re = new RegExp(p.regexp)
      } catch (error) {
        throw new Error(`${where}, pattern ${i + 1}: ${(error as Error).message}.`)
      }
      if (p.loop && (i === 0 || i !== config.pattern.length - 1))
        throw new Error(`${where}: only the last pattern of several may set 'loop'.`)
      if (p.loop && p.message === undefined)
        throw new Error(`${where}: the loop pattern must set 'message'.`)
      const groups = new RegExp(`${re.source}|`).exec('')!.length
      for (const g of GROUPS) {
        const index = p[g]
        if (index === undefined) continue
        if (set.has(g)) throw new Error(`${where}: '${g}' is set twice.`)
        if (index >= groups)
          throw new Error(
            `${where}, pattern ${i + 1}: '${g}' is group ${index}, but the regexp has ${groups - 1}.`
          )
        set.add(g)
      }
    })
    if (!set.has('message')) throw new Error(`${where}: at least one pattern must set 'message'.`)
    return new ProblemMatcher(config)
  })
}

/** A problem and the output line it was read from (the line that named its location). */
export interface ReadProblem {
  at: number
  /** The first of the lines it was read from, when several (a matcher of several patterns). */
  from?: number
  /** Other lines it was read from, not next to it (a failing Go test's earlier log lines). */
  also?: readonly number[]
  problem: GateProblem
}

/** Runs matchers over an output's lines, as the runner does: the first matcher that matches a line wins. */
export function readWithMatchers(
  lines: readonly string[],
  matchers: readonly ProblemMatcher[]
): ReadProblem[] {
  for (const m of matchers) m.reset()
  const out: ReadProblem[] = []
  lines.forEach((line, at) => {
    for (const m of matchers) {
      const problem = m.match(line, at)
      if (!problem) continue
      for (const other of matchers) if (other !== m) other.reset()
      out.push({ at, from: m.from, problem })
      return
    }
  })
  return out
}
