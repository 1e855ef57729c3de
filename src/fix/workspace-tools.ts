import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { CommandRunner, ToolSpec } from '../ports/index.js'
import { tail } from '../gates/parsers.js'
import { isProtected } from './protected-paths.js'

export const DISPUTE_REASONS = ['already_satisfied', 'stale', 'out_of_scope', 'wrong'] as const

export interface ToolContext {
  root: string
  protectedPaths: readonly string[]
  /** The gates the fixer may run (its run_check tool). */
  gates: ReadonlyArray<{ name: string; command: string }>
  runner: CommandRunner
  cwd: string
  env: Record<string, string>
  timeoutMs: number
  findingIds: ReadonlySet<string>
}

export interface ToolOutcome {
  content: string
  isError: boolean
  /** Set by dispute_finding. */
  dispute?: { id: string; reason: string }
  /** Set when a refusal is a boundary the fixer tried to cross (reported to the user). */
  refused?: string
}

export class ToolRefusal extends Error {}

const MAX_READ = 100_000

/**
 * Resolves a path the model gave, inside the workspace: no absolute paths, no `..`, nothing in a
 * .git folder, and no symbolic link anywhere along the path (a link could lead into .git or out of
 * the workspace, even a dangling one when written through).
 */
export function resolveInside(root: string, given: unknown): { abs: string; rel: string } {
  if (typeof given !== 'string' || given.trim() === '')
    throw new ToolRefusal('path must be a non-empty string')
  const rel = given.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '') || '.'
  if (path.isAbsolute(rel) || /^[a-zA-Z]:/.test(rel))
    throw new ToolRefusal(`absolute paths are not allowed: ${given}`)
  const parts = rel.split('/').filter(p => p !== '' && p !== '.')
  if (parts.includes('..')) throw new ToolRefusal(`paths may not contain '..': ${given}`)
  if (parts.includes('.git')) throw new ToolRefusal('the .git folder is off limits')
  let probe = root
  for (const part of parts) {
    probe = path.join(probe, part)
    let stat
    try {
      stat = lstatSync(probe)
    } catch {
      break // the rest does not exist yet: nothing below can be a link
    }
    if (stat.isSymbolicLink())
      throw new ToolRefusal(`${given} goes through a symbolic link; links are not followed`)
  }
  const abs = path.join(root, ...parts)
  return { abs, rel: parts.join('/') || '.' }
}

function refuseProtected(rel: string, ctx: ToolContext): void {
  if (isProtected(rel, ctx.protectedPaths))
    throw new ToolRefusal(
      `${rel} is protected (protected-paths, .github/workflows/**): it may not be changed`
    )
}

function numbered(text: string, offset: number, limit: number): string {
  const lines = text.split('\n')
  return lines
    .slice(offset, offset + limit)
    .map((l, i) => `${String(offset + i + 1).padStart(5)}  ${l}`)
    .join('\n')
}

function walk(root: string, dir: string, out: string[], max: number): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (out.length >= max) return
    if (entry.name === '.git' || entry.name === 'node_modules' || entry.isSymbolicLink()) continue
    const abs = path.join(dir, entry.name)
    if (entry.isDirectory()) walk(root, abs, out, max)
    else out.push(path.relative(root, abs).split(path.sep).join('/'))
  }
}

const str = (description: string) => ({ type: 'string', description })

