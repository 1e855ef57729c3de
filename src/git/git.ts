import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Writable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Git, GrepHit } from '../ports/index.js'
import { gitEnv } from '../process/command-env.js'

export interface GitOptions {
  /** Token for fetch and push, used only when the checkout did not persist credentials. */
  token?: string
  /** Where the action keeps its copies of the git configuration (hidden from PR code). */
  scratch?: string
  env?: Record<string, string | undefined>
  /** Told when PR code changed the repository's git config (it is put back), and of each retry. */
  warn?: (message: string) => void
  /**
   * The waits before each retry of a network command (fetch, ls-remote, push) that failed
   * transiently: an HTTP 5xx or 429, a dropped connection, a timeout. Default 1 s, 4 s, 10 s.
   */
  retryDelaysMs?: readonly number[]
  /**
   * A network command moving fewer than `bytesPerSecond` for `seconds` gives up (git's
   * http.lowSpeedLimit and http.lowSpeedTime). Default 1000 bytes/s over 30 s.
   */
  lowSpeed?: { bytesPerSecond: number; seconds: number }
  /** A network command still running after this long is killed. Default 300 s. */
  networkTimeoutMs?: number
}

const RETRY_DELAYS_MS: readonly number[] = [1000, 4000, 10000]
const LOW_SPEED = { bytesPerSecond: 1000, seconds: 30 }
const NETWORK_TIMEOUT_MS = 300_000

/**
 * Every git command of the action runs with these: no repository hooks, no fsmonitor command, no
 * external diff or textconv program, no `ext::` transport.
 */
const SAFE = [
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'diff.external=',
  '-c',
  'protocol.ext.allow=never',
  // a submodule's own config (writable by PR code) would otherwise run its filters in our diff
  '-c',
  'diff.ignoreSubmodules=all',
  '-c',
  'submodule.recurse=false'
]

/** Config keys PR code must not see: credentials and files that hold them. */
const CREDENTIAL_KEY =
  /(^|\.)extraheader$|^credential\.|^include\.|^includeif\.|^http\..*\.?(sslkey|sslcert|sslcertpasswordprotected|cookiefile)$|^url\..*\.(push)?insteadof$/i

/** The global git config as it is now, before any PR code ran (a later change is not seen). */
function snapshotGlobal(env: Record<string, string | undefined>, scratch: string): string {
  const target = path.join(scratch, 'global-config')
  const home = env['HOME']
  const xdg = env['XDG_CONFIG_HOME'] ?? (home ? path.join(home, '.config') : undefined)
  const candidates = [
    env['GIT_CONFIG_GLOBAL'],
    xdg && path.join(xdg, 'git', 'config'),
    home && path.join(home, '.gitconfig')
  ]
  const parts = candidates
    .filter((f): f is string => Boolean(f) && existsSync(f as string))
    .map(f => readFileSync(f, 'utf8'))
  writeFileSync(target, parts.join('\n'))
  return target
}

interface GitResult {
  code: number
  stdout: string
  stderr: string
}

type RunGit = (args: string[]) => Promise<GitResult>

interface RunOptions {
  env: Record<string, string>
  input?: Buffer
  /**
   * What git's credential helper answers (`username=…\npassword=…\n`), handed to git on its fd 3:
   * a socket, which no other process can open through /proc/PID/fd the way it can read an
   * environment or a command line.
   */
  credential?: string
  /** Set for network commands: they run in their own process group, killed after this long. */
  timeoutMs?: number
  /** How stdout is decoded (default utf8); `latin1` keeps every byte, for output read by size. */
  encoding?: 'utf8' | 'latin1'
}

