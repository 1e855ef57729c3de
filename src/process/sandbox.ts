import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { NetworkMode, SandboxMode } from '../loop/settings.js'
import { chooseSandbox, type Exec, type SandboxChoice } from './bwrap.js'
import { commandEnv, type PrivateDirs } from './command-env.js'
import { createCommandRunner, type Launch, type RunHooks } from './command-runner.js'
import {
  closedToPrUser,
  findPrUser,
  handTree,
  killPrUser,
  launchAs,
  openWay,
  privateFolders,
  takeMachineLock,
  type MachineLock,
  type PrUser,
  type Way
} from './pr-user.js'
import { MAX_LINKED, toolchainView, within } from './toolchains.js'
import type { Surface } from '../loop/reasons.js'
import type { Confine, Confined, Log } from '../ports/index.js'

/**
 * PR code (checks, fix commands, the fixer's run_check) runs inside bubblewrap: its own PID
 * namespace and /proc (the action's processes and their environments are out of sight), an
 * allow-listed environment, the repository writable but `.git` read-only with a credential-free
 * config, the runner's home, temp and file-command folders hidden, no capabilities, and every process
 * it started killed when the command ends (the namespace dies with its first process).
 */

/** One checkout, as the sandbox shows it to PR code. */
export interface SandboxLayout {
  /** The repository's work tree: writable. */
  root: string
  /** Its git folder: read-only. */
  gitDir: string
  /** A copy of the repository's git config without credentials, shown as `gitDir/config`. */
  gitConfig: string
  /** Private HOME and TMPDIR: writable, fresh for each run. */
  dirs: PrivateDirs
  /** Folders replaced by empty ones (the runner's home, temp and file-command folders). */
  hide: string[]
  /** Folders under hidden ones shown again read-only (tools on PATH, toolchain homes, the tool cache). */
  show: string[]
  /** Sockets and credential files replaced by /dev/null (a Docker socket is root on the host). */
  mask: string[]
  /** Credential folders inside shown ones, replaced by empty read-only folders. */
  maskFolders?: string[]
  /** Folders shown read-only at a path of their own (the CLI: your installed dependencies in its checkout). */
  binds?: readonly ReadOnlyBind[]
  /**
   * Writable folders at a path of their own: a fresh one per run over each cache folder of a bind
   * (`node_modules/.vite`), and the build cache kept across runs (Go's GOCACHE).
   */
  scratch?: readonly Bind[]
  network: NetworkMode
  /** Running as root: capabilities are dropped explicitly. */
  root_user: boolean
}

type Mount = { op: string; src?: string; dest: string }

/** A folder shown at `dest`. */
export interface Bind {
  src: string
  dest: string
}

/** A folder shown read-only at `dest`. */
export interface ReadOnlyBind extends Bind {
  /**
   * Folders in it that tools write their caches to, and fail when they cannot (Vitest's results in
   * `node_modules/.vite`): each is replaced by a fresh writable folder for the run. Each must be
   * there already (bwrap cannot make a folder in a read-only one).
   */
  caches?: readonly string[]
}

const depth = (p: string): number => p.split('/').filter(Boolean).length

