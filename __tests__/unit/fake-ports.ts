// In-memory stand-ins for the ports (src/ports/index.ts), for unit tests of the phases and the
// orchestrator. They record every call in order so a test can check what a user would see
// (comments, check runs, dispatches) and in which order it happened.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { RunContext } from '../../src/action/context.js'
import { parseSettings } from '../../src/inputs.js'
import type { Settings } from '../../src/loop/settings.js'
import type {
  HumanReview,
  PrComment,
  PullRequest,
  RepoRole,
  ReviewComment
} from '../../src/loop/types.js'
import type { PullMakers } from '../../src/loop/participants.js'
import type {
  ArtifactStore,
  CheckRunInput,
  CommandResult,
  CommandRunner,
  Git,
  TreeEntry,
  GitHubPort,
  Log,
  ReactionTarget
} from '../../src/ports/index.js'
import { NOW, pull as pullBuilder } from './builders.js'

export const BOT = 'github-actions[bot]'

export function settings(inputs: Record<string, string> = {}): Settings {
  return parseSettings(name => ({ 'github-token': 'ghs_test', ...inputs })[name] ?? '', {})
}

export function context(overrides: Partial<RunContext> = {}): RunContext {
  return {
    eventName: 'pull_request',
    action: 'synchronize',
    payload: {},
    owner: 'o',
    repo: 'r',
    runId: '2001',
    runAttempt: 1,
    workflowFile: 'review.yml',
    serverUrl: 'https://github.com',
    apiUrl: 'https://api.github.com',
    workspace: '/work/repo',
    tempDir: '/tmp',
    eventPrNumber: 7,
    actor: 'octocat',
    ...overrides
  }
}

export class FakeGitHub implements GitHubPort {
  calls: string[] = []
  comments: PrComment[] = []
  checkRuns: CheckRunInput[] = []
  dispatches: Array<{ workflow: string; ref: string; inputs: Record<string, string> }> = []
  failDispatch?: string
  private nextId = 100

  constructor(public pull: PullRequest = pullBuilder()) {}

  async whoAmI() {
    return BOT
  }
  async getPull(pr: number) {
    this.calls.push(`getPull ${pr}`)
    return this.pull
  }
  async listComments() {
    this.calls.push('listComments')
    return this.comments
  }
  async createComment(_pr: number, body: string) {
    this.calls.push('createComment')
    const c = { id: this.nextId++, body, author: BOT, htmlUrl: `https://github.com/o/r/pull/7#c` }
    this.comments.push(c)
    return c
  }
  async updateComment(id: number, body: string) {
    this.calls.push('updateComment')
    const c = this.comments.find(x => x.id === id)!
    c.body = body
    return c
  }
  async deleteComment(id: number) {
    this.calls.push('deleteComment')
    const index = this.comments.findIndex(c => c.id === id)
    if (index >= 0) this.comments.splice(index, 1)
  }
  async createCheckRun(input: CheckRunInput) {
    this.calls.push(`createCheckRun ${input.conclusion}`)
    this.checkRuns.push(input)
    return { id: this.checkRuns.length, htmlUrl: '' }
  }
  async dispatchWorkflow(workflow: string, ref: string, inputs: Record<string, string>) {
    this.calls.push('dispatchWorkflow')
    if (this.failDispatch) throw new Error(this.failDispatch)
    this.dispatches.push({ workflow, ref, inputs })
    return { runId: 9000 + this.dispatches.length }
  }
  async addLabels(_pr: number, labels: string[]) {
    this.calls.push(`addLabels ${labels.join(',')}`)
  }
  async removeLabel(_pr: number, label: string) {
    this.calls.push(`removeLabel ${label}`)
  }
  async requestReviewers() {
    this.calls.push('requestReviewers')
  }
  async createReview(_pr: number, event: string) {
    this.calls.push(`createReview ${event}`)
  }
  async latestDispatchedRun() {
    return undefined
  }
  /** Runs still going; any other has ended. */
  going = new Set<string>()
  async runEnded(runId: string) {
    this.calls.push(`runEnded ${runId}`)
    return !this.going.has(runId)
  }
  async checkRunSummaries(sha: string, name: string, prefix: string) {
    this.calls.push('checkRunSummaries')
    return this.checkRuns
      .filter(r => r.headSha === sha && r.name === name && r.externalId.startsWith(prefix))
      .map(r => r.summary)
  }
  statuses: Array<{ sha: string; context: string; state: string; description: string }> = []
  async createCommitStatus(
    sha: string,
    status: { context: string; state: string; description: string }
  ) {
    this.calls.push(`createCommitStatus ${status.state}`)
    this.statuses.push({ sha, ...status })
  }
  files: Record<string, string> = {}
  async readFile(file: string) {
    this.calls.push(`readFile ${file}`)
    return this.files[file]
  }
  async recentPulls() {
    return [this.pull]
  }
  roles: Record<string, RepoRole> = {}
  async roleOf(login: string): Promise<RepoRole> {
    return this.roles[login] ?? 'read'
  }
  reactions: string[] = []
  async react(target: ReactionTarget, content: string) {
    const key = `${target.kind}:${target.id}:${content}`
    if (this.reactions.includes(key)) return false
    this.reactions.push(key)
    return true
  }
  reviews: HumanReview[] = []
  reviewComments: ReviewComment[] = []
  async listReviews() {
    return this.reviews
  }
  async listReviewComments() {
    return this.reviewComments
  }
  replies: Array<{ commentId: number; body: string }> = []
  async replyToReviewComment(_pr: number, commentId: number, body: string) {
    this.replies.push({ commentId, body })
  }
  resolved: number[] = []
  async resolveThreads(_pr: number, ids: readonly number[]) {
    this.resolved.push(...ids)
    return ids.length
  }
  /** The PR's commits and pushers, as GitHub would list them. */
  makers: PullMakers = { commits: [], pushes: [] }
  async pullMakers() {
    return this.makers
  }
}

