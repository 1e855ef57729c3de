import type { RunContext } from '../action/context.js'
import type { Settings } from '../loop/settings.js'
import { checkConclusion, isFork, stepFailure } from '../loop/rules.js'
import { stopReason } from '../loop/reasons.js'
import type { Decision, LoopState, PullRequest, ReviewResult } from '../loop/types.js'
import type { GitHubPort, Log, WriteSummary } from '../ports/index.js'
import { checkTitle, toAnnotations } from '../report/check-run.js'
import { renderJobSummary } from '../report/summary.js'
import { publishCheck } from './publish-check.js'
import { repoLinks } from './record.js'
import type { WritesWithheld } from './withheld.js'

/** Events whose runs for a fork's PR get a read-only token and no secrets (GitHub's rule). */
const FORK_READ_ONLY_EVENTS = ['pull_request', 'pull_request_review', 'pull_request_review_comment']

/** Which permission GitHub withheld, and why: a fork's pull_request run, or the workflow's grant. */
export function withheldNotice(pull: PullRequest, eventName: string): string {
  const why =
    isFork(pull) && FORK_READ_ONLY_EVENTS.includes(eventName)
      ? `PR #${pull.number} comes from the fork ${pull.headRepoFullName || '(deleted)'} and this run is ${eventName}: GitHub gives such runs a read-only token whatever permissions: grant, and passes no secrets.`
      : "the workflow's permissions: do not grant it: add 'issues: write' (and 'checks: write' for the check run)."
  return `GitHub withheld 'issues: write' from this run's token, so review-loop cannot keep its state comment or go on from this run: ${why} This run's review is in the job summary and the annotations.`
}

/**
 * A run whose token may not write the comment (a fork's PR under allow-forks, a workflow without
 * write permissions) and that has no fix to lose: the review goes where the token still reaches —
 * the check run or its fallback (a commit status, the step's annotations) and the job summary —
 * with a notice naming the withheld permission. No later run can continue the loop, so the step
 * fails unless the review is GO (with fail-on's message when the loop ended in a state it lists).
 */
export async function readOnlyReport(
  deps: {
    settings: Settings
    ctx: RunContext
    github: GitHubPort
    log: Log
    writeSummary: WriteSummary
  },
  plan: { pull: PullRequest; started: Date },
  input: { review: ReviewResult; decision: Decision; state: LoopState; withheld: WritesWithheld }
): Promise<{ notice: string; failure?: string; checkRunId?: number }> {
  const { review, state, decision } = input
  const { pull } = plan
  const notice = withheldNotice(pull, deps.ctx.eventName)
  const summary = renderJobSummary({
    state,
    findings: review.findings,
    gates: review.gates,
    links: repoLinks(deps.ctx, pull.number),
    reviewSummary: review.verdict?.summary,
    artifact: input.withheld.artifact,
    notes: [notice]
  })
  const checkRunId = await publishCheck(
    deps,
    {
      name: deps.settings.checkName,
      headSha: pull.headSha,
      conclusion: checkConclusion(decision, state.status, deps.settings.failOn),
      title: checkTitle(decision, review.findings, state.status),
      summary: summary.slice(0, 60_000),
      annotations: toAnnotations(review.findings).slice(0, deps.settings.maxAnnotations),
      externalId: `${pull.number}:read-only:${deps.ctx.runId}:${deps.ctx.runAttempt}`,
      startedAt: plan.started.toISOString()
    },
    { readOnly: true }
  )
  await deps.writeSummary(summary)
  const failure =
    stepFailure(state, deps.settings.failOn) ??
    (decision === 'GO'
      ? undefined
      : stopReason({
          kind: 'read_only',
          decision,
          findings: review.findings.length,
          ...(isFork(pull) ? { fork: pull.headRepoFullName || '(deleted)' } : {})
        }))
  return { notice, failure, checkRunId }
}
