import type { ToolUse } from '../model/agent-runner.js'
import { numbered, READ_TOOL_SPECS } from '../model/read-tool-specs.js'
import { stripInvisible } from '../model/sanitize.js'
import type { ContentBlock, Git, ToolSpec } from '../ports/index.js'

/** What one call may return: read_file's lines and characters, list_files's paths, search's lines. */
export const READ_LIMITS = {
  lines: 400,
  chars: 40_000,
  paths: 500,
  hits: 100,
  hitChars: 300
} as const

const L = READ_LIMITS
const count = (n: number): string => n.toLocaleString('en-US')

/** The same tools as the fixer's (names and input schemas), over the pull request's head commit. */
const DESCRIPTIONS: Record<string, string> = {
  read_file: `Read a text file of the repository at the pull request's head commit, with line numbers: at most ${L.lines} lines (${count(L.chars)} characters) a call. offset skips that many lines (to read on), limit caps the lines.`,
  list_files: `List the files of the repository at the pull request's head commit under a folder (recursively; default the root), at most ${L.paths}.`,
  search: `Find the lines holding a text (a fixed string, case-sensitive, one line; not a regex) in the files of the pull request's head commit, under a folder or in one file (path; default all). At most ${L.hits} lines.`
}

/** A call the model should change: its message says how. */
class BadCall extends Error {}

type Input = Record<string, unknown>

/** The commit's file list and the files read so far: each git object is read once. */
interface Commit {
  sha: string
  files(): Promise<{ list: readonly string[]; set: ReadonlySet<string> }>
  show(file: string): Promise<string | undefined>
}

function commitOf(git: Git, sha: string): Commit {
  let files: Promise<{ list: string[]; set: Set<string> }> | undefined
  const blobs = new Map<string, Promise<string | undefined>>()
  return {
    sha,
    files: () => (files ??= git.listFiles(sha).then(list => ({ list, set: new Set(list) }))),
    show(file) {
      const known = blobs.get(file)
      if (known) return known
      const read = git.show(sha, file)
      blobs.set(file, read)
      return read
    }
  }
}

/**
 * A path relative to the repository root: leading `./` and `/` dropped, `.` segments and `a/..`
 * resolved; one that climbs above the root is refused. `''` is the root.
 */
export function normalisePath(value: unknown): string {
  if (value === undefined || value === null) return ''
  if (typeof value !== 'string')
    throw new BadCall(`path must be a string, relative to the repository root (such as "src")`)
  const kept: string[] = []
  for (const segment of value.split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment !== '..') kept.push(segment)
    else if (!kept.pop())
      throw new BadCall(
        `refused: ${value} leaves the repository (".." above its root); give a path inside it, relative to its root`
      )
  }
  return kept.join('/')
}

type Place = { kind: 'file' | 'folder'; path: string }

/** Where `rel` is in the commit: a file, a folder, or nowhere (a miss names files of that name). */
async function locate(commit: Commit, rel: string): Promise<Place> {
  if (!rel) return { kind: 'folder', path: '' }
  const { list, set } = await commit.files()
  if (set.has(rel)) return { kind: 'file', path: rel }
  if (list.some(f => f.startsWith(`${rel}/`))) return { kind: 'folder', path: rel }
  // a name shown with its invisible characters removed or marked
  const hidden = list.find(
    f => stripInvisible(f) === rel || stripInvisible(f, { mark: true }) === rel
  )
  if (hidden) return { kind: 'file', path: hidden }
  const name = rel.split('/').at(-1)!
  const same = list.filter(f => f.split('/').at(-1) === name).slice(0, 5)
  throw new BadCall(
    `${rel} is not in the head commit (${commit.sha.slice(0, 12)})${same.length ? `; files of that name: ${same.join(', ')}` : ''}; list_files shows its files`
  )
}

function whole(value: unknown, name: string, min: number, fallback: number, what: string): number {
  if (value === undefined || value === null) return fallback
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min)
    throw new BadCall(
      `${name} must be a whole number of at least ${min} (${what}), not ${JSON.stringify(value)}`
    )
  return value
}

/** Up to `max` characters of `text`, never half a surrogate pair. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text
  const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max
  return `${text.slice(0, end)}…`
}

async function textOf(commit: Commit, file: string): Promise<string> {
  const text = await commit.show(file)
  if (text === undefined)
    throw new BadCall(`${file} could not be read from the head commit (a submodule?)`)
  if (text.includes('\0')) throw new BadCall(`${file} is a binary file: it cannot be read as text`)
  return stripInvisible(text, { mark: true })
}

async function readFile(input: Input, commit: Commit): Promise<string> {
  const rel = normalisePath(input['path'])
  if (!rel) throw new BadCall('path is required: the file to read, relative to the repository root')
  const place = await locate(commit, rel)
  if (place.kind === 'folder')
    throw new BadCall(
      `${rel} is a folder: list_files with path "${rel}" lists its files; read_file reads one file`
    )
  const offset = whole(input['offset'], 'offset', 0, 0, 'the lines to skip')
  const limit = Math.min(whole(input['limit'], 'limit', 1, L.lines, 'the lines to read'), L.lines)
  const text = await textOf(commit, place.path)
  const total = text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length
  if (!text) return '(empty file)'
  if (offset >= total)
    throw new BadCall(
      `offset ${offset} is past the end of ${place.path}: it has ${total} lines (offset 0 reads from the first)`
    )
  return window(numbered(text, offset, Math.min(limit, total - offset)).split('\n'), offset, total)
}

/** Numbered lines up to the character cap, and a note saying how to read on when not all are shown. */
function window(lines: readonly string[], offset: number, total: number): string {
  const shown: string[] = []
  let used = 0
  for (const line of lines) {
    if (used + line.length + 1 > L.chars) break
    shown.push(line)
    used += line.length + 1
  }
  const long = !shown.length
  if (long) shown.push(clip(lines[0]!, L.chars))
  const last = offset + shown.length
  const cut = shown.length < lines.length
  const notes = [
    ...(long ? [`line ${last} is longer than ${count(L.chars)} characters: cut`] : []),
    ...(last < total
      ? [
          `lines ${offset + 1}–${last} of ${total} shown${cut ? ` (at most ${count(L.chars)} characters a call)` : ''}; read on with offset ${last}`
        ]
      : [])
  ]
  return [...shown, ...notes.map(n => `… ${n}`)].join('\n')
}