/** Runs one git command; one still running after `timeoutMs` is killed with all it started. */
function runGit(
  cwd: string,
  args: string[],
  { env, input, timeoutMs, credential, encoding = 'utf8' }: RunOptions
): Promise<GitResult> {
  return new Promise(resolve => {
    const bounded = timeoutMs !== undefined
    const child = spawn('git', credential === undefined ? args : [...HELPER, ...args], {
      cwd,
      env,
      detached: bounded,
      stdio: ['pipe', 'pipe', 'pipe', ...(credential === undefined ? [] : ['pipe' as const])]
    })
    const secret = child.stdio[3] as Writable | null | undefined
    if (secret) {
      secret.on('error', () => undefined)
      secret.end(credential)
    }
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', (c: Buffer) => out.push(c))
    child.stderr.on('data', (c: Buffer) => err.push(c))
    let timedOut = false
    let done = false
    // the group: git and its remote helper, which holds the connection. SIGTERM first: git then
    // removes its lock files (a retry would find them); SIGKILL for whatever is left
    const signal = (name: NodeJS.Signals): void => {
      if (done) return
      try {
        process.kill(-child.pid!, name)
      } catch {
        // no such group (gone already, or no process groups here): git itself, at least
        child.kill(name)
      }
    }
    const timer = bounded
      ? setTimeout(() => {
          timedOut = true
          signal('SIGTERM')
          setTimeout(() => signal('SIGKILL'), 2000).unref()
        }, timeoutMs)
      : undefined
    const finish = (code: number, extra = ''): void => {
      if (done) return
      done = true
      clearTimeout(timer)
      const late = timedOut ? `\ntimed out after ${timeoutMs! / 1000} s; git was stopped` : ''
      const stderr = Buffer.concat(err).toString('utf8') + extra + late
      resolve({
        code: timedOut ? 124 : code,
        stdout: Buffer.concat(out).toString(encoding),
        stderr
      })
    }
    child.on('error', e => finish(127, `\n${e.message}`))
    child.on('close', code => finish(code ?? 128))
    // something git started that still holds its output (an ssh control master) is not waited for
    child.on('exit', code =>
      setTimeout(() => {
        child.stdout.destroy()
        child.stderr.destroy()
        finish(code ?? 128)
      }, 2000).unref()
    )
    // git may exit before it read all of its input
    child.stdin.on('error', () => undefined)
    child.stdin.end(input)
  })
}

/**
 * The credential helper of the action's own fetch and push: it answers `get` with what the action
 * wrote to fd 3 (see RunOptions.credential), and no helper of the runner's config is asked.
 */
const HELPER = [
  '-c',
  'credential.helper=',
  '-c',
  'credential.helper=!f() { test "$1" = get && cat <&3; }; f'
]

/** What git says when a network command fails, stderr then stdout (push --porcelain's ref lines). */
const said = (r: GitResult): string => (r.stderr + r.stdout).trim()

/**
 * Why a network command failed, from what git 2.x says. Against test-support/git-http-server.ts:
 * "The requested URL returned error: 503" (any status on the first request), "RPC failed; HTTP 500
 * curl 22" with "unexpected disconnect" or "the remote end hung up unexpectedly" (a later one),
 * "Recv failure: Connection reset by peer", "Operation too slow" (http.lowSpeedTime), "could not
 * read Username … terminal prompts disabled" (401); GitHub adds "Permission to o/r.git denied".
 */
type Failure = 'rejected' | 'auth' | 'transient' | 'other'

const AUTH =
  /could not read (Username|Password)|Authentication failed|Invalid username or password|Permission to \S+ denied|(returned error:|HTTP) 40[13]\b/i
const TRANSIENT =
  /(returned error:|HTTP) (5\d\d|429)\b|RPC failed|Connection reset|Connection refused|timed out|Operation too slow|early EOF|unexpected disconnect|Could not resolve host|Empty reply from server|transfer closed|remote end hung up unexpectedly|(Recv|Send) failure/i

function failureOf(message: string): Failure {
  // "[remote rejected]" is a server refusal (protected branch, hook), not a moved branch, unless
  // the server says that the ref moved as it was updated (another push won a race)
  if (
    (/\[rejected\]|non-fast-forward|fetch first|stale info/i.test(message) &&
      !/remote rejected/i.test(message)) ||
    /cannot lock ref '[^']*': (is at \S+ but expected|reference already exists)/i.test(message)
  )
    return 'rejected'
  if (AUTH.test(message)) return 'auth'
  // any other 4xx (404 no such repository, 413 too large) would say the same again
  if (/(returned error:|HTTP) 4(?!29)\d\d\b/.test(message)) return 'other'
  return TRANSIENT.test(message) ? 'transient' : 'other'
}

/** Runs a network command again after each delay while it fails transiently. */
async function withRetries(
  attempt: () => Promise<GitResult>,
  delays: readonly number[],
  onRetry: (failed: GitResult, delayMs: number) => void
): Promise<GitResult & { attempts: number }> {
  for (let n = 0; ; n++) {
    const r = await attempt()
    const wait = delays[n]
    if (r.code === 0 || wait === undefined || failureOf(said(r)) !== 'transient')
      return { ...r, attempts: n + 1 }
    onRetry(r, wait)
    await sleep(wait)
  }
}

