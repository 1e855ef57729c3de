import { locationOf } from '../loop/findings.js'
import { readdirSync } from 'node:fs'
import path from 'node:path'
import type { CommandRunner, ToolSpec } from '../ports/index.js'
import { numbered, READ_TOOL_SPECS } from '../model/read-tool-specs.js'
import type { ProblemMatcher } from '../gates/formats/problem-matchers.js'
import { tail } from '../gates/formats/text.js'
import type { CheckSpec } from '../loop/settings.js'
import { runOneCheck } from '../gates/run-gates.js'
import { ConfinementBroken } from '../process/command-runner.js'
import { maskSecrets } from '../process/secrets.js'
import { isGitName, locate, readConfined, Refusal, writeConfined } from './confined-fs.js'
import { protectedMatcher } from './protected-paths.js'

export const DISPUTE_REASONS = ['already_satisfied', 'stale', 'out_of_scope', 'wrong'] as const

export interface ToolContext {
  root: string
  protectedPaths: readonly string[]
  /** The gates the fixer may run (its run_check tool), read as the review reads them. */
  gates: readonly CheckSpec[]
  /** The `problem-matchers` input's matchers. */
  matchers?: readonly ProblemMatcher[]
  runner: CommandRunner
  cwd: string
  env: Record<string, string>
  timeoutMs: number
  findingIds: ReadonlySet<string>
  /** The job's secret values: masked in every tool result. */
  secrets: readonly string[]
  /** PR code runs in the sandbox; without it the fixer gets no run_check. */
  sandboxed: boolean
}

export interface ToolOutcome {
  content: string
  isError: boolean
  /** Set by dispute_finding. */
  dispute?: { id: string; reason: string }
  /** Set when a refusal is a boundary the fixer tried to cross (reported to the user). */
  refused?: string
  /** Set when the fixer was refused a protected path: listed with what the fix commit left out. */
  keptOut?: { path: string; reason: string }
}

const MAX_READ = 100_000
/** The most one write_file or edit_file may write. */
export const MAX_WRITE = 1_000_000

/** A write to a protected path, refused: the path and the pattern that protects it. */
class ProtectedRefusal extends Refusal {
  constructor(
    readonly path: string,
    readonly pattern: string
  ) {
    super(`${path} is protected by "${pattern}" (protected-paths): it may not be changed`)
  }
}

function refuseProtected(rel: string, ctx: ToolContext): void {
  const guarded = protectedMatcher(ctx.protectedPaths)(rel)
  if (guarded) throw new ProtectedRefusal(rel, guarded)
}

function walk(root: string, dir: string, out: string[], max: number): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (out.length >= max) return
    if (isGitName(entry.name) || entry.name === 'node_modules' || entry.isSymbolicLink()) continue
    const abs = path.join(dir, entry.name)
    if (entry.isDirectory()) walk(root, abs, out, max)
    else out.push(path.relative(root, abs).split(path.sep).join('/'))
  }
}

const str = (description: string) => ({ type: 'string', description })

/** The fixer's tools as the model sees them; run_check's names are filled in per loop. */
const TOOL_SPECS: readonly ToolSpec[] = [
  ...READ_TOOL_SPECS,
  {
    name: 'edit_file',
    description: 'Replace exactly one occurrence of old_text with new_text in a file.',
    input_schema: {
      type: 'object',
      required: ['path', 'old_text', 'new_text'],
      properties: {
        path: str('File path.'),
        old_text: str('Exact text to replace; must occur once.'),
        new_text: str('Replacement.')
      }
    }
  },
  {
    name: 'write_file',
    description: 'Create or overwrite a file with the given content.',
    input_schema: {
      type: 'object',
      required: ['path', 'content'],
      properties: { path: str('File path.'), content: str('Whole new content.') }
    }
  },
  {
    name: 'run_check',
    description:
      'Run one of the repository checks configured for this loop and see its exit code and output.',
    input_schema: { type: 'object', required: ['name'], properties: {} }
  },
  {
    name: 'dispute_finding',
    description:
      'Dispute a finding instead of changing code for it; the next review sees the reason.',
    input_schema: {
      type: 'object',
      required: ['id', 'reason', 'explanation'],
      properties: {
        id: str('Finding id, such as RL-0123456789.'),
        reason: { enum: DISPUTE_REASONS },
        explanation: str('Why, citing the code.')
      }
    }
  }
]

export function toolSpecs(ctx: Pick<ToolContext, 'gates' | 'sandboxed'>): ToolSpec[] {
  const names = ctx.gates.length
    ? { enum: ctx.gates.map(c => c.name) }
    : str('No checks are configured.')
  // without the sandbox, a check the fixer wrote could read the job's secrets: no run_check
  const specs = ctx.sandboxed ? TOOL_SPECS : TOOL_SPECS.filter(s => s.name !== 'run_check')
  return specs.map(spec =>
    spec.name === 'run_check'
      ? { ...spec, input_schema: { ...spec.input_schema, properties: { name: names } } }
      : { ...spec }
  )
}

type Input = Record<string, unknown>
type Tool = (input: Input, ctx: ToolContext) => ToolOutcome | Promise<ToolOutcome>

const ok = (content: string): ToolOutcome => ({ content, isError: false })
const error = (content: string): ToolOutcome => ({ content, isError: true })

function text(content: Buffer, rel: string): string {
  if (content.includes(0)) throw new Refusal(`${rel} is a binary file`)
  return content.toString('utf8')
}

