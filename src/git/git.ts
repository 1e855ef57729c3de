import { getExecOutput } from '@actions/exec'
import type { Git } from '../ports/index.js'
import { scrubbedEnv } from '../process/scrubbed-env.js'

export interface GitOptions {
  /** Token for fetch and push, used only when the checkout did not persist credentials. */
  token?: string
}

// PR code ran in this work tree: no repository hooks or fsmonitor commands run inside our git calls.
const SAFE = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false']

export async function createGit(cwd: string, options: GitOptions = {}): Promise<Git> {
  // git gets the runner's environment without tokens, keys or action inputs
  const sshAgent = process.env['SSH_AUTH_SOCK']
  const env = {
    ...scrubbedEnv(process.env),
    GIT_TERMINAL_PROMPT: '0',
    // an SSH remote may rely on the runner's agent; PR code never gets it, our own git does
    ...(sshAgent ? { SSH_AUTH_SOCK: sshAgent } : {})
  }
  const git = async (
    args: string[],
    extraEnv: Record<string, string> = {},
    config: string[] = []
  ): Promise<{ code: number; stdout: string; stderr: string }> => {
    const r = await getExecOutput('git', [...SAFE, ...config, ...args], {
      cwd,
      silent: true,
      ignoreReturnCode: true,
      env: { ...env, ...extraEnv }
    })
    return { code: r.exitCode, stdout: r.stdout, stderr: r.stderr }
  }
  const ok = async (
    args: string[],
    extraEnv?: Record<string, string>,
    config?: string[]
  ): Promise<string> => {
    const r = await git(args, extraEnv, config)
    if (r.code !== 0) {
      throw new Error(
        `git ${args[0]} failed (exit ${r.code}): ${r.stderr.trim() || r.stdout.trim()}`
      )
    }
    return r.stdout
  }

  const top = await git(['rev-parse', '--show-toplevel'])
  if (top.code !== 0) {
    throw new Error(
      `${cwd} is not a git checkout. Add 'actions/checkout' before review-loop (see the README's usage).`
    )
  }
  const root = top.stdout.trim()
  const persisted =
    (await git(['config', '--get-regexp', '^http\\..*extraheader$'])).stdout.trim() !== ''
  // With persist-credentials: false, the action authenticates its own fetch and push; the header is
  // passed per command, never written to .git/config where PR code could read it.
  const auth =
    options.token && !persisted
      ? [
          '-c',
          `http.extraheader=AUTHORIZATION: basic ${Buffer.from(`x-access-token:${options.token}`).toString('base64')}`
        ]
      : []
  const remote = (args: string[]): Promise<string> => ok(args, {}, auth)

  const untracked = async (): Promise<string[]> =>
    (await ok(['ls-files', '--others', '--exclude-standard', '-z'])).split('\0').filter(Boolean)

  const self: Git = {
    root,
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
          'origin',
          `+refs/heads/${branch}:refs/remotes/origin/${branch}`
        ])
      }
      if ((await self.revParse(sha)) === undefined) {
        throw new Error(`The PR head ${sha} is not on origin/${branch}; was the branch rewritten?`)
      }
      await ok(['checkout', '--force', '-B', branch, sha])
    },
    async remoteHead(branch) {
      const r = await remote(['ls-remote', 'origin', `refs/heads/${branch}`])
      return r.split(/\s+/)[0] || undefined
    },
    untrackedPaths: untracked,
    async changedPaths(except = new Set()) {
      const tracked = (await ok(['diff', 'HEAD', '--name-only', '--no-renames', '-z']))
        .split('\0')
        .filter(Boolean)
      const fresh = (await untracked()).filter(p => !except.has(p))
      return [...new Set([...tracked, ...fresh])]
    },
    async discard(paths) {
      if (paths.length === 0) return
      const inHead = (await ok(['ls-tree', '-r', '--name-only', '-z', 'HEAD', '--', ...paths]))
        .split('\0')
        .filter(Boolean)
      if (inHead.length > 0) await ok(['checkout', 'HEAD', '--', ...inHead])
      const added = paths.filter(p => !inHead.includes(p))
      if (added.length > 0) {
        await ok(['rm', '-q', '--cached', '--ignore-unmatch', '--', ...added])
        await ok(['clean', '-fdq', '--', ...added])
      }
    },
    async resetSoft(sha) {
      await ok(['reset', '-q', '--soft', sha])
    },
    async commitChanges(message, author, except = new Set()) {
      await ok(['add', '-u'])
      const fresh = (await untracked()).filter(p => !except.has(p))
      if (fresh.length > 0) await ok(['add', '--', ...fresh])
      const staged = await git(['diff', '--cached', '--quiet'])
      if (staged.code === 0) return undefined
      await ok(['commit', '--no-verify', '-q', '-m', message], {
        GIT_AUTHOR_NAME: author.name,
        GIT_AUTHOR_EMAIL: author.email,
        GIT_COMMITTER_NAME: author.name,
        GIT_COMMITTER_EMAIL: author.email
      })
      return self.head()
    },
    async push(branch) {
      // never --force: a branch that moved under us is left to the next run
      const r = await git(
        ['push', '--no-verify', '--porcelain', 'origin', `HEAD:refs/heads/${branch}`],
        {},
        auth
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
      return ok(['format-patch', '--stdout', `${base}..${head}`])
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
          'origin',
          `+refs/heads/${baseRef}:refs/remotes/origin/${baseRef}`
        ])
      }
      let mergeBase = await self.mergeBase(baseSha, headSha)
      if (
        !mergeBase &&
        (await git(['rev-parse', '--is-shallow-repository'])).stdout.trim() === 'true'
      ) {
        // a shallow checkout (the default fetch-depth: 1) lacks the history down to the merge base
        await remote(['fetch', '--no-tags', '--unshallow', 'origin'])
        mergeBase = await self.mergeBase(baseSha, headSha)
      }
      return mergeBase ?? baseSha
    },
    async diff(base, head, paths = []) {
      return ok(['diff', '--no-color', '--no-ext-diff', `${base}...${head}`, '--', ...paths])
    },
    async show(sha, file) {
      const r = await git(['show', `${sha}:${file}`])
      return r.code === 0 ? r.stdout : undefined
    },
    async listFiles(sha) {
      return (await ok(['ls-tree', '-r', '--name-only', '-z', sha])).split('\0').filter(Boolean)
    }
  }
  return self
}