/** What to fix when origin refused the credentials (the token itself is never in it). */
const AUTH_HINT =
  "origin refused the action's credentials. Check the token in the `github-token` input: fetching " +
  'needs `contents: read` and pushing the fix needs `contents: write`, granted under `permissions:` ' +
  "in the workflow for the workflow token, or use a PAT or GitHub App token with write access to the PR's " +
  'branch. A pull request from a fork gets a read-only workflow token whatever `permissions:` says.'

/** The message of a network command that failed for good. */
function networkFailure(command: string, r: GitResult & { attempts: number }): string {
  if (failureOf(said(r)) === 'auth') return `git ${command}: ${AUTH_HINT}\ngit said: ${said(r)}`
  const tries = r.attempts > 1 ? ` after ${r.attempts} attempts` : ''
  return `git ${command} failed${tries} (exit ${r.code}): ${said(r)}`
}

/** The output of a network command that must succeed. */
function succeeded(command: string, r: GitResult & { attempts: number }): string {
  if (r.code !== 0) throw new Error(networkFailure(command, r))
  return r.stdout
}

/** Takes the token, and any password in a URL, out of what a failed command said. */
function redact<R extends GitResult>(r: R, token: string | undefined): R {
  const hide = (text: string): string =>
    (token ? text.split(token).join('***') : text).replace(
      /([a-z][a-z0-9+.-]*:\/\/[^/@\s:]*):[^/@\s]*@/gi,
      '$1:***@'
    )
  return r.code === 0 ? r : { ...r, stdout: hide(r.stdout), stderr: hide(r.stderr) }
}

/** A copy of the repository's config as it was before PR code ran, without credentials. */
async function credentialFreeCopy(
  git: RunGit,
  pristine: Buffer | undefined,
  scratch: string
): Promise<string> {
  const copy = path.join(scratch, `pr-config-${randomUUID()}`)
  writeFileSync(copy, pristine ?? '')
  // name and value of every entry, in one call: 'name\nvalue\0'
  const entries = (await git(['config', '--file', copy, '--list', '-z'])).stdout
    .split('\0')
    .filter(Boolean)
    .map(e => {
      const cut = e.indexOf('\n')
      return cut < 0 ? { name: e, value: '' } : { name: e.slice(0, cut), value: e.slice(cut + 1) }
    })
  const withPassword = /[a-z][a-z0-9+.-]*:\/\/[^/@\s]*:[^/@\s]*@/i
  const drop = entries.filter(
    e => CREDENTIAL_KEY.test(e.name) || (!/^remote\./i.test(e.name) && withPassword.test(e.value))
  )
  for (const name of new Set(drop.map(e => e.name)))
    await git(['config', '--file', copy, '--unset-all', name])
  // user:password@ in a remote URL: the URL stays, without its credentials
  for (const e of entries.filter(e => /^remote\..*\.(url|pushurl)$/i.test(e.name))) {
    const clean = e.value.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1')
    if (clean !== e.value) await git(['config', '--file', copy, e.name, clean])
  }
  return copy
}

/**
 * With persist-credentials: false, the action authenticates its own fetch and push through a
 * credential helper that reads the token from the command's fd 3: never in an environment (which
 * any process of the same user can read in /proc/PID/environ, PR code included where no sandbox
 * runs), on a command line, or in a file.
 */
async function authentication(
  git: RunGit,
  token: string | undefined
): Promise<Partial<RunOptions>> {
  if (!token) return {}
  const persisted =
    (await git(['config', '--get-regexp', '^http\\..*extraheader$'])).stdout.trim() !== ''
  if (persisted) return {}
  return { credential: `username=x-access-token\npassword=${token}\n` }
}

/** SAFE, and: a transfer that stalls gives up (a network command's timeout is the hard limit). */
function safeFlags(options: GitOptions): string[] {
  const low = options.lowSpeed ?? LOW_SPEED
  return [
    ...SAFE,
    '-c',
    `http.lowSpeedLimit=${low.bytesPerSecond}`,
    '-c',
    `http.lowSpeedTime=${low.seconds}`
  ]
}

/** Fetch, ls-remote and push: authenticated, bounded in time, retried while they fail transiently. */
function networkCommand(
  git: (args: string[], extra: Partial<RunOptions>) => Promise<GitResult>,
  auth: Partial<RunOptions>,
  options: GitOptions
): (args: string[], retry?: boolean) => Promise<GitResult & { attempts: number }> {
  const timeoutMs = options.networkTimeoutMs ?? NETWORK_TIMEOUT_MS
  return (args, retry = true) =>
    withRetries(
      async () => redact(await git(args, { ...auth, timeoutMs }), options.token),
      retry ? (options.retryDelaysMs ?? RETRY_DELAYS_MS) : [],
      (failed, wait) =>
        options.warn?.(
          `git ${args[0]} failed (${failed.stderr.trim().replace(/\s*\n\s*/g, ' / ')}); trying again in ${wait / 1000} s.`
        )
    )
}

