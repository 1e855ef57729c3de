import { getExecOutput } from '@actions/exec'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Git } from '../ports/index.js'
import { gitEnv } from '../process/command-env.js'

export interface GitOptions {
  /** Token for fetch and push, used only when the checkout did not persist credentials. */
  token?: string
  /** Where the action keeps its copies of the git configuration (hidden from PR code). */
  scratch?: string
  env?: Record<string, string | undefined>
  /** Told when PR code changed the repository's git config (it is put back). */
  warn?: (message: string) => void
}

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

type RunGit = (args: string[]) => Promise<{ code: number; stdout: string; stderr: string }>

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
 * With persist-credentials: false, the action authenticates its own fetch and push through the
 * environment of those commands alone: never on a command line, never in .git/config.
 */
async function authentication(
  git: RunGit,
  token: string | undefined
): Promise<Record<string, string>> {
  if (!token) return {}
  const persisted =
    (await git(['config', '--get-regexp', '^http\\..*extraheader$'])).stdout.trim() !== ''
  if (persisted) return {}
  return {
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'http.extraheader',
    GIT_CONFIG_VALUE_0: `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`
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

  const git = async (
    args: string[],
    extra: { env?: Record<string, string>; input?: Buffer } = {}
  ): Promise<{ code: number; stdout: string; stderr: string }> => {
    restoreConfig()
    const r = await getExecOutput('git', [...SAFE, ...args], {
      cwd,
      silent: true,
      ignoreReturnCode: true,
      env: { ...env, ...extra.env },
      input: extra.input
    })
    return { code: r.exitCode, stdout: r.stdout, stderr: r.stderr }
  }
  const ok = async (
    args: string[],
    extra?: { env?: Record<string, string>; input?: Buffer }
  ): Promise<string> => {
    const r = await git(args, extra)
    if (r.code !== 0) {
      throw new Error(
        `git ${args[0]} failed (exit ${r.code}): ${r.stderr.trim() || r.stdout.trim()}`
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
  const authEnv = await authentication(git, options.token)
  const remote = (args: string[]): Promise<string> => ok(args, { env: authEnv })

  const untracked = async (): Promise<string[]> =>
    (await ok(['ls-files', '--others', '--exclude-standard', '-z'])).split('\0').filter(Boolean)
  const nul = (text: string): string[] => text.split('\0').filter(Boolean)

  const self: Git = {
    root,
    gitDir,
    async head() {
      return (await ok(['rev-parse', 'HEAD'])).trim()
    },
    async revParse(ref) {
      const r = await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])
      return r.code === 0 ? r.stdout.trim() : undefined
    },
    async checkoutPullHead(branch, sha) {
      if ((await self.revParse(sha)) === undefined) {
        await remote([
          'fetch',
          '--no-tags',
          url(),
          `+refs/heads/${branch}:refs/remotes/origin/${branch}`
        ])
      }
      if ((await self.revParse(sha)) === undefined) {
        throw new Error(`The PR head ${sha} is not on origin/${branch}; was the branch rewritten?`)
      }
      await ok(['checkout', '--force', '-B', branch, sha])
    },
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
        const who = {
          GIT_AUTHOR_NAME: author.name,
          GIT_AUTHOR_EMAIL: author.email,
          GIT_COMMITTER_NAME: author.name,
          GIT_COMMITTER_EMAIL: author.email
        }
        const sha = (
          await ok(['commit-tree', tree, '-p', base], { env: who, input: Buffer.from(message) })
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
      // never --force: a branch that moved under us is left to the next run
      const r = await git(
        ['push', '--no-verify', '--porcelain', url(), `${sha}:refs/heads/${branch}`],
        { env: authEnv }
      )
      if (r.code === 0) return { kind: 'pushed' }
      const message = (r.stderr + r.stdout).trim()
      // "[remote rejected]" is a server refusal (protected branch, hook), not a moved branch
      if (
        /\[rejected\]|non-fast-forward|fetch first|stale info/i.test(message) &&
        !/remote rejected/i.test(message)
      ) {
        return { kind: 'rejected', message }
      }
      return { kind: 'failed', message }
    },
    async formatPatch(base, head) {
      return ok(['format-patch', '--no-ext-diff', '--no-textconv', '--stdout', `${base}..${head}`])
    },
    async mergeBase(a, b) {
      const r = await git(['merge-base', a, b])
      return r.code === 0 ? r.stdout.trim() : undefined
    },
    async prepareDiff(baseRef, baseSha, headSha) {
      if ((await self.revParse(baseSha)) === undefined) {
        await remote([
          'fetch',
          '--no-tags',
          url(),
          `+refs/heads/${baseRef}:refs/remotes/origin/${baseRef}`
        ])
      }
      let mergeBase = await self.mergeBase(baseSha, headSha)
      if (
        !mergeBase &&
        (await git(['rev-parse', '--is-shallow-repository'])).stdout.trim() === 'true'
      ) {
        // a shallow checkout (the default fetch-depth: 1) lacks the history down to the merge base
        await remote(['fetch', '--no-tags', '--unshallow', url()])
        mergeBase = await self.mergeBase(baseSha, headSha)
      }
      return mergeBase ?? baseSha
    },
    async diff(base, head, paths = []) {
      return ok([
        'diff',
        '--no-color',
        '--no-ext-diff',
        '--no-textconv',
        `${base}...${head}`,
        '--',
        ...paths
      ])
    },
    async show(sha, file) {
      const r = await git(['show', '--no-textconv', `${sha}:${file}`])
      return r.code === 0 ? r.stdout : undefined
    },
    async listFiles(sha) {
      return nul(await ok(['ls-tree', '-r', '--name-only', '-z', sha]))
    }
  }
  return self
}
