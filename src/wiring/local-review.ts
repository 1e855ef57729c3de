import { randomUUID } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createArtifactStore } from '../action/artifacts.js'
import type { RunContext } from '../action/context.js'
import { readRepoConfig, settingsFrom } from './repo-config.js'
import { SETTING_KEYS } from '../config/config-file.js'
import { createGit } from '../git/git.js'
import type { Settings } from '../loop/settings.js'
import type { Usage } from '../loop/types.js'
import type { AiAgents, ArtifactStore, Confine, Log } from '../ports/index.js'
import { createConfinement, type ReadOnlyBind } from '../process/sandbox.js'
import { plural } from '../report/format.js'
import type { IterationOutcome } from '../loop/types.js'
import { runIteration } from '../run/iteration.js'
import { UsageError } from './usage-error.js'
import { bringBack, gitOut, keepFixesOnInterrupt, type LocalRepo } from './bring-back.js'
import { installedDependencies, lendDependencies, type Lending } from './dependencies.js'
import { createLocalGitHub, type LocalRecord } from './local-github.js'

/** Each iteration's records (the artifacts on GitHub): a folder of the run's output, `iteration-N`. */
const recordsIn = (out: string): string => path.join(out, 'records')

/** A loop never takes more runs than this, whatever its settings say (a guard, not a cap). */
const MAX_RUNS = 60

/** The repository, its current branch and the base, checked before anything is copied. */
function localRepo(cwd: string, given: string | undefined): LocalRepo {
  let root: string
  try {
    root = gitOut(cwd, ['rev-parse', '--show-toplevel'])
  } catch {
    throw new UsageError(`${cwd} is not inside a git repository: run review-loop in one.`)
  }
  const base = given ?? defaultBase(root)
  let branch: string
  try {
    branch = gitOut(root, ['symbolic-ref', '--short', 'HEAD'])
  } catch {
    throw new UsageError('HEAD is detached: check out the branch to review (git switch NAME).')
  }
  try {
    gitOut(root, ['rev-parse', '--verify', '--quiet', `refs/heads/${base}^{commit}`])
  } catch {
    throw new UsageError(
      `The base branch '${base}'${given ? '' : ' (origin/HEAD names none)'} does not exist here: name it with --base.`
    )
  }
  if (branch === base)
    throw new UsageError(`You are on the base branch '${base}': switch to the branch to review.`)
  return { root, branch, base, head: gitOut(root, ['rev-parse', 'HEAD']) }
}

/** The branch origin/HEAD names (the remote's default branch), else main. */
function defaultBase(root: string): string {
  try {
    return gitOut(root, ['symbolic-ref', '--short', 'refs/remotes/origin/HEAD']).replace(
      /^origin\//,
      ''
    )
  } catch {
    return 'main'
  }
}

/** What a user should know before the loop starts: what it reviews is the commits, not the tree. */
function notices(repo: LocalRepo, log: Log): void {
  const dirty = gitOut(repo.root, ['status', '--porcelain', '--untracked-files=no'])
  if (dirty)
    log.notice(
      `Your work tree has uncommitted changes (${plural(dirty.split('\n').length, 'tracked file')}): the loop reviews the commits of ${repo.branch} only; commit them to have them reviewed.`
    )
}

/** Why there is nothing to review (the branch has no commit its base lacks), if so. */
function nothingToReview(repo: LocalRepo): string | undefined {
  const ahead = Number(gitOut(repo.root, ['rev-list', '--count', `${repo.base}..HEAD`]))
  return ahead === 0
    ? `${repo.branch} has no commit that ${repo.base} lacks: there is nothing to review (name another base with --base).`
    : undefined
}

/** The inputs given on the command line, refused where the action would refuse them in a file. */
export function checkedInputs(inputs: Record<string, string>): Record<string, string> {
  for (const name of Object.keys(inputs))
    if (!SETTING_KEYS.includes(name))
      throw new UsageError(
        `--set ${name}: not an input review-loop takes on the command line (see its action.yml; secrets come from the environment, such as ANTHROPIC_API_KEY).`
      )
  return inputs
}

/** The run's context as the loop reads it: a dispatch for "pull request" 1, the local branch. */
function localContext(work: string, checkout: string, run: number, repoName: string): RunContext {
  return {
    eventName: 'workflow_dispatch',
    payload: { inputs: { 'pr-number': '1' } },
    owner: 'local',
    repo: repoName,
    runId: String(run),
    runAttempt: 1,
    workflowFile: 'local',
    serverUrl: '', // no web pages: the comment names commits and files without links
    apiUrl: '',
    workspace: checkout,
    tempDir: work,
    eventPrNumber: 1,
    actor: 'you'
  }
}