/** Whether the checkout is shallow (actions/checkout's default is fetch-depth: 1). */
async function isShallow(git: RunGit): Promise<boolean> {
  return (await git(['rev-parse', '--is-shallow-repository'])).stdout.trim() === 'true'
}

const SHALLOW_HINT =
  'The checkout is shallow and the action could not fetch the history the review needs; check out with `actions/checkout` and `fetch-depth: 0`. '

/**
 * Whether the history of `sha` is cut off here: a commit of it is a shallow boundary of the
 * checkout (its parents were not fetched), so a merge base missing may only be out of reach.
 */
async function historyCut(git: RunGit, sha: string): Promise<boolean> {
  if (!(await isShallow(git))) return false
  const file = (await git(['rev-parse', '--path-format=absolute', '--git-path', 'shallow'])).stdout
  const boundaries = existsSync(file.trim()) ? readFileSync(file.trim(), 'utf8').split(/\s+/) : []
  for (const boundary of boundaries.filter(Boolean))
    if ((await git(['merge-base', '--is-ancestor', boundary, sha])).code === 0) return true
  return false
}

/** A fetch of history the review needs; from a shallow checkout, its failure names fetch-depth: 0. */
async function historyFetch(
  git: RunGit,
  network: ReturnType<typeof networkCommand>,
  args: string[]
): Promise<void> {
  const r = await network(args)
  if (r.code === 0) return
  const hint = (await isShallow(git)) ? SHALLOW_HINT : ''
  throw new Error(hint + networkFailure('fetch', r))
}

/** The port's history methods: what to diff against, a shallow checkout deepened, ancestry. */
function historyMethods(
  git: RunGit,
  network: ReturnType<typeof networkCommand>,
  url: () => string,
  own: () => Pick<Git, 'revParse' | 'mergeBase' | 'reviewBase' | 'fullHistory'>
): Pick<Git, 'prepareDiff' | 'reviewBase' | 'fullHistory' | 'isAncestor'> {
  return {
    async prepareDiff(baseRef, baseSha, headSha) {
      return (await own().reviewBase(baseRef, baseSha, headSha)).sha
    },
    async reviewBase(baseRef, baseSha, headSha) {
      if ((await own().revParse(baseSha)) === undefined)
        await historyFetch(git, network, [
          'fetch',
          '--no-tags',
          url(),
          `+refs/heads/${baseRef}:refs/remotes/origin/${baseRef}`
        ])
      let mergeBase = await own().mergeBase(baseSha, headSha)
      // a shallow checkout (the default fetch-depth: 1) lacks the history down to the merge base
      if (!mergeBase && (await own().fullHistory()))
        mergeBase = await own().mergeBase(baseSha, headSha)
      // "shares no history" only once the head's whole history is here
      if (!mergeBase && (await historyCut(git, headSha)))
        throw new Error(
          `${SHALLOW_HINT}After deepening, the history of the head ${headSha} still stops at a commit whose parents origin did not send, so its merge base with ${baseRef} is unknown.`
        )
      return mergeBase ? { sha: mergeBase, shared: true } : { sha: baseSha, shared: false }
    },
    async fullHistory() {
      if (!(await isShallow(git))) return false
      // every branch, as fetch-depth: 0 fetches them: the history of the shallow commits comes with them
      await historyFetch(git, network, [
        'fetch',
        '--no-tags',
        '--unshallow',
        url(),
        '+refs/heads/*:refs/remotes/origin/*'
      ])
      return true
    },
    async isAncestor(a, b) {
      if ((await own().revParse(a)) === undefined || (await own().revParse(b)) === undefined)
        return undefined
      const r = await git(['merge-base', '--is-ancestor', a, b])
      if (r.code > 1) throw new Error(`git merge-base failed (exit ${r.code}): ${said(r)}`)
      return r.code === 0
    }
  }
}

/**
 * Puts the work tree on `branch` at the PR head `sha`, fetching it when the checkout lacks it (a
 * depth-1 checkout of the merge ref): from origin's branch, or else the commit itself, which is
 * all the base repository has of a fork's head (or of a deleted branch's): GitHub serves a
 * commit its refs (refs/pull/N/head included) reach.
 */