/** A work tree as a set of changed paths; a commit becomes a new sha, a push moves the remote. */
export class FakeGit implements Git {
  /** A real, empty folder: the gates run there. */
  readonly root = mkdtempSync(path.join(tmpdir(), 'fake-git-'))
  changed = new Set<string>()
  commits: string[] = []
  pushed: string[] = []
  current: string
  constructor(
    public remote: string,
    public pushResult: Awaited<ReturnType<Git['push']>> = { kind: 'pushed' }
  ) {
    this.current = remote
  }
  async head() {
    return this.current
  }
  async revParse(ref: string) {
    return ref
  }
  async treeOf(): Promise<string | undefined> {
    return undefined
  }
  async checkoutPullHead(_branch: string, sha: string) {
    this.current = sha
  }
  async remoteHead(_branch: string): Promise<string | undefined> {
    return this.remote
  }
  readonly gitDir = path.join(this.root, '.git')
  committed: string[] = []
  async untrackedPaths() {
    return []
  }
  async changedSince() {
    return [...this.changed]
  }
  async configForPrCode() {
    return path.join(this.root, 'config')
  }
  async commitEntries(_base: string, entries: readonly TreeEntry[]) {
    if (entries.length === 0) return undefined
    this.current = `${this.commits.length + 1}`.padStart(40, 'f')
    this.commits.push(this.current)
    this.committed = entries.map(e => e.path)
    this.changed.clear()
    return this.current
  }
  async changedBetween() {
    return this.committed
  }
  async push() {
    if (this.pushResult.kind === 'pushed') {
      this.pushed.push(this.current)
      this.remote = this.current
    }
    return this.pushResult
  }
  async formatPatch() {
    return 'From 1 Mon Sep 17 00:00:00 2001\n'
  }
  /** Claims on the fake origin: ref → the claim's message (every claim commit is SHA 'c…'). */
  claims = new Map<string, string>()
  async claimRef(
    ref: string,
    _parent: string,
    message: string,
    _author?: unknown,
    options: { replacing?: string; dropping?: readonly string[] } = {}
  ) {
    const sha = 'c'.repeat(40)
    const held = this.claims.get(ref)
    if (held !== undefined && options.replacing !== sha)
      return { kind: 'taken' as const, sha, message: held }
    this.claims.set(ref, message)
    for (const dropped of options.dropping ?? []) if (dropped !== ref) this.claims.delete(dropped)
    return { kind: 'claimed' as const, sha }
  }
  async deleteRemoteRefs(refs: readonly string[]) {
    for (const ref of refs) this.claims.delete(ref)
  }
  /** The branch's commits, newest first, as recentCommits answers. */
  history: Array<{ sha: string; parent?: string; message: string; committer: string }> = []
  async recentCommits() {
    return this.history
  }
  async mergeBase() {
    return undefined
  }
  async prepareDiff(_r: string, baseSha: string) {
    return baseSha
  }
  /** Whether the head shares history with the base (false: a force-push to an unrelated one). */
  sharesHistory = true
  async reviewBase(_r: string, baseSha: string) {
    return { sha: baseSha, shared: this.sharesHistory }
  }
  async fullHistory() {
    return false
  }
  /** Whether the last pushed fix is in the head's history (false: a human moved the branch back). */
  fixKept = true
  async isAncestor() {
    return this.fixKept
  }
  /** What `diff` answers: no change by default. */
  diffText = ''
  async diff() {
    return this.diffText
  }
  async show(_sha: string, _file: string): Promise<string | undefined> {
    return undefined
  }
  async listFiles(_sha: string): Promise<string[]> {
    return []
  }
  async grep() {
    return []
  }
  async blobs() {
    return new Map<string, string>()
  }
  async links() {
    return new Map<string, string>()
  }
}

/**
 * Commands by what they do: `fail:NAME` exits 1, `touch:PATH` changes PATH in the fake work tree,
 * anything else exits 0.
 */
export function fakeRunner(git: FakeGit, ran: string[] = []): CommandRunner {
  return {
    async run(command): Promise<CommandResult> {
      ran.push(command)
      const [verb, arg] = command.split(':')
      if (verb === 'touch' && arg) git.changed.add(arg)
      const exitCode = verb === 'fail' ? 1 : 0
      const output = exitCode ? `src/a.ts:3:1: error ${arg ?? ''}` : ''
      return { exitCode, stdout: output, output, timedOut: false, durationMs: 5 }
    }
  }
}

export function fakeLog(lines: string[] = []): Log {
  return {
    info: m => lines.push(`info ${m}`),
    notice: m => lines.push(`notice ${m}`),
    warning: m => lines.push(`warning ${m}`),
    debug: () => {},
    group: (_name, fn) => fn(),
    verbatim: m => lines.push(`verbatim ${m}`),
    annotate: a => lines.push(`annotate ${a.level} ${a.file}:${a.startLine} ${a.title}`)
  }
}

export function fakeArtifacts(saved: Record<string, Record<string, string>> = {}): ArtifactStore {
  return {
    async save(name, files) {
      saved[name] = files
      return { name, directory: `/tmp/${name}`, files: Object.keys(files), uploaded: false }
    }
  }
}

export const clock = { now: () => NOW }