/** bwrap's arguments for one command; mounts are ordered parents first, so none hides another. */
export function bwrapArgs(layout: SandboxLayout, cwd: string, command: string): string[] {
  const mounts: Mount[] = [
    ...layout.hide.map(dest => ({ op: '--tmpfs', dest })),
    ...layout.show.map(dest => ({ op: '--ro-bind-try', src: dest, dest })),
    { op: '--bind', src: layout.root, dest: layout.root },
    { op: '--ro-bind', src: layout.gitDir, dest: layout.gitDir },
    { op: '--ro-bind', src: layout.gitConfig, dest: path.join(layout.gitDir, 'config') },
    { op: '--bind', src: layout.dirs.home, dest: layout.dirs.home },
    { op: '--bind', src: layout.dirs.tmp, dest: layout.dirs.tmp },
    ...(layout.binds ?? []).map(b => ({ op: '--ro-bind', src: b.src, dest: b.dest })),
    ...(layout.scratch ?? []).map(b => ({ op: '--bind', src: b.src, dest: b.dest }))
  ]
  const seen = new Set<string>()
  const ordered = mounts
    .map((m, i) => ({ m, i }))
    .sort((a, b) => depth(a.m.dest) - depth(b.m.dest) || a.i - b.i)
    .map(({ m }) => m)
    .filter(m => {
      // a folder both hidden and shown is shown; the same mount twice is made once
      const key = `${m.op === '--tmpfs' ? 'hide' : m.op}:${m.dest}`
      if (seen.has(key)) return false
      seen.add(key)
      return !(m.op === '--tmpfs' && layout.show.includes(m.dest))
    })
  return [
    '--die-with-parent',
    '--new-session',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...(layout.network === 'deny' ? ['--unshare-net'] : []),
    ...(layout.root_user ? ['--cap-drop', 'ALL'] : []),
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    ...ordered.flatMap(m => (m.src ? [m.op, m.src, m.dest] : [m.op, m.dest])),
    ...layout.mask.flatMap(file => ['--ro-bind', '/dev/null', file]),
    ...(layout.maskFolders ?? []).flatMap(dir => ['--tmpfs', dir, '--remount-ro', dir]),
    '--chdir',
    cwd,
    '--',
    'bash',
    '-o',
    'pipefail',
    '-c',
    command
  ]
}

/**
 * What PR code must not see: the runner's home (credentials of CLIs, the runner's own files), its
 * temp folder (file commands, credential files of earlier steps), and the runner's install folder.
 * Tools on PATH, where their links lead, the toolchain homes and the tool cache stay visible,
 * read-only (src/process/toolchains.ts), with the credential files in them masked; `env` holds the
 * toolchain homes' variables for PR code.
 */
export function hiddenFolders(
  env: Record<string, string | undefined>,
  options: {
    /** The action's node: on a runner, <runner>/externals/nodeNN/bin/node. */
    execPath?: string
    /** Folders PR code must be able to write (the work tree, its private folders). */
    writable?: readonly string[]
    /** Canonical form of a path (symbolic links resolved), so that mounts nest as they appear. */
    real?: (p: string) => string
  } = {}
): {
  hide: string[]
  show: string[]
  maskFiles: string[]
  maskFolders: string[]
  env: Record<string, string>
  dropped: string[]
} {
  const real = options.real ?? ((p: string) => path.resolve(p))
  const hide = new Set<string>()
  const add = (p: string | undefined): void => {
    if (p && path.isAbsolute(p) && depth(p) > 0) hide.add(real(p))
  }
  add('/tmp')
  // daemon sockets (systemd, D-Bus, Docker, containerd) live here; only DNS's stub is shown again
  add('/run')
  const runner = /^(.*)\/externals\/node\d+\/bin\/node$/.exec(options.execPath ?? '')
  if (runner?.[1]) add(runner[1])
  add(env['HOME'])
  add(env['RUNNER_TEMP'])
  for (const name of [
    'GITHUB_ENV',
    'GITHUB_OUTPUT',
    'GITHUB_STATE',
    'GITHUB_PATH',
    'GITHUB_STEP_SUMMARY',
    'GITHUB_EVENT_PATH'
  ]) {
    const file = env[name]
    if (file) add(path.dirname(file))
  }
  // the runner's install folder: RUNNER_WORKSPACE is <runner>/_work/<repo> (hosted: /home/runner/work/<repo>)
  const workspace = env['RUNNER_WORKSPACE']
  if (workspace && depth(workspace) >= 3) add(path.dirname(path.dirname(workspace)))
  const hidden = [...hide]
  const show = new Set<string>()
  const writable = (options.writable ?? []).map(real)
  const pathDirs = (env['PATH'] ?? '')
    .split(':')
    .filter(p => path.isAbsolute(p))
    .map(real)
  for (const p of [...pathDirs, '/run/systemd/resolve']) {
    // a folder of the work tree on PATH (node_modules/.bin) stays writable: it is not shown again;
    // a hidden folder itself (HOME on PATH) is never shown whole
    if (within(p, hidden) && !within(p, writable) && !hidden.includes(p)) show.add(p)
  }
  const tools = toolchainView(env, { hide: hidden, show: [...show], writable, pathDirs }, real)
  return { ...tools, hide: hidden, show: [...show, ...tools.show] }
}