function pullHeadCheckout(
  git: RunGit,
  network: ReturnType<typeof networkCommand>,
  url: () => string,
  commitOf: (ref: string) => Promise<string | undefined>
): (branch: string, sha: string) => Promise<void> {
  const here = async (ref: string): Promise<boolean> => (await commitOf(ref)) !== undefined
  return async (branch, sha) => {
    if (!(await here(sha))) {
      const fetch = ['fetch', '--no-tags', url()]
      const r = await network([...fetch, `+refs/heads/${branch}:refs/remotes/origin/${branch}`])
      if (!(await here(sha)) && (await network([...fetch, sha])).code !== 0 && r.code !== 0)
        throw new Error(networkFailure('fetch', r))
    }
    if (!(await here(sha)))
      throw new Error(`The PR head ${sha} is not on origin/${branch}; was the branch rewritten?`)
    const r = await git(['checkout', '--force', '-B', branch, sha])
    if (r.code !== 0) throw new Error(`git checkout failed (exit ${r.code}): ${said(r)}`)
  }
}

export async function createGit(cwd: string, options: GitOptions = {}): Promise<Git> {
  const scratch = mkdtempSync(path.join(options.scratch ?? tmpdir(), 'review-loop-git-'))
  const baseEnv = options.env ?? process.env
  const env: Record<string, string> = {
    ...gitEnv(baseEnv),
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: snapshotGlobal(baseEnv, scratch)
  }
  // the repository's config as read before any PR code ran; filled in once the git folder is known
  const localConfig: { file?: string; pristine?: Buffer } = {}

  /** PR code may have rewritten .git/config (filters, pushurl, uploadpack): put it back first. */
  const restoreConfig = (): void => {
    if (!localConfig.file || !localConfig.pristine) return
    const now = existsSync(localConfig.file) ? readFileSync(localConfig.file) : undefined
    if (now && now.equals(localConfig.pristine)) return
    writeFileSync(localConfig.file, localConfig.pristine)
    options.warn?.(
      `${localConfig.file} was changed after the action read it (by PR code?); it was put back before the action's own git ran.`
    )
  }

  const git = async (args: string[], extra: Partial<RunOptions> = {}): Promise<GitResult> => {
    restoreConfig()
    return runGit(cwd, [...safeFlags(options), ...args], {
      ...extra,
      env: { ...env, ...extra.env }
    })
  }
  const ok = async (args: string[], extra?: Partial<RunOptions>): Promise<string> => {
    const r = await git(args, extra)
    if (r.code !== 0) {
      throw new Error(
        `git ${args.find((a, i) => !a.startsWith('-') && args[i - 1] !== '-c')} failed (exit ${r.code}): ${r.stderr.trim() || r.stdout.trim()}`
      )
    }
    return r.stdout
  }

  // the common git folder holds the config, also for a worktree whose .git is a file
  const top = await git([
    'rev-parse',
    '--path-format=absolute',
    '--show-toplevel',
    '--git-common-dir'
  ])
  if (top.code !== 0) {
    throw new Error(
      `${cwd} is not a git checkout. Add 'actions/checkout' before review-loop (see the README's usage).`
    )
  }
  const [root = cwd, gitDir = path.join(cwd, '.git')] = top.stdout.trim().split('\n')
  const configFile = path.join(gitDir, 'config')
  if (existsSync(configFile)) {
    localConfig.file = configFile
    localConfig.pristine = readFileSync(configFile)
  }
  // the remote as it was before PR code ran; fetch and push name it, never 'origin'
  const origin = (await git(['config', '--get', 'remote.origin.url'])).stdout.trim()
  const url = (): string => {
    if (!origin) throw new Error(`The checkout in ${root} has no remote 'origin'.`)
    return origin
  }
  const auth = await authentication(git, options.token)
  const network = networkCommand(git, auth, options)
  const remote = async (args: string[]): Promise<string> => succeeded(args[0]!, await network(args))

  const untracked = async (): Promise<string[]> =>
    (await ok(['ls-files', '--others', '--exclude-standard', '-z'])).split('\0').filter(Boolean)
  const commitOf = commitLookup(git)
  const self: Git = {
    root,
    gitDir,
    async head() {
      return (await ok(['rev-parse', 'HEAD'])).trim()
    },
    revParse: commitOf,
    async treeOf(sha) {
      const r = await git(['rev-parse', '--verify', '--quiet', `${sha}^{tree}`])
      return r.code === 0 ? r.stdout.trim() : undefined
    },
    checkoutPullHead: pullHeadCheckout(git, network, url, commitOf),
    async remoteHead(branch) {
      const r = await remote(['ls-remote', url(), `refs/heads/${branch}`])
      return r.split(/\s+/)[0] || undefined
    },
    untrackedPaths: untracked,
    async changedSince(base, except = new Set()) {
      const tracked = nul(
        await ok([
          'diff',
          '--name-only',
          '--no-renames',
          '--no-ext-diff',
          '--no-textconv',
          '--ignore-submodules=all',
          '-z',
          base
        ])
      )
      const fresh = (await untracked()).filter(p => !except.has(p))
      return [...new Set([...tracked, ...fresh])]
    },
    async configForPrCode() {
      return credentialFreeCopy(git, localConfig.pristine, scratch)
    },
    async commitEntries(base, entries, message, author) {
      const index = path.join(scratch, `index-${randomUUID()}`)
      const withIndex = { GIT_INDEX_FILE: index }
      try {
        await ok(['read-tree', base], { env: withIndex })
        const lines: string[] = []
        for (const entry of entries) {
          if ('deleted' in entry) {
            lines.push(`0 ${'0'.repeat(40)}\t${entry.path}`)
            continue
          }
          const blob = (
            await ok(['hash-object', '-w', '--no-filters', '--stdin'], { input: entry.content })
          ).trim()
          lines.push(`${entry.mode} ${blob}\t${entry.path}`)
        }
        if (lines.length)
          await ok(['update-index', '-z', '--index-info'], {
            env: withIndex,
            input: Buffer.from(lines.map(l => `${l}\0`).join(''))
          })
        const tree = (await ok(['write-tree'], { env: withIndex })).trim()
        const baseTree = (await ok(['rev-parse', `${base}^{tree}`])).trim()
        if (tree === baseTree) return undefined
        const env = identity(author)
        const sha = (
          await ok(['commit-tree', tree, '-p', base], { env, input: Buffer.from(message) })
        ).trim()
        // the branch and index follow the commit; the work tree is left as the fixers left it
        await ok(['reset', '-q', sha])
        return sha
      } finally {
        rmSync(index, { force: true })
      }
    },
    async changedBetween(a, b) {
      return nul(await ok(['diff-tree', '-r', '--no-renames', '--name-only', '-z', a, b]))
    },
    async push(branch, sha) {
      // never --force: a branch that moved under us is left to the next run. A retry after a push
      // that landed finds the branch at sha already: git says it is up to date.
      const r = await network([
        'push',
        '--no-verify',
        '--porcelain',
        url(),
        `${sha}:refs/heads/${branch}`
      ])
      if (r.code === 0) return { kind: 'pushed' }
      const failure = failureOf(said(r))
      // the push may have landed with its answer lost on the way back (a retry then finds the
      // branch moved: to this very commit): one look
      const there =
        failure === 'auth'
          ? undefined
          : await network(['ls-remote', url(), `refs/heads/${branch}`], false)
      if (there?.code === 0 && there.stdout.split(/\s+/)[0] === sha) return { kind: 'pushed' }
      if (failure === 'rejected') return { kind: 'rejected', message: said(r) }
      return { kind: 'failed', message: networkFailure('push', r) }
    },
    async formatPatch(base, head) {
      return ok(['format-patch', '--no-ext-diff', '--no-textconv', '--stdout', `${base}..${head}`])
    },
    async mergeBase(a, b) {
      const r = await git(['merge-base', a, b])
      return r.code === 0 ? r.stdout.trim() : undefined
    },
    ...historyMethods(git, network, url, () => self),
    ...claimMethods(git, ok, network, url, commitOf),
    async diff(base, head, paths = [], options = {}) {
      return ok([
        '-c',
        'core.quotePath=false',
        'diff',
        '--no-color',
        '--no-ext-diff',
        '--no-textconv',
        ...(options.text ? ['--text'] : []),
        `${base}..${head}`,
        '--',
        ...paths
      ])
    },
    ...commitReads(git, ok)
  }
  return self
}

