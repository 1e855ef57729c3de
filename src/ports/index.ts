/**
 * The ports: everything the loop needs from the outside world, as interfaces over the core's own
 * types. Each has one factory (its adapter), created in `src/main.ts` and passed down; tests pass
 * fakes or point the real adapters at the local emulators.
 */
import type { ProblemMatcher } from '../gates/formats/problem-matchers.js'
import type {
  Annotation,
  Dispute,
  GateResult,
  HumanReview,
  LoopState,
  PrComment,
  PullRequest,
  RepoRole,
  ReviewComment,
  ReviewResult,
  ReviewerVerdict,
  Usage
} from '../loop/types.js'
import type { PullMakers } from '../loop/participants.js'

// ── GitHub (src/github/octokit-adapter.ts) ─────────────────────────────────────────────────────

export interface CheckRunInput {
  name: string
  headSha: string
  conclusion: 'success' | 'failure' | 'neutral'
  title: string
  summary: string
  text?: string
  annotations: Annotation[]
  externalId: string
  detailsUrl?: string
  startedAt: string
  /** Buttons on the check run (GitHub allows three); a click comes as check_run requested_action. */
  actions?: Array<{ label: string; description: string; identifier: string }>
}

/** What the loop reacts on: a conversation comment or an inline review comment. */
export interface ReactionTarget {
  kind: 'comment' | 'review_comment'
  id: number
}

/** The human side of a PR: who may command, reactions, reviews and their threads. */
export interface ConversationPort {
  /** The person's role in the repository (`none` when GitHub does not know them). */
  roleOf(login: string): Promise<RepoRole>
  /** Adds the action's reaction; false when it was there already (the comment was taken before). */
  react(target: ReactionTarget, content: 'eyes' | 'rocket' | 'confused'): Promise<boolean>
  listReviews(pr: number): Promise<HumanReview[]>
  listReviewComments(pr: number): Promise<ReviewComment[]>
  /** Replies in the thread of review comment `commentId`. */
  replyToReviewComment(pr: number, commentId: number, body: string): Promise<void>
  /** Resolves the threads that start with these review comments; returns how many it resolved. */
  resolveThreads(pr: number, commentIds: readonly number[]): Promise<number>
  /**
   * Who made the PR: its commits (the first 250, as GitHub lists them) and who pushed to its head
   * branch, or why the pushers cannot be read (see madeBy in src/loop/participants.ts).
   */
  pullMakers(pull: PullRequest): Promise<PullMakers>
}

export interface GitHubPort extends ConversationPort {
  /** Login of the identity the token acts as (`github-actions[bot]` for the workflow token). */
  whoAmI(): Promise<string>
  getPull(pr: number): Promise<PullRequest>
  listComments(pr: number): Promise<PrComment[]>
  /**
   * Posts a comment. Writes that create something are never sent twice blindly: after an answer
   * that was lost (5xx, a reset, a timeout) the adapter looks for what the first attempt made.
   */
  createComment(pr: number, body: string): Promise<PrComment>
  updateComment(id: number, body: string): Promise<PrComment>
  /** Deletes a comment (one already gone is fine). */
  deleteComment(id: number): Promise<void>
  /**
   * Creates the check run with the first 50 annotations and appends the rest in batches of 50;
   * each annotation lands once even when answers are lost (found again by `externalId`).
   */
  createCheckRun(input: CheckRunInput): Promise<{ id: number; htmlUrl: string }>
  /** The summaries of the check runs named `name` on `sha` whose external id starts with `prefix`. */
  checkRunSummaries(sha: string, name: string, prefix: string): Promise<string[]>
  /** Starts the workflow on `ref`; `runId` is the run it created, when GitHub says so. */
  dispatchWorkflow(
    workflowFile: string,
    ref: string,
    inputs: Record<string, string>
  ): Promise<{ runId?: number }>
  /**
   * Whether workflow run `runId` has ended (GitHub says `completed`, or knows no such run): a run
   * that ended holds no claim any more.
   */
  runEnded(runId: string): Promise<boolean>
  /** The newest run `workflowFile` was dispatched for on `branch`: its status and conclusion. */
  latestDispatchedRun(
    workflowFile: string,
    branch: string
  ): Promise<{ status: string; conclusion?: string; createdAt: string } | undefined>
  /**
   * Sets a commit status on `sha` (context, state, at most 140 characters of description): what
   * reports the loop's result where a token may not write check runs (a PAT).
   */
  createCommitStatus(
    sha: string,
    status: {
      context: string
      state: 'success' | 'failure' | 'pending' | 'error'
      description: string
      targetUrl?: string
    }
  ): Promise<void>
  /** A file of the repository at `ref` (a branch or a commit), or undefined when it is not there. */
  readFile(file: string, ref?: string): Promise<string | undefined>
  /** The newest `count` pull requests, open or closed, newest first. */
  recentPulls(count: number): Promise<PullRequest[]>
  addLabels(pr: number, labels: string[]): Promise<void>
  removeLabel(pr: number, label: string): Promise<void>
  requestReviewers(pr: number, users: string[], teams: string[]): Promise<void>
  createReview(
    pr: number,
    event: 'APPROVE' | 'COMMENT' | 'REQUEST_CHANGES',
    body: string,
    commitId: string
  ): Promise<void>
}

