/**
 * The settings: every input of action.yml (and of .github/review-loop.yml) as one typed object. Only
 * their types and pure data live here; `src/inputs.ts` parses the inputs into them, and every part
 * of the loop takes them from here, never from the parser.
 */
import type { Surface } from './reasons.js'
import type { Severity, TerminalStatus } from './types.js'

/** A tool's level, reduced to three: what fails a build, what it warns about, and advice. */
export type ToolLevel = 'error' | 'warning' | 'note'

/** One check of the `checks` input: `name[options]: command`. */
export interface CheckSpec {
  name: string
  command: string
  /** The severity each of the tool's levels becomes (`lint[warning=low]: …`), over the defaults. */
  levels?: Partial<Record<ToolLevel, Severity>>
  /** A report file the command writes (`report=PATH`, relative to where checks run), read after it. */
  report?: string
}

/** How PR code is confined (sandbox): bubblewrap where it works, always, or never. */
export type SandboxMode = 'auto' | 'required' | 'off'
/** Whether sandboxed PR code may reach the network (sandbox-network). */
export type NetworkMode = 'allow' | 'deny'

/** What the client of one provider needs. Credentials of Bedrock and Vertex stay in the environment. */
export type ProviderConfig =
  | { name: 'anthropic'; apiKey: string; baseUrl?: string }
  | { name: 'bedrock'; awsRegion: string; baseUrl?: string }
  | { name: 'vertex'; projectId: string; region: string; baseUrl?: string }

/** Every input of action.yml, parsed and validated once into one typed object. */
export interface Settings {
  githubToken: string
  maxIterations: number
  severityThreshold: Severity
  /** The severity of a human review's comments when it requests changes (human-review-severity). */
  humanReviewSeverity: Severity
  /** The `checks` input: repository commands that review (gates), by name. */
  gates: CheckSpec[]
  /** Problem matcher files (GitHub's format), read from the base branch (problem-matchers). */
  problemMatchers: string[]
  fixCommands: string[]
  /** Where the loop runs, for the names its messages give: the action (default) or the CLI. */
  surface?: Surface
  retrigger: 'dispatch' | 'push' | 'none'
  prNumber?: number
  workingDirectory: string
  protectedPaths: string[]
  reviewDrafts: boolean
  allowForks: boolean
  checkName: string
  /** Retry / Continue / Approve anyway / Stop buttons on the check run (check-run-buttons). */
  checkRunButtons: boolean
  commandTimeoutMinutes: number
  /** Each GitHub API request gives up after this long (then it is retried within the budget). */
  requestTimeoutSeconds: number
  /** The longest rate-limit wait (retry-after, x-ratelimit-reset); longer fails the step. */
  maxWaitSeconds: number
  failOn: TerminalStatus[]
  escalationLabel: string
  /** A PR label with which a human stops the loop. */
  stopLabel: string
  escalationReviewers: string[]
  escalationTeamReviewers: string[]
  submitReview: 'none' | 'comment' | 'approve'
  commitAuthor: { name: string; email: string }
  artifactsDir?: string
  /** Login the action posts as (needed only with GitHub App tokens). */
  stateAuthor?: string
  /** Secret that signs the loop state (HMAC-SHA256); without it the digest is a plain SHA-256. */
  stateKey?: string
  /** How PR code is confined: bubblewrap where it works (auto), always (required), or never. */
  sandbox: SandboxMode
  /** Whether sandboxed PR code may reach the network. */
  sandboxNetwork: NetworkMode
  /** Environment variables PR code gets besides the allow-list (env-passthrough). */
  envPassthrough: string[]
  /** Annotations one check run carries at most, most severe first (max-annotations). */
  maxAnnotations: number
  ai: AiSettings
}

export interface PathInstruction {
  path: string
  instructions: string
}

export interface AiSettings {
  /** The anthropic-api-key input; empty when none was given. */
  apiKey: string
  /**
   * Where the model is reached (model-provider, resolved against the environment). Undefined when no
   * provider is configured: the loop then runs gates-only.
   */
  provider?: ProviderConfig
  baseUrl?: string
  reviewModel: string
  fixModel: string
  maxTurns: number
  maxCostUsd?: number
  reviewTimeoutMinutes: number
  fixTimeoutMinutes: number
  guidelines?: string
  instructions?: string
  /** Instructions for the files a glob matches (`path-instructions` of .github/review-loop.yml). */
  pathInstructions: PathInstruction[]
  /** Globs of changed files the reviewer skips, after the defaults; `!glob` takes files back (ignore). */
  ignore: string[]
  /** How many batches of a large PR are reviewed at once (review-concurrency). */
  reviewConcurrency: number
  /** verify-findings: each blocking AI finding goes to an independent verifier call first. */
  verifyFindings: boolean
  /** block-uncertain: a finding the verifier could not confirm or refute still blocks. */
  blockUncertain: boolean
  /**
   * hold-go-at: a blocking AI finding at or above this severity that was set aside (refuted,
   * uncertain, outvoted, or its quote not matched) holds GO unless the reviewer withdraws it after
   * seeing why; `none`: set-aside findings never hold GO.
   */
  holdGoAt: Severity | 'none'
  /** review-passes: independent reviews of the PR, their findings merged as votes. */
  reviewPasses: number
  /** votes-to-block: how many passes must raise a finding for it to block (a majority by default). */
  votesToBlock: number
  /** review-max-turns: model turns of one review or verifier call's read-only tool loop (1: no tools). */
  reviewMaxTurns: number
  /**
   * incremental-review: a later review sends again only the parts with a file changed since its
   * last review (or a blocking finding open); false re-reads the whole PR every time.
   */
  incrementalReview: boolean
}

/**
 * Inputs only the workflow's `with:` may set, never .github/review-loop.yml: secrets, and per-run or
 * connection settings read before the file.
 */
export const WORKFLOW_ONLY_INPUTS: readonly string[] = [
  'github-token',
  'anthropic-api-key',
  'state-key',
  'pr-number',
  'state-author',
  'request-timeout-seconds',
  'max-wait-seconds',
  'mode',
  'stats-pull-requests'
]
