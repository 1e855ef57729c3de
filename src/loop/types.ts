/**
 * The loop's own types: what the core reasons about. Adapters map GitHub's, git's and the model
 * API's shapes to these; nothing here knows an SDK or a wire format.
 */

/** The one finding schema shared by every source: AI reviewer, gates and human review comments. */
export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'suggestion'] as const
export type Severity = (typeof SEVERITIES)[number]

export const CATEGORIES = [
  'security',
  'architecture',
  'logic',
  'style',
  'performance',
  'testing',
  'documentation'
] as const
export type Category = (typeof CATEGORIES)[number]

/** `ai`, `human`, or `gate:NAME` for a configured gate (a repository command that reviews). */
export type FindingSource = string

export interface Finding {
  /** Stable fingerprint: the same problem keeps its id across iterations. */
  id: string
  severity: Severity
  category: Category
  file?: string
  line?: number
  endLine?: number
  /** Columns (1-based), where the source gives them: a check's tool does, the AI reviewer does not. */
  column?: number
  endColumn?: number
  title: string
  description: string
  suggestedFix?: string
  source: FindingSource
  /** An earlier open finding carried over unseen (its file could not be reviewed): never re-raised. */
  carried?: boolean
  /** AI findings: the exact head lines the finding rests on, as the reviewer quoted them. */
  evidence?: string
  /** AI findings at or above the threshold: how the finding held up before the loop acted on it. */
  verification?: Verification
  /** With several review passes (`review-passes`): how many of them raised it. */
  votes?: { count: number; passes: number }
}

/**
 * How an AI finding held up: `confirmed` by the verifier; `refuted` by it; `uncertain` (the verifier
 * could not tell); `unverified` (its evidence is not in the file at the cited lines, or it quoted none);
 * `outvoted` (fewer review passes raised it than `votes-to-block`).
 */
export const VERIFICATION_STATUSES = [
  'confirmed',
  'refuted',
  'uncertain',
  'unverified',
  'outvoted'
] as const
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number]

export interface Verification {
  status: VerificationStatus
  /** Who decided: the mechanical evidence check, the verifier call, or the votes of several passes. */
  by: 'evidence' | 'verifier' | 'votes'
  /** Why, in words (the verifier's own words are untrusted model text). */
  why: string
  /** The code the verifier says it read. */
  cited?: Array<{ file: string; line?: number }>
  /** Whether the loop acts on the finding (blocks GO, reaches the fixer). */
  blocks: boolean
  /**
   * The verification could not be made (the budget, the time, an API error, an answer that could not
   * be accepted): the finding blocks as raised.
   */
  unverifiable?: true
  /**
   * The reviewer's answer when shown why the finding was set aside (hold-go-at): it kept the finding
   * or withdrew it, in its own words (untrusted model text).
   */
  reconsidered?: { kept: boolean; why: string }
  /**
   * A disagreement: a finding at or above hold-go-at that was set aside (refuted, uncertain,
   * outvoted, or its quote not matched) and that the reviewer kept after seeing why, or could not be
   * asked. It is open and holds GO (needs_discussion) until a maintainer dismisses it; the fixer does
   * not act on it unless a human asks (`/review-loop fix`).
   */
  held?: true
}

/** Why the loop did not act on a finding: every status but `confirmed`. */
export type SetAsideStatus = Exclude<VerificationStatus, 'confirmed'>

/** How many findings a review set aside, by why (schema 7). */
export type SetAsideCounts = Partial<Record<SetAsideStatus, number>>

export type FindingStatus = 'open' | 'fixed' | 'disputed'

export const LOOP_STATUSES = [
  'running',
  'go',
  'max_iterations',
  'needs_discussion',
  'stalled',
  'budget_exhausted',
  'stopped',
  'error',
  /** The PR was closed, or merged, while the loop ran. */
  'closed',
  'merged'
] as const
export type LoopStatus = (typeof LOOP_STATUSES)[number]
export type TerminalStatus = Exclude<LoopStatus, 'running'>

export const DECISIONS = ['GO', 'NO_GO', 'NEEDS_DISCUSSION'] as const
export type Decision = (typeof DECISIONS)[number]

/** Tokens and their price, for one model call or summed over many. */
export interface Usage {
  inputTokens: number
  outputTokens: number
  cacheReadTokens: number
  cacheWriteTokens: number
  costUsd: number
}

/** A pull request as the loop sees it. */
export interface PullRequest {
  number: number
  state: 'open' | 'closed'
  draft: boolean
  merged: boolean
  title: string
  body: string
  author: string
  htmlUrl: string
  headRef: string
  headSha: string
  baseRef: string
  baseSha: string
  headRepoFullName: string
  baseRepoFullName: string
  labels: string[]
}

