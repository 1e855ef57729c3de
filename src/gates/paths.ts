import { lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Where a check's command really runs: its working directory, moved by a leading `cd DIR &&` (or
 * `cd DIR;`), as a tool prints paths relative to where it runs. Undefined when a `cd` leaves the
 * repository: the relative paths printed there name no file of it.
 */
export function commandDir(command: string, cwd: string, repoRoot: string): string | undefined {
  let dir = cwd
  let rest = command.trim()
  for (;;) {
    const cd = /^cd\s+("([^"]+)"|'([^']+)'|([^\s;&|'"$`]+))\s*(&&|;)\s*/.exec(rest)
    if (!cd) return dir
    dir = path.resolve(dir, cd[2] ?? cd[3] ?? cd[4]!)
    if (!isInside(repoRoot, dir)) return undefined
    rest = rest.slice(cd[0].length)
  }
}

/** Whether an absolute path is the root or inside it (`..config` is inside; `../x` is not). */
export function isInside(root: string, absolute: string): boolean {
  const relative = path.relative(root, absolute)
  return (
    relative === '' ||
    (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative))
  )
}

const WINDOWS_ABSOLUTE = /^[A-Za-z]:\//

/** A path git quoted (`"src/\303\251t\303\251.js"`, `"a\"b.js"`): quotes around C escapes. */
const GIT_QUOTED = /^"((?:[^"\\]|\\(?:[0-7]{3}|[abtnvfr"\\]))*)"$/
const ESCAPED: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13 }

/**
 * A path as git prints it where `core.quotePath` asks (any byte above 0x7f, a quote, a backslash, a
 * control character): the C-style escapes undone, octal bytes read as UTF-8. Undefined when the text
 * is not such a quoted path.
 */
export function unquoteGitPath(text: string): string | undefined {
  const body = GIT_QUOTED.exec(text.trim())?.[1]
  if (body === undefined) return undefined
  const bytes = [...body.matchAll(/\\([0-7]{3}|.)|[^\\]+/g)].map(([whole, escape]) => {
    if (escape === undefined) return Buffer.from(whole, 'utf8')
    const byte = /^[0-7]{3}$/.test(escape) ? parseInt(escape, 8) & 0xff : ESCAPED[escape]
    return byte === undefined ? Buffer.from(escape, 'utf8') : Buffer.from([byte])
  })
  return Buffer.concat(bytes).toString('utf8')
}

/** A control character other than a tab (which annotations hold): a newline splits the line it is on. */
// eslint-disable-next-line no-control-regex -- the characters looked for
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f-\x9f]/

/**
 * What no annotation is put on, though a file may have it: a quote (it ends the attribute a path is
 * written in, in a workflow command and in many a tool's output) and a control character.
 */
const UNANNOTATABLE = new RegExp(`["']|${CONTROL.source}`)

/** Windows separators and `file://` URIs made plain; a Windows drive path stays one. */
function plain(reported: string): string {
  let p = unquoteGitPath(reported) ?? reported.trim().replace(/^(["'])(.+)\1$/, '$2')
  if (/^file:\/\//i.test(p)) {
    try {
      p = /^file:\/\/\/[A-Za-z]:/i.test(p)
        ? decodeURIComponent(p.replace(/^file:\/\/\//i, ''))
        : fileURLToPath(p)
    } catch {
      return ''
    }
  }
  return p.replace(/\\/g, '/')
}

/**
 * A reported path placed in the repository, or not: the path as shown (git's quoting undone where it
 * leaves a readable name), and why (a file of the tree with quotes in its name has no annotation).
 */
export type Placement = { file: string } | { unplaced: string; why: string; inTree?: true }

const NOT_IN_TREE = 'not a file of this repository'
const NO_ANNOTATION = 'a path with a quote or a control character, which is not annotated'

/** How an unplaced path is shown: unquoted, and quoted as JSON where it holds a control character. */
function shownPath(reported: string): string {
  const unquoted = unquoteGitPath(reported)
  if (unquoted !== undefined) return CONTROL.test(unquoted) ? reported : unquoted
  return CONTROL.test(reported) ? JSON.stringify(reported) : reported
}

/**
 * Places the paths a tool prints: relative to the directory the command ran in, absolute, `file://`
 * URIs, Windows separators and drive letters. A path outside the repository, or naming no file of
 * the work tree, is not placed, so a problem never lands on another file. Each path is looked up once.
 */
export class PathPlacer {
  private readonly seen = new Map<string, Placement>()

  /** `dir`: where the command ran; undefined when that is outside the repository. */
  constructor(
    private readonly repoRoot: string,
    private readonly dir: string | undefined
  ) {}

  place(reported: string): Placement {
    let placed = this.seen.get(reported)
    if (!placed) {
      placed = this.lookUp(reported)
      this.seen.set(reported, placed)
    }
    return placed
  }

  private lookUp(reported: string): Placement {
    const p = plain(reported)
    const unplaced = (why = NOT_IN_TREE): Placement => ({
      unplaced: shownPath(reported),
      why,
      ...(why === NO_ANNOTATION ? { inTree: true as const } : {})
    })
    if (!p) return unplaced()
    let absolute: string
    if (WINDOWS_ABSOLUTE.test(p)) {
      // a Windows runner's absolute path: compared with the root case-insensitively, as Windows does
      const root = plain(this.repoRoot).replace(/\/$/, '')
      if (!WINDOWS_ABSOLUTE.test(root) || !p.toLowerCase().startsWith(`${root.toLowerCase()}/`))
        return unplaced()
      absolute = path.join(this.repoRoot, p.slice(root.length + 1))
    } else if (path.isAbsolute(p)) {
      absolute = p
    } else if (this.dir) {
      absolute = path.resolve(this.dir, p)
    } else {
      return unplaced()
    }
    if (!isInside(this.repoRoot, absolute) || !isRegularFile(absolute)) return unplaced()
    if (UNANNOTATABLE.test(p)) return unplaced(NO_ANNOTATION)
    return { file: path.relative(this.repoRoot, absolute).split(path.sep).join('/') }
  }
}

/** A file of the checkout: a link is not one (it may lead out of the repository). */
function isRegularFile(absolute: string): boolean {
  try {
    return lstatSync(absolute).isFile()
  } catch {
    return false
  }
}

/**
 * Where a test runner's relative paths start when not where the command ran: an npm workspace's
 * folder (its scripts run there), a Go package's folder (`go test` prints a test file's base name),
 * a Cargo workspace's root (a panic's path is relative to it, even run from a member). Each is
 * absolute, inside the repository, or undefined.
 */
export interface RunnerDirs {
  /** The folder of the npm package of this name: a workspace of the root package.json, or the root. */
  npmPackage(name: string): string | undefined
  /** A Go package's folder by its import path, from the `module` of the go.mod above the command. */
  goPackage(importPath: string): string | undefined
  /** The Cargo workspace above the command (else its package): where panics' paths start. */
  cargoRoot(): string | undefined
}

/** The command's folder and its parents up to the repository root, nearest first. */
function upToRoot(repoRoot: string, dir: string | undefined): string[] {
  const out: string[] = []
  for (let d = dir; d && isInside(repoRoot, d); d = path.dirname(d)) {
    out.push(d)
    if (path.relative(repoRoot, d) === '') break
  }
  return out
}

/**
 * A manifest of the checkout (package.json, go.mod, Cargo.toml), as PathPlacer reads a path: not a
 * link, nor under a linked folder leading out of the repository (the PR's links are not followed).
 */
function readManifest(repoRoot: string, file: string): string | undefined {
  try {
    if (!isRegularFile(file) || !isInside(realpathSync(repoRoot), realpathSync(file)))
      return undefined
    return readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
}

function packageJson(repoRoot: string, dir: string): Record<string, unknown> | undefined {
  try {
    const json: unknown = JSON.parse(
      readManifest(repoRoot, path.join(dir, 'package.json')) ?? 'null'
    )
    return json && typeof json === 'object' ? (json as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/**
 * The folders a `workspaces` pattern names: plain folders and `*` segments (`packages/*`), those
 * inside the repository only (`../x` names none).
 */
function expandWorkspace(repoRoot: string, root: string, pattern: string): string[] {
  let dirs = [root]
  for (const part of pattern.replace(/^\.\//, '').split('/').filter(Boolean)) {
    dirs = dirs
      .filter(d => isInside(repoRoot, d))
      .flatMap(d => {
        if (part !== '*') return [path.join(d, part)]
        try {
          return readdirSync(d, { withFileTypes: true })
            .filter(e => e.isDirectory() && e.name !== 'node_modules')
            .map(e => path.join(d, e.name))
        } catch {
          return []
        }
      })
  }
  return dirs.filter(d => isInside(repoRoot, d))
}

/** The npm packages by name: the nearest package.json with `workspaces` above the command, its workspaces. */
function npmPackages(repoRoot: string, dirs: readonly string[]): Map<string, string> {
  const byName = new Map<string, string>()
  const parsed = new Map<string, Record<string, unknown> | undefined>()
  const read = (d: string) => {
    if (!parsed.has(d)) parsed.set(d, packageJson(repoRoot, d))
    return parsed.get(d)
  }
  const root = dirs.find(d => read(d)?.['workspaces']) ?? dirs.find(d => read(d))
  if (!root) return byName
  const json = read(root)!
  const declared = json['workspaces']
  const patterns = Array.isArray(declared)
    ? declared
    : ((declared as { packages?: unknown } | undefined)?.packages ?? [])
  const folders = [
    root,
    ...(Array.isArray(patterns) ? patterns : [])
      .filter((p): p is string => typeof p === 'string' && !p.startsWith('!'))
      .flatMap(p => expandWorkspace(repoRoot, root, p))
  ]
  for (const folder of folders) {
    const name = read(folder)?.['name']
    if (typeof name === 'string' && !byName.has(name)) byName.set(name, folder)
  }
  return byName
}

export function runnerDirs(repoRoot: string, dir: string | undefined): RunnerDirs {
  const dirs = upToRoot(repoRoot, dir)
  let npm: Map<string, string> | undefined
  let go: { dir?: string; module?: string } | undefined
  let cargo: { root?: string } | undefined
  const inside = (d: string) => (isInside(repoRoot, d) ? d : undefined)
  const manifest = (file: string) => readManifest(repoRoot, file)
  // the nearest go.mod above the command, read once however many packages the output names
  const goModule = () => {
    if (go) return go
    for (const dir of dirs) {
      const text = manifest(path.join(dir, 'go.mod'))
      if (text !== undefined)
        return (go = { dir, module: /^module\s+"?([^\s"]+)"?/m.exec(text)?.[1] })
    }
    return (go = {})
  }
  return {
    npmPackage: name => (npm ??= npmPackages(repoRoot, dirs)).get(name),
    goPackage: importPath => {
      const { dir, module } = goModule()
      if (!dir || !module) return undefined
      if (importPath === module) return dir
      return importPath.startsWith(`${module}/`)
        ? inside(path.join(dir, importPath.slice(module.length + 1)))
        : undefined
    },
    cargoRoot: () => {
      if (!cargo) {
        const manifests = dirs.filter(d => manifest(path.join(d, 'Cargo.toml')) !== undefined)
        const workspace = (d: string) =>
          /^\s*\[workspace\]/m.test(manifest(path.join(d, 'Cargo.toml')) ?? '')
        cargo = { root: manifests.find(workspace) ?? manifests[0] }
      }
      return cargo.root
    }
  }
}
