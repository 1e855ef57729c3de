import { beforeEach, describe, expect, it } from 'vitest'
import {
  claimMessage,
  claimRef,
  fixMessage,
  readTrailers,
  recordPushes,
  unrecordedPushes
} from '../../src/loop/bot-commits.js'
import { planPull } from '../../src/loop/rules.js'
import { claimPhase } from '../../src/run/claim.js'
import type { IterationDeps, ReviewPlan } from '../../src/run/deps.js'
import { iteration, NOW, pull, SHA_A, SHA_B, SHA_C, state } from './builders.js'
import { renderStateMarker } from '../../src/loop/state-comment.js'
import { BOT, context, fakeLog, FakeGit, FakeGitHub, settings } from './fake-ports.js'

const FIX_1 = '1'.repeat(40)
const FIX_2 = '2'.repeat(40)

describe('the trailers of a fix commit', () => {
  it('name the PR, the iteration and the run, and read back', () => {
    const message = fixMessage({ pr: 7, n: 2, run: '1001:1' })
    expect(message.split('\n')[0]).toBe('review-loop: address review (iteration 2)')
    expect(readTrailers(message)).toEqual({ pr: 7, n: 2, run: '1001:1' })
  })

  it('are not read from a message that lacks one of them', () => {
    expect(readTrailers('fix\n\nReview-loop-PR: 7\nReview-loop-iteration: 2\n')).toBeUndefined()
    expect(readTrailers('Review-loop-PR: 7\nReview-loop-iteration: x\nReview-loop-run: 1:1')).toBe(
      undefined
    )
  })
})

