import {
  closeSync,
  lstatSync,
  openSync,
  readSync,
  readdirSync,
  readlinkSync,
  realpathSync
} from 'node:fs'
import path from 'node:path'

/**
 * What the sandbox shows of a runner's home, and what it never shows. The home is hidden (an empty
 * folder), so a toolchain installed there — rustup's proxies, pyenv's shims, `pip install --user`,
 * pipx, links on PATH into `~/…` — would not start (exit 127). These tables name the toolchain
 * homes shown again read-only, and the credential files that stay hidden even inside them. The
 * README's sandbox table is made from them (npm run docs).
 *
 * A folder is written `~/…` (under the runner's HOME), `$NAME` (the variable, else the default), or
 * `$NAME/…`.
 */
export interface HomeFolder {
  path: string
  /** Where it is when the variable is not set. */
  default?: string
  /** Only these subfolders are shown (a folder that holds other things too, such as ~/.local). */
  only?: readonly string[]
  /**
   * The variable names a place PR code writes to (downloads): it stays the private HOME's, so the
   * folder is shown for reading only.
   */
  private?: true
  /**
   * Shown only when it holds this file or folder: a variable that could name any folder (a virtual
   * environment's) shows no folder that is not what it claims to be.
   */
  marker?: string
  why: string
}

/**
 * Toolchain homes: shown read-only, their variable passed to PR code pointing at them, except the
 * `private` ones, whose variable names where downloads go (a PR that adds a dependency fetches it).
 */
export const TOOLCHAIN_HOMES: readonly HomeFolder[] = [
  {
    path: '$CARGO_HOME',
    default: '~/.cargo',
    only: ['bin'],
    private: true,
    why: "rustup's proxies (`cargo`, `rustc`, `cargo-clippy`) and `cargo install` tools in `bin`; `CARGO_HOME` stays the private HOME's, where Cargo downloads crates (`config.toml`, which can hold registry tokens, is not shown)"
  },
  {
    path: '$RUSTUP_HOME',
    default: '~/.rustup',
    why: "the Rust toolchains rustup's proxies run"
  },
  {
    path: '$GOPATH',
    default: '~/go',
    only: ['bin'],
    private: true,
    why: "the tools `go install` put in `bin`; `GOPATH` stays the private HOME's, where Go downloads modules"
  },
  {
    path: '$GOMODCACHE',
    default: '$GOPATH/pkg/mod',
    only: ['cache/download'],
    private: true,
    why: "Go's module cache, read through `GOPROXY=file://$GOMODCACHE/cache/download,<GOPROXY or https://proxy.golang.org,direct>`: modules in it are found with the network denied, a missing one is downloaded into the private HOME"
  },
  { path: '$GOROOT', why: 'a Go toolchain' },
  {
    path: '$PYENV_ROOT',
    default: '~/.pyenv',
    why: 'pyenv: its shims run `libexec/pyenv`, which runs `versions/…`'
  },
  {
    path: '$PYTHONUSERBASE',
    default: '~/.local',
    only: ['bin', 'lib'],
    why: '`pip install --user`: scripts in `bin`, packages in `lib/pythonX.Y/site-packages` (only these two); the variable is passed so Python finds them, so a `pip install --user` in a check fails (read-only): install into a virtual environment of the work tree'
  },
  {
    path: '$PIPX_HOME',
    default: '~/.local/share/pipx',
    why: "pipx's virtual environments, which its links in `~/.local/bin` run"
  },
  { path: '~/.local/pipx', why: "pipx's virtual environments before pipx 1.2" },
  {
    path: '$DOTNET_ROOT',
    default: '~/.dotnet',
    only: ['dotnet', 'host', 'sdk', 'shared', 'packs', 'sdk-manifests', 'templates', 'tools'],
    why: ".NET SDKs, runtimes and global tools (not `corefx`: .NET's X509 certificate store, which holds private keys)"
  },
  { path: '$JAVA_HOME', why: 'a JDK' },
  { path: '$JAVA_HOME_*', why: "the runner's other JDKs (`JAVA_HOME_17_X64`, …)" },
  {
    path: '$RUNNER_TOOL_CACHE',
    why: 'the tool cache `setup-*` actions install into (hosted runners: `/opt/hostedtoolcache`)'
  },
  {
    path: '$AGENT_TOOLSDIRECTORY',
    why: 'the same tool cache, by the name some setup actions read'
  },
  {
    path: '$VIRTUAL_ENV',
    marker: 'pyvenv.cfg',
    why: "the active Python virtual environment, whole when it holds `pyvenv.cfg` (its `bin` on `PATH` alone would not start: Python finds `lib/` and its packages through `pyvenv.cfg`); one inside the work tree is PR code's own"
  },
  {
    path: '$CONDA_PREFIX',
    marker: 'conda-meta',
    why: 'the active conda environment, whole when it holds `conda-meta`'
  }
]