/** Daemon sockets that give whoever reaches them the host (Docker, containerd, Podman). */
const SOCKETS = [
  '/var/run/docker.sock',
  '/run/docker.sock',
  '/run/containerd/containerd.sock',
  '/run/podman/podman.sock'
]

/** What to do on a runner where the sandbox does not work, for `sandbox: required`. */
export function sandboxHelp(reason: string, surface?: Surface): string {
  if (surface === 'cli')
    return `sandbox is required but ${reason}. Install bubblewrap (on Debian or Ubuntu: sudo apt-get install bubblewrap; it needs Linux with user namespaces allowed), or run with --set sandbox=auto to run your checks and fix commands unsandboxed.`
  return `sandbox is required but ${reason}. Install bubblewrap (apt-get install bubblewrap) on a Linux runner that allows user namespaces — on Ubuntu 24.04 with passwordless sudo the action loads an AppArmor profile for it — or set sandbox: auto to run PR code unsandboxed where it cannot work (the AI fixer then cannot run checks).`
}

// ── Confining one checkout ──────────────────────────────────────────────────────────────────────

export interface ConfineOptions {
  mode: SandboxMode
  network: NetworkMode
  passthrough: readonly string[]
  /** Where the private HOME and TMPDIR are made (the runner's temp folder, hidden from PR code). */
  tempDir: string
  env: Record<string, string | undefined>
  log: Log
  exec?: Exec
  /** Install bubblewrap and load its AppArmor profile with sudo where needed (default: a runner). */
  setUp?: boolean
  /** The sandbox already chosen (by the action as it started, src/action/startup.ts). */
  choice?: SandboxChoice
  /** Who runs the loop: the warnings name what is at risk there (default: the action's job). */
  surface?: Surface
  /** Folders to show read-only, given the checkout's work tree (see SandboxLayout.binds). */
  binds?: (root: string) => ReadOnlyBind[]
  /**
   * A folder of the loop's own, for one repository, where PR code's build caches are kept from run
   * to run (the CLI: `.git/review-loop/caches`); Go's GOCACHE is its `go-build`. See keptCaches.
   */
  caches?: string
  /**
   * The secrets PR code could take where it runs as the action's own user (input names, such as
   * `anthropic-api-key`): `auto` then refuses to run it. Empty where no PR code runs.
   */
  secretsAtRisk?: readonly string[]
  /** The operating system (default: this one's). */
  platform?: NodeJS.Platform
}

/**
 * The build caches kept across runs, and PR code's variables naming them. Without one each run
 * starts with an empty GOCACHE (the private HOME is new), and Go checks take 4–7× as long as
 * outside. It is never your own `~/.cache/go-build`: Go's build cache is addressed by the hash of
 * what went in, but whoever can write it can plant a wrong output under a right key, and PR code
 * can. So it is a folder only PR code of this one repository writes, which your own builds never
 * read: a poisoned entry could mislead a later check of this repository, nothing of yours.
 */
function keptCaches(options: ConfineOptions, real: (p: string) => string): Record<string, string> {
  if (!options.caches) return {}
  const go = path.join(options.caches, 'go-build')
  mkdirSync(go, { recursive: true })
  return { GOCACHE: real(go) }
}