// ── Git (src/git/git.ts) ───────────────────────────────────────────────────────────────────────

export type PushResult =
  { kind: 'pushed' } | { kind: 'rejected'; message: string } | { kind: 'failed'; message: string }

/**
 * A claim on origin: a ref created only where none is (a compare-and-swap git does on the server),
 * pointing at a commit whose message names who holds it.
 */
export type ClaimResult =
  | { kind: 'claimed'; sha: string }
  /** Another commit holds the ref: its id and message. */
  | { kind: 'taken'; sha: string; message: string }
  | { kind: 'failed'; message: string }

/** A commit as the loop's record reads it: its id, first parent, message and committer. */
export interface CommitInfo {
  sha: string
  /** Absent at a shallow checkout's boundary. */
  parent?: string
  message: string
  /** `Name <email>` */
  committer: string
}

/** One path of a commit the action builds: its new content, or its removal. */
export type TreeEntry =
  | { path: string; mode: '100644' | '100755' | '120000'; content: Buffer }
  | { path: string; deleted: true }

/**
 * Git behind an interface, as actions/checkout does: the loop never shells out to git itself. The
 * real one never trusts what PR code touched: every command runs with the configuration taken before
 * PR code ran, hooks, fsmonitor and external diff off, and fetch and push go to the remote's URL as
 * it was then, with credentials in the environment, never on a command line.
 */
export interface Git {
  readonly root: string
  /** The repository's git folder (PR code sees it read-only). */
  readonly gitDir: string
  head(): Promise<string>
  revParse(ref: string): Promise<string | undefined>
  /** The tree of commit `sha`: the same tree under two commits is the same code. */
  treeOf(sha: string): Promise<string | undefined>
  /**
   * Puts the work tree on local branch `branch` at `sha`, fetching it from origin when needed: its
   * branch, or the commit itself when origin has no branch for it (a fork's head, a deleted branch).
   */
  checkoutPullHead(branch: string, sha: string): Promise<void>
  /** The sha of `branch` on origin now, or undefined when it is gone. */
  remoteHead(branch: string): Promise<string | undefined>
  /** Untracked files (not ignored), relative to the root. */
  untrackedPaths(): Promise<string[]>
  /** Paths whose work-tree content differs from `base` (tracked, and untracked ones not in `except`). */
  changedSince(base: string, except?: ReadonlySet<string>): Promise<string[]>
  /** A copy of the repository's git config without credentials, for PR code to see. */
  configForPrCode(): Promise<string>
  /**
   * A commit on `base` whose tree is base's with `entries` applied, written without filters; HEAD
   * and the index move to it, the work tree is left alone. Undefined when the tree would not change.
   */
  commitEntries(
    base: string,
    entries: readonly TreeEntry[],
    message: string,
    author: { name: string; email: string }
  ): Promise<string | undefined>
  /** Paths that differ between two commits (no renames, no filters). */
  changedBetween(a: string, b: string): Promise<string[]>
  /** Pushes commit `sha` to `branch`, never forcing. */
  push(branch: string, sha: string): Promise<PushResult>
  /**
   * Creates `ref` on origin at a new commit on `parent` (its tree, so nothing new is sent but the
   * commit) with `message`, only when origin has no `ref`, or, given `replacing`, when `ref` is at
   * that commit still. The same push deletes the refs in `dropping` (claims done with).
   */
  claimRef(
    ref: string,
    parent: string,
    message: string,
    author: { name: string; email: string },
    options?: { replacing?: string; dropping?: readonly string[] }
  ): Promise<ClaimResult>
  /** Deletes `refs` on origin; a ref that is gone already is no failure. */
  deleteRemoteRefs(refs: readonly string[]): Promise<void>
  /**
   * Up to `limit` commits of `head`'s first-parent history, newest first: `head` is fetched from
   * origin when it is not here, and a shallow checkout is deepened to `limit` commits first.
   */
  recentCommits(head: string, limit: number): Promise<CommitInfo[]>
  /** The commits after `base` up to `head`, as an mbox patch that `git am` applies. */
  formatPatch(base: string, head: string): Promise<string>
  mergeBase(a: string, b: string): Promise<string | undefined>
  /**
   * Makes the base commit and the history down to the merge base available, fetching the base
   * branch (and unshallowing) when the checkout was shallow; returns the merge base.
   */
  prepareDiff(baseRef: string, baseSha: string, headSha: string): Promise<string>
  /**
   * What the PR's head is reviewed against: the merge base of the base branch and the head
   * (`shared`), or, when they share no history (a force-push to an unrelated history), the base
   * branch's tip. Fetches the base and deepens a shallow checkout as `prepareDiff` does; fails
   * naming `fetch-depth: 0` when the head's history is still cut off after that (so its merge base
   * is unknown, not missing).
   */
  reviewBase(
    baseRef: string,
    baseSha: string,
    headSha: string
  ): Promise<{ sha: string; shared: boolean }>
  /**
   * Fetches the rest of a shallow checkout's history; false when it was whole already. Fails naming
   * `fetch-depth: 0` when the fetch fails.
   */
  fullHistory(): Promise<boolean>
  /** Whether commit `a` is `b` or one of its ancestors; undefined when either is not here. */
  isAncestor(a: string, b: string): Promise<boolean | undefined>
  /**
   * The diff from `base` (the merge base, when the caller wants the PR's change) to `head`, paths quoted only where git must
   * (core.quotePath off). `text` treats every file as text, whatever the PR's .gitattributes say.
   */
  diff(base: string, head: string, paths?: string[], options?: { text?: boolean }): Promise<string>
  show(sha: string, file: string): Promise<string | undefined>
  listFiles(sha: string): Promise<string[]>
  /**
   * Every file of commit `sha` with its blob id (path → object id; a submodule's commit), read from
   * the git objects: the same id is the same content.
   */
  blobs(sha: string): Promise<Map<string, string>>
  /** The symbolic links of commit `sha` (path → target), read from the git objects. */
  links(sha: string): Promise<Map<string, string>>
  /**
   * The lines of commit `sha`'s files (under `path`, a file or a folder; default all) that hold
   * `text`: a fixed string, case-sensitive, one line. Binary files are skipped; no hit is an empty list.
   */
  grep(sha: string, text: string, path?: string): Promise<GrepHit[]>
}

