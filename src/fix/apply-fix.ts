import { minimatch } from 'minimatch'
import path from 'node:path'
import type { FixRecord } from '../loop/types.js'
import type { CommandRunner, Git, TreeEntry } from '../ports/index.js'
import { containsSecret, maskSecrets } from '../process/secrets.js'
import { logTime } from '../report/format.js'
import { inspectForCommit, isGitName } from './confined-fs.js'
import { linksIntoProtected } from './links.js'
import { protectedMatcher, reachMatcher, type ProtectedMatcher } from './protected-paths.js'

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
    ctx.log(`fix command '${command}' exited ${r.exitCode} in ${logTime(r.durationMs)}`)
    results.push({ command, exitCode: r.exitCode, durationMs: r.durationMs })
  }
  return results
}

/** Files that hold credentials, which no fix commits (a `gha-creds-*.json` of an auth step, keys). */
export const CREDENTIAL_FILES: readonly string[] = [
  'gha-creds-*.json',
  '*.pem',
  '*.key',
  '*.p12',
  '*.pfx',
  '*.jks',
  '*.keystore',
  'id_rsa',
  'id_dsa',
  'id_ecdsa',
  'id_ed25519',
  '.netrc',
  '.git-credentials',
  '.pgpass',
  '.npmrc',
  '.pypirc',
  'credentials.json',
  'service-account*.json',
  '.env',
  '.env.*'
]

export function looksLikeCredential(file: string): boolean {
  return CREDENTIAL_FILES.some(glob => minimatch(file, glob, { dot: true, matchBase: true }))
}

/** The commit the fixers' work becomes, and what was kept out of it. */
export interface FixCommit {
  commitSha?: string
  /** Paths the commit changes. */
  filesChanged: string[]
  /** Protected paths the fixers changed, left out. */
  protectedLeftOut: string[]
  /** Every path left out, with why (protected, credential files, links out, hard links). */
  leftOut: Array<{ path: string; reason: string }>
  /** Set when the fix held the value of one of the job's secrets: it is masked and never pushed. */
  secretFound: boolean
  /** Set when the commit's tree holds what it should not: it is kept as a patch, never pushed. */
  refusal?: string
}

/**
 * Why a symbolic link may not be committed: it points at an absolute path, climbs out of the
 * repository, or into its .git folder or a protected path (a later write through it would land
 * there). Targets are read as any checkout may read them, `\\` as a separator too.
 */
export function linkRefusal(
  file: string,
  target: string,
  isProtected: ProtectedMatcher
): string | undefined {
  const to = target.replace(/\\/g, '/')
  const shown = JSON.stringify(target.slice(0, 200))
  if (path.posix.isAbsolute(to) || /^[a-zA-Z]:/.test(to))
    return `a symbolic link to an absolute path (${shown})`
  const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file), to))
  if (resolved === '..' || resolved.startsWith('../'))
    return `a symbolic link out of the repository (${shown})`
  if (resolved.split('/').some(isGitName)) return `a symbolic link into the .git folder (${shown})`
  const guarded = isProtected(resolved)
  if (guarded) return `a symbolic link to a path protected by "${guarded}" (${shown})`
  return undefined
}

type Kept = { path: string; reason: string; protectedBy?: string }

/** What a changed path becomes in the fix commit: its entry, or why it is left out. */
function entryFor(
  root: string,
  file: string,
  ctx: { tracked: ReadonlySet<string>; isProtected: ProtectedMatcher }
): TreeEntry | Kept {
  const guarded = ctx.isProtected(file)
  if (guarded)
    return { path: file, reason: `it is protected by "${guarded}"`, protectedBy: guarded }
  // a tracked .env.example or test key is edited like any file; only new ones are suspect
  if (!ctx.tracked.has(file) && looksLikeCredential(file))
    return { path: file, reason: 'it looks like a credential file' }
  const found = inspectForCommit(root, file)
  if (found.kind === 'refused') return { path: file, reason: found.reason }
  if (found.kind === 'gone') return { path: file, deleted: true }
  if (found.kind === 'link') {
    const refused = linkRefusal(file, found.target, ctx.isProtected)
    if (refused) return { path: file, reason: `it is ${refused}` }
    return { path: file, mode: '120000', content: Buffer.from(found.target) }
  }
  return { path: file, mode: found.executable ? '100755' : '100644', content: found.content }
}

/**
 * The new links of `entries` that reach a protected path, file or folder, in the tree the commit
 * would make (the reviewed tree's links and the new ones, followed through each other): path → why.
 */
async function linksLeftOut(
  git: Git,
  reviewedSha: string,
  entries: readonly TreeEntry[],
  ctx: { tracked: ReadonlySet<string>; protectedPaths: readonly string[] }
): Promise<Map<string, string>> {
  const added = new Map<string, string>()
  for (const e of entries)
    if ('mode' in e && e.mode === '120000') added.set(e.path, e.content.toString('utf8'))
  if (added.size === 0) return added
  const replaced = new Set(entries.filter(e => !added.has(e.path)).map(e => e.path))
  const kept = new Map([...(await git.links(reviewedSha))].filter(([f]) => !replaced.has(f)))
  const files = [...ctx.tracked, ...entries.filter(e => !('deleted' in e)).map(e => e.path)]
  return linksIntoProtected(kept, added, reachMatcher(ctx.protectedPaths, files))
}

/**
 * Builds the fix commit from what the fixers changed since the reviewed head: only those paths (not
 * files untracked before the fix phase), read without following links, without filters, never a
 * protected path nor a credential file. The commit's own tree is then compared with the reviewed
 * head, so nothing the work tree hides can slip in.
 */