/** A fresh writable folder (in `base`) over each cache folder of the binds, and the kept caches. */
function scratchFolders(
  binds: readonly ReadOnlyBind[],
  kept: Record<string, string>,
  base: string
): Bind[] {
  const fresh = binds.flatMap((b, i) =>
    (b.caches ?? []).map(name => {
      const src = path.join(base, 'caches', String(i), name)
      mkdirSync(src, { recursive: true })
      return { src, dest: path.join(b.dest, name) }
    })
  )
  return [...fresh, ...Object.values(kept).map(p => ({ src: p, dest: p }))]
}

/** The layout of one checkout's sandbox, from the folders hiddenFolders chose. */
function confinedLayout(
  checkout: Parameters<Confine>[0],
  setup: ReturnType<typeof privateSetup>,
  options: ConfineOptions
): SandboxLayout {
  const { dirs, folders, real } = setup
  const { hide, show } = folders
  const modules = path.join(checkout.gitDir, 'modules')
  const binds = options.binds?.(real(checkout.root)) ?? []
  return {
    root: real(checkout.root),
    gitDir: real(checkout.gitDir),
    gitConfig: checkout.gitConfig,
    dirs: { home: real(dirs.home), tmp: real(dirs.tmp) },
    // submodules' configs may hold persisted credentials too
    hide: [...hide, real(options.tempDir), ...(existsSync(modules) ? [real(modules)] : [])],
    show,
    mask: [
      ...SOCKETS.filter(
        file => existsSync(file) && !hide.some(h => real(file).startsWith(`${h}/`))
      ),
      ...folders.maskFiles
    ],
    maskFolders: folders.maskFolders,
    binds,
    scratch: scratchFolders(binds, setup.kept, setup.base),
    network: options.network,
    root_user: process.getuid?.() === 0
  }
}

/** What running PR code unsandboxed risked, in the words of the surface that ran it. */
function unsandboxedWarning(options: ConfineOptions, reason: string, noUser?: string): string {
  const off = options.mode === 'off'
  if (options.surface === 'cli')
    return `Your checks and fix commands ran unsandboxed${off ? ' (--set sandbox=off)' : `: ${reason}`}. They could read and change anything you can, as any command you run; the AI fixer could not run checks itself. See "The sandbox" in review-loop's docs/security.md.`
  const user = noUser ? `, as the action's own user (${noUser})` : ''
  return `PR code ran unsandboxed${off ? ' (sandbox: off)' : `: ${reason}`}${user}. It could read the job's secrets (the token, the API key, the step's environment) from the action's processes and memory; the AI fixer was not given run_check. See "The sandbox" in review-loop's docs/security.md.`
}

/** What PR code run as a user of its own was kept from, and what not. */
function separateUserWarning(options: ConfineOptions, reason: string, user: PrUser): string {
  const why = options.mode === 'off' ? 'sandbox: off' : reason
  return `PR code ran without bubblewrap (${why}), as the user ${user.name} made for it: it could not read the action's environment, memory or descriptors, but it could read what every user of this machine can, and use the network. See "The sandbox" in review-loop's docs/security.md.`
}

/** Where PR code would run as the action's own user: `auto` refuses while there are secrets to take. */
function refuseUnprotected(options: ConfineOptions, reason: string, noUser: string): void {
  const atRisk = options.secretsAtRisk ?? []
  if (options.mode !== 'auto' || options.surface === 'cli' || atRisk.length === 0) return
  throw new Error(
    `sandbox: auto will not run your checks and fix commands here: bubblewrap cannot run (${reason}), and they cannot run as a user of their own (${noUser}), so they could read ${atRisk.join(', ')} from the action's process. Run the job where bubblewrap works (GitHub's hosted Ubuntu runners), as root, or with passwordless sudo; or set sandbox: off to run them anyway, knowing that they can read these secrets.`
  )
}