describe('pushes of the bot that no state recorded', () => {
  const BOT = 'github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>'
  const HUMAN = 'Mona <mona@example.com>'
  const bot = { committer: BOT, baseSha: 'e'.repeat(40) }
  const pushedAt = (sha: string, parent: string, n: number, run = '1001:1', committer = BOT) => ({
    sha,
    parent,
    committer,
    message: fixMessage({ pr: 7, n, run })
  })
  const work = { sha: SHA_A, message: 'work', committer: HUMAN }

  it('are found on the branch down to what the state knows, and recorded as pushed', () => {
    // the state of the run whose push was refused: iteration 1 failed to push
    const lost = state({
      status: 'error',
      reason: 'The fix could not be pushed.',
      iterations: [
        iteration({ n: 1, reviewedSha: SHA_A, fix: fix('push_failed', SHA_B, 'fix-1.patch') })
      ]
    })
    const commits = [pushedAt(FIX_1, SHA_A, 1, '1000:1'), work]
    const found = unrecordedPushes(lost, commits, bot)
    expect(found).toEqual([{ pr: 7, n: 1, run: '1000:1', sha: FIX_1, parent: SHA_A }])
    const fixed = recordPushes(lost, found, NOW.toISOString())
    expect(fixed.iterations[0]!.fix).toMatchObject({ outcome: 'pushed', commitSha: FIX_1 })
    expect(fixed.iterations[0]!.fix!.patch).toBeUndefined()
    expect(fixed.status).toBe('running')
    expect(fixed.reason).toBeUndefined()
    expect(fixed.lastPushedSha).toBe(FIX_1)
    // the landed fix is the loop's own push: reviewed next as iteration 2 of the same round
    const plan = planPull({
      pull: pull({ headSha: FIX_1 }),
      state: fixed,
      maxIterations: 3,
      reviewDrafts: false,
      allowForks: false,
      runId: '1002',
      runAttempt: 1,
      now: NOW,
      stopLabel: 'review-loop:stop',
      eventName: 'workflow_dispatch'
    })
    expect(plan).toMatchObject({ kind: 'review', iteration: 2, newRound: false })
  })

  it('count against the cap: a missing iteration is added with its push', () => {
    const behind = state({
      iterations: [iteration({ n: 1, reviewedSha: SHA_A, fix: fix('pushed', FIX_1) })]
    })
    const commits = [pushedAt(FIX_2, FIX_1, 2, '1003:1'), pushedAt(FIX_1, SHA_A, 1), work]
    const fixed = recordPushes(behind, unrecordedPushes(behind, commits, bot), NOW.toISOString())
    expect(fixed.iterations.map(i => [i.n, i.fix?.outcome, i.fix?.commitSha])).toEqual([
      [1, 'pushed', FIX_1],
      [2, 'pushed', FIX_2]
    ])
    expect(fixed.iterations[1]).toMatchObject({ reviewedSha: FIX_1, runId: '1003', round: 1 })
  })

  it("ignore a human's commits, claims and another PR's fixes", () => {
    const s = state({ iterations: [iteration({ n: 1, reviewedSha: SHA_A })] })
    const commits = [
      { sha: SHA_C, parent: SHA_B, message: 'by hand', committer: HUMAN },
      { ...pushedAt(SHA_B, FIX_1, 1), message: fixMessage({ pr: 8, n: 1, run: '5:1' }) },
      {
        ...pushedAt(FIX_1, SHA_A, 1),
        message: claimMessage({ pr: 7, n: 1, run: '1:1', head: SHA_A })
      },
      work
    ]
    expect(unrecordedPushes(s, commits, bot)).toEqual([])
  })

  it("ignore a fix's patch a human applied (git am keeps the trailers, the human commits)", () => {
    // iteration 1's push was refused: the fix is kept as fix-1.patch, and a maintainer applies it
    const refused = state({
      status: 'error',
      iterations: [
        iteration({
          n: 1,
          reviewedSha: SHA_A,
          runId: '1001',
          fix: fix('push_failed', FIX_1, 'fix-1.patch')
        })
      ]
    })
    const applied = [pushedAt(FIX_2, SHA_A, 1, '1001:1', HUMAN), work]
    expect(unrecordedPushes(refused, applied, bot)).toEqual([])
    // nor the refused run's own commit pushed by someone with the bot's identity
    const same = [pushedAt(FIX_2, SHA_A, 1, '1001:1'), work]
    expect(unrecordedPushes(refused, same, bot)).toEqual([])
  })

  it("stop at the PR's base and never add an iteration whose head is beyond a shallow checkout", () => {
    const s = state({ iterations: [iteration({ n: 1, reviewedSha: SHA_C })] })
    const base = { sha: bot.baseSha, message: 'main', committer: HUMAN }
    const older = pushedAt(SHA_B, SHA_A, 5, '900:1')
    expect(unrecordedPushes(s, [work, base, older], bot)).toEqual([])
    const cut = { ...pushedAt(FIX_2, FIX_1, 2), parent: undefined }
    expect(unrecordedPushes(s, [cut], bot)).toEqual([])
  })

  it("leave a person's stop or approval as it is", () => {
    const stopped = state({
      status: 'stopped',
      iterations: [iteration({ n: 1, reviewedSha: SHA_A, fix: fix('push_failed', SHA_B) })]
    })
    const found = unrecordedPushes(stopped, [pushedAt(FIX_1, SHA_A, 1, '1000:1'), work], bot)
    const fixed = recordPushes(stopped, found, NOW.toISOString())
    expect(fixed.status).toBe('stopped')
    expect(fixed.iterations[0]!.fix).toMatchObject({ outcome: 'pushed', commitSha: FIX_1 })
  })
})