/**
 * The commit `ref` names, if it is here. A commit named by its full id that is here stays for the
 * run (git prunes only what is unreachable and weeks old): each such id is looked up once.
 */
function commitLookup(git: RunGit): (ref: string) => Promise<string | undefined> {
  const present = new Set<string>()
  return async ref => {
    if (present.has(ref)) return ref
    const r = await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])
    if (r.code !== 0) return undefined
    const sha = r.stdout.trim()
    if (sha === ref) present.add(sha)
    return sha
  }
}

/** Whether `git push --porcelain` says that `ref` was updated (created, forced or up to date). */
function landed(porcelain: string, ref: string): boolean {
  return porcelain.split('\n').some(line => /^[*+= ]\t/.test(line) && line.includes(`:${ref}\t`))
}

/** The identity git writes a commit under: the same for author and committer. */
const identity = (who: { name: string; email: string }): Record<string, string> => ({
  GIT_AUTHOR_NAME: who.name,
  GIT_AUTHOR_EMAIL: who.email,
  GIT_COMMITTER_NAME: who.name,
  GIT_COMMITTER_EMAIL: who.email
})

/**
 * Claims on origin and the branch's recent commits. A claim is a push with a lease: the ref must
 * not exist (or must still be at `replacing`), which the server checks as it updates the ref, so of
 * two runs claiming at once exactly one gets it.
 */
