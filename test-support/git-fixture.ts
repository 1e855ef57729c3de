import { execFileSync } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/** Files to write (string) or delete (null), by path relative to the repository root. */
export type FileChanges = Record<string, string | null>

const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Octo Cat',
  GIT_AUTHOR_EMAIL: 'octocat@example.com',
  GIT_COMMITTER_NAME: 'Octo Cat',
  GIT_COMMITTER_EMAIL: 'octocat@example.com'
}

/** Who a commit names as its author and committer (default Octo Cat <octocat@example.com>). */
export interface CommitIdentity {
  author?: { name: string; email: string }
  committer?: { name: string; email: string }
}

function identityEnv(identity: CommitIdentity | undefined): Record<string, string> {
  const { author, committer } = identity ?? {}
  return {
    ...(author ? { GIT_AUTHOR_NAME: author.name, GIT_AUTHOR_EMAIL: author.email } : {}),
    ...(committer
      ? { GIT_COMMITTER_NAME: committer.name, GIT_COMMITTER_EMAIL: committer.email }
      : {})
  }
}

export function git(cwd: string, args: string[], env: Record<string, string> = {}): string {
  return execFileSync('git', args, {
    cwd,
    env: { ...process.env, ...GIT_ENV, ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe']
  }).trim()
}

export function writeFiles(root: string, files: FileChanges): void {
  for (const [file, content] of Object.entries(files)) {
    const target = path.join(root, file)
    if (content === null) {
      rmSync(target, { force: true })
    } else {
      mkdirSync(path.dirname(target), { recursive: true })
      writeFileSync(target, content)
    }
  }
}

/** Commits the changes in a work clone and pushes them to `branch` on origin; returns the new sha. */
export function commitAndPush(
  clone: string,
  branch: string,
  files: FileChanges,
  message: string,
  identity?: CommitIdentity
): string {
  git(clone, ['fetch', '-q', 'origin'])
  git(clone, ['checkout', '-q', '-B', branch, `origin/${branch}`])
  writeFiles(clone, files)
  git(clone, ['add', '-A'])
  git(clone, ['commit', '-q', '--allow-empty', '-m', message], identityEnv(identity))
  git(clone, ['push', '-q', 'origin', `HEAD:refs/heads/${branch}`])
  return git(clone, ['rev-parse', 'HEAD'])
}

/**
 * How a human rewrites the PR branch: `unrelated` pushes a commit with no parent (a new history:
 * the branch's tree with the changes applied, sharing no commit with the base); `resetTo` moves the
 * branch back to a revision of it (`HEAD~1` drops the last commit, a sha names any commit), then
 * commits the changes, if any, on top. Either way the branch is force-pushed.
 */
export type ForcePush = 'unrelated' | { resetTo: string }

/** Rewrites `branch` on origin from a work clone as `force` says; returns the new head's sha. */
export function forcePush(
  clone: string,
  branch: string,
  force: ForcePush,
  files: FileChanges,
  message: string
): string {
  git(clone, ['fetch', '-q', 'origin'])
  git(clone, ['checkout', '-q', '-B', branch, `origin/${branch}`])
  if (force === 'unrelated') {
    writeFiles(clone, files)
    git(clone, ['add', '-A'])
    const tree = git(clone, ['write-tree'])
    const sha = git(clone, ['commit-tree', tree, '-m', message])
    git(clone, ['reset', '-q', '--hard', sha])
  } else {
    git(clone, ['reset', '-q', '--hard', git(clone, ['rev-parse', '--verify', force.resetTo])])
    if (Object.keys(files).length) {
      writeFiles(clone, files)
      git(clone, ['add', '-A'])
      git(clone, ['commit', '-q', '-m', message])
    }
  }
  git(clone, ['push', '-q', '--force', 'origin', `HEAD:refs/heads/${branch}`])
  return git(clone, ['rev-parse', 'HEAD'])
}

/**
 * A merge from the base branch: commits `files` on `base` (someone else's change landing there),
 * then merges `base` into `branch` and pushes both; returns the new head of `branch`.
 */
export function mergeFromBase(
  clone: string,
  branch: string,
  base: string,
  files: FileChanges,
  message: string
): string {
  commitAndPush(clone, base, files, message)
  git(clone, ['fetch', '-q', 'origin'])
  git(clone, ['checkout', '-q', '-B', branch, `origin/${branch}`])
  git(clone, [
    'merge',
    '-q',
    '--no-ff',
    '-m',
    `Merge branch '${base}' into ${branch}`,
    `origin/${base}`
  ])
  git(clone, ['push', '-q', 'origin', `HEAD:refs/heads/${branch}`])
  return git(clone, ['rev-parse', 'HEAD'])
}

/** The commits the bot (the workflow token's identity) pushed to `branch` of `bare` since main. */
export function botCommits(bare: string, branch = 'feature'): string[] {
  return git(bare, ['log', '--format=%H %an', `main..${branch}`])
    .split('\n')
    .filter(l => l.endsWith(' github-actions[bot]'))
    .map(l => l.split(' ')[0]!)
}
