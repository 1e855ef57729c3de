import { execFileSync } from 'node:child_process'
import {
  appendFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  lstatSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync
} from 'node:fs'
import path from 'node:path'
import type { Confine } from '../ports/index.js'
import type { ReadOnlyBind } from '../process/sandbox.js'
import { realOrUndefined } from '../process/toolchains.js'

/**
 * The folders a package manager fills from the repository's lock file, which git ignores and a
 * clone therefore lacks. The loop's checks run in a clone, so without these a `npx eslint` would
 * download the newest ESLint (not the project's) and miss the project's plugins.
 * - `node_modules`: npm, yarn (node-modules linker), pnpm; at any depth, for workspaces;
 * - `.venv`, `venv`: Python virtual environments (python -m venv, uv, poetry in-project).
 */
export const DEPENDENCY_FOLDERS: readonly string[] = ['node_modules', '.venv', 'venv']

/** A dependency folder of the work tree that is a link, and why it is not lent. */
export interface NotLent {
  folder: string
  /** Where the link leads. */
  target: string
  why: string
}

/**
 * Your installed dependency folders: ignored folders of the work tree named in DEPENDENCY_FOLDERS,
 * as paths relative to its root (`node_modules`, `packages/web/node_modules`). Git names a wholly
 * ignored folder once, without looking inside it, so this does not walk node_modules. A link is lent
 * (its target, read-only) when it leads to a folder named as one (a workspace's or a monorepo's
 * `node_modules`); to anything else, it is not: the checks would see all of that folder.
 */
export function installedDependencies(root: string): { folders: string[]; notLent: NotLent[] } {
  let listed: string
  try {
    listed = execFileSync(
      'git',
      ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'],
      { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 << 20 }
    )
  } catch {
    return { folders: [], notLent: [] }
  }
  const folders: string[] = []
  const notLent: NotLent[] = []
  for (const entry of listed.split('\0').sort()) {
    const folder = entry.replace(/\/$/, '')
    if (!DEPENDENCY_FOLDERS.includes(path.posix.basename(folder))) continue
    if (entry.endsWith('/')) folders.push(folder)
    else {
      const refused = linkRefused(path.join(root, folder))
      if (refused) notLent.push({ folder, ...refused })
      else folders.push(folder)
    }
  }
  return { folders, notLent }
}

/** Why a dependency folder that is a link is not lent, with where it leads; undefined to lend it. */
function linkRefused(link: string): { target: string; why: string } | undefined {
  let target = link
  try {
    target = path.resolve(path.dirname(link), readlinkSync(link))
    target = realpathSync(link)
  } catch {
    return { target, why: 'it leads nowhere' }
  }
  if (!statSync(target).isDirectory()) return { target, why: 'it leads to a file' }
  if (!DEPENDENCY_FOLDERS.includes(path.basename(target)))
    return {
      target,
      why: `it leads to a folder not named ${DEPENDENCY_FOLDERS.join(', ')}, which the checks would see whole`
    }
  return undefined
}

/** Caches in node_modules that tools rewrite in place (Prettier's and Babel's `.cache`, Vite's `.vite`). */
export const NODE_MODULES_CACHES: readonly string[] = ['.cache', '.vite', '.vitest', '.tmp']

/**
 * The cache folders of a lent node_modules, each given a writable folder of its own in the sandbox
 * (tools fail where they cannot write them: Vitest its results in `.vite/vitest`). Vite and Vitest
 * write `.vite` on every run, so it is made (empty) where it is missing: the sandbox can only put a
 * folder where there is one.
 */
function cachesOf(folder: string): string[] {
  if (path.basename(folder) !== 'node_modules') return []
  try {
    mkdirSync(path.join(folder, '.vite'))
  } catch {
    // there already, or your folder is not writable: then Vite's cache stays read-only
  }
  return NODE_MODULES_CACHES.filter(name => {
    try {
      return lstatSync(path.join(folder, name)).isDirectory()
    } catch {
      return false
    }
  })
}

/**
 * A copy of `from` at `to` that cannot harm the original when emptied or replaced: folders are
 * made, files hard-linked, links re-created as links. `npm ci` unlinks files, so the original keeps
 * them. Caches tools rewrite in place (a hard-linked file would change in both) are left out.
 * A relative link that leads out of the folder (a workspace package: `node_modules/a ->
 * ../packages/a`) is pointed at the same place in `tree.to`, the clone. Throws where hard links
 * cannot be made (another file system: EXDEV).
 */
