import { describe, expect, it } from 'vitest'
import { readRepoConfig, settingsFrom } from '../../src/wiring/repo-config.js'
import { GitHubError } from '../../src/github/octokit-adapter.js'
import { isAmbiguous, NoAnswerError } from '../../src/github/waiting.js'
import { dispatchFailure } from '../../src/run/record.js'

const ctx = {
  serverUrl: 'https://github.com',
  owner: 'acme',
  repo: 'widgets',
  workflowFile: 'review-loop.yml'
}
const RERUN = 'Re-run this job, or run the workflow by hand with pr-number 7, to go on.'

describe('what a failed dispatch says', () => {
  it('an unknown outcome says the next run may have started, with the link, and not to re-run', () => {
    const e = new GitHubError(502, 'dispatch workflow', 'Bad Gateway.')
    e.outcomeUnknown = true
    const said = dispatchFailure(e, ctx, 7, RERUN)
    expect(said).toContain(
      'the next run may have started; check the Actions tab for a run on PR 7 before re-running: https://github.com/acme/widgets/actions/workflows/review-loop.yml'
    )
    expect(said).not.toContain('Re-run this job')
  })

  it('a 403 or a 404 names actions: write; a dispatch known not made says to re-run', () => {
    for (const status of [403, 404]) {
      const said = dispatchFailure(
        new GitHubError(status, 'dispatch workflow', 'Forbidden.'),
        ctx,
        7,
        RERUN
      )
      expect(said).toMatch(/^Could not dispatch the next iteration: .*'actions: write'.*Re-run/)
    }
    const failed = dispatchFailure(
      new GitHubError(500, 'dispatch workflow', 'boom.'),
      ctx,
      7,
      RERUN
    )
    expect(failed).not.toContain('actions: write')
    expect(failed).toContain('Re-run this job')
    const unanswered = new GitHubError(0, 'dispatch workflow', 'GitHub did not answer it twice.')
    unanswered.final = true
    expect(dispatchFailure(unanswered, ctx, 7, RERUN)).toMatch(
      /raise request-timeout-seconds\. Re-run this job/
    )
  })
})

describe('a route GitHub left unanswered twice', () => {
  it('is a final error: nothing to look for', () => {
    const e = new NoAnswerError('PATCH /repos/acme/widgets/issues/comments/5', 30_000)
    expect(e.message).toContain(
      'GitHub did not answer PATCH /repos/acme/widgets/issues/comments/5 twice in a row in this run (no answer within 30 s each)'
    )
    expect(isAmbiguous(e)).toBe(false)
  })
})

describe('the settings file', () => {
  const given = (name: string): string => (name === 'github-token' ? 'ghs_x' : '')

  it('not found: the message says so first, with the permission, before the empty input', () => {
    let message = ''
    try {
      settingsFrom(given, undefined, {}, 'the base commit abc1234')
    } catch (e) {
      message = (e as Error).message
    }
    expect(message).toMatch(
      /^Reading the settings file \.github\/review-loop\.yml on the base commit abc1234 found no file: GitHub answered 404/
    )
    expect(message).toContain("'contents: read'")
    expect(message).toContain("Without the file: Input 'checks'")
  })

  it('a read that fails says which file, on which commit, and what GitHub answered', async () => {
    const github = {
      readFile: () => Promise.reject(new GitHubError(500, 'read file', 'Server Error.'))
    }
    await expect(readRepoConfig(github, 'abc1234def')).rejects.toThrow(
      /^Could not read the settings file \.github\/review-loop\.yml on the base commit abc1234: read file: Server Error\..*\(HTTP 500\)$/
    )
  })
})
