import { execFileSync, type ExecFileSyncOptionsWithStringEncoding } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { Log } from '../ports/index.js'

/** The user's repository, the branch the loop reviews, where it stood, and its base. */
export interface LocalRepo {
  root: string
  branch: string
  head: string
  base: string
}

/**
 * git in `cwd`. `alone` runs it in a process group of its own: a Ctrl-C at the terminal reaches
 * the whole foreground group, and must not cut a merge off halfway through the user's work tree.
 */
export const gitOut = (cwd: string, args: string[], alone = false): string => {
  // spawnSync takes `detached` as spawn does (its options pass through), though its types lack it
  const detached = alone ? { detached: true } : {}
  const options: ExecFileSyncOptionsWithStringEncoding = {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    ...detached
  }
  return execFileSync('git', args, options).trim()
}

/** A failed git command in a few words: its error output, or why it stopped. */
function why(e: unknown): string {
  const err = e as Error & { stderr?: string; signal?: string }
  if (err.signal === 'SIGINT') return 'a second Ctrl-C stopped it'
  return (err.stderr?.trim() || err.message).split('\n').slice(0, 3).join(' ')
}

/** The branch checked out in `root` (its ref), or '' where HEAD is detached. */
function checkedOut(root: string): string {
  try {
    return gitOut(root, ['symbolic-ref', '-q', 'HEAD'])
  } catch {
    return ''
  }
}

/**
 * The loop's commits onto the user's branch, by fast-forward only: never when the branch moved
 * meanwhile (or is no longer checked out) or the merge would touch a file changed in the work tree
 * (git refuses); the commits are then kept at a ref of their own and named, so they can be taken by
 * hand. Neither the fetch nor the merge is stopped by a Ctrl-C at the end of a run: the loop's copy
 * of the repository goes right after, and the fixes with it. After a first Ctrl-C (`stoppable`), a
 * second one can stop the fetch, and the fixes are named by their patches; the merge it cannot.
 */
export function bringBack(
  repo: LocalRepo,
  mirror: string,
  dryRun: boolean,
  stoppable = false
): { head: string; left?: string } {
  const fixed = gitOut(mirror, ['rev-parse', `refs/heads/${repo.branch}`])
  if (dryRun || fixed === repo.head) return { head: repo.head }
  const notBrought = `The fixes (commit ${fixed}) were not brought onto ${repo.branch}`
  try {
    gitOut(repo.root, ['fetch', '-q', mirror, `refs/heads/${repo.branch}`], !stoppable)
  } catch (e) {
    return { head: repo.head, left: `${notBrought}: ${why(e)}.` }
  }
  // one ref per run, so an earlier run's fixes stay reachable
  const ref = `refs/review-loop/${repo.branch}/${fixed.slice(0, 12)}`
  const keep = (reason: string, take: string) => {
    gitOut(repo.root, ['update-ref', ref, fixed])
    return { head: repo.head, left: `${notBrought}: ${reason}. They are kept at ${ref}; ${take}` }
  }
  // a branch that moved takes the fixes on top of what it holds now
  const onTop = `take them onto ${repo.branch} with: git cherry-pick ${repo.head.slice(0, 12)}..${ref}`
  if (checkedOut(repo.root) !== `refs/heads/${repo.branch}`)
    return keep(`${repo.branch} is no longer checked out`, onTop)
  if (gitOut(repo.root, ['rev-parse', 'HEAD']) !== repo.head)
    return keep(`${repo.branch} moved while the loop ran`, onTop)
  try {
    gitOut(repo.root, ['merge', '-q', '--ff-only', fixed], true)
    return { head: fixed }
  } catch (e) {
    return keep(why(e), `take them with: git merge --ff-only ${ref}`)
  }
}

/** The commit a `git format-patch` file was made from (its first line), if it is one. */
function patchCommit(file: string): string | undefined {
  return /^From ([0-9a-f]{40}) /.exec(readFileSync(file, 'utf8').slice(0, 100))?.[1]
}

/**
 * This run's fix patches (`<records>/iteration-N/fix-N.patch`, in the order they were made) whose
 * commit the user's branch does not hold.
 */
export function patchesNotOn(root: string, dir: string): string[] {
  if (!existsSync(dir)) return []
  const number = (file: string): number => Number(/fix-(\d+)\.patch$/.exec(file)?.[1] ?? 0)
  const onBranch = (sha: string): boolean => {
    try {
      gitOut(root, ['merge-base', '--is-ancestor', sha, 'HEAD'])
      return true
    } catch {
      return false
    }
  }
  return readdirSync(dir)
    .flatMap(record =>
      readdirSync(path.join(dir, record))
        .filter(f => /^fix-\d+\.patch$/.test(f))
        .map(f => path.join(dir, record, f))
    )
    .sort((a, b) => number(a) - number(b))
    .filter(file => {
      const sha = patchCommit(file)
      return sha === undefined || !onBranch(sha)
    })
}

/** Where the loop's copy of the repository has the branch: where it started, until a fix is committed. */
function committedIn(mirror: string, repo: LocalRepo): string {
  try {
    return gitOut(mirror, ['rev-parse', '--verify', '-q', `refs/heads/${repo.branch}`])
  } catch {
    return repo.head // not made yet (Ctrl-C while it is copied)
  }
}

/**
 * Ctrl-C (or a kill) while the loop runs: the fixes it committed so far are brought onto the branch
 * as at a normal end, or named with how to take them (the commit, its ref, its patches); a fix made
 * but not yet committed to the loop's copy of the branch is named by its patch. Synchronous: the
 * loop does nothing more meanwhile.
 */
export function keepFixesOnInterrupt(
  where: { repo: LocalRepo; mirror: string; records: string },
  log: Log
): void {
  const { repo, mirror, records } = where
  let brought: { head: string; left?: string } = { head: repo.head }
  try {
    if (committedIn(mirror, repo) !== repo.head) {
      log.notice(
        `Interrupted: bringing the fixes committed so far onto ${repo.branch}, as at the end of a run.`
      )
      brought = bringBack(repo, mirror, false, true)
    }
  } catch (e) {
    // the copy of the repository half made, or a second Ctrl-C: the patches below still say how
    brought = {
      head: repo.head,
      left: `The fixes were not brought onto ${repo.branch}: ${why(e)}.`
    }
  }
  if (brought.left) log.warning(brought.left)
  else if (brought.head !== repo.head)
    log.notice(`Your branch ${repo.branch} is at ${brought.head.slice(0, 12)}, with the fixes.`)
  const patches = patchesNotOn(repo.root, records)
  if (patches.length)
    log.warning(
      `Not on ${repo.branch}: ${patches.map(p => path.basename(p)).join(', ')}. Apply with: git am ${patches.join(' ')}`
    )
  if (brought.head === repo.head && !brought.left && !patches.length)
    log.notice(`Interrupted: ${repo.branch} is as it was (no fix was committed).`)
}