describe('the claim on an iteration', () => {
  const plan = (): ReviewPlan => ({
    kind: 'review',
    pull: pull(),
    state: state({ iterations: [iteration({ n: 1, reviewedSha: SHA_B })] }),
    n: 2,
    tag: '[2/3]',
    started: NOW
  })
  /** GitHub as the claimants see it: run 1001 is going unless a test ends it. */
  let github: FakeGitHub
  beforeEach(() => {
    github = new FakeGitHub()
    github.going.add('1001')
  })
  const deps = (runId: string, runAttempt = 1, warnings: string[] = []) =>
    ({
      settings: settings({ checks: 'test: true', 'fix-commands': 'true' }),
      ctx: context({ runId, runAttempt }),
      github,
      log: { ...fakeLog(), warning: (m: string) => void warnings.push(m) }
    }) as unknown as IterationDeps

  it("is held by the first run; a second run stops, naming the first; the previous iteration's claim is removed", async () => {
    const git = new FakeGit(SHA_A)
    const previous = claimRef(7, 1, SHA_B)
    git.claims.set(previous, 'held')
    expect(await claimPhase(deps('1001'), plan(), git)).toEqual({
      kind: 'held',
      claim: { ref: claimRef(7, 2, SHA_A) }
    })
    expect(git.claims.has(previous)).toBe(false)
    const second = await claimPhase(deps('1002'), plan(), git)
    expect(second.kind).toBe('taken')
    expect(second.kind === 'taken' && second.notice).toMatch(
      /^Skipped: iteration 2 on aaaaaaa is being reviewed and fixed by run 1001 \(https:\/\/github\.com\/.*\/actions\/runs\/1001\)/
    )
    expect(second.kind === 'taken' && second.notice).toMatch(/re-run this job/)
  })

  it('held by a run that has ended (cancelled, lost) is taken over, unless the state records the iteration by then', async () => {
    const git = new FakeGit(SHA_A)
    await claimPhase(deps('1001'), plan(), git)
    github.going.delete('1001')
    expect(await claimPhase(deps('1002'), plan(), git)).toMatchObject({ kind: 'held' })
    expect(readTrailers(git.claims.get(claimRef(7, 2, SHA_A))!)?.run).toBe('1002:1')
    // run 1002 ended after it saved iteration 2: a run that planned iteration 2 before that stops
    github.comments.push({
      id: 1,
      author: BOT,
      htmlUrl: 'https://github.com/o/r/pull/7#c1',
      body: renderStateMarker(
        state({ iterations: [iteration({ n: 1 }), iteration({ n: 2, reviewedSha: SHA_A })] })
      )
    })
    const late = await claimPhase(deps('1003'), plan(), git)
    expect(late).toEqual({
      kind: 'taken',
      notice: expect.stringMatching(
        /iteration 2 on aaaaaaa was recorded by run 1002, which claimed it first/
      )
    })
  })

  it('is taken over by a re-run of the run that holds it (an earlier attempt died)', async () => {
    const git = new FakeGit(SHA_A)
    await claimPhase(deps('1001', 1), plan(), git)
    expect(await claimPhase(deps('1001', 2), plan(), git)).toMatchObject({ kind: 'held' })
    expect(readTrailers(git.claims.get(claimRef(7, 2, SHA_A))!)?.run).toBe('1001:2')
    // and a re-run of another run does not take it while its run goes
    github.going.add('1001')
    expect((await claimPhase(deps('1002', 2), plan(), git)).kind).toBe('taken')
  })

  it('that cannot be made is warned about, and the run goes on', async () => {
    const warnings: string[] = []
    const git = new FakeGit(SHA_A)
    const failed = { kind: 'failed', message: 'git push failed (exit 128)' } as const
    git.claimRef = (async () => failed) as unknown as FakeGit['claimRef']
    expect(await claimPhase(deps('1001', 1, warnings), plan(), git)).toEqual({ kind: 'held' })
    expect(warnings.join('\n')).toMatch(/Could not claim iteration 2 on aaaaaaa \(git push failed/)
  })

  it('is not made by a run that cannot push a fix (no fixer)', async () => {
    const git = new FakeGit(SHA_A)
    const d = deps('1001')
    const noFixer = { ...d, settings: settings({ checks: 'test: true' }) } as IterationDeps
    expect(await claimPhase(noFixer, plan(), git)).toEqual({ kind: 'held' })
    expect(git.claims.size).toBe(0)
  })
})

function fix(outcome: 'pushed' | 'push_failed', commitSha: string, patch?: string) {
  return {
    outcome,
    commitSha,
    filesChanged: ['src/a.js'],
    commands: [],
    disputes: [],
    revertedProtected: [],
    durationMs: 10,
    ...(patch ? { patch } : {})
  }
}
