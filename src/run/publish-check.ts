import type { Annotation } from '../loop/types.js'
import type { CheckRunInput, GitHubPort, Log } from '../ports/index.js'
import { stepAnnotations } from '../report/check-run.js'
import { writeWithheld } from './withheld.js'

/**
 * GitHub's answer when the token may not write check runs: a personal access token gets "You must
 * authenticate via a GitHub App" (only Apps, the workflow token included, create check runs). With
 * `readOnly` (GitHub withheld the token's writes) a missing `checks: write` counts too; otherwise
 * that is an error to fix in the workflow, and the step fails naming the permission.
 */
export function checksRefused(e: unknown, readOnly = false): boolean {
  const message = e instanceof Error ? e.message : ''
  const status = (e as { status?: unknown }).status
  if (status === 403 && /authenticate via a GitHub App/i.test(message)) return true
  return readOnly && writeWithheld(e)
}

/** A check run's conclusion as a commit status: neutral passes, as it does for branch protection. */
const STATE = { success: 'success', failure: 'failure', neutral: 'success' } as const

/** The step's workflow-command annotations, most severe first, with a count of those left out. */
export function annotateStep(log: Log, annotations: readonly Annotation[]): void {
  const { shown, left } = stepAnnotations(annotations)
  for (const a of shown) log.annotate(a)
  if (left > 0)
    log.info(
      `${left} more annotations are not shown: GitHub shows 10 of each level per step. All findings are in the job summary and the iteration's artifact.`
    )
}

/**
 * The check run; where the token may not write one, the same result as a commit status named like
 * the check (`statuses: write`) plus workflow-command annotations, and the run carries on. Returns
 * the check run's id, when there is one.
 */
export async function publishCheck(
  deps: { github: GitHubPort; log: Log },
  input: CheckRunInput,
  options: { readOnly?: boolean } = {}
): Promise<number | undefined> {
  try {
    return (await deps.github.createCheckRun(input)).id
  } catch (e) {
    if (!checksRefused(e, options.readOnly)) throw e
    const { log } = deps
    log.info(
      options.readOnly
        ? `This read-only token cannot create the check run either (${(e as Error).message}): the result is the step's annotations.`
        : `This token cannot create check runs (${(e as Error).message}): the result is the commit status '${input.name}' and the step's annotations instead. A GitHub App's token (actions/create-github-app-token) or the workflow token can create check runs.`
    )
    annotateStep(log, input.annotations)
    if (options.readOnly) return undefined
    try {
      await deps.github.createCommitStatus(input.headSha, {
        context: input.name,
        state: STATE[input.conclusion],
        description: input.title,
        targetUrl: input.detailsUrl
      })
    } catch (status) {
      // only a refusal asks for the permission; the error says what to do about anything else
      const refused = [401, 403, 404].includes((status as { status?: number }).status ?? 0)
      log.warning(
        `Could not set the commit status '${input.name}' either (${(status as Error).message})${refused ? ": grant 'statuses: write' under permissions:, or use a token that may" : ''}. The result is in the job summary.`
      )
    }
    return undefined
  }
}