export interface ReviewOptions {
  command: 'review'
  /** The base branch given with --base; without it, the one origin/HEAD names (else main). */
  base?: string
  inputs: Record<string, string>
  out?: string
  dryRun: boolean
  verbose: boolean
  /** Lend the checks your installed dependency folders (off with --no-lend). */
  lend: boolean
}

export interface LocalLoopResult {
  outcome?: IterationOutcome
  /** Every run's outcome, in order (the first holds the first review's findings). */
  outcomes: IterationOutcome[]
  out: string
  /** The commit the branch is on now (it moves when fixes were committed). */
  head: string
  /** Set when the fixes could not be brought onto the branch (it moved, or the tree is dirty). */
  left?: string
  /** Set when the loop did not start: the branch has no commit its base lacks. */
  nothing?: string
}

/**
 * The loop on the current branch, as the action runs it on a pull request: a copy of the repository
 * stands in for GitHub's (its branch is what the loop pushes to), the loop's clone is where checks
 * and fixers run, and the fixes are brought onto the user's branch by fast-forward at the end.
 */
/** Where the local loop runs, and who is told what it does as it goes (the eval counts on them). */
export interface LocalIo {
  cwd: string
  env: Record<string, string | undefined>
  log: Log
  /** Every answered model call's usage, as it comes: still told when a later run fails. */
  onUsage?: (usage: Usage) => void
  /** Each run's outcome, as it ends. */
  onOutcome?: (outcome: IterationOutcome) => void
}

export async function reviewLocally(options: ReviewOptions, io: LocalIo): Promise<LocalLoopResult> {
  const repo = localRepo(io.cwd, options.base)
  const nothing = nothingToReview(repo)
  if (nothing) return { out: '', head: repo.head, nothing, outcomes: [] }
  notices(repo, io.log)
  const common = path.resolve(repo.root, gitOut(repo.root, ['rev-parse', '--git-common-dir']))
  const out =
    options.out ?? path.join(common, 'review-loop', new Date().toISOString().replace(/[:.]/g, '-'))
  mkdirSync(out, { recursive: true })
  const work = mkdtempSync(path.join(tmpdir(), 'review-loop-local-'))
  // the unsandboxed hard-link copies of your dependencies: next to them, on their file system;
  // made only when lent without the sandbox, named as this run's work folder (mkdtemp's six characters)
  const copies = path.join(common, 'review-loop', `lent-${work.slice(-6)}`)
  // Ctrl-C (or a kill) ends the process without its finally: the copies in your repository go too
  const cleanUp = () => {
    rmSync(work, { recursive: true, force: true })
    rmSync(copies, { recursive: true, force: true })
  }
  const mirror = path.join(work, 'origin.git')
  // what the loop committed is brought onto your branch first, or named with how to take it
  const onSignal = (signal: NodeJS.Signals) => {
    // a second Ctrl-C meanwhile must not end this process before it has said where the fixes are
    process.on('SIGINT', () => {})
    keepFixesOnInterrupt({ repo, mirror, records: recordsIn(out) }, io.log)
    cleanUp()
    process.exit(signal === 'SIGINT' ? 130 : 143)
  }
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal)
  try {
    const checkout = path.join(work, 'checkout')
    gitOut(work, ['clone', '-q', '--bare', '--no-hardlinks', repo.root, mirror])
    gitOut(work, ['clone', '-q', '--branch', repo.branch, mirror, checkout])
    const outcomes = await loop(options, io, { repo, out, work, checkout, copies })
    return { outcome: outcomes.at(-1), outcomes, out, ...bringBack(repo, mirror, options.dryRun) }
  } finally {
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal)
    cleanUp()
  }
}

/** Every run of the loop, each one iteration, until it asks for no next run. */
async function loop(
  options: ReviewOptions,
  io: LocalIo,
  where: { repo: LocalRepo; out: string; work: string; checkout: string; copies: string }
): Promise<IterationOutcome[]> {
  const { log } = io
  const scratch = path.join(where.work, 'private')
  mkdirSync(scratch)
  const token = `local-${randomUUID()}` // no GitHub: a value nothing else holds
  const openGit = (dir: string) => createGit(dir, { token, scratch, warn: m => log.warning(m) })
  const git = await openGit(where.checkout)
  const record: LocalRecord = { checkRuns: [], nextRequested: false }
  const github = createLocalGitHub({
    git,
    out: where.out,
    record,
    pull: localPull(where.repo.branch, where.repo.base)
  })
  const config = await readRepoConfig(github, `origin/${where.repo.base}`)
  const given: Record<string, string> = {
    ...yourIdentity(where.repo.root),
    ...checkedInputs(options.inputs),
    'github-token': token,
    'pr-number': '1'
  }
  const settings: Settings = {
    ...settingsFrom(name => given[name] ?? inputFromEnv(name, io.env), config, io.env),
    retrigger: 'dispatch',
    artifactsDir: recordsIn(where.out),
    surface: 'cli'
  }
  const ai = await agents(settings, log, options.dryRun, io.onUsage)
  if (options.dryRun) Object.assign(settings, { fixCommands: [], maxIterations: 1 })
  const confine = lendDependencies(
    binds => localConfinement(settings, { scratch, copies: where.copies }, io.env, log, binds),
    lending(options.lend, where, log)
  )
  const outcomes: IterationOutcome[] = []
  for (let run = 1; run <= MAX_RUNS; run++) {
    record.nextRequested = false
    const outcome = await runIteration({
      ai,
      settings,
      ctx: localContext(where.work, where.checkout, run, path.basename(where.repo.root)),
      github,
      openGit,
      confine,
      artifacts: localArtifacts(settings.artifactsDir!, log),
      log,
      env: io.env,
      clock: { now: () => new Date() },
      writeSummary: async () => {}
    })
    outcomes.push(outcome)
    io.onOutcome?.(outcome)
    if (!record.nextRequested) break
  }
  return outcomes
}

