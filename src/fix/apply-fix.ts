import type { FixRecord } from '../loop/types.js'
import type { CommandRunner, Git } from '../ports/index.js'
import { isProtected } from './protected-paths.js'

/** The deterministic fixers: each fix command in order; their results are recorded, failures tolerated. */
export async function runFixCommands(
  commands: readonly string[],
  ctx: {
    runner: CommandRunner
    cwd: string
    env: Record<string, string>
    timeoutMs: number
    log: (line: string) => void
  }
): Promise<FixRecord['commands']> {
  const results: FixRecord['commands'] = []
  for (const command of commands) {
    const r = await ctx.runner.run(command, {
      cwd: ctx.cwd,
      env: ctx.env,
      timeoutMs: ctx.timeoutMs
    })
    ctx.log(`fix command '${command}' exited ${r.exitCode} in ${(r.durationMs / 1000).toFixed(1)}s`)
    results.push({ command, exitCode: r.exitCode, durationMs: r.durationMs })
  }
  return results
}

/** Reverts every change to a protected path; returns the paths it reverted. */
export async function revertProtected(
  git: Git,
  globs: readonly string[],
  leftovers: ReadonlySet<string>
): Promise<string[]> {
  const touched = (await git.changedPaths(leftovers)).filter(p => isProtected(p, globs))
  await git.discard(touched)
  return touched
}

/** What became of the fix commit: pushed, nothing to commit, or kept as a patch. */
export type FixDelivery =
  | { outcome: 'no_changes'; filesChanged: string[] }
  | { outcome: 'pushed'; commitSha: string; filesChanged: string[] }
  | {
      outcome: 'branch_moved' | 'push_failed'
      commitSha: string
      filesChanged: string[]
      patch: string
      message: string
      remoteSha?: string
    }

/**
 * Commits what the fixers changed (not the checks' untracked leftovers) and pushes it to the PR
 * branch, never forcing. When the branch moved since `reviewedSha`, or the push fails, the commit
 * is returned as a patch so no work is lost.
 */
export async function commitAndPush(
  git: Git,
  branch: string,
  reviewedSha: string,
  message: string,
  author: { name: string; email: string },
  leftovers: ReadonlySet<string>
): Promise<FixDelivery> {
  const filesChanged = await git.changedPaths(leftovers)
  const commitSha = await git.commitChanges(message, author, leftovers)
  if (!commitSha) return { outcome: 'no_changes', filesChanged: [] }
  const remote = await git.remoteHead(branch)
  if (remote !== reviewedSha) {
    return {
      outcome: 'branch_moved',
      commitSha,
      filesChanged,
      patch: await git.formatPatch(reviewedSha, commitSha),
      message: `origin/${branch} is at ${remote?.slice(0, 7) ?? '(deleted)'}, not the reviewed ${reviewedSha.slice(0, 7)}`,
      remoteSha: remote
    }
  }
  const pushed = await git.push(branch)
  if (pushed.kind === 'pushed') return { outcome: 'pushed', commitSha, filesChanged }
  return {
    outcome: pushed.kind === 'rejected' ? 'branch_moved' : 'push_failed',
    commitSha,
    filesChanged,
    patch: await git.formatPatch(reviewedSha, commitSha),
    message: pushed.message
  }
}