export function hardLinkCopy(
  from: string,
  to: string,
  tree: { from: string; to: string } = { from, to },
  top = from
): void {
  mkdirSync(to, { recursive: true })
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const src = path.join(from, entry.name)
    const dest = path.join(to, entry.name)
    if (entry.isSymbolicLink()) symlinkSync(relinked(src, tree, top), dest)
    else if (entry.isDirectory()) {
      if (path.basename(from) === 'node_modules' && NODE_MODULES_CACHES.includes(entry.name))
        continue
      hardLinkCopy(src, dest, tree, top)
    } else if (entry.isFile()) linkSync(src, dest)
  }
}

/** A link's target in the copy: as it is, unless it leads out of the copied folder into the tree. */
function relinked(link: string, tree: { from: string; to: string }, top: string): string {
  const target = readlinkSync(link)
  const resolved = path.resolve(path.dirname(link), target)
  const inside = (dir: string) => resolved === dir || resolved.startsWith(`${dir}${path.sep}`)
  if (inside(top) || !inside(tree.from)) return target
  return path.join(tree.to, path.relative(tree.from, resolved))
}

/** Adds the lines `exclude` lacks to the checkout's `.git/info/exclude`, so no fix commits them. */
function exclude(gitDir: string, folders: readonly string[]): void {
  const info = path.join(gitDir, 'info')
  const file = path.join(info, 'exclude')
  mkdirSync(info, { recursive: true })
  const has = new Set(existsSync(file) ? readFileSync(file, 'utf8').split('\n') : [])
  const missing = folders.map(f => `/${f}`).filter(line => !has.has(line))
  if (missing.length) appendFileSync(file, missing.map(line => `${line}\n`).join(''))
}

export interface Lending {
  /** The user's work tree, which holds the folders. */
  from: string
  folders: readonly string[]
  /**
   * Where the unsandboxed copies are made: a folder next to the user's repository (its
   * `.git/review-loop/`), on the same file system as the folders, so hard links work.
   */
  copies: string
  /** Said once when the folders cannot be copied (the checks then run without them). */
  notice: (message: string) => void
}

/**
 * Confinement that lends the loop's checkout your installed dependencies: in the sandbox each folder
 * is shown read-only at its place in the checkout and at its own path (a virtual environment's
 * scripts name their interpreter by absolute path); unsandboxed, the checkout gets a hard-link copy
 * of each (never a link to yours: a check running `npm ci` empties the folder it is given). Either
 * way they are excluded from the checkout's git, so no fix commits them.
 */
export function lendDependencies(
  confine: (binds: (root: string) => ReadOnlyBind[]) => Confine,
  lending: Lending
): Confine {
  const { from, folders } = lending
  // a lent link is shown as its target, at its place in the clone and at its own path
  const binds = (root: string): ReadOnlyBind[] =>
    folders.flatMap(f => {
      const src = realOrUndefined(path.join(from, f)) ?? path.join(from, f)
      return [
        { src, dest: path.join(root, f), caches: cachesOf(src) },
        { src, dest: src }
      ]
    })
  const inner = confine(binds)
  let copied: boolean | undefined
  return async checkout => {
    if (folders.length) exclude(checkout.gitDir, folders)
    const confined = await inner(checkout)
    if (!confined.sandboxed && folders.length) copied ??= copyAll(lending, checkout.root)
    for (const f of folders) {
      const at = path.join(checkout.root, f)
      if (existsSync(at)) continue
      mkdirSync(path.dirname(at), { recursive: true })
      if (confined.sandboxed) mkdirSync(at)
      else if (copied) symlinkSync(path.join(lending.copies, f), at)
    }
    return confined
  }
}

/** The hard-link copies of every folder, or none (and a notice saying what to do) if one fails. */
function copyAll(lending: Lending, clone: string): boolean {
  const tree = { from: lending.from, to: clone }
  try {
    for (const f of lending.folders)
      hardLinkCopy(path.join(lending.from, f), path.join(lending.copies, f), tree)
    return true
  } catch (e) {
    rmSync(lending.copies, { recursive: true, force: true })
    const code = (e as { code?: string }).code
    const why =
      code === 'EXDEV'
        ? `${lending.copies} is on another file system`
        : `hard links could not be made in ${lending.copies} (${code ?? String(e)})`
    lending.notice(
      `Your installed dependencies (${lending.folders.join(', ')} of ${lending.from}) were not lent to the checks: ${why}. Install them in a first check, for example --check 'deps: npm ci'.`
    )
    return false
  }
}
