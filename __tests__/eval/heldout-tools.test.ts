// Issue 40: a reviewer cannot find a bug case's bug through the fix's own test. For every bug case,
// the reviewer's read tools (read_file, list_files, search: src/review/read-tools.ts, over the PR's
// head commit as the AI reviewer calls them) are asked for each file heldout.patch adds or changes:
// a file the fix added is not there, a file it changed reads as it was before the fix, and a search
// for one of the held-out lines finds nothing.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { buildCaseRepo, heldOutPatch, loadDataset, type EvalCase } from '../../src/eval/dataset.js'
import { createGit } from '../../src/git/git.js'
import type { ToolUse } from '../../src/model/agent-runner.js'
import type { ContentBlock } from '../../src/ports/index.js'
import { readTools } from '../../src/review/read-tools.js'

const bugs = loadDataset('eval').filter(c => c.kind === 'bug')
const scratch = mkdtempSync(path.join(tmpdir(), 'review-loop-heldout-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

interface HeldFile {
  file: string
  added: boolean
  /** Its part of heldout.patch. */
  patch: string
  /** The lines the fix added to it (trimmed, not blank). */
  lines: string[]
}

/** The files of a heldout.patch, whether the fix added each, and the lines it added. */
function heldFiles(patch: string): HeldFile[] {
  return patch
    .split(/^(?=diff --git )/m)
    .filter(part => part.startsWith('diff --git '))
    .map(part => ({
      file: /^diff --git a\/(\S+) b\//.exec(part)![1]!,
      added: /^new file mode /m.test(part),
      patch: part,
      lines: part
        .split('\n')
        .filter(l => l.startsWith('+') && !l.startsWith('+++ '))
        .map(l => l.slice(1).trim())
        .filter(Boolean)
    }))
}

/** Whether the file's part of heldout.patch applies to `text` (forward, or with `reverse` backward). */
function applies(held: HeldFile, text: string, reverse: boolean): boolean {
  const dir = mkdtempSync(path.join(scratch, 'apply-'))
  mkdirSync(path.dirname(path.join(dir, held.file)), { recursive: true })
  writeFileSync(path.join(dir, held.file), text)
  writeFileSync(path.join(dir, 'held.patch'), held.patch)
  const args = ['apply', '--check', ...(reverse ? ['--reverse'] : []), 'held.patch']
  const env = { ...process.env, GIT_CEILING_DIRECTORIES: scratch }
  try {
    execFileSync('git', args, { cwd: dir, env, stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** The text files of the case's base/ but the held-out ones, for telling a held-out line apart. */
function baseTexts(c: EvalCase, held: string[]): string[] {
  const base = path.join(c.dir, 'base')
  return readdirSync(base, { recursive: true, withFileTypes: true })
    .filter(e => e.isFile() && !held.includes(path.relative(base, path.join(e.parentPath, e.name))))
    .map(e => readFileSync(path.join(e.parentPath, e.name), 'utf8'))
}

let ids = 0
type Result = Extract<ContentBlock, { type: 'tool_result' }>

/** read_file's answer for the whole file (read on with offset), its line numbers taken off; or its error. */
type Tools = ReturnType<typeof readTools>

async function readWhole(tools: Tools, file: string): Promise<{ error?: string; text: string }> {
  const lines: string[] = []
  for (;;) {
    const call: ToolUse = {
      type: 'tool_use',
      id: `t${++ids}`,
      name: 'read_file',
      input: { path: file, offset: lines.length }
    }
    const [r] = (await tools.run([call])) as Result[]
    const content = String(r!.content)
    if (r!.is_error) return { error: content, text: lines.join('\n') }
    const body = content.split('\n').filter(l => !l.startsWith('… '))
    lines.push(...body.map(l => l.replace(/^ *\d+ {2}/, '')))
    if (!/read on with offset/.test(content)) return { text: lines.join('\n') }
  }
}

async function ask(tools: Tools, name: string, input: object) {
  const [r] = (await tools.run([{ type: 'tool_use', id: `t${++ids}`, name, input }])) as Result[]
  return String(r!.content)
}

/** One held-out file through the tools: absent if the fix added it, else as it was before the fix. */
async function checkFile(c: EvalCase, tools: Tools, held: HeldFile, others: string[]) {
  const read = await readWhole(tools, held.file)
  const where = `${c.id}: ${held.file}`
  if (held.added) {
    expect.soft(read.error, `${where} is in the PR's tree`).toMatch(/is not in the head commit/)
    const listed = await ask(tools, 'list_files', { path: path.dirname(held.file) })
    expect.soft(listed.split('\n'), `${where}: list_files`).not.toContain(held.file)
  } else {
    expect.soft(read.error, where).toBeUndefined()
    // the fix's change applies to what the reviewer reads, and is not already in it
    const text = `${read.text}\n`
    expect.soft(applies(held, text, false), `${where}: heldout.patch applies to it`).toBe(true)
    expect.soft(applies(held, text, true), `${where} holds the fix's test`).toBe(false)
  }
  // the fix's own lines (in no other file of base/, nor in a changed file's lines before the fix):
  // none shows, and a search for the longest finds nothing
  const known = held.added
    ? others
    : [...others, readFileSync(path.join(c.dir, 'base', held.file), 'utf8')]
  const own = held.lines.filter(l => l.length >= 8 && !known.some(t => t.includes(l)))
  for (const line of own) expect.soft(read.text, where).not.toContain(line)
  const needle = own.sort((a, b) => b.length - a.length)[0]
  if (needle)
    expect
      .soft(await ask(tools, 'search', { text: needle }), `${where}: search`)
      .toMatch(/^no line holds/)
}

it('holds out every bug case’s test: the reviewer’s tools cannot read or find it', async () => {
  let checked = 0
  for (const c of bugs) {
    const patch = heldOutPatch(c)
    expect.soft(patch, `${c.id} has a heldout.patch`).toBeDefined()
    if (!patch) continue
    const repo = path.join(scratch, c.id)
    const { head } = buildCaseRepo(c, repo)
    const tools = readTools(await createGit(repo, { scratch }), head)
    const held = heldFiles(readFileSync(patch, 'utf8'))
    const others = baseTexts(
      c,
      held.map(h => h.file)
    )
    for (const h of held) {
      await checkFile(c, tools, h, others)
      checked++
    }
  }
  console.log(
    `held-out tests checked through the read tools: ${checked} files of ${bugs.length} bug cases`
  )
  expect(checked).toBeGreaterThanOrEqual(bugs.length)
}, 120_000)