/** Credentials: never shown, even inside a shown folder (masked by an empty file or folder). */
export const CREDENTIALS: readonly (HomeFolder & { pathFoldersInside?: true })[] = [
  { path: '~/.git-credentials', why: "git's credential store: tokens in plain text" },
  { path: '~/.ssh', why: 'SSH private keys' },
  { path: '~/.docker/config.json', why: 'registry logins (`docker login`)' },
  { path: '~/.npmrc', why: 'npm registry tokens' },
  { path: '~/.pypirc', why: 'PyPI upload tokens' },
  { path: '~/.netrc', why: 'passwords curl, git and pip send to hosts' },
  { path: '$CARGO_HOME/credentials.toml', why: 'crates.io tokens (`cargo login`)' },
  { path: '$CARGO_HOME/credentials', why: 'crates.io tokens (Cargo before 1.39)' },
  {
    path: '$CARGO_HOME/config.toml',
    why: 'Cargo settings, which can hold `registry.token`, `registries.*.token` and a proxy password'
  },
  { path: '$CARGO_HOME/config', why: 'the same settings under their older name' },
  {
    path: '~/.dotnet/corefx',
    why: ".NET's X509 certificate store on Linux (`dotnet dev-certs`, imported certificates): private keys"
  },
  {
    path: '$VIRTUAL_ENV/pip.conf',
    why: "pip's settings for the virtual environment: an `index-url` can hold a password"
  },
  {
    path: '$CONDA_PREFIX/.condarc',
    why: "conda's settings for the environment: channel URLs can hold tokens (`/t/<token>/`)"
  },
  { path: '$CONDA_PREFIX/condarc', why: 'the same settings, by their other name' },
  { path: '$CONDA_PREFIX/condarc.d', why: 'the same settings, in a folder of files' },
  {
    path: '$CONDA_PREFIX/pip.conf',
    why: "pip's settings for the environment (pip in a conda environment reads them): an `index-url` can hold a password"
  },
  {
    path: '$CONDA_PREFIX/conda-meta/state',
    why: 'the variables `conda env config vars set` gives the environment (API keys, tokens)'
  },
  {
    path: '$CONDA_PREFIX/etc/conda/activate.d',
    why: "scripts the environment's activation runs, where conda's docs put its variables (`export API_KEY=…`)"
  },
  { path: '~/.aws', why: 'AWS CLI keys' },
  { path: '~/.azure', why: 'Azure CLI tokens' },
  { path: '~/.config/gcloud', why: 'Google Cloud CLI tokens' },
  { path: '~/.kube', why: 'Kubernetes cluster credentials' },
  { path: '~/.config/gh', why: 'GitHub CLI token' },
  {
    path: '$RUNNER_TEMP',
    pathFoldersInside: true,
    why: 'file commands and credential files earlier steps wrote (`gha-creds-*.json`); only folders on `PATH` inside it are shown'
  }
]

type Env = Record<string, string | undefined>
type Located = { variable?: string; folder: string }

const DEFAULTS = new Map(
  TOOLCHAIN_HOMES.filter(h => h.default).map(h => [h.path.slice(1), h.default!])
)