/** A fresh private HOME and TMPDIR in `parent`, and the environment PR code gets. */
function privateSetup(options: ConfineOptions, checkout: Parameters<Confine>[0], parent: string) {
  mkdirSync(parent, { recursive: true })
  const base = mkdtempSync(path.join(parent, 'review-loop-pr-'))
  const dirs = { home: path.join(base, 'home'), tmp: path.join(base, 'tmp') }
  mkdirSync(dirs.home)
  mkdirSync(dirs.tmp)
  const real = (p: string): string => (existsSync(p) ? realpathSync(p) : path.resolve(p))
  const folders = hiddenFolders(
    { ...options.env, RUNNER_TEMP: options.env['RUNNER_TEMP'] ?? options.tempDir },
    { execPath: process.execPath, writable: [checkout.root, dirs.home, dirs.tmp], real }
  )
  const kept = keptCaches(options, real)
  // the toolchain homes' variables (RUSTUP_HOME, …): the private HOME would hide their defaults
  const env = { ...folders.env, ...kept, ...commandEnv(options.env, options.passthrough, dirs) }
  return { base, dirs, folders, env, real, kept }
}

/**
 * The repository's git config as PR code run as a user of its own reads it: git must read
 * `.git/config` (it stops when it cannot), which may hold the credentials actions/checkout
 * persists. While a command runs, the credential-free copy stands in its place, and the config as
 * it was is put back after: it stays in the action's memory meanwhile, never in a file. A job
 * killed in between leaves the copy: later steps lose the persisted credentials, never leak them.
 */
function withoutCredentials(checkout: Parameters<Confine>[0]): {
  hide: () => void
  restore: () => void
} {
  const file = path.join(checkout.gitDir, 'config')
  let kept: Buffer | undefined
  return {
    hide: () => {
      kept = readFileSync(file)
      writeFileSync(file, readFileSync(checkout.gitConfig))
    },
    restore: () => {
      if (kept) writeFileSync(file, kept)
      kept = undefined
    }
  }
}

/** How long a command waits for another job's command of PR code's user on the same machine. */
const LOCK_WAIT_MS = 60 * 60_000

/**
 * Around each command of PR code's user: the machine's lock; every process of that user killed
 * before the hand-over and after the command; the credential-free git config, fresh private folders
 * and the way to them opened for the command, all undone after it. Where the kill fails, the
 * confinement is broken for good: nothing is handed back, the credentials stay out of
 * `.git/config`, what was closed stays closed, and no further command runs.
 */
function prUserHooks(
  user: PrUser,
  checkout: Parameters<Confine>[0],
  dirs: PrivateDirs,
  close: readonly string[],
  exec: Exec | undefined
): RunHooks {
  const config = withoutCredentials(checkout)
  const folders = privateFolders(user, dirs, exec)
  let broken: unknown
  let lock: MachineLock | undefined
  let way: Way | undefined
  const kill = async (): Promise<void> =>
    killPrUser(user, exec).catch((e: unknown) => {
      broken ??= e
      throw e
    })
  return {
    before: async () => {
      if (broken) throw broken as Error
      lock = await takeMachineLock(user, LOCK_WAIT_MS)
      // nothing of that user may be alive while root hands the tree over
      await kill()
      config.hide()
      await folders.make()
      way = await openWay(user, [checkout.root, dirs.home, dirs.tmp], close, exec)
      await handTree(user, checkout.root, 'to PR code', exec)
    },
    kill,
    after: async () => {
      if (!lock) return
      try {
        if (broken) throw broken as Error
        await kill()
        await handTree(user, checkout.root, 'back', exec)
        await folders.remove()
        await way?.undo('all')
        config.restore()
      } catch (e) {
        if (broken) await way?.undo('openings')
        throw e
      } finally {
        if (!broken) lock?.release()
        lock = way = undefined
      }
    }
  }
}

/**
 * PR code as the user made for it (./pr-user.ts): its private folders outside the runner's temp
 * folder (closed to it), the work tree handed to it around each command, and every process of it
 * killed before and after each.
 */
