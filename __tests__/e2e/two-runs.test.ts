import { afterAll, describe, expect, it } from 'vitest'
import { claimMessage, claimRef } from '../../src/loop/bot-commits.js'
import { botCommits, git } from '../../test-support/git-fixture.js'
import type { Sandbox } from '../../test-support/harness.js'
import {
  runScenario,
  toTheCap,
  type Scenario,
  type ScenarioReport
} from '../../test-support/scenario.js'

/**
 * Two runs at once on one head, through dist/: a PR opened and reopened at once, a dispatch
 * delivered twice, a re-run made while the run it dispatched goes. A check that never passes and a
 * fix command that always changes something run the loop to its cap: with max-iterations 3 at most
 * 2 fix pushes. Every push the bot made must be in the final state, counted, and the PR must hold
 * one state comment. REVIEW_LOOP_TRIALS sets the trials per case (default 3; 20 for the issue).
 */
const DISPATCH = 'POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches'
const RUNS = 'GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs'
const SKIPPED = /claimed it first|was already reviewed in iteration/
const TRIALS = Number(process.env['REVIEW_LOOP_TRIALS'] ?? 3)

const never: Scenario = { ...toTheCap(3), maxRuns: 8 }

interface Trial {
  botPushes: string[]
  unrecorded: string[]
  stateComments: number
  skipped: number
  /** The claims left on origin at the end. */
  claims: string[]
  report: ScenarioReport
}

async function trial(variant: Partial<Scenario>): Promise<Trial> {
  let botPushes: string[] = []
  let claims: string[] = []
  const report = await runScenario(
    { ...never, ...variant, inputs: { ...never.inputs, ...variant.inputs } },
    {
      keep: async sandbox => {
        botPushes = botCommits(sandbox.bare)
        claims = git(sandbox.bare, ['for-each-ref', '--format=%(refname)', 'refs/review-loop/'])
          .split('\n')
          .filter(Boolean)
      }
    }
  )
  const iterations = (report.finalState?.['iterations'] ?? []) as Array<{
    fix?: { outcome: string; commitSha?: string }
  }>
  const recorded = new Set(
    iterations.filter(i => i.fix?.outcome === 'pushed').map(i => i.fix?.commitSha)
  )
  return {
    botPushes,
    unrecorded: botPushes.filter(sha => !recorded.has(sha)),
    stateComments: report.comments.filter(c => c.body.includes('<!-- review-loop:state')).length,
    // the claim was taken, or the other run had reviewed the head by the time this one looked
    skipped: report.runs.filter(r => r.notices.some(n => SKIPPED.test(n))).length,
    claims,
    report
  }
}

/** Per case: trials, runs skipped, trials over the cap, pushes unrecorded, pushes found again. */
const tally: Record<
  string,
  Record<'trials' | 'skipped' | 'overCap' | 'lost' | 'found', number>
> = {}
afterAll(() => console.log(`\nTwo runs at once (${TRIALS} trials each):\n${JSON.stringify(tally)}`))

function count(name: string, t: Trial): void {
  const row = (tally[name] ??= { trials: 0, skipped: 0, overCap: 0, lost: 0, found: 0 })
  row.trials++
  row.skipped += t.skipped
  row.overCap += t.botPushes.length > 2 ? 1 : 0
  row.lost += t.unrecorded.length
  const warned = t.report.runs.flatMap(r => r.warnings)
  row.found += warned.filter(w => w.startsWith("Found the bot's push")).length
}

/** What holds in every trial: the cap, every push recorded, one state comment. */
function held(t: Trial): void {
  expect(t.botPushes.length).toBeLessThanOrEqual(2)
  expect(t.unrecorded).toEqual([])
  expect(t.stateComments).toBe(1)
}

const trials = Array.from({ length: TRIALS }, (_, i) => i + 1)