function readFile(input: Input, ctx: ToolContext): ToolOutcome {
  const read = readConfined(ctx.root, input['path'])
  if (!read) return error(`${String(input['path'])} is not a file`)
  const offset = typeof input['offset'] === 'number' ? input['offset'] : 0
  const limit = typeof input['limit'] === 'number' ? input['limit'] : 2000
  const out = numbered(text(read.content, read.rel), offset, limit)
  return ok(out.length > MAX_READ ? `${out.slice(0, MAX_READ)}\n… (cut; read with offset)` : out)
}

function listFiles(input: Input, ctx: ToolContext): ToolOutcome {
  const { abs } = locate(ctx.root, input['path'] ?? '.')
  const out: string[] = []
  walk(ctx.root, abs, out, 1000)
  return ok(out.join('\n') || '(no files)')
}

function search(input: Input, ctx: ToolContext): ToolOutcome {
  const wanted = String(input['text'] ?? '')
  if (!wanted) return error('text must not be empty')
  const { abs } = locate(ctx.root, input['path'] ?? '.')
  const files: string[] = []
  walk(ctx.root, abs, files, 5000)
  const hits: string[] = []
  for (const file of files) {
    let content: string
    try {
      const read = readConfined(ctx.root, file)
      if (!read || read.content.includes(0)) continue
      content = read.content.toString('utf8')
    } catch {
      continue // a hard-linked or moved file is skipped, not followed
    }
    content.split('\n').forEach((line, i) => {
      if (hits.length < 200 && line.includes(wanted))
        hits.push(`${file}:${i + 1}: ${line.slice(0, 300)}`)
    })
  }
  return ok(hits.join('\n') || 'no matches')
}

function editFile(input: Input, ctx: ToolContext): ToolOutcome {
  const { rel } = locate(ctx.root, input['path'])
  refuseProtected(rel, ctx)
  const read = readConfined(ctx.root, rel)
  if (!read) return error(`${rel} does not exist; use write_file to create it`)
  const before = text(read.content, rel)
  const oldText = String(input['old_text'] ?? '')
  const count = oldText ? before.split(oldText).length - 1 : 0
  if (count !== 1)
    return error(`old_text occurs ${count} times in ${rel}; it must occur exactly once`)
  writeConfined(
    ctx.root,
    rel,
    before.replace(oldText, () => String(input['new_text'] ?? '')),
    MAX_WRITE
  )
  return ok(`edited ${rel}`)
}

function writeFile(input: Input, ctx: ToolContext): ToolOutcome {
  const { rel } = locate(ctx.root, input['path'])
  refuseProtected(rel, ctx)
  writeConfined(ctx.root, rel, String(input['content'] ?? ''), MAX_WRITE)
  return ok(`wrote ${rel}`)
}

async function runCheck(input: Input, ctx: ToolContext): Promise<ToolOutcome> {
  if (!ctx.sandboxed)
    throw new Refusal('run_check is not available: PR code cannot be sandboxed on this runner')
  const check = ctx.gates.find(c => c.name === input['name'])
  if (!check)
    return error(
      `no check named ${String(input['name'])}; configured: ${ctx.gates.map(c => c.name).join(', ') || 'none'}`
    )
  // as the review runs it: its report file read (and removed), its problems located
  const { result: r, read } = await runOneCheck(check, ctx.runner, {
    repoRoot: ctx.root,
    cwd: ctx.cwd,
    env: ctx.env,
    timeoutMs: ctx.timeoutMs,
    matchers: ctx.matchers
  })
  const located = read.findings
    .slice(0, 40)
    .map(f => `${locationOf(f) ?? '(no location)'} [${f.severity}] ${f.title}`)
  return ok(
    [
      `exit code ${r.exitCode}${r.timedOut ? ' (timed out)' : ''}`,
      ...(located.length ? ['findings:', ...located] : []),
      tail(r.output, 80, 8000)
    ].join('\n')
  )
}

function disputeFinding(input: Input, ctx: ToolContext): ToolOutcome {
  const id = String(input['id'] ?? '')
  if (!ctx.findingIds.has(id)) return error(`no open finding has the id ${id}`)
  const reason = `${String(input['reason'] ?? 'wrong')}: ${String(input['explanation'] ?? '').slice(0, 1000)}`
  return { ...ok(`recorded the dispute of ${id}`), dispute: { id, reason } }
}

const TOOLS: Record<string, Tool> = {
  read_file: readFile,
  list_files: listFiles,
  search,
  edit_file: editFile,
  write_file: writeFile,
  run_check: runCheck,
  dispute_finding: disputeFinding
}

/** Runs one tool call. Refusals and errors come back as error results the model can read. */
export async function runTool(name: string, input: Input, ctx: ToolContext): Promise<ToolOutcome> {
  const tool = Object.hasOwn(TOOLS, name) ? TOOLS[name] : undefined
  if (!tool) return error(`unknown tool ${name}`)
  const masked = (outcome: ToolOutcome): ToolOutcome => ({
    ...outcome,
    content: maskSecrets(outcome.content, ctx.secrets)
  })
  try {
    return masked(await tool(input, ctx))
  } catch (e) {
    if (e instanceof ProtectedRefusal) {
      const reason = `the fixer was refused it: it is protected by "${e.pattern}"`
      const keptOut = { path: e.path, reason }
      return masked({
        content: `refused: ${e.message}`,
        isError: true,
        refused: e.message,
        keptOut
      })
    }
    // PR code's user is out of control: the job stops (src/process/pr-user.ts)
    if (e instanceof ConfinementBroken) throw e
    if (e instanceof Refusal)
      return masked({ content: `refused: ${e.message}`, isError: true, refused: e.message })
    return masked(error(`error: ${(e as Error).message}`))
  }
}