function claimMethods(
  git: RunGit,
  ok: (args: string[], extra?: Partial<RunOptions>) => Promise<string>,
  network: ReturnType<typeof networkCommand>,
  url: () => string,
  commitOf: (ref: string) => Promise<string | undefined>
): Pick<Git, 'claimRef' | 'deleteRemoteRefs' | 'recentCommits'> {
  const held = async (ref: string): Promise<{ sha: string; message: string } | undefined> => {
    const fetched = await network(['fetch', '--no-tags', url(), ref], false)
    if (fetched.code !== 0) return undefined
    const shown = await git(['log', '-1', '--format=%H%n%B', 'FETCH_HEAD'])
    if (shown.code !== 0) return undefined
    const [sha = '', ...message] = shown.stdout.split('\n')
    return { sha, message: message.join('\n').trim() }
  }
  return {
    async claimRef(ref, parent, message, author, options = {}) {
      const env = identity(author)
      const input = Buffer.from(message)
      const sha = (
        await ok(['commit-tree', `${parent}^{tree}`, '-p', parent], { env, input })
      ).trim()
      const lease = `--force-with-lease=${ref}:${options.replacing ?? ''}`
      const drop = (options.dropping ?? []).filter(d => d !== ref).map(d => `:${d}`)
      const push = ['push', '--no-verify', '--porcelain', lease, url(), `${sha}:${ref}`, ...drop]
      // no retries: a claim is worth one try (a lost answer is read back below)
      const r = await network(push, false)
      // a ref to drop that is gone already may fail the push as a whole: the claim's own line says
      if (r.code === 0 || landed(r.stdout, ref)) return { kind: 'claimed', sha }
      // refused (another claim is there), or the answer lost (this claim may have landed): a look
      const holder = failureOf(said(r)) === 'auth' ? undefined : await held(ref)
      if (holder?.sha === sha) return { kind: 'claimed', sha }
      if (holder) return { kind: 'taken', ...holder }
      return { kind: 'failed', message: networkFailure('push', r) }
    },
    async deleteRemoteRefs(refs) {
      if (refs.length === 0) return
      const r = await network([
        'push',
        '--no-verify',
        '--porcelain',
        url(),
        ...refs.map(ref => `:${ref}`)
      ])
      // git refuses to delete what is not there; that is done already
      if (r.code !== 0 && !/remote ref does not exist/i.test(said(r)))
        throw new Error(networkFailure('push', r))
    },
    async recentCommits(head, limit) {
      // a shallow checkout (fetch-depth: 1, the default) is deepened to `limit` commits of head
      const depth = (await isShallow(git)) ? [`--depth=${limit}`] : []
      if (depth.length > 0 || !(await commitOf(head)))
        succeeded('fetch', await network(['fetch', '--no-tags', ...depth, url(), head]))
      const format = '--format=%H%x1f%P%x1f%cn <%ce>%x1f%B%x1e'
      const out = await ok(['log', '--first-parent', `-n${limit}`, format, head])
      return out
        .split('\x1e')
        .map(entry => entry.replace(/^\n/, '').split('\x1f'))
        .filter(parts => parts.length === 4)
        .map(([sha = '', parents = '', committer = '', message = '']) => ({
          sha,
          ...(parents ? { parent: parents.split(' ')[0] } : {}),
          committer,
          message: message.trim()
        }))
    }
  }
}

/** `Git.grep`: commit `sha`'s lines holding `text`, read from the git objects, never the work tree. */
/** NUL-separated names (git's `-z` output). */
const nul = (text: string): string[] => text.split('\0').filter(Boolean)

