import { execFileSync } from 'node:child_process'
import { appendFileSync, existsSync, mkdirSync, symlinkSync } from 'node:fs'
import path from 'node:path'
import type { Confine } from '../ports/index.js'
import type { ReadOnlyBind } from '../process/sandbox.js'

/**
 * The folders a package manager fills from the repository's lock file, which git ignores and a
 * clone therefore lacks. The loop's checks run in a clone, so without these a `npx eslint` would
 * download the newest ESLint (not the project's) and miss the project's plugins.
 * - `node_modules`: npm, yarn (node-modules linker), pnpm; at any depth, for workspaces;
 * - `.venv`, `venv`: Python virtual environments (python -m venv, uv, poetry in-project).
 */
export const DEPENDENCY_FOLDERS: readonly string[] = ['node_modules', '.venv', 'venv']

/**
 * Your installed dependency folders: ignored folders of the work tree named in DEPENDENCY_FOLDERS,
 * as paths relative to its root (`node_modules`, `packages/web/node_modules`). Git names a wholly
 * ignored folder once, without looking inside it, so this does not walk node_modules.
 */
export function installedDependencies(root: string): string[] {
  let listed: string
  try {
    listed = execFileSync(
      'git',
      ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'],
      { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 << 20 }
    )
  } catch {
    return []
  }
  return listed
    .split('\0')
    .filter(entry => entry.endsWith('/'))
    .map(entry => entry.slice(0, -1))
    .filter(folder => DEPENDENCY_FOLDERS.includes(path.posix.basename(folder)))
    .sort()
}

/**
 * Confinement that lends the loop's checkout your installed dependencies: in the sandbox each folder
 * is shown read-only at its place in the checkout and at its own path (a virtual environment's
 * scripts name their interpreter by absolute path); unsandboxed, the checkout gets links to them.
 * Either way they are excluded from the checkout's git, so no fix commits them.
 */
export function lendDependencies(
  confine: (binds: (root: string) => ReadOnlyBind[]) => Confine,
  from: string,
  folders: readonly string[]
): Confine {
  const binds = (root: string): ReadOnlyBind[] =>
    folders.flatMap(f => [
      { src: path.join(from, f), dest: path.join(root, f) },
      { src: path.join(from, f), dest: path.join(from, f) }
    ])
  const inner = confine(binds)
  return async checkout => {
    if (folders.length) {
      const info = path.join(checkout.gitDir, 'info')
      mkdirSync(info, { recursive: true })
      appendFileSync(path.join(info, 'exclude'), folders.map(f => `/${f}\n`).join(''))
    }
    const confined = await inner(checkout)
    for (const f of folders) {
      const at = path.join(checkout.root, f)
      if (existsSync(at)) continue
      mkdirSync(path.dirname(at), { recursive: true })
      if (confined.sandboxed) mkdirSync(at)
      else symlinkSync(path.join(from, f), at)
    }
    return confined
  }
}
