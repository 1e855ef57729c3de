/**
 * A run that failed leaves a trace on the PR: a line at the end of the sticky comment, or, where
 * there is no state yet (or the comment cannot be written), a failed check run on the PR's head;
 * and the job summary. Each says what failed and what to do. All of it is best effort: the step
 * fails with the same message whatever becomes of it.
 */
import { runUrl } from '../action/context.js'
import { maskForPublic } from '../process/secrets.js'
import { failureBlock, withFailure, withRemedy } from '../report/failure.js'
import type { IterationDeps } from './deps.js'
import { publishCheck } from './publish-check.js'
import { loadState } from './state-store.js'
import { jobSecrets } from './workspace.js'
import { spendMarker } from '../loop/unsaved-spend.js'
import { failedCheckPrefix, unsavedSpend } from './spend.js'

/** GitHub refuses a comment over 65,536 characters. */
const COMMENT_LIMIT = 65_536

/**
 * Reports `error` on PR `pr` (when the run knows its PR) and returns the error to fail the step
 * with: its message with a remedy, if it named none.
 */
export async function reportFailure(
  deps: Pick<
    IterationDeps,
    'github' | 'settings' | 'ctx' | 'log' | 'clock' | 'writeSummary' | 'ai' | 'ledger' | 'env'
  >,
  pr: number | undefined,
  error: unknown
): Promise<Error> {
  // the message goes to the PR, the check run and the job summary: no secret of the job in it
  const secrets = jobSecrets(deps.settings, deps.env)
  const mask = (text: string): string => maskForPublic(text, secrets)
  const said = error instanceof Error ? error.message : String(error)
  const message = mask(withRemedy(said, deps.settings.surface))
  const { ctx, log } = deps
  const what = `Run ${ctx.runId} (attempt ${ctx.runAttempt})`
  // the spend no saved state holds rides along, for the next run to count (unsaved-spend.ts)
  const block = [failureBlock(what, message), spendMarker(unsavedSpend(deps))]
    .filter(Boolean)
    .join('\n')
  await deps.writeSummary(`${block}\n`).catch(() => undefined)
  if (pr !== undefined) {
    try {
      if (!(await onComment(deps, pr, block))) await onCheckRun(deps, pr, block)
    } catch (e) {
      log.warning(`Could not report the failure on PR #${pr}: ${(e as Error).message}`)
    }
  }
  const failed = new Error(message)
  if (error instanceof Error && error.stack) failed.stack = mask(error.stack)
  return failed
}

/** The failure line at the end of the sticky comment; false when there is none to write it in. */
async function onComment(
  deps: Pick<IterationDeps, 'github' | 'settings' | 'log'>,
  pr: number,
  block: string
): Promise<boolean> {
  const { github, log, settings } = deps
  const loaded = await loadState(github, pr, log, settings.stateKey).catch(() => undefined)
  if (!loaded?.comment || !loaded.state) return false
  const body = withFailure(loaded.comment.body, block)
  if (body.length > COMMENT_LIMIT) return false
  try {
    await github.updateComment(loaded.comment.id, body)
    return true
  } catch (e) {
    log.warning(`Could not add the failure to ${loaded.comment.htmlUrl}: ${(e as Error).message}`)
    return false
  }
}

/** A failed check run on the PR's head that says what failed. */
async function onCheckRun(
  deps: Pick<IterationDeps, 'github' | 'settings' | 'ctx' | 'log' | 'clock'>,
  pr: number,
  block: string
): Promise<void> {
  const { github, settings, ctx } = deps
  const pull = await github.getPull(pr)
  await publishCheck(deps, {
    name: settings.checkName,
    headSha: pull.headSha,
    conclusion: 'failure',
    title: 'review-loop failed',
    summary: block,
    annotations: [],
    externalId: `${failedCheckPrefix(pr)}${ctx.runId}:${ctx.runAttempt}`,
    detailsUrl: runUrl(ctx),
    startedAt: deps.clock.now().toISOString()
  })
}