/** One line `Git.grep` found: its file, its 1-based line number and its text. */
export interface GrepHit {
  file: string
  line: number
  text: string
}

// ── Commands that run PR code (src/process/command-runner.ts) ─────────────────────────────────

export interface CommandResult {
  exitCode: number
  /** Standard output alone (machine-readable formats such as ESLint's JSON come here). */
  stdout: string
  /** Standard output and error interleaved, as a person would see them. */
  output: string
  timedOut: boolean
  durationMs: number
}

export interface RunOptions {
  cwd: string
  timeoutMs: number
  env: Record<string, string | undefined>
}

/** Runs one shell command. The real one spawns bash; tests use it too, on real commands. */
export interface CommandRunner {
  run(command: string, options: RunOptions): Promise<CommandResult>
}

/** How PR code runs in one checkout: the runner, its environment, and whether it is sandboxed. */
export interface Confined {
  runner: CommandRunner
  env: Record<string, string>
  sandboxed: boolean
  /** Said once (log and PR comment) when PR code runs unsandboxed. */
  warning?: string
}

/**
 * Confines PR code to a checkout (src/process/sandbox.ts); called after the checkout, before any PR
 * code runs, with the credential-free git config PR code may see.
 */
export type Confine = (checkout: {
  root: string
  gitDir: string
  gitConfig: string
}) => Promise<Confined>

// ── Artifacts (src/action/artifacts.ts) ────────────────────────────────────────────────────────

export interface SavedArtifact {
  name: string
  directory: string
  files: string[]
  /** True when the files also went to the workflow run's artifacts. */
  uploaded: boolean
  /** Where people download it, when uploaded. */
  url?: string
  note?: string
}

/** Keeps an iteration's full records (review-N.json, review-N.md, fix-N.json, patches). */
export interface ArtifactStore {
  save(name: string, files: Record<string, string>): Promise<SavedArtifact>
}

// ── The run's log and job summary (src/action/log.ts) ─────────────────────────────────────────

/** The run's log. The action writes to the runner's log; tests can capture lines. */
export interface Log {
  info(message: string): void
  notice(message: string): void
  warning(message: string): void
  debug(message: string): void
  /** A collapsible group in the run log, with one closing line saying how long it took. */
  group<T>(name: string, fn: () => Promise<T>, about?: GroupAbout): Promise<T>
  /**
   * A workflow-command annotation (`::error file=…,line=…::`) on the run and the PR's diff: what
   * shows findings when no check run can carry them. GitHub keeps 10 of each level per step.
   */
  annotate(annotation: Annotation): void
  /**
   * Text the action did not write (what PR code printed), shown as it is: the runner reads no
   * workflow command in it, so a `::error::` or `::add-mask::` line it holds does nothing.
   */
  verbatim(text: string): void
}