/** The fixer's tools as the model sees them; run_check's names are filled in per loop. */
const TOOL_SPECS: readonly ToolSpec[] = [
  {
    name: 'read_file',
    description: 'Read a text file of the workspace, with line numbers.',
    input_schema: {
      type: 'object',
      required: ['path'],
      properties: {
        path: str('Path relative to the repository root.'),
        offset: { type: 'integer', minimum: 0 },
        limit: { type: 'integer', minimum: 1 }
      }
    }
  },
  {
    name: 'list_files',
    description:
      'List files under a folder of the workspace (recursively, without .git and node_modules).',
    input_schema: {
      type: 'object',
      properties: { path: str('Folder relative to the repository root; default the root.') }
    }
  },
  {
    name: 'search',
    description: 'Find lines containing a text (not a regex) in the workspace files.',
    input_schema: {
      type: 'object',
      required: ['text'],
      properties: { text: str('Text to find.'), path: str('Folder to search; default the root.') }
    }
  },
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

export function toolSpecs(ctx: Pick<ToolContext, 'gates'>): ToolSpec[] {
  const names = ctx.gates.length
    ? { enum: ctx.gates.map(c => c.name) }
    : str('No checks are configured.')
  return TOOL_SPECS.map(spec =>
    spec.name === 'run_check'
      ? { ...spec, input_schema: { ...spec.input_schema, properties: { name: names } } }
      : { ...spec }
  )
}

type Input = Record<string, unknown>
type Tool = (input: Input, ctx: ToolContext) => ToolOutcome | Promise<ToolOutcome>

const ok = (content: string): ToolOutcome => ({ content, isError: false })
const error = (content: string): ToolOutcome => ({ content, isError: true })

function readFile(input: Input, ctx: ToolContext): ToolOutcome {
  const { abs, rel } = resolveInside(ctx.root, input['path'])
  if (!existsSync(abs) || !lstatSync(abs).isFile()) return error(`${rel} is not a file`)
  const text = readFileSync(abs, 'utf8')
  const offset = typeof input['offset'] === 'number' ? input['offset'] : 0
  const limit = typeof input['limit'] === 'number' ? input['limit'] : 2000
  const out = numbered(text, offset, limit)
  return ok(out.length > MAX_READ ? `${out.slice(0, MAX_READ)}\n… (cut; read with offset)` : out)
}

function listFiles(input: Input, ctx: ToolContext): ToolOutcome {
  const { abs } = resolveInside(ctx.root, input['path'] ?? '.')
  const out: string[] = []
  walk(ctx.root, abs, out, 1000)
  return ok(out.join('\n') || '(no files)')
}

function search(input: Input, ctx: ToolContext): ToolOutcome {
  const text = String(input['text'] ?? '')
  if (!text) return error('text must not be empty')
  const { abs } = resolveInside(ctx.root, input['path'] ?? '.')
  const files: string[] = []
  walk(ctx.root, abs, files, 5000)
  const hits: string[] = []
  for (const file of files) {
    const content = readFileSync(path.join(ctx.root, file), 'utf8')
    if (content.includes('\0')) continue
    content.split('\n').forEach((line, i) => {
      if (hits.length < 200 && line.includes(text))
        hits.push(`${file}:${i + 1}: ${line.slice(0, 300)}`)
    })
  }
  return ok(hits.join('\n') || 'no matches')
}

function editFile(input: Input, ctx: ToolContext): ToolOutcome {
  const { abs, rel } = resolveInside(ctx.root, input['path'])
  refuseProtected(rel, ctx)
  if (!existsSync(abs)) return error(`${rel} does not exist; use write_file to create it`)
  const text = readFileSync(abs, 'utf8')
  const oldText = String(input['old_text'] ?? '')
  const count = oldText ? text.split(oldText).length - 1 : 0
  if (count !== 1)
    return error(`old_text occurs ${count} times in ${rel}; it must occur exactly once`)
  writeFileSync(
    abs,
    text.replace(oldText, () => String(input['new_text'] ?? ''))
  )
  return ok(`edited ${rel}`)
}

function writeFile(input: Input, ctx: ToolContext): ToolOutcome {
  const { abs, rel } = resolveInside(ctx.root, input['path'])
  refuseProtected(rel, ctx)
  mkdirSync(path.dirname(abs), { recursive: true })
  writeFileSync(abs, String(input['content'] ?? ''))
  return ok(`wrote ${rel}`)
}

async function runCheck(input: Input, ctx: ToolContext): Promise<ToolOutcome> {
  const check = ctx.gates.find(c => c.name === input['name'])
  if (!check)
    return error(
      `no check named ${String(input['name'])}; configured: ${ctx.gates.map(c => c.name).join(', ') || 'none'}`
    )
  const r = await ctx.runner.run(check.command, {
    cwd: ctx.cwd,
    env: ctx.env,
    timeoutMs: ctx.timeoutMs
  })
  return ok(
    `exit code ${r.exitCode}${r.timedOut ? ' (timed out)' : ''}\n${tail(r.output, 80, 8000)}`
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
  try {
    return await tool(input, ctx)
  } catch (e) {
    if (e instanceof ToolRefusal)
      return { content: `refused: ${e.message}`, isError: true, refused: e.message }
    return error(`error: ${(e as Error).message}`)
  }
}