/** Where a table's folder is on this runner: none when its variable is unset and it has no default. */
export function locate(spec: string, env: Env): Located[] {
  const home = env['HOME']
  if (spec.startsWith('~/'))
    return home && path.isAbsolute(home) && home !== '/'
      ? [{ folder: path.join(home, spec.slice(2)) }]
      : []
  const m = /^\$([A-Z_]+)(\*)?(?:\/(.*))?$/.exec(spec)
  if (!m) return []
  const [, name = '', star, rest = ''] = m
  const names = star ? Object.keys(env).filter(k => k.startsWith(name)) : [name]
  return names.sort().flatMap(variable => {
    const value = env[variable]
    if (value && path.isAbsolute(value)) return [{ variable, folder: path.join(value, rest) }]
    const fallback = star ? undefined : DEFAULTS.get(variable)
    return fallback
      ? locate(rest ? `${fallback}/${rest}` : fallback, env).map(l => ({ ...l, variable }))
      : []
  })
}

/** Whether `p` is one of `dirs` or inside one of them. */
export const within = (p: string, dirs: readonly string[]): boolean =>
  dirs.some(d => p === d || p.startsWith(`${d}/`))

/** The file's kind without following a link, or undefined when it is not there. */
function kind(p: string): 'dir' | 'file' | 'link' | 'other' | undefined {
  try {
    const s = lstatSync(p)
    // a FIFO or device is never opened (reading a FIFO's first bytes would wait forever)
    return s.isSymbolicLink() ? 'link' : s.isDirectory() ? 'dir' : s.isFile() ? 'file' : 'other'
  } catch {
    return undefined
  }
}

/** A path with its links resolved; undefined when it leads nowhere. */
export function realOrUndefined(p: string): string | undefined {
  try {
    return realpathSync.native(p)
  } catch {
    return undefined
  }
}