/** A comment on the pull request's conversation. */
export interface PrComment {
  id: number
  body: string
  author: string
  htmlUrl: string
}

/** A person's role in the repository (GitHub's `role_name`); write and above may command the loop. */
export type RepoRole = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none'

/** A submitted review on the pull request. */
export interface HumanReview {
  id: number
  author: string
  authorType: string
  /** GitHub's review state, upper case: CHANGES_REQUESTED, COMMENTED, APPROVED, DISMISSED, PENDING. */
  state: string
  body: string
}

/** An inline review comment (the first of a thread, or a reply in it). */
export interface ReviewComment {
  id: number
  reviewId?: number
  author: string
  authorType: string
  path: string
  /** The line on the PR's head it is on; none when the line is outdated. */
  line?: number
  body: string
  /** The thread's first comment, for a reply. */
  inReplyTo?: number
}

/** A finding placed on a line of the diff, in the loop's words; the GitHub adapter maps it. */
export interface Annotation {
  file: string
  startLine: number
  endLine: number
  /** Only on a one-line annotation, as GitHub takes them. */
  startColumn?: number
  endColumn?: number
  level: 'notice' | 'warning' | 'failure'
  title: string
  message: string
  details?: string
}

/** What one gate (a repository command that reviews) reported on the head. */
export interface GateResult {
  name: string
  command: string
  passed: boolean
  exitCode: number
  timedOut: boolean
  durationMs: number
  findings: Finding[]
  /** Located problems the check printed. */
  problems: number
  /** More were printed than a check keeps as findings (MAX_FINDINGS_PER_CHECK). */
  capped?: boolean
  /** The end of the output, kept for the review artifact. */
  outputTail: string
}

export interface Dispute {
  id: string
  reason: string
}

/** A finding the action could not place: its file or line is not in the reviewed tree, or it has none. */
export interface DroppedFinding {
  severity: Severity
  title: string
  file?: string
  line?: number
  why: string
}

/** What the reviewer says about a finding of an earlier iteration. */
export const EARLIER_STATUSES = [
  'fixed',
  'still_open',
  'dispute_accepted',
  'dispute_rejected'
] as const

/** The reviewer's word on a finding of an earlier iteration. */
export interface EarlierAnswer {
  id: string
  status: (typeof EARLIER_STATUSES)[number]
  note: string
}

/** What the AI reviewer returns, when there is one. */
export interface ReviewerVerdict {
  decision: Decision
  summary: string
  findings: Finding[]
  failedCriteria: string[]
  passedCriteria: string[]
  requiredRework: string[]
  usage: Usage
  /** Findings dropped because their file or line does not exist in the reviewed tree. */
  dropped: number
  droppedFindings?: DroppedFinding[]
  /** What the reviewer said about earlier findings. */
  earlier?: EarlierAnswer[]
  /** Set when the verdict failed closed (invalid answer, API error). */
  error?: string
  /** Set when the budget did not allow the review call. */
  budgetExhausted?: boolean
  /** The whole review's cost as estimated before its first call, when the budget refused it. */
  estimateUsd?: number
  /** What the review covered of the changed files. */
  coverage?: ReviewCoverage
  /**
   * AI findings at or above the threshold the loop does not act on: their evidence is not in the
   * file, the verifier refuted them or could not tell, or too few review passes raised them. Each
   * carries its `verification`; they are shown, never fixed, and do not block GO.
   */
  setAside?: Finding[]
  /**
   * Earlier blockers at code nobody changed that the reviewer called gone and the verifier refuted:
   * closed as refuted, never fixed.
   */
  refutedEarlier?: RefutedEarlier[]
}

/** An earlier blocker closed because the verifier refuted it (its code did not change): why. */
export interface RefutedEarlier {
  id: string
  why: string
}

/** What the AI review covered of the PR's changed files. */
export interface ReviewCoverage {
  /** Changed files in the diff against the merge base. */
  files: number
  /** Files whose every batch the reviewer answered. */
  reviewed: number
  /** Left out by design: matched by an `ignore` glob, or binary. */
  ignored: string[]
  /** Files that should have been reviewed and were not: their batch failed, or budget or time ran out. */
  unreviewed: string[]
  /** Why, one line per failed batch. */
  failures: string[]
  batches: number
  /**
   * Files not sent again (incremental-review): reviewed in an earlier iteration at their current
   * content, path → that iteration.
   */
  unchanged?: Record<string, number>
  /** Parts not sent again: all their files unchanged since a review that found nothing blocking. */
  skipped?: number
  /** The content this review stands on, for the state's `reviewed` (set with incremental-review). */
  content?: ReviewedContent
}