/** What the checks are lent of your installed dependencies (nothing with --no-lend). */
function lending(lend: boolean, where: { repo: LocalRepo; copies: string }, log: Log): Lending {
  return {
    from: where.repo.root,
    folders: lend ? yourDependencies(where.repo.root, log) : [],
    copies: where.copies,
    notice: message => log.notice(message)
  }
}

/** Your installed dependency folders, said once: the checks run on them; and the links not lent. */
function yourDependencies(root: string, log: Log): string[] {
  const { folders, notLent } = installedDependencies(root)
  if (folders.length)
    log.info(
      `Checks use your installed dependencies (${folders.join(', ')} of ${root}): read-only in the sandbox, a hard-linked copy without it (--no-lend if your checks install them).`
    )
  for (const n of notLent)
    log.notice(
      `Your ${n.folder} is a link to ${n.target}, not lent to the checks: ${n.why}. Install the dependencies in a first check (--check 'deps: npm ci'), or make ${n.folder} a folder.`
    )
  return folders
}

/** The records in a folder of the output (there is no artifact service to upload them to). */
function localArtifacts(dir: string, log: Log): ArtifactStore {
  const store = createArtifactStore(dir, {}, log)
  return { save: async (name, files) => ({ ...(await store.save(name, files)), note: undefined }) }
}

/** Fixes are committed as you (git's user.name and user.email), when git knows you. */
function yourIdentity(root: string): Record<string, string> {
  const read = (key: string): string | undefined => {
    try {
      return gitOut(root, ['config', key]) || undefined
    } catch {
      return undefined
    }
  }
  const name = read('user.name')
  const email = read('user.email')
  return name && email ? { 'commit-author-name': name, 'commit-author-email': email } : {}
}

/**
 * PR code's confinement; never sudo on someone's machine: bubblewrap is used if it works as is.
 * PR code's build caches are kept from run to run in `caches`, beside the lent copies in the
 * repository's `.git/review-loop/`: this repository's PR code alone writes them.
 */
function localConfinement(
  settings: Settings,
  folders: { scratch: string; copies: string },
  env: Record<string, string | undefined>,
  log: Log,
  binds: (root: string) => ReadOnlyBind[]
): Confine {
  return createConfinement({
    binds,
    caches: path.join(path.dirname(folders.copies), 'caches'),
    mode: settings.sandbox,
    network: settings.sandboxNetwork,
    passthrough: settings.envPassthrough,
    tempDir: folders.scratch,
    env,
    log,
    setUp: false,
    surface: 'cli'
  })
}

/** Secrets come from the environment, as the workflow passes them from its secrets. */
export function inputFromEnv(name: string, env: Record<string, string | undefined>): string {
  return name === 'anthropic-api-key' ? (env['ANTHROPIC_API_KEY'] ?? '') : ''
}

async function agents(
  settings: Settings,
  log: Log,
  dryRun: boolean,
  onUsage?: (usage: Usage) => void
): Promise<AiAgents | undefined> {
  if (!settings.ai.provider) {
    log.notice(
      `AI review is off: ANTHROPIC_API_KEY is not set (nor --set model-provider=bedrock or vertex), so only the checks review${dryRun ? '' : ' and only the --fix commands fix'}.`
    )
    return undefined
  }
  const ai = (await import('./agents.js')).createAiAgents(settings, log, undefined, onUsage)
  return dryRun ? { ...ai, fix: undefined } : ai
}

function localPull(branch: string, base: string) {
  return {
    number: 1,
    state: 'open' as const,
    draft: false,
    merged: false,
    title: branch,
    body: '',
    author: 'you',
    htmlUrl: '',
    headRef: branch,
    baseRef: base,
    headRepoFullName: 'local',
    baseRepoFullName: 'local',
    labels: []
  }
}
