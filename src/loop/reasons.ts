/**
 * Why the loop stopped (or waits), in words: one function for every cause, so each reason names
 * the real one — a fork's branch is not "no fixer", and on a laptop the fixer is `--fix` or
 * `ANTHROPIC_API_KEY`, not an input of the workflow.
 */

/** Where the loop runs: the action (inputs of the workflow) or the CLI (options, environment). */
export type Surface = 'action' | 'cli'

/** What stops the fixers from fixing a NO_GO review (see `fixBlocker` in rules.ts). */
export type CannotFix =
  /** A fork's PR: its branch cannot be pushed to, so the loop only reviews. */
  | { kind: 'fork'; pr: number; fork: string }
  /** Neither fix commands nor an AI fixer are configured. */
  | { kind: 'no_fixer'; surface: Surface }

export type StopCause =
  | CannotFix
  | { kind: 'review_go' }
  /** The budget allowed no review call. */
  | { kind: 'unaffordable'; spentUsd: number; maxUsd?: number; estimate?: number }
  /** Changed files the review could not see. */
  | { kind: 'unreviewed'; files: number }
  /** The reviewer itself asks a human. */
  | { kind: 'reviewer_asks' }
  /** The reviewer keeps blocking findings the verifier, the votes or the evidence check set aside. */
  | { kind: 'disagreement'; ids: string[] }
  | { kind: 'cap'; n: number; max: number }
  | { kind: 'repeated_blocker'; id: string }
  | { kind: 'oscillating'; n: number; earlier: number; earlierSha: string }
  | { kind: 'budget_spent'; spentUsd: number; maxUsd: number }
  /** The fixers ran and changed nothing; `aiFixer` says whether an AI fixer was among them. */
  | { kind: 'fix_no_changes'; aiFixer: boolean; surface: Surface }
  | { kind: 'fix_disputed' }
  /**
   * The fixer disputes again findings whose dispute the reviewer rejected (`ids`, when known);
   * `withheld`: the changes it made in that turn were kept as a patch, not pushed.
   */
  | { kind: 'fix_disputed_again'; ids?: readonly string[]; withheld?: boolean }
  | { kind: 'fix_budget_spent' }
  | { kind: 'fix_branch_moved' }
  | { kind: 'fix_push_failed' }
  /** The PR's head branch is gone from origin while the PR is open (see `branchDeleted`). */
  | { kind: 'branch_deleted'; pr: number; branch: string; kept?: string }
  /** The token may not write (a fork's pull_request run, or permissions withheld). */
  | { kind: 'read_only'; decision: string; findings: number; fork?: string }
  /** A human asked for a fix that cannot be made here. */
  | { kind: 'human_fix'; by: string; cause: CannotFix }

/** How a person gives the loop a fixer, where it runs. */
const FIXER_SETTINGS: Record<Surface, { commands: string; model: string }> = {
  action: {
    commands: 'fix-commands is empty',
    model:
      'no model for the AI fixer (anthropic-api-key, or model-provider bedrock or vertex with their credentials)'
  },
  cli: {
    commands: 'no --fix command was given',
    model:
      'ANTHROPIC_API_KEY is not set for the AI fixer (or --set model-provider=bedrock or vertex with their credentials)'
  }
}

const usd = (n: number, digits = 2): string => `$${n.toFixed(digits)}`