async function listFiles(input: Input, commit: Commit): Promise<string> {
  const rel = normalisePath(input['path'])
  const place = await locate(commit, rel)
  if (place.kind === 'file') return place.path
  const { list } = await commit.files()
  const under = rel ? list.filter(f => f.startsWith(`${rel}/`)) : list
  if (!under.length) return '(no files)'
  const rest = under.slice(L.paths)
  if (!rest.length) return under.join('\n')
  return [
    ...under.slice(0, L.paths),
    `… ${L.paths} of ${under.length} files shown; ${unshown(rest, rel)}`
  ].join('\n')
}

/** Where the files a listing left out are: in the folder itself, or in which of its subfolders. */
function unshown(rest: readonly string[], rel: string): string {
  const inside = rel ? `${rel}/` : ''
  const folders = new Map<string, number>()
  let direct = 0
  for (const f of rest) {
    const parts = f.slice(inside.length).split('/')
    if (parts.length === 1) direct++
    else folders.set(`${inside}${parts[0]}/`, (folders.get(`${inside}${parts[0]}/`) ?? 0) + 1)
  }
  const where = [
    ...(direct ? [`${direct} directly in ${rel || 'the root'}`] : []),
    ...[...folders].slice(0, 20).map(([f, n]) => `${n} in ${f}`),
    ...(folders.size > 20 ? ['…'] : [])
  ]
  return `not shown: ${where.join(', ')}${folders.size ? '; list a subfolder (path) to see its files' : ''}`
}

async function search(input: Input, commit: Commit, git: Git): Promise<string> {
  const text = input['text']
  if (typeof text !== 'string' || !text)
    throw new BadCall('text is required: the text to find (a fixed string, not a regex)')
  if (text.includes('\n'))
    throw new BadCall('text must be one line: search finds lines; search for one line of it')
  const rel = normalisePath(input['path'])
  const place = await locate(commit, rel)
  const hits = await git.grep(commit.sha, text, place.path || undefined)
  const where = place.path ? ` in ${place.path}` : ''
  if (!hits.length) return `no line holds "${text}"${where} at the head commit`
  const shown = hits
    .slice(0, L.hits)
    .map(h => `${h.file}:${h.line}: ${clip(stripInvisible(h.text, { mark: true }), L.hitChars)}`)
  if (hits.length > L.hits)
    shown.push(
      `… ${L.hits} of ${hits.length} lines shown; narrow the search with path or a longer text`
    )
  return shown.join('\n')
}

type Tool = (input: Input, commit: Commit, git: Git) => Promise<string>

const TOOLS: Record<string, Tool> = { read_file: readFile, list_files: listFiles, search }

/** Runs one call: its result, or a bad call's message as an error result. */
async function runOne(call: ToolUse, commit: Commit, git: Git): Promise<ContentBlock> {
  const result = (content: string, isError: boolean): ContentBlock => ({
    type: 'tool_result',
    tool_use_id: call.id,
    content: stripInvisible(content, { mark: true }),
    ...(isError ? { is_error: true } : {})
  })
  const tool = Object.hasOwn(TOOLS, call.name) ? TOOLS[call.name] : undefined
  if (!tool)
    return result(
      `unknown tool ${call.name}: the tools here are ${Object.keys(TOOLS).join(', ')}`,
      true
    )
  const input = call.input
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return result('the input must be an object, such as {"path": "src/index.ts"}', true)
  try {
    return result(await tool(input as Input, commit, git), false)
  } catch (e) {
    return result(e instanceof BadCall ? e.message : `error: ${(e as Error).message}`, true)
  }
}

/**
 * The reviewer's and the verifier's tools: read-only, over the git objects of commit `sha` (never
 * the work tree, never running PR code), with the fixer's names and input schemas. `run` answers
 * one turn's calls, one tool_result each, in order; every text has its invisible characters removed
 * (direction controls and tag characters marked).
 */
export function readTools(
  git: Git,
  sha: string
): { specs: ToolSpec[]; run(calls: ToolUse[]): Promise<ContentBlock[]> } {
  const commit = commitOf(git, sha)
  const specs = READ_TOOL_SPECS.map(spec => ({
    ...spec,
    description: DESCRIPTIONS[spec.name] ?? spec.description
  }))
  return {
    specs,
    async run(calls) {
      const results: ContentBlock[] = []
      for (const call of calls) results.push(await runOne(call, commit, git))
      return results
    }
  }
}