export async function commitFix(
  git: Git,
  input: {
    reviewedSha: string
    leftovers: ReadonlySet<string>
    protectedPaths: readonly string[]
    secrets: readonly string[]
    message: string
    author: { name: string; email: string }
  }
): Promise<FixCommit> {
  const changed = await git.changedSince(input.reviewedSha, input.leftovers)
  const tracked = new Set(await git.listFiles(input.reviewedSha))
  const isProtected = protectedMatcher(input.protectedPaths)
  const protectedLeftOut: string[] = []
  const leftOut: FixCommit['leftOut'] = []
  const entries: TreeEntry[] = []
  for (const file of changed) {
    const entry = entryFor(git.root, file, { tracked, isProtected })
    if (!('reason' in entry)) entries.push(entry)
    else leftOut.push({ path: file, reason: entry.reason })
    if ('protectedBy' in entry) protectedLeftOut.push(file)
  }
  const linksOut = await linksLeftOut(git, input.reviewedSha, entries, {
    tracked,
    protectedPaths: input.protectedPaths
  })
  for (const [file, reason] of linksOut) leftOut.push({ path: file, reason })
  entries.splice(0, entries.length, ...entries.filter(e => !linksOut.has(e.path)))
  const secretFound = entries.some(e => 'content' in e && containsSecret(e.content, input.secrets))
  const safe = secretFound
    ? entries.map(e =>
        'content' in e
          ? { ...e, content: Buffer.from(maskSecrets(e.content.toString('utf8'), input.secrets)) }
          : e
      )
    : entries
  const commitSha = await git.commitEntries(input.reviewedSha, safe, input.message, input.author)
  if (!commitSha) return { filesChanged: [], protectedLeftOut, leftOut, secretFound: false }
  const filesChanged = await git.changedBetween(input.reviewedSha, commitSha)
  const allowed = new Set(safe.map(e => e.path))
  const stray = filesChanged.filter(f => !allowed.has(f) || isProtected(f) !== undefined)
  const refusal = stray.length
    ? `refused to push: the fix commit changes paths it should not (${stray.join(', ')})`
    : undefined
  return { commitSha, filesChanged, protectedLeftOut, leftOut, secretFound, refusal }
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
      /** origin has no such branch any more (deleted while the PR is open): nothing was pushed. */
      deleted?: true
    }

/** A fix commit ready to go: its patch is taken before anything is pushed, so no fault loses it. */
export type PreparedFix =
  | { kind: 'none' }
  /** Refused before any push (a secret, a stray path): kept as the patch only. */
  | { kind: 'kept'; commitSha: string; filesChanged: string[]; patch: string; message: string }
  | { kind: 'push'; commitSha: string; filesChanged: string[]; patch: string }

/** The fix commit's patch (secrets masked), and whether it may be pushed. */
export async function prepareFix(
  git: Git,
  reviewedSha: string,
  fix: FixCommit,
  secrets: readonly string[]
): Promise<PreparedFix> {
  const { commitSha, filesChanged } = fix
  if (!commitSha) return { kind: 'none' }
  const patch = maskSecrets(await git.formatPatch(reviewedSha, commitSha), secrets)
  const refused =
    fix.refusal ??
    (fix.secretFound
      ? "refused to push: the fix contained the value of one of the job's secrets (masked as *** in the patch)"
      : undefined)
  if (refused) return { kind: 'kept', commitSha, filesChanged, patch, message: refused }
  return { kind: 'push', commitSha, filesChanged, patch }
}

/**
 * Pushes a prepared fix commit to the PR branch, never forcing. When the branch moved since
 * `reviewedSha` or the push fails, the commit is reported with its patch so no work is lost.
 */
export async function deliverFix(
  git: Git,
  branch: string,
  reviewedSha: string,
  fix: Extract<PreparedFix, { kind: 'push' | 'kept' }>
): Promise<FixDelivery> {
  const { commitSha, filesChanged, patch } = fix
  const kept = (
    outcome: 'branch_moved' | 'push_failed',
    message: string,
    remoteSha?: string
  ): Extract<FixDelivery, { message: string }> => ({
    outcome,
    commitSha,
    filesChanged,
    patch,
    message,
    ...(remoteSha ? { remoteSha } : {})
  })
  if (fix.kind === 'kept') return kept('push_failed', fix.message)
  let remote: string | undefined
  try {
    remote = await git.remoteHead(branch)
  } catch (e) {
    return kept('push_failed', (e as Error).message)
  }
  if (remote === undefined)
    return {
      ...kept(
        'branch_moved',
        `origin/${branch} was deleted after ${reviewedSha.slice(0, 7)} was reviewed`
      ),
      deleted: true
    }
  if (remote !== reviewedSha)
    return kept(
      'branch_moved',
      `origin/${branch} is at ${remote.slice(0, 7)}, not the reviewed ${reviewedSha.slice(0, 7)}`,
      remote
    )
  const pushed = await git.push(branch, commitSha)
  if (pushed.kind === 'pushed') return { outcome: 'pushed', commitSha, filesChanged }
  return kept(pushed.kind === 'rejected' ? 'branch_moved' : 'push_failed', pushed.message)
}

/** prepareFix, then deliverFix: the fix commit pushed, or kept as a patch. */
export async function pushFix(
  git: Git,
  branch: string,
  reviewedSha: string,
  fix: FixCommit,
  secrets: readonly string[]
): Promise<FixDelivery> {
  const prepared = await prepareFix(git, reviewedSha, fix, secrets)
  if (prepared.kind === 'none') return { outcome: 'no_changes', filesChanged: [] }
  return deliverFix(git, branch, reviewedSha, prepared)
}
