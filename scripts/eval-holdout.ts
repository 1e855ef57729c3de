/**
 * `npx tsx scripts/eval-holdout.ts MIRRORS [CASE…]`: converts the eval dataset's bug cases
 * (eval/cases/) so that the reviewed tree holds no answer (issue 40). For each bug case:
 *
 * 1. Held-out tests: every file of base/ that the fix commit changed and that fix.patch does not
 *    revert (the fix's test and test data) is set back to its version before the fix (removed when
 *    the fix added it), and the fix's change to those files is written to heldout.patch
 *    (`git diff FIX^ FIX -- <those files>`), which is applied only to run the case's test.
 * 2. The fix's comments stay: fix.patch no longer removes the comment lines the fix added, nor
 *    brings back the comment lines it removed (only code is reverted), and the labels' lines are
 *    moved to where their lines are in the new PR tree.
 *
 * MIRRORS is a folder holding a clone (bare or not) of each case's repository, named OWNER+NAME
 * (or OWNER+NAME/repo). A case that already has heldout.patch keeps it; step 2 changes nothing
 * when run again.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'

const CASES = path.resolve('eval/cases')

interface Case {
  id: string
  kind: string
  repo: string
  commit: string
  parent?: string
  issues?: Array<{ file: string; lines: [number, number] }>
}

const git = (dir: string, args: string[]): string =>
  execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 })

/** The clone of `repo` under `mirrors`. */
function mirrorOf(mirrors: string, repo: string): string {
  const name = repo.replace(/^https:\/\/github\.com\//, '').replace('/', '+')
  const dir = [path.join(mirrors, name, 'repo'), path.join(mirrors, name)].find(existsSync)
  if (!dir) throw new Error(`no clone of ${repo} in ${mirrors} (as ${name} or ${name}/repo)`)
  return dir
}

/** The files a patch changes (its `diff --git a/X b/X` lines). */
const patchFiles = (patch: string): string[] =>
  [...patch.matchAll(/^diff --git a\/(\S+) b\//gm)].map(m => m[1]!)

/** Step 1: the fix's other files (tests, data) set back to FIX^ in base/, their change in heldout.patch. */
function holdOut(dir: string, c: Case, mirror: string): string[] {
  const out = path.join(dir, 'heldout.patch')
  if (existsSync(out)) return patchFiles(readFileSync(out, 'utf8'))
  const reverted = new Set(patchFiles(readFileSync(path.join(dir, 'fix.patch'), 'utf8')))
  const parent = c.parent ?? `${c.commit}^`
  const changed = git(mirror, ['diff', '--name-only', '--no-renames', parent, c.commit])
    .split('\n')
    .filter(f => f && !reverted.has(f) && existsSync(path.join(dir, 'base', f)))
  if (!changed.length) throw new Error(`${c.id}: the fix changed no test file that base/ holds`)
  for (const f of changed) {
    const file = path.join(dir, 'base', f)
    let before: Buffer | undefined
    try {
      before = execFileSync('git', ['-C', mirror, 'show', `${parent}:${f}`], {
        maxBuffer: 64 << 20,
        stdio: ['ignore', 'pipe', 'ignore']
      })
    } catch {
      before = undefined // the fix added it
    }
    if (before === undefined) rmSync(file)
    else writeFileSync(file, before)
  }
  const patch = git(mirror, [
    'diff',
    '--no-renames',
    '--binary',
    parent,
    c.commit,
    '--',
    ...changed
  ])
  writeFileSync(out, patch)
  return changed
}

/**
 * Whether a line is only a comment (`//`, `#`, `/*`, ` *`, a Python docstring's `"""`), or inside a
 * block comment or docstring.
 */
function commentLine(text: string, inBlock: boolean): boolean {
  const t = text.trim()
  return inBlock || (t !== '' && /^(\/\/|#|\/\*|\*|""")/.test(t))
}

/** Block-comment (or, in Python, docstring) state after `text`. */
function blockAfter(text: string, inBlock: boolean, python: boolean): boolean {
  const t = text.trim()
  if (python) return t.split('"""').length % 2 === 0 ? !inBlock : inBlock
  if (inBlock) return !t.includes('*/')
  const open = t.lastIndexOf('/*')
  return open >= 0 && !t.slice(open).includes('*/')
}

/** One hunk rewritten: `-` comment lines become context, `+` comment lines are dropped. */
interface Rewritten {
  lines: string[]
  /** Positions (old PR-tree line numbers) where a kept comment line goes in before, or a line is dropped. */
  inserts: number[]
  drops: number[]
  changes: boolean
}

function rewriteHunk(body: string[], newStart: number, python: boolean): Rewritten {
  const out: Rewritten = { lines: [], inserts: [], drops: [], changes: false }
  let pos = newStart
  let oldBlock = false
  let newBlock = false
  for (const line of body) {
    const sign = line[0]
    const text = line.slice(1)
    if (sign === '-' && commentLine(text, oldBlock)) {
      out.lines.push(` ${text}`)
      out.inserts.push(pos)
    } else if (sign === '+' && commentLine(text, newBlock)) out.drops.push(pos++)
    else {
      out.lines.push(line)
      if (sign !== '\\') {
        if (sign !== '-') pos++
        if (sign !== ' ') out.changes = true
      }
    }
    // a docstring is told only from the changed lines: a context line's """ may close one begun above
    if (sign === '-' || (sign === ' ' && !python)) oldBlock = blockAfter(text, oldBlock, python)
    if (sign === '+' || (sign === ' ' && !python)) newBlock = blockAfter(text, newBlock, python)
  }
  return out
}

type LineMap = (line: number) => number

/** One file's part of fix.patch rewritten, and how its old PR-tree lines map to the new ones. */
function rewriteFile(part: string, python: boolean): { text: string; map: LineMap } {
  const [header, ...hunks] = part.split(/^(?=@@ )/m)
  const inserts: number[] = []
  const drops: number[] = []
  let shift = 0
  const kept: string[] = []
  for (const hunk of hunks) {
    const [head, ...body] = hunk.replace(/\n$/, '').split('\n')
    const m = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@(.*)$/.exec(head!)
    if (!m) throw new Error(`not a hunk header: ${head}`)
    const r = rewriteHunk(body, Number(m[2]), python)
    inserts.push(...r.inserts)
    drops.push(...r.drops)
    const oldCount = r.lines.filter(l => l[0] === ' ' || l[0] === '-').length
    const newCount = r.lines.filter(l => l[0] === ' ' || l[0] === '+').length
    if (r.changes)
      kept.push(
        `@@ -${m[1]},${oldCount} +${Number(m[2]) + shift},${newCount} @@${m[3]}\n${r.lines.join('\n')}\n`
      )
    shift += r.inserts.length - r.drops.length
  }
  const map: LineMap = line =>
    line + inserts.filter(p => p <= line).length - drops.filter(p => p < line).length
  return { text: kept.length ? header + kept.join('') : '', map }
}

/** Step 2: fix.patch keeps the fix's comments; the labels follow their lines. */
function keepComments(dir: string, c: Case): boolean {
  const file = path.join(dir, 'fix.patch')
  const patch = readFileSync(file, 'utf8')
  const parts = patch.split(/^(?=diff --git )/m).filter(Boolean)
  const maps = new Map<string, LineMap>()
  const text = parts
    .map(part => {
      const name = /^diff --git a\/(\S+) b\//.exec(part)?.[1]
      if (!name || !part.includes('\n@@ ')) return part
      const r = rewriteFile(part, name.endsWith('.py'))
      maps.set(name, r.map)
      return r.text
    })
    .join('')
  if (text === patch) return false
  writeFileSync(file, text)
  for (const issue of c.issues ?? []) {
    const map = maps.get(issue.file)
    if (map) issue.lines = [map(issue.lines[0]), map(issue.lines[1])]
  }
  writeFileSync(path.join(dir, 'case.json'), `${JSON.stringify(c, null, 2)}\n`)
  return true
}

function main(): void {
  const [mirrors, ...only] = process.argv.slice(2)
  if (!mirrors) {
    process.stderr.write('usage: npx tsx scripts/eval-holdout.ts MIRRORS [CASE…]\n')
    process.exit(2)
  }
  for (const id of readdirSync(CASES).sort()) {
    if (only.length && !only.includes(id)) continue
    const dir = path.join(CASES, id)
    const c = JSON.parse(readFileSync(path.join(dir, 'case.json'), 'utf8')) as Case
    if (c.kind !== 'bug') continue
    const held = holdOut(dir, c, mirrorOf(path.resolve(mirrors), c.repo))
    const comments = keepComments(dir, c)
    console.log(`${id}: held out ${held.join(', ')}${comments ? '; comments kept in the PR' : ''}`)
  }
}

main()