/** What a review stands on: its base, its settings, and each reviewed file's blob. */
export interface ReviewedContent {
  base: string
  settings: string
  /**
   * Per reviewed file: its blob, whether its part found nothing blocking (`clean`), and the
   * iteration that reviewed it when that was an earlier one (unchanged since).
   */
  files: Record<string, { blob: string; clean: boolean; n?: number }>
}

/** The review of one head: the gates, the reviewer's verdict, and their findings merged by id. */
export interface ReviewResult {
  gates: GateResult[]
  verdict?: ReviewerVerdict
  findings: Finding[]
  usage: Usage
  /** The git tree of the reviewed head. */
  tree?: string
  /** Lines of the previously reviewed version that the pushed fix since then changed, per file. */
  changedLines?: Record<string, Array<[number, number]>>
  /** Files the pushed fix rewrote: it deleted more than half of their previous version's lines. */
  rewritten?: string[]
  /**
   * How the head relates to the base and the last pushed fix, when that is out of the ordinary (no
   * history shared with the base, the fix dropped): said in the review's summary.
   */
  history?: string
  /** The previous iteration's pushed fix is not in the head's history (a human moved the branch). */
  fixDropped?: boolean
}

/** A finding as remembered in the state: small, because the state lives in a PR comment. */
export interface FindingRecord {
  id: string
  severity: Severity
  category?: Category
  title?: string
  file?: string
  line?: number
  source?: string
  status: FindingStatus
  /** Iteration (1-based, over the whole PR) in which this id was first seen open. */
  since: number
  /** Raised again after a fix attempt: the fix did not settle it. */
  reraised?: boolean
  /**
   * Held for a person (schema 9), with why it was set aside: set aside against the reviewer's word,
   * which the reviewer kept (hold-go-at); it holds GO until a maintainer dismisses, fixes or approves.
   */
  held?: SetAsideStatus
}

/**
 * What became of a fix: the push result. `pushing` is written ahead of the push, so a run that dies
 * while pushing leaves its iteration counted; the next run settles it as `pushed` when the commit is
 * the branch's head, else as `interrupted` (the commit is in the iteration's patch artifact).
 */
export type FixOutcome =
  'pushed' | 'no_changes' | 'branch_moved' | 'push_failed' | 'pushing' | 'interrupted'

export interface FixRecord {
  outcome: FixOutcome
  commitSha?: string
  filesChanged: string[]
  /** Changed files left out of `filesChanged` to keep the comment small. */
  filesOmitted?: number
  commands: Array<{ command: string; exitCode: number; durationMs: number }>
  disputes: Dispute[]
  /** Protected paths the fixers changed, left out of the commit. */
  revertedProtected: string[]
  /** Every path left out of the fix commit, with why (protected, a link out, a credential file). */
  leftOut?: Array<{ path: string; reason: string }>
  /** Artifact or path holding the patch when the commit could not be pushed. */
  patch?: string
  durationMs: number
  /** The AI fixer's closing summary of what it changed and why. */
  summary?: string
  /** Why the AI fixer stopped, when not because it was done (budget, max_tokens, timeout, ...). */
  stopReason?: string
}

/** Who asked for an iteration that a human started (a command, a review, a button). */
export interface HumanTrigger {
  /** The GitHub login that asked. */
  by: string
  /** What was asked: retry, continue, fix, feedback (a human review's comments). */
  command: 'retry' | 'continue' | 'fix' | 'feedback'
  /** The `fix` command's instructions, as given (untrusted text). */
  instructions?: string
  /** A fix iteration carries the review of this earlier iteration instead of reviewing again. */
  carried?: number
}

/** A human's override of the loop to GO (`/review-loop approve`), recorded with who, when and why. */
export interface Override {
  by: string
  at: string
  reason: string
  /** The head the human approved. */
  sha: string
}

/** A check's result as the state keeps it; `problems` and `kept` when it printed located problems. */
export interface GateRecord {
  name: string
  passed: boolean
  durationMs: number
  /** Located problems the check printed (its true count). */
  problems?: number
  /** How many of them became findings (at most the per-check cap). */
  kept?: number
}

/** ReviewCoverage as the state keeps it: counts, and at most 50 paths of each list. */
export interface CoverageRecord {
  files: number
  reviewed: number
  ignored: number
  batches: number
  ignoredFiles?: string[]
  unreviewed?: string[]
  /** Unreviewed paths beyond the 50 listed. */
  unreviewedOmitted?: number
  failures?: string[]
  /** Files reviewed in an earlier iteration at their current content, not sent again (schema 8). */
  unchanged?: number
  /** Parts not sent again (schema 8). */
  skipped?: number
}

