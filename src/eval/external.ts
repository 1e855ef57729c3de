/**
 * Fetched (external) cases: a case.json that names `repo` and `commit` (and the PR's `head`, or a
 * fix.patch) instead of shipping base/. The repository is fetched at run time into a cache, a
 * partial fetch of just those commits (no history, no blobs but the two trees'), so big
 * repositories work; later runs reuse it. eval/README.md, "External cases".
 */
import { createHash } from 'node:crypto'
import { execFile } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { homedir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { buildCaseRepo, DatasetError, ISOLATED_GIT, shownRepo, type EvalCase } from './dataset.js'

const run = promisify(execFile)

/** The environment variable that names the cache folder. */
export const CACHE_ENV = 'REVIEW_LOOP_EVAL_CACHE'

/** How long one fetch may take before the case fails (a big repository over a slow link). */
const FETCH_TIMEOUT_MS = 30 * 60_000

/**
 * Where fetched repositories are kept: $REVIEW_LOOP_EVAL_CACHE, else
 * $XDG_CACHE_HOME/review-loop/eval, else ~/.cache/review-loop/eval.
 */
export function evalCache(env: Record<string, string | undefined>): string {
  if (env[CACHE_ENV]) return path.resolve(env[CACHE_ENV])
  const base = env['XDG_CACHE_HOME'] || path.join(env['HOME'] || homedir(), '.cache')
  return path.join(base, 'review-loop', 'eval')
}

/** The cache's folder for `repo`: its name, readable, and a hash of the whole URL. */
function cacheFolder(cache: string, repo: string): string {
  const name = shownRepo(repo)
    .replace(/^[a-z]+:\/\/[^/]+\//, '')
    .replace(/\.git$/, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+/, '')
    .slice(-60)
  const hash = createHash('sha256').update(repo).digest('hex').slice(0, 12)
  return path.join(cache, `${name || 'repo'}-${hash}.git`)
}

/**
 * Where the case's repo is fetched from: a URL as it is; a local path (relative to the case's
 * folder) as a file:// URL, since git honours a filter and a depth only over a transport.
 */
function remoteUrl(c: EvalCase): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(c.repo) || /^[^/]+@[^/]+:/.test(c.repo)
    ? c.repo
    : `file://${path.resolve(c.dir, c.repo)}`
}

/**
 * git in `cwd`, asynchronously (a fetch may take minutes: the process goes on answering), reading
 * none of the user's settings or hooks and never asking for a password; its output trimmed. A
 * failure is an Error whose message is git's last words.
 */
async function git(
  cwd: string,
  args: string[],
  more: Record<string, string> = {},
  timeoutMs = 60_000
): Promise<string> {
  try {
    const { stdout } = await run('git', ['-c', 'core.hooksPath=/dev/null', ...args], {
      cwd,
      timeout: timeoutMs,
      maxBuffer: 64 * 1024 * 1024,
      env: {
        ...process.env,
        ...ISOLATED_GIT,
        GIT_TERMINAL_PROMPT: '0',
        ...more
      }
    })
    return stdout.trim()
  } catch (e) {
    const lines = String((e as { stderr?: unknown }).stderr ?? '')
      .split('\n')
      .filter(Boolean)
    const why = lines.find(l => l.startsWith('fatal:')) ?? lines.at(-1) ?? (e as Error).message
    throw new Error(why.replace(/^fatal: /, '').trim())
  }
}

/**
 * The commits the cache holds, by the refs each fetch writes (refs/eval/SHA): a ref is read
 * without the object, whose lookup in a partial clone would fetch it, with its whole history.
 */
async function fetched(gitDir: string): Promise<Set<string>> {
  const refs = await git(gitDir, ['for-each-ref', '--format=%(refname:lstrip=2)', 'refs/eval/'])
  return new Set(refs.split('\n').filter(Boolean))
}

/** A new cache repository for `repo`: a bare partial clone's settings, nothing fetched yet. */
async function initCache(gitDir: string, repo: string): Promise<void> {
  mkdirSync(gitDir, { recursive: true })
  await git(gitDir, ['init', '-q', '--bare', '--template=', '.'])
  for (const [k, v] of [
    ['core.repositoryformatversion', '1'],
    ['extensions.partialClone', 'origin'],
    ['remote.origin.url', repo],
    ['remote.origin.promisor', 'true'],
    ['remote.origin.partialclonefilter', 'blob:none']
  ] as const)
    await git(gitDir, ['config', k, v])
}

/**
 * The cache's repository for the case's repo, holding `shas` (fetched when missing: a partial
 * fetch of those commits alone, no history, trees now and blobs when a tree is checked out). A
 * failure is a DatasetError naming the case, the repository and what to do.
 */
export async function fetchCommits(
  c: EvalCase,
  cache: string,
  shas: readonly string[]
): Promise<string> {
  const url = remoteUrl(c)
  const gitDir = cacheFolder(cache, url)
  const held = await (async () => {
    if (!existsSync(path.join(gitDir, 'config'))) await initCache(gitDir, url)
    return fetched(gitDir)
  })().catch((e: unknown) => {
    throw new DatasetError(
      `eval case ${c.id}: cannot use the cache ${gitDir} (${(e as Error).message}): set ${CACHE_ENV} to a folder you can write, or remove that one to start again`
    )
  })
  const missing = shas.filter(sha => !held.has(sha))
  if (missing.length === 0) return gitDir
  const refspecs = missing.map(sha => `${sha}:refs/eval/${sha}`)
  try {
    await git(
      gitDir,
      ['fetch', '-q', '--no-tags', '--filter=blob:none', '--depth=1', 'origin', ...refspecs],
      {},
      FETCH_TIMEOUT_MS
    )
  } catch (e) {
    throw new DatasetError(
      `eval case ${c.id}: cannot fetch ${missing.map(s => s.slice(0, 12)).join(' and ')} from ${shownRepo(c.repo)} (${(e as Error).message}): check that the repository can be reached and still has the commit (${path.join(c.dir, 'case.json')} names them); the cache is ${gitDir} (remove it to start again)`
    )
  }
  return gitDir
}

/**
 * The tree of `sha` written into the new folder `into`, its blobs fetched in one batch when the
 * cache lacks them. A temporary index: the cache's repository is shared by every case and run.
 */
async function checkOut(gitDir: string, sha: string, into: string): Promise<string> {
  mkdirSync(into, { recursive: true })
  const index = `${into}.index`
  try {
    await git(
      gitDir,
      ['--work-tree', into, 'read-tree', '-u', '--reset', sha],
      { GIT_INDEX_FILE: index },
      FETCH_TIMEOUT_MS
    )
  } catch (e) {
    throw new DatasetError(
      `cannot check out ${sha.slice(0, 12)} from the cache ${gitDir} (${(e as Error).message}): remove that folder to fetch it again`
    )
  } finally {
    rmSync(index, { force: true })
  }
  return into
}

/** Every entry of `dir` but .git removed: the next tree replaces it. */
function emptied(dir: string): string {
  for (const name of readdirSync(dir))
    if (name !== '.git') rmSync(path.join(dir, name), { recursive: true, force: true })
  return dir
}

/** A tree's files copied into a folder, links as they are. */
const copied = (tree: string) => (dir: string) =>
  cpSync(tree, dir, { recursive: true, verbatimSymlinks: true })

/**
 * A fetched case's repository at `into`, the same shape as a shipped case's (buildCaseRepo):
 * `main` holds `commit`'s tree, `pr` the head's tree (or fix.patch applied on it), one commit each
 * with a fixed author and date, and no other history.
 */
export async function buildFetchedRepo(
  c: EvalCase,
  into: string,
  env: Record<string, string | undefined>
): Promise<{ base: string; head: string }> {
  const gitDir = await fetchCommits(c, evalCache(env), c.head ? [c.commit, c.head] : [c.commit])
  const trees = mkdtempSync(path.join(path.dirname(path.resolve(into)), 'trees-'))
  try {
    const base = await checkOut(gitDir, c.commit, path.join(trees, 'base'))
    const head = c.head ? await checkOut(gitDir, c.head, path.join(trees, 'head')) : undefined
    return buildCaseRepo(c, into, {
      base: copied(base),
      ...(head ? { head: (dir: string) => copied(head)(emptied(dir)) } : {})
    })
  } finally {
    rmSync(trees, { recursive: true, force: true })
  }
}

/** A case's repository, shipped or fetched. */
export async function buildAnyCaseRepo(
  c: EvalCase,
  into: string,
  env: Record<string, string | undefined>
): Promise<{ base: string; head: string }> {
  return c.fetched ? buildFetchedRepo(c, into, env) : buildCaseRepo(c, into)
}