describe.concurrent('two runs at once on one head', () => {
  it.each(trials)(
    'opened and reopened at once (trial %i): one run fixes, the other is skipped',
    async () => {
      const t = await trial({
        start: [
          { event: 'pull_request', action: 'opened' },
          { event: 'pull_request', action: 'reopened' }
        ]
      })
      count('opened+reopened', t)
      held(t)
      expect(t.skipped).toBe(1)
      const skipped = t.report.runs.find(r => r.notices.some(n => SKIPPED.test(n)))!
      // the notice names the run that holds the iteration, with its link (or, when the other run
      // was done before this one looked, the iteration that reviewed the head)
      expect(skipped.notices.join('\n')).toMatch(
        /iteration 1 on [0-9a-f]{7} is being reviewed and fixed by run \d+ \(https:\/\/github\.com\/acme\/widgets\/actions\/runs\/\d+\)|already reviewed in iteration 1/
      )
      expect(skipped.exitCode).toBe(0)
      // each claim removed the one before: the last iteration's stays
      const last = (
        t.report.finalState?.['iterations'] as Array<{ n: number; reviewedSha: string }>
      ).at(-1)!
      expect(t.claims).toEqual([`refs/review-loop/7/${last.n}-${last.reviewedSha}`])
    }
  )

  it.each(trials)('a dispatch delivered twice (trial %i): one run of the two fixes', async () => {
    const t = await trial({ duplicateDispatch: { afterRun: 1 } })
    count('dispatch twice', t)
    held(t)
    expect(t.skipped).toBe(1)
    expect(t.botPushes.length).toBeGreaterThanOrEqual(1)
  })

  it.each(trials)(
    'opened and reopened at once when no claim can be made (trial %i): the push that lost the race records nothing over the one that landed',
    async () => {
      const t = await trial({
        start: [
          { event: 'pull_request', action: 'opened' },
          { event: 'pull_request', action: 'reopened' }
        ],
        faults: [{ route: 'git claim', status: 403, times: 100 }]
      })
      count('no claims', t)
      held(t)
      const warned = t.report.runs.flatMap(r => r.warnings)
      expect(warned.some(w => /Could not claim iteration 1/.test(w))).toBe(true)
    }
  )

  it.each(trials)(
    'a lost dispatch answer and a refused look-up (trial %i): the run says to check for a started run, and a re-run made while that run goes is skipped',
    async () => {
      const t = await trial({
        faults: [
          { run: 1, route: DISPATCH, lost: true },
          { run: 1, route: RUNS, status: 404, times: 5 }
        ],
        reruns: [{ afterRun: 1, together: true }]
      })
      count('re-run while dispatched', t)
      held(t)
      // no second fix: iteration 2 stalls on the blocker raised again, whichever run reviewed it
      expect(t.botPushes).toHaveLength(1)
      expect(t.skipped).toBe(1)
      const first = t.report.runs.find(r => r.run === 1)!
      expect(first.errors.join('\n')).toMatch(
        /outcome is unknown: the next run may have started; check the Actions tab for a run on PR 7 before re-running: https:\/\/github\.com\/acme\/widgets\/actions\/workflows\/review-loop\.yml/
      )
      expect(first.errors.join('\n')).not.toMatch(/Re-run this job/)
    }
  )
})

describe('a claim another run left on origin', () => {
  /** Origin holds run 999's claim on iteration 1 of the PR's head, as a run that died leaves it. */
  const leftBy999 =
    (going: boolean) =>
    (sandbox: Sandbox): void => {
      const head = sandbox.headSha()
      const message = claimMessage({ pr: 7, n: 1, run: '999:1', head })
      const env = {
        GIT_AUTHOR_NAME: 'bot',
        GIT_AUTHOR_EMAIL: 'b@x',
        GIT_COMMITTER_NAME: 'bot',
        GIT_COMMITTER_EMAIL: 'b@x'
      }
      const sha = git(
        sandbox.bare,
        ['commit-tree', `${head}^{tree}`, '-p', head, '-m', message],
        env
      )
      git(sandbox.bare, ['update-ref', claimRef(7, 1, head), sha])
      sandbox.emulator.runStatus.set(999, going ? 'in_progress' : 'completed')
    }

  it('by a run that has ended (cancelled, lost) is taken over: the loop goes on', async () => {
    let claims: string[] = []
    const report = await runScenario(
      { ...never, maxRuns: 4 },
      {
        before: leftBy999(false),
        keep: async sandbox => {
          claims = git(sandbox.bare, ['for-each-ref', '--format=%(refname)', 'refs/review-loop/'])
            .split('\n')
            .filter(Boolean)
        }
      }
    )
    const first = report.runs[0]!
    expect(first.notices).toEqual([])
    expect(report.pushes.filter(p => p.by !== 'human').length).toBeGreaterThanOrEqual(1)
    // iteration 1's claim, run 999's, was replaced and then removed by iteration 2's
    expect(claims.some(c => c.startsWith('refs/review-loop/7/1-'))).toBe(false)
  })

  it("by a run still going stops this one, naming it and what to do if it stalls; a maintainer's retry is refused in words", async () => {
    const retry = { author: 'alice', permission: 'write' as const, body: '/review-loop retry' }
    const report = await runScenario(
      { ...never, maxRuns: 2, humanEvents: [{ afterRun: 1, comment: retry }] },
      { before: leftBy999(true) }
    )
    const [first, second] = report.runs
    expect(first!.exitCode).toBe(0)
    expect(first!.notices.join('\n')).toMatch(
      /iteration 1 on [0-9a-f]{7} is being reviewed and fixed by run 999 \(https:\/\/github\.com\/acme\/widgets\/actions\/runs\/999\).*if that run ends without recording the iteration, re-run this job/
    )
    // the retry is not done: 😕 and a reply saying why, never 🚀
    expect(second!.event).toBe('issue_comment')
    expect(report.reactions.map(r => r.content)).toEqual(['eyes', 'confused'])
    const replies = report.comments.filter(c => c.author === 'github-actions[bot]')
    expect(replies.map(c => c.body).join('\n')).toMatch(/is being reviewed and fixed by run 999/)
    expect(replies.some(c => c.body.includes('<!-- review-loop:state'))).toBe(false)
  })
})