/**
 * The content the AI review last saw (schema 8): a later review sends again only the parts with a
 * file changed since, or with a finding open.
 */
export interface ReviewedFiles {
  /** The merge base the files were diffed against: another base re-reviews everything. */
  base: string
  /**
   * A digest of what else a review depends on (model, system prompt with the guidelines and
   * instructions, threshold, ignore, passes, verification): other settings re-review everything.
   */
  settings: string
  /**
   * Per path, `n:blob`: reviewed in iteration n at that blob, its part finding nothing blocking;
   * `n:blob:open` when its part did not say GO (it is sent again).
   */
  files: Record<string, string>
}

/** A finding a human settled as won't-fix (`/review-loop dismiss`): it no longer blocks. */
export interface Dismissal {
  id: string
  by: string
  at: string
  reason?: string
}

export interface IterationRecord {
  /** 1-based over the whole PR. */
  n: number
  round: number
  reviewedSha: string
  baseSha: string
  runId: string
  runAttempt: number
  decision: Decision
  summary: string
  findings: FindingRecord[]
  /** Findings of this iteration left out of the state to keep the comment small. */
  omitted?: number
  /** Ids that were open in the previous iteration and are gone in this one. */
  resolved: string[]
  /** Resolved ids left out of `resolved` to keep the comment small. */
  resolvedOmitted?: number
  /**
   * Ids open before and not raised now that no fix touched and the reviewer did not confirm fixed:
   * no longer raised, which is not the same as fixed. `resolved` holds the fixed ones.
   */
  gone?: string[]
  /**
   * Earlier blockers closed because the verifier refuted them at code nobody changed (schema 9):
   * neither fixed nor merely no longer raised.
   */
  refuted?: RefutedEarlier[]
  /** The git tree reviewed: the same tree reviewed again under another commit is an oscillation. */
  tree?: string
  /** The reviewer's failed criteria, for the comment. */
  failedCriteria?: string[]
  /** Why the review failed closed, or why its verdict was not taken as given. */
  error?: string
  /** Findings the action could not place in the reviewed tree. */
  dropped?: DroppedFinding[]
  /** The reviewer's answers on earlier findings: confirmed fixes, kept or accepted disputes. */
  answers?: EarlierAnswer[]
  gates: GateRecord[]
  /** What the AI review covered (schema 5). */
  coverage?: CoverageRecord
  /** How many AI findings the review set aside (not acted on), by why (schema 7). */
  setAside?: SetAsideCounts
  fix?: FixRecord
  /** Set when a human started this iteration. */
  trigger?: HumanTrigger
  usage: Usage
  startedAt: string
  durationMs: number
}

export interface LoopState {
  /** 1 to 8 are read and written again as 9 (see STATE_SCHEMA). */
  schema: 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9
  pr: number
  status: LoopStatus
  /** A round starts when the PR is opened, and again when a human pushes after a terminal state. */
  round: number
  maxIterations: number
  iterations: IterationRecord[]
  lastReviewedSha?: string
  /** The last commit the action itself pushed, to tell a human push from its own. */
  lastPushedSha?: string
  totals: Usage
  /**
   * Runs (`runId:attempt`) whose spend a later run carried into `totals` after their own state
   * save failed (schema 6); a carried run is never counted again.
   */
  carriedSpend?: string[]
  /** The content the AI review last saw, per file (incremental-review; schema 8). */
  reviewed?: ReviewedFiles
  /** Why the loop ended, in words, for terminal states. */
  reason?: string
  /** A cap a human gave this round (`/review-loop continue N`), instead of max-iterations. */
  roundCap?: { round: number; max: number }
  /** The human approval that ended the loop as GO, when one did. */
  override?: Override
  /** Findings humans settled as won't-fix. */
  dismissed?: Dismissal[]
  /**
   * What humans said that the loop has acted on, so nothing is processed twice (re-runs included):
   * `c<id>` a conversation comment, `r<id>` a review, `t<id>` a review comment, `b<run id>` a
   * check-run button. The newest 200 are kept (see `remember`).
   */
  processed?: string[]
  /** Review and review-comment ids at or below which everything counts as processed. */
  feedbackSeen?: { review: number; comment: number }
  updatedAt: string
}

/** What one run of the loop did: the entry sets the step's outputs and exit from it. */
export interface IterationOutcome {
  notice?: string
  state?: LoopState
  decision?: Decision
  findings: Finding[]
  reviewedSha?: string
  headSha?: string
  commentUrl?: string
  checkRunId?: number
  reviewJson?: string
  /** Set when the step should fail: a terminal state listed in fail-on. */
  failure?: string
  /** Another run holds the iteration (src/run/claim.ts): this run did nothing, as `notice` says. */
  claimTaken?: true
}
