import type { RunContext } from '../action/context.js'
import type { Settings } from '../inputs.js'
import { isFork, stepFailure } from '../loop/rules.js'
import type { Decision, LoopState, PullRequest, ReviewResult } from '../loop/types.js'
import type { Log, WriteSummary } from '../ports/index.js'
import { toAnnotations } from '../report/check-run.js'
import { renderJobSummary } from '../report/summary.js'
import { annotateStep } from './publish-check.js'
import { repoLinks } from './record.js'

/** The state comment could not be written because GitHub withheld the token's write permission. */
export class WritesWithheld extends Error {
  constructor(
    message: string,
    /** Where the iteration's records went (the artifact's name, or a folder on the runner). */
    readonly artifact?: string
  ) {
    super(message)
    this.name = 'WritesWithheld'
  }
}

/** GitHub's 403 for a permission the token lacks (not a rate limit, not a PAT's check-run refusal). */
export function writeWithheld(e: unknown): boolean {
  const status = (e as { status?: unknown }).status
  const message = e instanceof Error ? e.message : ''
  return status === 403 && /not accessible by (integration|personal access token)/i.test(message)
}

/** Which permission GitHub withheld, and why: a fork's pull_request run, or the workflow's grant. */
export function withheldNotice(pull: PullRequest, eventName: string): string {
  const why =
    isFork(pull) && eventName.startsWith('pull_request')
      ? `PR #${pull.number} comes from the fork ${pull.headRepoFullName || '(deleted)'} and this run is ${eventName}: GitHub gives such runs a read-only token whatever permissions: grant, and passes no secrets.`
      : "the workflow's permissions: do not grant it: add 'issues: write' (and 'checks: write' for the check run)."
  return `GitHub withheld 'issues: write' from this run's token, so review-loop cannot keep its state comment or go on from this run: ${why} This run's review is in the job summary and the annotations.`
}

/**
 * A run whose token may not write (a fork's PR under allow-forks, a workflow without write
 * permissions): the review is reported where a read-only token still reaches, the step's annotations
 * and the job summary, with a notice naming the withheld permission. The step fails only as fail-on
 * says for the review's outcome, never for the permission.
 */
export async function readOnlyReport(
  deps: { settings: Settings; ctx: RunContext; log: Log; writeSummary: WriteSummary },
  pull: PullRequest,
  input: { review: ReviewResult; decision: Decision; state: LoopState; withheld: WritesWithheld }
): Promise<{ notice: string; failure?: string }> {
  const { review, state } = input
  const notice = withheldNotice(pull, deps.ctx.eventName)
  annotateStep(deps.log, toAnnotations(review.findings))
  await deps.writeSummary(
    renderJobSummary({
      state,
      findings: review.findings,
      gates: review.gates,
      links: repoLinks(deps.ctx, pull.number),
      reviewSummary: review.verdict?.summary,
      artifact: input.withheld.artifact,
      notes: [notice]
    })
  )
  return { notice, failure: stepFailure(state, deps.settings.failOn) }
}