async function asPrUser(
  options: ConfineOptions,
  reason: string,
  checkout: Parameters<Confine>[0],
  user: PrUser
): Promise<Confined> {
  const { base, dirs, env } = privateSetup(options, checkout, tmpdir())
  chmodSync(base, 0o711)
  // submodules' configs may hold persisted credentials too (their git then stops for PR code)
  const modules = path.join(checkout.gitDir, 'modules')
  const close = [...closedToPrUser(options.env), options.tempDir, modules]
  options.log.info(
    `sandbox: PR code runs as the user ${user.name} (uid ${user.uid}), not in bubblewrap (${options.mode === 'off' ? 'sandbox: off' : reason})`
  )
  const hooks = prUserHooks(user, checkout, dirs, close, options.exec)
  const runner = createCommandRunner((command: string) => launchAs(user, env, command), hooks)
  return { runner, env, sandboxed: true, warning: separateUserWarning(options, reason, user) }
}

/** Without bubblewrap: as the user made for PR code where there can be one, else as the action's. */
async function withoutBwrap(
  options: ConfineOptions,
  reason: string,
  checkout: Parameters<Confine>[0]
): Promise<Confined> {
  // on someone's own machine (the CLI) their code runs as they do
  if (options.surface === 'cli') return unprotected(options, reason, checkout)
  const found =
    (options.platform ?? process.platform) === 'linux'
      ? await findPrUser(options.exec)
      : { reason: `setpriv runs on Linux alone, not on ${options.platform ?? process.platform}` }
  if ('user' in found) return asPrUser(options, reason, checkout, found.user)
  refuseUnprotected(options, reason, found.reason)
  return unprotected(options, reason, checkout, found.reason)
}

/** PR code as the action's own user, said plainly. */
function unprotected(
  options: ConfineOptions,
  reason: string,
  checkout: Parameters<Confine>[0],
  noUser?: string
): Confined {
  const { env } = privateSetup(options, checkout, options.tempDir)
  return {
    runner: createCommandRunner(),
    env,
    sandboxed: false,
    warning: unsandboxedWarning(options, reason, noUser)
  }
}

/** Chooses the sandbox once and gives each checkout a runner confined to it. */
export function createConfinement(options: ConfineOptions): Confine {
  return async checkout => {
    const choice =
      options.choice ??
      (await chooseSandbox(
        options.mode,
        options.network,
        options.exec,
        process.platform,
        options.setUp
      ))
    for (const step of choice.setup) options.log.info(`sandbox: ${step}`)
    if (choice.kind === 'none' && options.mode === 'required')
      throw new Error(sandboxHelp(choice.reason, options.surface))
    if (choice.kind === 'none') return withoutBwrap(options, choice.reason, checkout)
    const setup = privateSetup(options, checkout, options.tempDir)
    const { folders, env } = setup
    options.log.info(
      `sandbox: ${options.surface === 'cli' ? 'your checks and fix commands run' : 'PR code runs'} in bubblewrap (own PID namespace, allow-listed environment, .git read-only, network ${options.network === 'deny' ? 'denied' : 'allowed'})`
    )
    if (folders.dropped.length > 0)
      options.log.warning(
        `sandbox: links on PATH lead into more folders of the hidden home than the ${MAX_LINKED} shown; not shown (${folders.dropped.length}), so their tools do not start in the sandbox (exit 127): ${folders.dropped.slice(0, 5).join(', ')}${folders.dropped.length > 5 ? ', …' : ''}. Put them on PATH directly, or install them outside the home.`
      )
    const layout = confinedLayout(checkout, setup, options)
    const launch: Launch = (command, cwd) => ({
      file: choice.bwrap,
      args: bwrapArgs(layout, cwd, command)
    })
    return { runner: createCommandRunner(launch), env, sandboxed: true }
  }
}
