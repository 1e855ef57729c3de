import type { Settings } from '../loop/settings.js'
import { needsHuman } from '../loop/rules.js'
import type { LoopStatus, PullRequest } from '../loop/types.js'
import type { GitHubPort, Log } from '../ports/index.js'

/** The people to mention in the comment (users and teams named by escalation-reviewers). */
export function mentions(settings: Settings, owner: string): string[] {
  return [
    ...settings.escalationReviewers,
    ...settings.escalationTeamReviewers.map(t => `${owner}/${t}`)
  ]
}

/**
 * Calls a human when the loop ends without GO: label, reviewers, optional review. Takes the label
 * off again at GO. Each step is best effort: a missing permission is a warning, never lost state.
 */
export async function escalate(
  github: GitHubPort,
  pull: PullRequest,
  status: LoopStatus,
  reviewedSha: string,
  reviewBody: string,
  settings: Settings,
  log: Log
): Promise<string[]> {
  const notes: string[] = []
  const attempt = async (what: string, fn: () => Promise<void>): Promise<void> => {
    try {
      await fn()
    } catch (e) {
      const note = `Could not ${what}: ${(e as Error).message}`
      log.warning(note)
      notes.push(note)
    }
  }
  const label = settings.escalationLabel
  if (status === 'go') {
    if (label && pull.labels.includes(label))
      await attempt(`remove the label '${label}'`, () => github.removeLabel(pull.number, label))
  } else if (needsHuman(status)) {
    if (label && !pull.labels.includes(label))
      await attempt(`add the label '${label}'`, () => github.addLabels(pull.number, [label]))
    const users = settings.escalationReviewers.filter(
      u => u.toLowerCase() !== pull.author.toLowerCase()
    )
    if (users.length || settings.escalationTeamReviewers.length) {
      await attempt('request reviewers', () =>
        github.requestReviewers(pull.number, users, settings.escalationTeamReviewers)
      )
    }
  }
  if (settings.submitReview !== 'none' && status !== 'running') {
    const approve = settings.submitReview === 'approve' && status === 'go'
    if (!approve) {
      await attempt('submit a comment review', () =>
        github.createReview(pull.number, 'COMMENT', reviewBody, reviewedSha)
      )
    } else {
      try {
        await github.createReview(pull.number, 'APPROVE', reviewBody, reviewedSha)
      } catch (e) {
        const note = `GitHub refused the approval (${(e as Error).message}); posted a comment review instead. Allow "GitHub Actions to create and approve pull requests" in the repository settings to approve.`
        log.notice(note)
        notes.push(note)
        await attempt('submit a comment review', () =>
          github.createReview(pull.number, 'COMMENT', reviewBody, reviewedSha)
        )
      }
    }
  }
  return notes
}