/** What a log group holds, when its lines tell of work done before it opened. */
export interface GroupAbout {
  /** How long that work took (a check's run): the closing line says this, not the group's own time. */
  tookMs?: number
  /**
   * When the work it tells of began (`Date.now()`), where that was before the group opened (a
   * review's checks, each a group of its own): the closing line counts from then.
   */
  since?: number
  /** The lines are detail a terminal prints only when asked (--verbose): a passing check's output. */
  detail?: boolean
}

/** The job summary of the workflow run. */
export type WriteSummary = (markdown: string) => Promise<void>

/** The time, so tests can fix it. */
export interface Clock {
  now(): Date
}

// ── The model (src/model/) ─────────────────────────────────────────────────────────────────────

export interface CacheControl {
  type: 'ephemeral'
}

/**
 * The slice of the Messages API the reviewer and fixer use, as plain data. Thinking blocks are
 * carried as received and sent back unchanged: on the 5.x models they are bound to the model and the
 * conversation, and "the API rejects edited, reordered, or partially dropped thinking blocks with a
 * 400 error" (https://platform.claude.com/docs/en/models/opus-5-5/migration-guide).
 */
export type ContentBlock =
  | { type: 'text'; text: string; cache_control?: CacheControl }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown; cache_control?: CacheControl }
  | {
      type: 'tool_result'
      tool_use_id: string
      content: string
      is_error?: boolean
      cache_control?: CacheControl
    }

export interface Message {
  role: 'user' | 'assistant'
  content: ContentBlock[]
}

export interface ToolSpec {
  name: string
  description: string
  input_schema: Record<string, unknown>
  /** The input is held to the schema (strict tool use). */
  strict?: boolean
  cache_control?: CacheControl
}

export interface ModelRequest {
  model: string
  maxTokens: number
  system: Array<{ type: 'text'; text: string; cache_control?: CacheControl }>
  messages: Message[]
  tools: ToolSpec[]
  /** Never a forced tool: the 5.5 models answer a forced tool_choice with 400. */
  toolChoice?: { type: 'auto' } | { type: 'none' }
  /** Structured outputs: the answer's text is JSON matching this schema. */
  outputSchema?: Record<string, unknown>
  /** Ends the call (and the SDK's retries) at this signal. */
  signal?: AbortSignal
}

export interface ModelResponse {
  content: ContentBlock[]
  /** end_turn, tool_use, max_tokens, refusal, pause_turn, stop_sequence */
  stopReason: string
  usage: Usage
}

/** One Messages API call. The adapter is the Anthropic SDK; tests point it at a local server. */
export interface ModelClient {
  create(request: ModelRequest): Promise<ModelResponse>
}

/** What the AI fixer reports back. */
export interface FixerOutcome {
  disputes: Dispute[]
  /** Boundaries the fixer tried to cross (paths outside the workspace, protected files). */
  refusals: string[]
  /** Protected paths the fixer was refused, with why (shown with what the fix commit left out). */
  keptOut?: Array<{ path: string; reason: string }>
  usage: Usage
  transcript: unknown
  stopReason: string
  error?: string
  /** The fixer's closing summary. */
  summary?: string
}

/** The AI reviewer and fixer (src/wiring/agents.ts), present when a model provider is configured. */
export interface AiAgents {
  /** What this run's model calls cost so far: kept in the state when the run fails after paying. */
  spent?(): Usage
  review(input: {
    pull: PullRequest
    state: LoopState
    git: Git
    gates: GateResult[]
    /** Read every part again (a human's retry), nothing taken from an earlier review. */
    fresh?: boolean
  }): Promise<ReviewerVerdict>
  /**
   * The reviewer model's answer to a question a person asked in a review thread; undefined when the
   * budget allows no call or the model gives none. `spentBefore` is what the loop spent so far.
   */
  answer(input: {
    question: { author: string; path: string; line?: number; body: string; excerpt?: string }
    spentBefore: number
  }): Promise<string | undefined>
  /** Absent in a run that only reviews (the CLI's --dry-run). */
  fix?(input: {
    pull: PullRequest
    state: LoopState
    review: ReviewResult
    /** The checkout, its confined runner and the job's secrets (masked in every tool result). */
    workspace: Confined & {
      git: Git
      cwd: string
      secrets: readonly string[]
      /** The `problem-matchers` input's matchers, read from the base branch. */
      matchers?: readonly ProblemMatcher[]
    }
  }): Promise<FixerOutcome>
}