/** A script's interpreter (`#!/path/to/python`), from its first bytes. */
function interpreter(file: string): string | undefined {
  let fd: number | undefined
  try {
    fd = openSync(file, 'r')
    const head = Buffer.alloc(256)
    const n = readSync(fd, head, 0, head.length, 0)
    const m = /^#!\s*(\/\S+)/.exec(head.subarray(0, n).toString('latin1'))
    return m?.[1]
  } catch {
    return undefined
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/**
 * The folder that holds a toolchain a link or script on PATH leads into: the outermost
 * `node_modules` (a package and the dependencies hoisted beside it), else the prefix above a `bin`
 * (a virtual environment, a Python version, an SDK), else the file's folder.
 */
export function toolchainRoot(target: string, hidden: readonly string[]): string | undefined {
  const nm = target.indexOf('/node_modules/')
  if (nm > 0) return target.slice(0, nm + '/node_modules'.length)
  const dir = path.dirname(target)
  const prefix = path.dirname(dir)
  // a folder right in a hidden one (`~/.m2`, `~/.config`) holds settings and keys, not a toolchain:
  // only a `bin` there is shown (`~/.deno/bin`), a prefix only deeper (`~/opt/tool-1.0/bin`)
  if (!['bin', 'sbin'].includes(path.basename(dir)))
    return hidden.includes(prefix) ? undefined : dir
  return hidden.includes(prefix) || hidden.includes(path.dirname(prefix)) ? dir : prefix
}

/** Links followed one by one at most (as the kernel's limit on a path's links). */
const MAX_HOPS = 40

/**
 * Where a link (or a script's interpreter) leads, hop by hop; undefined when a hop, or the real
 * folder of a hop, is in the PR's work tree: a link the PR commits is never followed, even when
 * reached through a link of the runner (`npm link` of the checkout).
 */
export function follow(start: string, untrusted: (p: string) => boolean): string | undefined {
  let p = start
  for (let hop = 0; hop <= MAX_HOPS; hop++) {
    const dir = realOrUndefined(path.dirname(p))
    if (untrusted(p) || !dir || untrusted(dir)) return undefined
    p = path.join(dir, path.basename(p))
    if (kind(p) !== 'link') return kind(p) ? p : undefined
    const next = pointsAt(p)
    if (!next) return undefined
    p = next
  }
  return undefined
}

/** At most this many folders are shown for links on PATH; more are merged into common parents. */
export const MAX_LINKED = 24
/** Entries of a PATH folder read at most (a /usr/bin holds thousands). */
const MAX_ENTRIES = 20_000

/**
 * Whether link roots may be merged into `p`: it must be two folders inside a hidden folder, three
 * when the first is a dot folder — never `~/.config`, `~/.m2`, `~/.local/share`, which hold keys.
 */
function mergeable(p: string, hidden: readonly string[]): boolean {
  const h = hidden.filter(d => within(p, [d])).sort((a, b) => b.length - a.length)[0]
  if (!h) return false
  const parts = path.relative(h, p).split('/')
  return parts.length >= (parts[0]?.startsWith('.') ? 3 : 2)
}

/**
 * Merges roots into their parents, the parent with most roots first, until few enough remain; past
 * MAX_LINKED, the roots that cannot be merged are dropped (not shown) rather than widened.
 */
export function mergeRoots(
  roots: readonly string[],
  hidden: readonly string[]
): { roots: string[]; dropped: string[] } {
  const all = new Set(roots)
  const nested = (r: string): boolean => {
    for (let p = path.dirname(r); p !== path.dirname(p); p = path.dirname(p))
      if (all.has(p)) return true
    return false
  }
  let out = [...all].filter(r => !nested(r))
  while (out.length > MAX_LINKED) {
    const parents = new Map<string, number>()
    for (const r of out) {
      const p = path.dirname(r)
      if (mergeable(p, hidden)) parents.set(p, (parents.get(p) ?? 0) + 1)
    }
    const best = [...parents].sort((a, b) => b[1] - a[1] || b[0].length - a[0].length)[0]
    if (!best || best[1] < 2)
      return { roots: out.slice(0, MAX_LINKED), dropped: out.slice(MAX_LINKED) }
    out = [...out.filter(r => !within(r, [best[0]])), best[0]]
  }
  return { roots: out, dropped: [] }
}

/** Where a link points, one step (not resolved further), or undefined. */
function pointsAt(file: string): string | undefined {
  try {
    return path.resolve(path.dirname(file), readlinkSync(file))
  } catch {
    return undefined
  }
}

/**
 * Where the links and scripts of these folders lead (resolved), among what `hiddenAt` hides. The
 * PR's own files (`untrusted`: the work tree) are never followed: a link committed in
 * `node_modules/.bin` must not open the runner's folders to the PR.
 */
function leadsTo(
  dirs: readonly string[],
  hiddenAt: (p: string) => boolean,
  untrusted: (p: string) => boolean,
  scripts: (dir: string) => boolean
): string[] {
  const targets: string[] = []
  for (const dir of new Set(dirs.filter(d => !untrusted(d)))) {
    let names: string[]
    try {
      names = readdirSync(dir).slice(0, MAX_ENTRIES)
    } catch {
      continue
    }
    const readScripts = scripts(dir)
    for (const name of names) {
      const file = path.join(dir, name)
      const k = kind(file)
      const start =
        k === 'link' ? file : k === 'file' && readScripts ? interpreter(file) : undefined
      const real = start ? follow(start, untrusted) : undefined
      if (real && hiddenAt(real)) targets.push(real)
    }
  }
  return targets
}

export interface ToolchainView {
  /** Folders to show read-only: toolchain homes and where links on PATH lead. */
  show: string[]
  /** Credential files (masked by /dev/null) and folders (masked by an empty folder). */
  maskFiles: string[]
  maskFolders: string[]
  /** The toolchain homes' variables, pointing at the folders shown. */
  env: Record<string, string>
  /** Where links on PATH lead but not shown: past MAX_LINKED folders, none could be merged. */
  dropped: string[]
}

/** The credential paths on this runner (as given, and canonical), with the rows that name them. */
function credentialPaths(env: Env, real: (p: string) => string) {
  return CREDENTIALS.flatMap(c => locate(c.path, env).map(l => ({ ...c, folder: real(l.folder) })))
}

/**
 * Shows the toolchain homes (adding to `shown` and `open`); returns the variables for PR code: the
 * homes' that are not private, and a GOPROXY that reads the runner's Go module cache first.
 */
function showHomes(
  env: Env,
  at: {
    hide: readonly string[]
    forbidden: readonly string[]
    hiddenAt: (p: string) => boolean
    shown: string[]
    open: string[]
  },
  real: (p: string) => string
): Record<string, string> {
  const out: Record<string, string> = {}
  for (const h of TOOLCHAIN_HOMES) {
    for (const l of locate(h.path, env)) {
      const folder = real(l.folder)
      const parts = (h.only ?? ['']).map(sub => path.join(folder, sub))
      const present = parts.filter(
        p => ['dir', 'file'].includes(kind(p) ?? '') && !within(p, at.forbidden)
      )
      if (present.length === 0 || at.hide.includes(folder)) continue
      if (h.marker && !kind(path.join(folder, h.marker))) continue
      // a virtual environment made at a repository's root (`virtualenv .`) would show all of it:
      // its .git/config (remote URLs with tokens), its ignored .env files
      if (h.marker && kind(path.join(folder, '.git'))) continue
      const unseen = present.filter(at.hiddenAt)
      at.shown.push(...unseen)
      at.open.push(...unseen)
      if (l.variable && !h.private) out[l.variable] = folder
      // GOPROXY is a list split at `,` and `|`, its file:// URL unescaped at `%`: such a path is left out
      if (l.variable === 'GOMODCACHE' && !out['GOPROXY'] && !/[,|%]/.test(present[0]!))
        out['GOPROXY'] =
          `file://${present[0]},${env['GOPROXY'] || 'https://proxy.golang.org,direct'}`
    }
  }
  return out
}

/**
 * What PR code sees of the toolchains: `hide` and `show` as the sandbox mounts them (the work
 * tree and private folders in `writable`), `pathDirs` the PATH folders.
 */
export function toolchainView(
  env: Env,
  view: { hide: string[]; show: string[]; writable: string[]; pathDirs: string[] },
  real: (p: string) => string
): ToolchainView {
  const shown = [...view.show]
  const open = [...shown, ...view.writable]
  // the deepest mount above a path decides whether it is seen
  const hiddenAt = (p: string): boolean => {
    const h = view.hide.filter(d => within(p, [d])).sort((a, b) => b.length - a.length)[0]
    if (!h) return false
    return !open.some(o => within(p, [o]) && o.length >= h.length)
  }
  const credentials = credentialPaths(env, real)
  const forbidden = credentials.filter(c => !c.pathFoldersInside).map(c => c.folder)
  const out = showHomes(env, { hide: view.hide, forbidden, hiddenAt, shown, open }, real)
  // links and scripts on PATH that lead into hidden folders: twice, for a venv's python link
  const workspace = env['GITHUB_WORKSPACE']
  const prCode = [
    ...view.writable,
    ...(workspace && path.isAbsolute(workspace) ? [real(workspace)] : [])
  ]
  const untrusted = (p: string): boolean => within(p, prCode)
  let dirs = view.pathDirs
  let linked: string[] = []
  const dropped: string[] = []
  for (let round = 0; round < 2 && dirs.length > 0; round++) {
    // scripts' interpreters only in PATH folders of the hidden home (`pip install --user` scripts)
    const scripts = (dir: string): boolean => round === 0 && within(dir, view.hide)
    const roots = leadsTo(dirs, hiddenAt, untrusted, scripts)
      .map(t => toolchainRoot(t, view.hide))
      .filter((r): r is string => !!r && !within(r, forbidden) && !view.hide.includes(r))
    const merged = mergeRoots([...linked, ...roots], view.hide)
    dropped.push(...merged.dropped)
    dirs = merged.roots.filter(r => !linked.includes(r)).map(r => path.join(r, 'bin'))
    linked = merged.roots
  }
  shown.push(...linked)
  const seen = (p: string): boolean => !hiddenAt(p) || within(p, shown) || within(p, view.writable)
  // a link left dangling by real() is not masked: bwrap would follow it
  const masked = credentials.filter(
    c => !c.pathFoldersInside && ['dir', 'file'].includes(kind(c.folder) ?? '') && seen(c.folder)
  )
  return {
    show: shown.filter(s => !view.show.includes(s)),
    maskFiles: masked.filter(c => kind(c.folder) !== 'dir').map(c => c.folder),
    maskFolders: masked.filter(c => kind(c.folder) === 'dir').map(c => c.folder),
    env: out,
    dropped
  }
}
