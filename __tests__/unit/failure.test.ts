import { describe, expect, it } from 'vitest'
import { withRemedy } from '../../src/report/failure.js'
import { reportFailure } from '../../src/run/failure.js'
import { newLedger } from '../../src/run/spend.js'
import { context, fakeLog, FakeGitHub, settings } from './fake-ports.js'

const GENERIC = "Re-run the job; if it fails the same way again, the job's log has the details."

describe('withRemedy: a failure says what to do', () => {
  it('keeps a message that names a remedy as it is', () => {
    for (const message of [
      'Set state-key to the secret that signed the state.',
      'GitHub did not accept the token: check the github-token input.',
      'The Anthropic API is overloaded (529) after retries; re-run the workflow later.',
      'Draft PRs are reviewed when marked ready for review (or set review-drafts: true).',
      'The state was written by a newer review-loop. Upgrade the action.',
      'Could not push: the branch is protected, then grant the workflow contents: write.'
    ])
      expect(withRemedy(message)).toBe(message)
  })

  it('adds one where the remedy words are only part of the cause', () => {
    for (const message of [
      'Could not set the commit status (HTTP 500)',
      'Could not check that the loop is running',
      'The runner failed to check the sandbox',
      'update check-run: Bad Gateway (HTTP 502)',
      'Not Found: the set-output command was refused'
    ])
      expect(withRemedy(message)).toBe(`${message.replace(/\.?$/, '.')} ${GENERIC}`)
  })

  it('on a laptop, says to run review-loop again, not to re-run a job', () => {
    const local = withRemedy('fetch failed: Invalid URL', 'cli')
    expect(local).toMatch(/^fetch failed: Invalid URL\. Run review-loop again; /)
    expect(local).not.toMatch(/job/)
    // a remedy said once: the failure line in the comment adds none to it
    expect(withRemedy(local, 'cli')).toBe(local)
    expect(withRemedy(local)).toBe(local)
  })
})

describe('reportFailure: no secret of the job reaches the PR', () => {
  it('masks the action’s secrets, the environment’s and any token by its form', async () => {
    const github = new FakeGitHub()
    const summaries: string[] = []
    const token = `ghp_${'a1B2'.repeat(9)}`
    const key = `sk-ant-api03-${'x_Y-'.repeat(10)}`
    const error = new Error(
      `push failed: https://x-access-token:ghs_test@github.com/o/r rejected; deploy key hunter2secret; ${token}; ${key}`
    )
    const failed = await reportFailure(
      {
        github,
        settings: settings({ checks: 'lint: true', 'state-key': 'state-key-secret-value' }),
        ctx: context(),
        log: fakeLog(),
        clock: { now: () => new Date('2026-01-01T00:00:00Z') },
        writeSummary: async text => void summaries.push(text),
        ai: undefined,
        ledger: newLedger(),
        env: { DEPLOY_KEY: 'hunter2secret' }
      } as Parameters<typeof reportFailure>[0],
      7,
      error
    )
    // no state comment yet: the failure goes to a failed check run, and to the job summary
    const published = [github.checkRuns[0]!.summary, summaries.join(''), failed.message]
    for (const text of published) {
      // the cause stays readable around the masks (Markdown escapes aside)
      expect(text.replace(/\\|\u200b/g, '')).toContain(
        'https://x-access-token:***@github.com/o/r rejected'
      )
      for (const secret of ['ghs_test', 'hunter2secret', token, key])
        expect(text).not.toContain(secret)
    }
    expect(failed.stack ?? '').not.toContain('hunter2secret')
  })
})
