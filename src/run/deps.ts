/**
 * What every phase of an iteration receives and returns: the ports (IterationDeps), the outcome, and
 * what a human asked for. Its own module so that iteration.ts, human.ts and feedback.ts import it
 * and not each other (no import circles in src/).
 */
import type { RunContext } from '../action/context.js'
import type { Settings } from '../loop/settings.js'
import type { Intent } from '../loop/router.js'
import type { Finding, HumanTrigger, IterationOutcome, LoopState, RepoRole } from '../loop/types.js'
import type {
  AiAgents,
  ArtifactStore,
  Clock,
  Confine,
  Git,
  GitHubPort,
  Log,
  WriteSummary
} from '../ports/index.js'
import type { Plan } from './plan.js'
import type { SpendLedger } from './spend.js'

export interface IterationDeps {
  settings: Settings
  ctx: RunContext
  github: GitHubPort
  openGit: (dir: string) => Promise<Git>
  /** Confines PR code to the checkout (bubblewrap in the action). */
  confine: Confine
  artifacts: ArtifactStore
  log: Log
  env: Record<string, string | undefined>
  clock: Clock
  ai?: AiAgents
  writeSummary: WriteSummary
  /** What the run spent that no saved state holds yet (made by runIteration). */
  ledger?: SpendLedger
}

export type CommandIntent = Extract<Intent, { kind: 'command' }>
export type FeedbackIntent = Extract<Intent, { kind: 'feedback' }>
export type ReviewPlan = Extract<Plan, { kind: 'review' }>

/** What a human asked an iteration for: who and why, and for a fix the findings and instructions. */
export interface HumanAsk {
  trigger: HumanTrigger
  /** Set for a fix without a new review: the findings the fixers address. */
  findings?: Finding[]
  /** The human's instructions, as the fixer's required rework. */
  rework?: string[]
  /**
   * What the iteration's state remembers once its review (or carried review) stands: the request
   * processed, what answering questions cost. A run that fails before that leaves it unprocessed.
   */
  remember?: (state: LoopState) => LoopState
}

/** Runs an iteration on a plan: a review, or (with findings) a fix a human asked for. */
export type Iterate = (plan: ReviewPlan, human: HumanAsk) => Promise<IterationOutcome>

/** Roles that may command the loop and whose reviews it fixes. */
export const MAY_COMMAND: readonly RepoRole[] = ['admin', 'maintain', 'write']

export const said = (notice: string, state?: LoopState): IterationOutcome => ({
  notice,
  state,
  findings: []
})
