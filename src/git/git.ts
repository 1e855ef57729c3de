import { getExecOutput } from '@actions/exec'

export type PushResult =
  { kind: 'pushed' } | { kind: 'rejected'; message: string } | { kind: 'failed'; message: string }

/** Git behind an interface, as actions/checkout does: the loop never shells out to git itself. */
export interface Git {
  readonly root: string
  head(): Promise<string>
  revParse(ref: string): Promise<string | undefined>
  /** Puts the work tree on local branch `branch` at `sha`, fetching it from origin when needed. */
  checkoutPullHead(branch: string, sha: string): Promise<void>
  /** The sha of `branch` on origin now, or undefined when it is gone. */
  remoteHead(branch: string): Promise<string | undefined>
  /** Paths changed in the work tree (tracked and untracked), relative to the root. */
  changedPaths(): Promise<string[]>
  /** Undo work-tree changes to these paths (restore tracked, delete untracked). */
  discard(paths: string[]): Promise<void>
  /** Stages everything and commits; undefined when there was nothing to commit. */
  commitAll(message: string, author: { name: string; email: string }): Promise<string | undefined>
  push(branch: string): Promise<PushResult>
  /** The commits after `base` up to `head`, as an mbox patch that `git am` applies. */
  formatPatch(base: string, head: string): Promise<string>
  mergeBase(a: string, b: string): Promise<string | undefined>
  diff(base: string, head: string, paths?: string[]): Promise<string>
  show(sha: string, file: string): Promise<string | undefined>
  listFiles(sha: string): Promise<string[]>
}

async function git(
  cwd: string,
  args: string[],
  env?: Record<string, string>
): Promise<{ code: number; stdout: string; stderr: string }> {
  const r = await getExecOutput('git', args, {
    cwd,
    silent: true,
    ignoreReturnCode: true,
    env: env ? { ...(process.env as Record<string, string>), ...env } : undefined
  })
  return { code: r.exitCode, stdout: r.stdout, stderr: r.stderr }
}

async function ok(cwd: string, args: string[], env?: Record<string, string>): Promise<string> {
  const r = await git(cwd, args, env)
  if (r.code !== 0) {
    throw new Error(`git ${args[0]} failed (exit ${r.code}): ${r.stderr.trim() || r.stdout.trim()}`)
  }
  return r.stdout
}

export async function createGit(cwd: string): Promise<Git> {
  const top = await git(cwd, ['rev-parse', '--show-toplevel'])
  if (top.code !== 0) {
    throw new Error(
      `${cwd} is not a git checkout. Add 'actions/checkout' before review-loop (see the README's usage).`
    )
  }
  const root = top.stdout.trim()
  const self: Git = {
    root,
    async head() {
      return (await ok(root, ['rev-parse', 'HEAD'])).trim()
    },
    async revParse(ref) {
      const r = await git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])
      return r.code === 0 ? r.stdout.trim() : undefined
    },
    async checkoutPullHead(branch, sha) {
      if ((await self.revParse(sha)) === undefined) {
        await ok(root, [
          'fetch',
          '--no-tags',
          'origin',
          `+refs/heads/${branch}:refs/remotes/origin/${branch}`
        ])
      }
      if ((await self.revParse(sha)) === undefined) {
        throw new Error(`The PR head ${sha} is not on origin/${branch}; was the branch rewritten?`)
      }
      await ok(root, ['checkout', '--force', '-B', branch, sha])
    },
    async remoteHead(branch) {
      const r = await ok(root, ['ls-remote', 'origin', `refs/heads/${branch}`])
      return r.split(/\s+/)[0] || undefined
    },
    async changedPaths() {
      const out = await ok(root, ['status', '--porcelain=v1', '-z', '--untracked-files=all'])
      const paths: string[] = []
      const parts = out.split('\0')
      for (let i = 0; i < parts.length; i++) {
        const entry = parts[i]!
        if (entry.length < 4) continue
        paths.push(entry.slice(3))
        if (entry[0] === 'R' || entry[0] === 'C') paths.push(parts[++i]!)
      }
      return [...new Set(paths)]
    },
    async discard(paths) {
      if (paths.length === 0) return
      const tracked = (await ok(root, ['ls-files', '-z', '--', ...paths]))
        .split('\0')
        .filter(Boolean)
      if (tracked.length > 0) await ok(root, ['checkout', 'HEAD', '--', ...tracked])
      await ok(root, ['clean', '-fdq', '--', ...paths])
    },
    async commitAll(message, author) {
      await ok(root, ['add', '-A'])
      const staged = await git(root, ['diff', '--cached', '--quiet'])
      if (staged.code === 0) return undefined
      await ok(root, ['commit', '--no-verify', '-q', '-m', message], {
        GIT_AUTHOR_NAME: author.name,
        GIT_AUTHOR_EMAIL: author.email,
        GIT_COMMITTER_NAME: author.name,
        GIT_COMMITTER_EMAIL: author.email
      })
      return self.head()
    },
    async push(branch) {
      // never --force: a branch that moved under us is left to the next run
      const r = await git(root, ['push', '--porcelain', 'origin', `HEAD:refs/heads/${branch}`])
      if (r.code === 0) return { kind: 'pushed' }
      const message = (r.stderr + r.stdout).trim()
      if (/rejected|non-fast-forward|fetch first|stale info/i.test(message)) {
        return { kind: 'rejected', message }
      }
      return { kind: 'failed', message }
    },
    async formatPatch(base, head) {
      return ok(root, ['format-patch', '--stdout', `${base}..${head}`])
    },
    async mergeBase(a, b) {
      const r = await git(root, ['merge-base', a, b])
      return r.code === 0 ? r.stdout.trim() : undefined
    },
    async diff(base, head, paths = []) {
      return ok(root, ['diff', '--no-color', '--no-ext-diff', `${base}...${head}`, '--', ...paths])
    },
    async show(sha, file) {
      const r = await git(root, ['show', `${sha}:${file}`])
      return r.code === 0 ? r.stdout : undefined
    },
    async listFiles(sha) {
      return (await ok(root, ['ls-tree', '-r', '--name-only', '-z', sha]))
        .split('\0')
        .filter(Boolean)
    }
  }
  return self
}