/** What a commit holds, read from its git objects (never the work tree): files, contents, lines. */
function commitReads(
  git: RunGit,
  ok: (args: string[], extra?: Partial<RunOptions>) => Promise<string>
): Pick<Git, 'show' | 'listFiles' | 'blobs' | 'links' | 'grep'> {
  return {
    async show(sha, file) {
      const r = await git(['show', '--no-textconv', `${sha}:${file}`])
      return r.code === 0 ? r.stdout : undefined
    },
    async listFiles(sha) {
      return nul(await ok(['ls-tree', '-r', '--name-only', '-z', sha]))
    },
    async blobs(sha) {
      // "<mode> <type> <id>\t<path>", NUL-terminated; a submodule's id is its commit
      const entries = nul(await ok(['ls-tree', '-r', '-z', '--full-tree', sha]))
      return new Map(
        entries.flatMap(e => {
          const m = /^\d+ (?:blob|commit) ([0-9a-f]+)\t([\s\S]*)$/.exec(e)
          return m ? [[m[2]!, m[1]!] as const] : []
        })
      )
    },
    links: sha => linksOf(ok, sha),
    grep: (sha, text, where) => grepCommit(git, sha, text, where)
  }
}

/** `Git.links`: the symbolic links of commit `sha` and their targets, read from the git objects. */
async function linksOf(
  ok: (args: string[], extra?: Partial<RunOptions>) => Promise<string>,
  sha: string
): Promise<Map<string, string>> {
  const found = nul(await ok(['ls-tree', '-r', '-z', '--full-tree', sha])).flatMap(e => {
    const m = /^120000 blob ([0-9a-f]+)\t([\s\S]*)$/.exec(e)
    return m ? [{ id: m[1]!, path: m[2]! }] : []
  })
  const links = new Map<string, string>()
  if (found.length === 0) return links
  // "<id> <size>\n<bytes>\n" for each id asked, in order; read by size, so any byte may be in a target
  const out = Buffer.from(
    await ok(['cat-file', '--batch=%(objectname) %(objectsize)'], {
      input: Buffer.from(found.map(f => `${f.id}\n`).join('')),
      encoding: 'latin1'
    }),
    'latin1'
  )
  let at = 0
  for (const { path: file } of found) {
    const eol = out.indexOf(10, at)
    const size = Number(/ (\d+)$/.exec(out.toString('latin1', at, eol))?.[1])
    if (eol < 0 || !Number.isInteger(size)) throw new Error(`git cat-file: no target for ${file}`)
    links.set(file, out.toString('utf8', eol + 1, eol + 1 + size))
    at = eol + 1 + size + 1
  }
  return links
}

async function grepCommit(
  git: RunGit,
  sha: string,
  text: string,
  where?: string
): Promise<GrepHit[]> {
  if (!text || text.includes('\n')) throw new Error('git grep: the text must be one non-empty line')
  // fixed string, case-sensitive, binary files skipped; the path taken literally (no pathspec
  // magic), whatever the repository's grep.* config says
  const r = await git([
    '-c',
    'core.quotePath=false',
    '--literal-pathspecs',
    'grep',
    '-z',
    '-n',
    '-I',
    '-F',
    '--no-color',
    '--no-column',
    '--full-name',
    '-e',
    text,
    sha,
    '--',
    ...(where ? [where] : [])
  ])
  if (r.code === 1 && !r.stderr.trim()) return []
  if (r.code !== 0) throw new Error(`git grep failed (exit ${r.code}): ${r.stderr.trim()}`)
  return grepHits(r.stdout, `${sha}:`)
}

/**
 * `git grep -z -n REV` output: `REV:PATH\0LINE\0TEXT\n` per hit. The path ends at its NUL (it may
 * hold any other character), the text at the line's end.
 */
function grepHits(out: string, prefix: string): GrepHit[] {
  const hits: GrepHit[] = []
  let at = 0
  while (at < out.length) {
    const pathEnd = out.indexOf('\0', at)
    const lineEnd = pathEnd < 0 ? -1 : out.indexOf('\0', pathEnd + 1)
    if (lineEnd < 0) break
    const end = out.indexOf('\n', lineEnd + 1)
    const file = out.slice(at, pathEnd)
    hits.push({
      file: file.startsWith(prefix) ? file.slice(prefix.length) : file,
      line: Number(out.slice(pathEnd + 1, lineEnd)),
      text: out.slice(lineEnd + 1, end < 0 ? out.length : end)
    })
    at = end < 0 ? out.length : end + 1
  }
  return hits
}