/** The reason for a stop (or a wait), naming its real cause and, where there is one, the remedy. */
export function stopReason(cause: StopCause): string {
  switch (cause.kind) {
    case 'review_go':
      return 'The review passed: GO.'
    case 'unaffordable':
      return `The max-cost-usd budget (${cause.maxUsd === undefined ? '?' : usd(cause.maxUsd)}) does not allow ${cause.estimate !== undefined ? `this review, estimated at ${usd(cause.estimate)} before any call` : 'another review'}; ${usd(cause.spentUsd, 4)} spent.`
    case 'unreviewed':
      return `${cause.files} changed file${cause.files === 1 ? '' : 's'} could not be reviewed, so the review cannot be GO; re-run the workflow or comment /review-loop retry.`
    case 'reviewer_asks':
      return 'The reviewer needs a human to decide.'
    case 'disagreement': {
      const [first] = cause.ids
      const which = `${cause.ids.slice(0, 3).join(', ')}${cause.ids.length > 3 ? ` and ${cause.ids.length - 3} more` : ''}`
      return `The reviewer keeps ${cause.ids.length === 1 ? 'a blocking finding' : `${cause.ids.length} blocking findings`} (${which}) that the verifier, the review passes or the evidence check did not confirm, so a maintainer decides: /review-loop dismiss ${first ?? 'RL-…'} [reason] then /review-loop retry drops it, /review-loop fix has it fixed, /review-loop approve accepts the PR.`
    }
    case 'cap':
      return `Still NO_GO after ${cause.n} of ${cause.max} iterations.`
    case 'repeated_blocker':
      return `Finding ${cause.id} was raised again after a fix attempt; a human should look at it.`
    case 'oscillating':
      return `The code reviewed in iteration ${cause.n} is the same as in iteration ${cause.earlier} (${cause.earlierSha.slice(0, 7)}): the fixes go round in circles; a human should look at it.`
    case 'budget_spent':
      return `Spent ${usd(cause.spentUsd)} of the ${usd(cause.maxUsd)} budget (max-cost-usd).`
    case 'fork':
      return `Review only: PR #${cause.pr} comes from the fork ${cause.fork || '(deleted)'}, and a fork's branch cannot be pushed to, so review-loop fixes nothing here: the findings are listed for the author, and their next push is reviewed again.`
    case 'no_fixer': {
      const say = FIXER_SETTINGS[cause.surface]
      return `NO_GO and nothing can fix it: ${say.commands} and ${say.model}. A human must fix it, or configure a fixer.`
    }
    case 'fix_no_changes':
      return cause.aiFixer
        ? 'The fixers changed nothing; more iterations would not help.'
        : `The fix commands changed nothing and ${FIXER_SETTINGS[cause.surface].model}; a human must fix the rest.`
    case 'fix_disputed':
      return 'The fixer disputed findings instead of changing code; the next review weighs the disputes.'
    case 'fix_disputed_again':
      return disputedAgain(cause.ids ?? [], cause.withheld === true)
    case 'fix_budget_spent':
      return 'The max-cost-usd budget stopped the AI fixer before it changed anything; raise max-cost-usd to go on.'
    case 'fix_branch_moved':
      return 'The branch moved during this run; the fix was not pushed and the new head is reviewed next.'
    case 'fix_push_failed':
      return 'The fix could not be pushed; it is kept as a patch artifact.'
    case 'branch_deleted':
      return `The head branch ${cause.branch} of PR #${cause.pr} was deleted while the PR is open, so review-loop can neither push a fix to it nor call it GO${cause.kept ? ` (the fix is kept as ${cause.kept} in the artifact)` : ''}. Restore the branch, then push or comment /review-loop retry; or close the PR.`
    case 'read_only':
      return cause.fork
        ? `review-loop: ${cause.decision} with ${cause.findings} finding${cause.findings === 1 ? '' : 's'} for the author of the fork ${cause.fork} to fix (review only: a fork's branch cannot be pushed to); they are in the annotations and the job summary, and the next push is reviewed again.`
        : `review-loop: ${cause.decision} with ${cause.findings} finding${cause.findings === 1 ? '' : 's'} on a read-only token, so no later run can fix them (see the annotations and the job summary); grant issues: write and contents: write to let the loop go on.`
    case 'human_fix':
      return `@${cause.by} asked for a fix, but nothing can be fixed here. ${stopReason(cause.cause)}`
  }
}

/** The fixer disputes again what the reviewer kept: the findings by id, and what became of its changes. */
function disputedAgain(ids: readonly string[], withheld: boolean): string {
  const which = ids.length
    ? `${ids.length === 1 ? 'finding' : 'findings'} ${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ` and ${ids.length - 5} more` : ''}`
    : 'findings'
  const changes = withheld
    ? " The fixer's changes of this turn were not pushed; they are kept as a patch in the iteration's artifact."
    : ''
  return `The fixer disputes again ${which} whose dispute the reviewer rejected; a human should decide.${changes}`
}
