import { appendFile } from 'node:fs/promises'
import * as core from '@actions/core'
import { roundIterations, roundReviews } from '../loop/state.js'
import { tokens } from '../report/format.js'
import type { IterationOutcome } from '../loop/types.js'

/** Sets every output, so later steps can rely on them even after a skip. */
export function setOutputs(outcome: IterationOutcome, maxIterations: number): void {
  const state = outcome.state
  const round = state ? roundIterations(state) : []
  const outputs: Record<string, string> = {
    status: state?.status ?? 'skipped',
    skipped: outcome.decision ? 'false' : 'true',
    verdict: outcome.decision ?? round[round.length - 1]?.decision ?? '',
    iteration: String(state ? roundReviews(state) : 0),
    'max-iterations': String(state?.maxIterations ?? maxIterations),
    findings: JSON.stringify(outcome.findings),
    'findings-count': String(outcome.findings.length),
    'reviewed-sha': outcome.reviewedSha ?? state?.lastReviewedSha ?? '',
    'head-sha': outcome.headSha ?? '',
    converged: String(state?.status === 'go'),
    'comment-url': outcome.commentUrl ?? '',
    'check-run-id': outcome.checkRunId ? String(outcome.checkRunId) : '',
    'review-json': outcome.reviewJson ?? '',
    'iterations-total': String(state?.iterations.length ?? 0),
    'total-tokens': String(state ? tokens(state.totals) : 0),
    'total-cost-usd': (state?.totals.costUsd ?? 0).toFixed(4)
  }
  for (const [name, value] of Object.entries(outputs)) core.setOutput(name, value)
}

/**
 * Appends to the job summary, as the toolkit's `core.summary.write()` does, without its cache of
 * the file's path (a test host that imports the action once runs several steps in one process).
 */
export async function writeStepSummary(markdown: string): Promise<void> {
  const file = process.env['GITHUB_STEP_SUMMARY']
  if (file) await appendFile(file, markdown)
}
