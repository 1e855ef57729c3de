import { lastIteration } from '../loop/state.js'
import type { RunContext } from '../action/context.js'
import type { Settings } from '../loop/settings.js'
import { checkConclusion } from '../loop/rules.js'
import type { Decision, ReviewResult } from '../loop/types.js'
import type { GitHubPort, Log, WriteSummary } from '../ports/index.js'
import {
  checkRunActions,
  checkRunSummary,
  checkTitle,
  toAnnotations,
  unlocatedText
} from '../report/check-run.js'
import { escapeMd } from '../report/format.js'
import { renderJobSummary } from '../report/summary.js'
import { escalate } from './escalate.js'
import type { Plan } from './plan.js'
import { publishCheck } from './publish-check.js'
import { repoLinks, type Recorded } from './record.js'

export interface ReportDeps {
  settings: Settings
  ctx: RunContext
  github: GitHubPort
  log: Log
  writeSummary: WriteSummary
}

/** REPORT: the check run on the reviewed head, escalation to a human, the job summary. */
export async function reportPhase(
  deps: ReportDeps,
  plan: Extract<Plan, { kind: 'review' }>,
  input: { review: ReviewResult; decision: Decision; recorded: Recorded }
): Promise<{ checkRunId?: number }> {
  const { settings, ctx, github } = deps
  const { pull, n } = plan
  const { review, decision, recorded } = input
  const { state } = recorded
  const links = repoLinks(ctx, pull.number)
  const setAside = review.verdict?.setAside
  const located = toAnnotations(
    review.findings,
    new Set((lastIteration(state)?.findings ?? []).filter(f => f.reraised).map(f => f.id))
  )
  // most severe first: what is cut is the least severe, counted here and kept in the artifact
  const annotations = located.slice(0, settings.maxAnnotations)
  const unannotated = located.length - annotations.length
  const capNote = unannotated
    ? `${unannotated} of ${located.length} located findings are not annotated (max-annotations: ${settings.maxAnnotations}, most severe first); all are in review-${n}.json of the iteration's artifact.`
    : undefined
  const checkRunId = await publishCheck(deps, {
    name: settings.checkName,
    headSha: pull.headSha,
    conclusion: checkConclusion(decision, state.status, settings.failOn),
    title: checkTitle(decision, review.findings, state.status),
    summary: checkRunSummary(state, review.findings, links, capNote, pull.author, setAside),
    text: unlocatedText(review.findings),
    annotations,
    externalId: `${pull.number}:${n}:${ctx.runId}:${ctx.runAttempt}`,
    detailsUrl: recorded.comment.htmlUrl,
    startedAt: plan.started.toISOString(),
    ...(settings.checkRunButtons ? { actions: checkRunActions(state.status) } : {})
  })
  const reviewBody = `review-loop: ${state.status} — ${escapeMd(state.reason ?? decision)}`
  const escalated = await escalate(
    github,
    pull,
    state.status,
    pull.headSha,
    reviewBody,
    settings,
    deps.log
  )
  await deps.writeSummary(
    renderJobSummary({
      state,
      findings: review.findings,
      setAside,
      gates: review.gates,
      links,
      reviewSummary: review.verdict?.summary,
      artifact: recorded.artifact,
      // first, what is odd about the head's history (no history shared with the base, a fix dropped)
      notes: [review.history || [], recorded.notes, escalated, capNote || []].flat()
    })
  )
  return { checkRunId }
}
