import { describe, expect, it } from 'vitest'
import { appendReview, updateLast, type ReviewedIteration } from '../../src/loop/record.js'
import { routeEvent } from '../../src/loop/router.js'
import {
  branchDeleted,
  checkConclusion,
  decide,
  DEFAULT_FAIL_ON,
  disputedAgain,
  disputeRound,
  fixBlocker,
  nextAfterFix,
  nextAfterReview,
  planPull,
  repeatedBlocker,
  type PullPlanInput
} from '../../src/loop/rules.js'
import type { FindingRecord, FixRecord, IterationRecord, LoopState } from '../../src/loop/types.js'
import { zeroUsage } from '../../src/loop/usage.js'
import {
  BASE,
  finding,
  iteration,
  NOW,
  pull,
  reviewed,
  SHA_A,
  SHA_B,
  SHA_C,
  SHA_D,
  state
} from './builders.js'

const PUSHED: FixRecord = {
  outcome: 'pushed',
  commitSha: 'f'.repeat(40),
  filesChanged: ['src/a.ts'],
  commands: [],
  disputes: [],
  revertedProtected: [],
  durationMs: 1000
}

const blocker = (id: string, severity: FindingRecord['severity'] = 'high'): FindingRecord => ({
  id,
  severity,
  status: 'open',
  since: 1
})

function reviews(
  specs: Array<{ findings: FindingRecord[]; fix?: FixRecord; round?: number }>,
  overrides: Partial<LoopState> = {}
): LoopState {
  const iterations: IterationRecord[] = specs.map((s, i) =>
    iteration({ n: i + 1, round: s.round ?? 1, findings: s.findings, fix: s.fix })
  )
  return state({ iterations, ...overrides })
}

describe('decide', () => {
  const clean = { reviewerDecision: 'GO' as const, findings: [], gatesPassed: true }

  it('is GO only with a reviewer GO, no finding at or above the threshold and every gate passing', () => {
    expect(decide(clean, 'medium')).toBe('GO')
    expect(decide({ ...clean, findings: [finding({ severity: 'low' })] }, 'medium')).toBe('GO')
    expect(decide({ ...clean, findings: [finding({ severity: 'medium' })] }, 'medium')).toBe(
      'NO_GO'
    )
    expect(decide({ ...clean, findings: [finding({ severity: 'critical' })] }, 'high')).toBe(
      'NO_GO'
    )
    expect(decide({ ...clean, gatesPassed: false }, 'medium')).toBe('NO_GO')
    expect(decide({ ...clean, reviewerDecision: 'NO_GO' }, 'medium')).toBe('NO_GO')
  })

  it('passes on gates alone when there is no AI reviewer', () => {
    expect(decide({ findings: [], gatesPassed: true }, 'medium')).toBe('GO')
    expect(decide({ findings: [], gatesPassed: false }, 'medium')).toBe('NO_GO')
  })

  it('escalates when the reviewer needs a human, whatever else it found', () => {
    expect(
      decide(
        { reviewerDecision: 'NEEDS_DISCUSSION', findings: [finding()], gatesPassed: false },
        'medium'
      )
    ).toBe('NEEDS_DISCUSSION')
  })
})

describe('nextAfterReview', () => {
  it('finishes on GO and on NEEDS_DISCUSSION', () => {
    const s = reviews([{ findings: [] }])
    expect(nextAfterReview(s, 'GO', 'medium', true)).toMatchObject({ kind: 'finish', status: 'go' })
    expect(nextAfterReview(s, 'NEEDS_DISCUSSION', 'medium', true)).toMatchObject({
      kind: 'finish',
      status: 'needs_discussion'
    })
  })

  it('fixes after a NO_GO below the cap', () => {
    expect(
      nextAfterReview(reviews([{ findings: [blocker('RL-1')] }]), 'NO_GO', 'medium', true)
    ).toEqual({ kind: 'fix' })
  })

  it('stops at the cap, and the cap wins over a stall at the last iteration', () => {
    const s = reviews(
      [
        { findings: [blocker('RL-1')], fix: PUSHED },
        { findings: [blocker('RL-1')], fix: PUSHED },
        { findings: [blocker('RL-1')] }
      ],
      { maxIterations: 3 }
    )
    expect(nextAfterReview(s, 'NO_GO', 'medium', true)).toEqual({
      kind: 'finish',
      status: 'max_iterations',
      reason: 'Still NO_GO after 3 of 3 iterations.'
    })
  })

  /** Reviews appended as the action does, each with a pushed fix after it but the last. */
  function appended(
    specs: Array<{
      ids: string[]
      severity?: FindingRecord['severity']
      tree?: string
      fix?: FixRecord
    }>,
    maxIterations = 5
  ): LoopState {
    let s = state({ maxIterations, status: 'running' })
    const shas = [SHA_A, SHA_B, SHA_C, SHA_D]
    specs.forEach((spec, i) => {
      s = appendReview(
        s,
        reviewed({
          n: i + 1,
          reviewedSha: shas[i]!,
          findings: spec.ids.map(id => finding({ id, severity: spec.severity ?? 'high' })),
          ...(spec.tree ? { tree: spec.tree } : {})
        })
      )
      if (i < specs.length - 1) s = updateLast(s, it => ({ ...it, fix: spec.fix ?? PUSHED }))
    })
    return s
  }

  it('stalls when a blocker is raised again after a pushed fix: its second sighting, under the default cap', () => {
    const s = appended([{ ids: ['RL-1', 'RL-2'] }, { ids: ['RL-1', 'RL-3'] }], 3)
    expect(s.iterations[1]!.findings.map(f => [f.id, f.reraised ?? false])).toEqual([
      ['RL-1', true],
      ['RL-3', false]
    ])
    const next = nextAfterReview(s, 'NO_GO', 'medium', true)
    expect(next).toMatchObject({ kind: 'finish', status: 'stalled' })
    if (next.kind === 'finish') expect(next.reason).toContain('RL-1 was raised again after a fix')
  })

  it('keeps fixing when the repeated finding is below the threshold, or no fix was pushed between', () => {
    const low = appended([
      { ids: ['RL-1'], severity: 'low' },
      { ids: ['RL-1'], severity: 'low' }
    ])
    expect(nextAfterReview(low, 'NO_GO', 'medium', true)).toEqual({ kind: 'fix' })
    const disputed = appended([
      { ids: ['RL-1'], fix: { ...PUSHED, outcome: 'no_changes', commitSha: undefined } },
      { ids: ['RL-1'] }
    ])
    expect(disputed.iterations[1]!.findings[0]!.reraised).toBeUndefined()
    expect(nextAfterReview(disputed, 'NO_GO', 'medium', true)).toEqual({ kind: 'fix' })
  })

  it('counts a finding as attempted only when the fix changed its lines or the fixers ran to the end', () => {
    const cutShort = appended([
      { ids: ['RL-1'], fix: { ...PUSHED, stopReason: 'max_turns' } },
      { ids: ['RL-1'] }
    ])
    expect(cutShort.iterations[1]!.findings[0]!.reraised).toBeUndefined()
    expect(nextAfterReview(cutShort, 'NO_GO', 'medium', true)).toEqual({ kind: 'fix' })
    let touched = state({ maxIterations: 5, status: 'running' })
    touched = appendReview(touched, reviewed({ findings: [finding({ id: 'RL-1' })] }))
    touched = updateLast(touched, it => ({ ...it, fix: { ...PUSHED, stopReason: 'max_turns' } }))
    touched = appendReview(
      touched,
      reviewed({
        n: 2,
        reviewedSha: SHA_B,
        findings: [finding({ id: 'RL-1' })],
        changedLines: { 'src/a.ts': [[2, 4]] }
      })
    )
    expect(touched.iterations[1]!.findings[0]!.reraised).toBe(true)
  })

  it('marks a finding that comes back after it was settled as re-raised', () => {
    const s = appended([{ ids: ['RL-1'] }, { ids: ['RL-2'] }, { ids: ['RL-2', 'RL-1'] }])
    expect(s.iterations[1]!.gone).toEqual(['RL-1'])
    expect(s.iterations[2]!.findings.find(f => f.id === 'RL-1')).toMatchObject({
      reraised: true,
      since: 1
    })
  })

  it('stalls when the fixes go round in circles: a tree reviewed before under another commit', () => {
    const s = appended([
      { ids: ['RL-1'], tree: 'a'.repeat(40) },
      { ids: ['RL-2'], tree: 'b'.repeat(40) },
      { ids: ['RL-3'], tree: 'a'.repeat(40) }
    ])
    const next = nextAfterReview(s, 'NO_GO', 'medium', true)
    expect(next).toMatchObject({ kind: 'finish', status: 'stalled' })
    if (next.kind === 'finish') expect(next.reason).toContain('same as in iteration 1')
    // the same commit reviewed again (a dispute re-review) is not a circle
    const rereview = reviews([
      { findings: [blocker('RL-1')], fix: { ...PUSHED, outcome: 'no_changes' } },
      { findings: [blocker('RL-2')] }
    ])
    const same = {
      ...rereview,
      iterations: rereview.iterations.map(it => ({
        ...it,
        reviewedSha: SHA_A,
        tree: 'c'.repeat(40)
      }))
    }
    expect(nextAfterReview(same, 'NO_GO', 'medium', true)).toEqual({ kind: 'fix' })
  })

  it('counts only the current round towards the cap and the stall', () => {
    const s = reviews(
      [
        { findings: [blocker('RL-1')], fix: PUSHED, round: 1 },
        { findings: [{ ...blocker('RL-1'), reraised: true }], fix: PUSHED, round: 1 },
        { findings: [blocker('RL-1')], round: 2 }
      ],
      { round: 2, maxIterations: 3, status: 'running' }
    )
    expect(nextAfterReview(s, 'NO_GO', 'medium', true)).toEqual({ kind: 'fix' })
  })

  it('stalls when no fixer is configured', () => {
    const next = nextAfterReview(
      reviews([{ findings: [blocker('RL-1')] }]),
      'NO_GO',
      'medium',
      false
    )
    expect(next).toMatchObject({ kind: 'finish', status: 'stalled' })
    if (next.kind === 'finish')
      expect(next.reason).toBe(
        'NO_GO and nothing can fix it: fix-commands is empty and no model for the AI fixer (anthropic-api-key, or model-provider bedrock or vertex with their credentials). A human must fix it, or configure a fixer.'
      )
  })

  it("reviews a fork's PR only: it waits for the author's push, never stalls on a fixer it cannot use", () => {
    const fork = pull({ headRepoFullName: 'someone/widgets' })
    const blocked = fixBlocker({ pull: fork, fixCommands: 1, aiFixer: true })
    expect(blocked).toEqual({ kind: 'fork', pr: fork.number, fork: 'someone/widgets' })
    // even at the cap: nothing is fixed on a fork, so the cap does not end its loop
    const atCap = reviews([{ findings: [blocker('RL-1')] }])
    const next = nextAfterReview({ ...atCap, maxIterations: 1 }, 'NO_GO', 'medium', blocked!)
    expect(next).toEqual({
      kind: 'wait',
      reason: expect.stringContaining("a fork's branch cannot be pushed to") as string
    })
    expect(nextAfterReview(atCap, 'GO', 'medium', blocked!)).toMatchObject({ status: 'go' })
    expect(checkConclusion('NO_GO', 'running', DEFAULT_FAIL_ON)).toBe('failure')
  })

  it('stops when the budget is spent', () => {
    const next = nextAfterReview(reviews([{ findings: [] }]), 'NO_GO', 'medium', true, {
      spentUsd: 5.01,
      maxUsd: 5
    })
    expect(next).toMatchObject({ kind: 'finish', status: 'budget_exhausted' })
    if (next.kind === 'finish') expect(next.reason).toContain('$5.01 of the $5.00')
  })
})

describe('nextAfterFix', () => {
  it('re-triggers only after a pushed fix', () => {
    expect(nextAfterFix('pushed')).toEqual({ status: 'running', retrigger: true })
    expect(nextAfterFix('no_changes')).toMatchObject({ status: 'stalled', retrigger: false })
    expect(nextAfterFix('branch_moved')).toMatchObject({ status: 'running', retrigger: false })
    expect(nextAfterFix('push_failed')).toMatchObject({ status: 'error', retrigger: false })
  })
})

describe('routeEvent (the router)', () => {
  it.each(['opened', 'synchronize', 'reopened', 'ready_for_review', 'closed'])(
    'runs on pull_request %s',
    action => {
      expect(routeEvent({ eventName: 'pull_request', action, eventPrNumber: 7 })).toEqual({
        kind: 'review',
        pr: 7
      })
    }
  )

  it.each(['labeled', 'edited', 'assigned', 'converted_to_draft'])(
    'skips pull_request %s with a notice',
    action => {
      const plan = routeEvent({ eventName: 'pull_request', action, eventPrNumber: 7 })
      expect(plan.kind).toBe('skip')
      if (plan.kind === 'skip') {
        expect(plan.notice).toContain(`'${action}' needs no review`)
        expect(plan.notice).toContain('opened/synchronize/reopened/ready_for_review')
      }
    }
  )

  it('runs workflow_dispatch on the pr-number input', () => {
    expect(routeEvent({ eventName: 'workflow_dispatch', inputPrNumber: 12 })).toEqual({
      kind: 'review',
      pr: 12
    })
  })

  it('explains how to pass pr-number when workflow_dispatch has none', () => {
    const plan = routeEvent({ eventName: 'workflow_dispatch' })
    expect(plan.kind).toBe('skip')
    if (plan.kind === 'skip') expect(plan.notice).toContain("'pr-number' input")
  })

  it('skips event names that are not routes, even ones an object knows', () => {
    for (const eventName of ['constructor', 'toString', '__proto__'])
      expect(routeEvent({ eventName })).toMatchObject({ kind: 'skip' })
  })

  it('skips other events, naming them', () => {
    const plan = routeEvent({ eventName: 'push' })
    expect(plan).toEqual({
      kind: 'skip',
      notice:
        "review-loop does nothing on 'push' events; trigger it on pull_request, pull_request_target, workflow_dispatch, issue_comment, pull_request_review, pull_request_review_comment, check_run."
    })
  })
})

describe('planPull', () => {
  function plan(overrides: Partial<PullPlanInput>) {
    return planPull({
      pull: pull(),
      state: undefined,
      maxIterations: 3,
      reviewDrafts: false,
      allowForks: false,
      runId: '2002',
      runAttempt: 1,
      now: NOW,
      ...overrides
    })
  }

  it('starts a fresh loop on a new PR', () => {
    const p = plan({})
    expect(p).toMatchObject({ kind: 'review', iteration: 1, newRound: false })
    if (p.kind === 'review') expect(p.state).toMatchObject({ pr: 7, round: 1, status: 'running' })
  })

  it.each([
    [{ state: 'closed' as const, merged: true }, 'is merged'],
    [{ state: 'closed' as const, merged: false }, 'is closed'],
    [{ draft: true }, 'is a draft'],
    [{ headRepoFullName: 'stranger/r' }, 'comes from the fork stranger/r']
  ])('skips %o with a notice', (p, notice) => {
    const result = plan({ pull: pull(p) })
    expect(result.kind).toBe('skip')
    if (result.kind === 'skip') expect(result.notice).toContain(notice)
  })

  it('reviews drafts and forks when the inputs allow them', () => {
    expect(plan({ pull: pull({ draft: true }), reviewDrafts: true }).kind).toBe('review')
    expect(plan({ pull: pull({ headRepoFullName: 'stranger/r' }), allowForks: true }).kind).toBe(
      'review'
    )
  })

  it('never runs fork code under pull_request_target, whatever allow-forks says', () => {
    const result = plan({
      pull: pull({ headRepoFullName: 'stranger/r' }),
      allowForks: true,
      eventName: 'pull_request_target'
    })
    expect(result).toMatchObject({ kind: 'skip' })
    if (result.kind === 'skip')
      expect(result.notice).toMatch(/pull_request_target.*whatever allow-forks says/)
    expect(plan({ pull: pull(), eventName: 'pull_request_target' }).kind).toBe('review')
  })

  it('tells a re-run of the same run that it changes nothing', () => {
    const s = reviews([{ findings: [] }], { status: 'go' })
    const again = plan({
      state: { ...s, iterations: [{ ...s.iterations[0]!, runId: '2002', reviewedSha: SHA_A }] },
      runAttempt: 2
    })
    expect(again.kind).toBe('skip')
    if (again.kind === 'skip') {
      expect(again.notice).toContain('already reviewed in iteration 1')
      expect(again.notice).toContain('re-running it changes nothing')
    }
    const other = plan({ state: s, runId: '3003' })
    expect(other.kind).toBe('skip')
    if (other.kind === 'skip') expect(other.notice).toContain('by run 1001')
  })

  it('reviews a head the branch was moved back to as a new head, in a running or an ended loop', () => {
    // iteration 1 reviewed SHA_A and pushed its fix: the branch was left at the fix's commit
    const running = reviews([{ findings: [blocker('RL-1')], fix: PUSHED }])
    const back = plan({ state: running, pull: pull({ headSha: SHA_A }) })
    expect(back).toMatchObject({ kind: 'review', iteration: 2, newRound: false })
    // the fix's commit itself, once reviewed, is the head the round left: a re-run skips it
    const atFix = reviews([
      { findings: [blocker('RL-1')], fix: PUSHED },
      { findings: [blocker('RL-1')] }
    ])
    const fixSha = PUSHED.commitSha!
    atFix.iterations[1] = { ...atFix.iterations[1]!, reviewedSha: fixSha }
    expect(plan({ state: atFix, pull: pull({ headSha: fixSha }) }).kind).toBe('skip')
    // back to the first commit after the loop ended: a new round reviews it
    const ended = { ...atFix, status: 'max_iterations' as const }
    expect(plan({ state: ended, pull: pull({ headSha: SHA_A }) })).toMatchObject({
      kind: 'review',
      newRound: true
    })
  })

  it('starts a new round with a fresh cap when a human pushes after the loop ended', () => {
    const ended = reviews(
      [
        { findings: [blocker('RL-1')], fix: PUSHED },
        { findings: [blocker('RL-1')], fix: PUSHED },
        { findings: [blocker('RL-1')] }
      ],
      { status: 'max_iterations', reason: 'Still NO_GO after 3 of 3 iterations.' }
    )
    const p = plan({ state: ended, pull: pull({ headSha: SHA_D }) })
    expect(p).toMatchObject({ kind: 'review', iteration: 1, newRound: true })
    if (p.kind === 'review') {
      expect(p.state).toMatchObject({ status: 'running', round: 2, reason: undefined })
      expect(p.state.iterations).toHaveLength(3)
    }
  })

  it('ends a running loop once as merged or closed when its PR is, and leaves an ended one be', () => {
    const running = reviews([{ findings: [blocker('RL-1')], fix: PUSHED }])
    const merged = plan({ state: running, pull: pull({ state: 'closed', merged: true }) })
    expect(merged).toMatchObject({ kind: 'stop', state: { status: 'merged' } })
    if (merged.kind === 'stop') expect(merged.notice).toContain('The loop ends as merged')
    const closed = plan({ state: running, pull: pull({ state: 'closed' }) })
    expect(closed).toMatchObject({ kind: 'stop', state: { status: 'closed' } })
    // already ended (or told once): a skip that changes nothing
    const again = plan({ state: { ...running, status: 'merged' }, pull: pull({ state: 'closed' }) })
    expect(again.kind).toBe('skip')
    expect(
      plan({ state: { ...running, status: 'go' }, pull: pull({ state: 'closed' }) }).kind
    ).toBe('skip')
  })

  it('adopts a fix written ahead as pushing when its commit is the head, as a counted iteration', () => {
    const commit = SHA_B
    const s = reviews([
      { findings: [blocker('RL-1')], fix: { ...PUSHED, outcome: 'pushing', commitSha: commit } }
    ])
    const p = plan({ state: s, pull: pull({ headSha: commit }) })
    expect(p).toMatchObject({ kind: 'review', iteration: 2 })
    if (p.kind === 'review') {
      expect(p.state.iterations[0]!.fix).toMatchObject({ outcome: 'pushed', commitSha: commit })
      expect(p.state.lastPushedSha).toBe(commit)
    }
  })

  it('reviews the head again, as the next counted iteration, when a push written ahead never landed', () => {
    const s = reviews([
      {
        findings: [blocker('RL-1')],
        fix: { ...PUSHED, outcome: 'pushing', commitSha: SHA_B, patch: 'fix-1.patch' }
      }
    ])
    const p = plan({ state: s, pull: pull({ headSha: SHA_A }) })
    expect(p).toMatchObject({ kind: 'review', iteration: 2 })
    if (p.kind === 'review') {
      expect(p.state.iterations[0]!.fix?.outcome).toBe('interrupted')
      expect(p.state.reason).toContain('fix-1.patch')
    }
    // and the cap still holds: the interrupted iteration counts
    const full = reviews([
      { findings: [], fix: PUSHED },
      { findings: [], fix: PUSHED },
      { findings: [blocker('RL-1')], fix: { ...PUSHED, outcome: 'pushing', commitSha: SHA_B } }
    ])
    expect(plan({ state: full, pull: pull({ headSha: SHA_A }) })).toMatchObject({
      kind: 'stop',
      state: { status: 'max_iterations' }
    })
  })

  it('lets a re-run of the run that disputed weigh the disputes, when its dispatch failed', () => {
    const disputed = reviews([
      {
        findings: [blocker('RL-1')],
        fix: {
          ...PUSHED,
          outcome: 'no_changes',
          commitSha: undefined,
          filesChanged: [],
          disputes: [{ id: 'RL-1', reason: 'by design' }]
        }
      }
    ])
    const same = { ...disputed, iterations: [{ ...disputed.iterations[0]!, runId: '2002' }] }
    expect(plan({ state: same, runAttempt: 1 }).kind).toBe('skip')
    expect(plan({ state: same, runAttempt: 2 })).toMatchObject({ kind: 'review', iteration: 2 })
  })

  it('marks the skip of a head dealt with already, so a re-run ends as the first run did', () => {
    const ended = reviews([{ findings: [blocker('RL-1')] }], { status: 'max_iterations' })
    expect(plan({ state: ended })).toMatchObject({ kind: 'skip', repeats: true })
    expect(plan({ pull: pull({ draft: true }) })).toMatchObject({ kind: 'skip' })
    expect(plan({ pull: pull({ draft: true }) })).not.toHaveProperty('repeats')
  })

  it('does not review past the cap while the loop is still running: it ends, saying why', () => {
    const s = reviews(
      [{ findings: [], fix: PUSHED }, { findings: [], fix: PUSHED }, { findings: [] }],
      { status: 'running' }
    )
    const p = plan({ state: s, pull: pull({ headSha: SHA_D }) })
    // never a skip that leaves the state running with no run to come
    expect(p).toMatchObject({ kind: 'stop', state: { status: 'max_iterations' } })
    if (p.kind === 'stop') {
      expect(p.notice).toContain('used 3 of 3 iterations; raise max-iterations')
      expect(p.state?.reason).toBe(p.notice)
    }
  })

  it("reviews every push of a fork's PR at and past the cap: its author paces it, never the cap", () => {
    const fork = (headSha: string) => pull({ headRepoFullName: 'someone/widgets', headSha })
    // max-iterations 2: two NO_GO reviews, each waiting for the author's push (a fork is never fixed)
    const s = reviews([{ findings: [blocker('RL-1')] }, { findings: [blocker('RL-1')] }], {
      maxIterations: 2,
      iterations: [
        iteration({ n: 1, reviewedSha: SHA_A, findings: [blocker('RL-1')] }),
        iteration({ n: 2, reviewedSha: SHA_B, findings: [blocker('RL-1')] })
      ]
    })
    const at = { state: s, maxIterations: 2, allowForks: true }
    const third = plan({ ...at, pull: fork(SHA_C) })
    expect(third).toMatchObject({ kind: 'review', iteration: 3, state: { status: 'running' } })
    // its review, past the cap, waits for the next push again: no max_iterations, no human called
    if (third.kind !== 'review') return
    const reviewed3 = {
      ...third.state,
      iterations: [...s.iterations, iteration({ n: 3, reviewedSha: SHA_C })]
    }
    const blocked = fixBlocker({ pull: fork(SHA_C), fixCommands: 1, aiFixer: true })!
    const next = nextAfterReview(reviewed3, 'NO_GO', 'medium', blocked)
    expect(next).toEqual({
      kind: 'wait',
      reason: expect.stringContaining('their next push is reviewed again') as string
    })
    // nothing loops without a push: the same head again (a re-run, a duplicate event) is a skip
    expect(plan({ ...at, state: reviewed3, pull: fork(SHA_C) })).toMatchObject({
      kind: 'skip',
      repeats: true
    })
    // the budget still applies past the cap
    const spent = nextAfterReview(reviewed3, 'NO_GO', 'medium', blocked, {
      spentUsd: 1,
      maxUsd: 1,
      exhausted: true
    })
    expect(spent).toMatchObject({ kind: 'finish', status: 'budget_exhausted' })
    // a PR from the repository itself at the same point ends as max_iterations
    expect(plan({ ...at, pull: pull({ headSha: SHA_C }) })).toMatchObject({
      kind: 'stop',
      state: { status: 'max_iterations' }
    })
  })
})

describe('appendReview', () => {
  function review(n: number, sha: string, ids: string[]): ReviewedIteration {
    return {
      n,
      reviewedSha: sha,
      baseSha: BASE,
      runId: String(1000 + n),
      runAttempt: 1,
      decision: ids.length ? 'NO_GO' : 'GO',
      summary: `review ${n}`,
      findings: ids.map(id => finding({ id, title: `Problem ${id}` })),
      gates: [],
      usage: { ...zeroUsage(), inputTokens: 100, costUsd: 0.1 },
      startedAt: NOW,
      durationMs: 10
    }
  }

  it('keeps `since` for findings still open, lists resolved ids and marks disputed ones', () => {
    let s = appendReview(state(), review(1, SHA_A, ['RL-A', 'RL-B']))
    s = updateLast(s, it => ({
      ...it,
      fix: { ...PUSHED, disputes: [{ id: 'RL-B', reason: 'by design' }] }
    }))
    s = appendReview(s, review(2, SHA_B, ['RL-A', 'RL-B', 'RL-C']))
    expect(s.iterations[1]!.findings.map(f => [f.id, f.since, f.status])).toEqual([
      ['RL-A', 1, 'open'],
      ['RL-B', 1, 'disputed'],
      ['RL-C', 2, 'open']
    ])
    expect(s.iterations[1]!.resolved).toEqual([])

    s = updateLast(s, it => ({ ...it, fix: PUSHED }))
    // the reviewer confirmed RL-A fixed; the fix changed other lines, so RL-B is only no longer raised
    s = appendReview(s, {
      ...review(3, SHA_C, ['RL-C']),
      answers: [{ id: 'RL-A', status: 'fixed', note: 'checked' }],
      changedLines: { 'src/a.ts': [[9, 12]] }
    })
    const third = s.iterations[2]!
    expect(third.resolved).toEqual(['RL-A'])
    expect(third.gone).toEqual(['RL-B'])
    expect(third.findings.map(f => [f.id, f.since])).toEqual([['RL-C', 2]])
    expect(s.lastReviewedSha).toBe(SHA_C)
    expect(s.totals.inputTokens).toBe(300)
    expect(s.totals.costUsd).toBe(0.3)
  })

  it('counts a finding raised again as raised after a fix only when the fix is in the head', () => {
    const fixed = updateLast(appendReview(state(), review(1, SHA_A, ['RL-A'])), it => ({
      ...it,
      fix: PUSHED
    }))
    // the fix is in the head (the reviewed commit is its child): the finding came back after it
    const kept = appendReview(fixed, review(2, SHA_B, ['RL-A']))
    expect(kept.iterations[1]!.findings[0]).toMatchObject({ id: 'RL-A', reraised: true })
    // a human moved the branch back (or rewrote it) without the fix: nothing was raised after it
    const dropped = appendReview(fixed, { ...review(2, SHA_A, ['RL-A']), fixDropped: true })
    expect(dropped.iterations[1]!.findings[0]!.reraised).toBeUndefined()
    expect(repeatedBlocker(dropped, 'high')).toBeUndefined()
  })

  it("counts a blocker raised again as a stall even when the PR's author dismissed it", () => {
    const fixed = updateLast(appendReview(state(), review(1, SHA_A, ['RL-A'])), it => ({
      ...it,
      fix: PUSHED
    }))
    const again = appendReview(fixed, review(2, SHA_B, ['RL-A']))
    const byAuthor = { ...again, dismissed: [{ id: 'RL-A', by: 'OctoCat', at: NOW.toISOString() }] }
    // a dismissal stored before authors were refused: it does not settle the author's own blocker
    expect(repeatedBlocker(byAuthor, 'high', 'octocat')).toBe('RL-A')
    expect(nextAfterReview(byAuthor, 'NO_GO', 'high', true, undefined, 'octocat')).toMatchObject({
      kind: 'finish',
      status: 'stalled'
    })
    // a maintainer's dismissal does settle it
    expect(repeatedBlocker(byAuthor, 'high', 'maintainer')).toBeUndefined()
  })

  it('starts counting afresh in a new round', () => {
    let s = appendReview(state(), review(1, SHA_A, ['RL-A']))
    s = { ...s, status: 'running', round: 2 }
    s = appendReview(s, review(2, SHA_B, ['RL-A']))
    expect(s.iterations[1]).toMatchObject({ round: 2, resolved: [] })
    expect(s.iterations[1]!.findings[0]!.since).toBe(2)
  })
})

describe('disputes (issue 28): editing and disputing a finding is one dispute, weighed once', () => {
  function review(n: number, sha: string, ids: string[]): ReviewedIteration {
    return reviewed({
      n,
      reviewedSha: sha,
      decision: ids.length ? 'NO_GO' : 'GO',
      findings: ids.map(id => finding({ id, title: `Problem ${id}`, file: 'src/a.ts', line: 3 }))
    })
  }
  /** Iteration 1 raised RL-A; its fix edited src/a.ts (RL-A's lines) and disputed RL-A. */
  const editedAndDisputed = (): LoopState =>
    updateLast(appendReview(state(), review(1, SHA_A, ['RL-A'])), it => ({
      ...it,
      fix: { ...PUSHED, disputes: [{ id: 'RL-A', reason: 'wrong: by design' }] }
    }))
  const disputesA = [{ id: 'RL-A', reason: 'wrong: by design, still' }]

  it('never records a disputed finding fixed, though the fix changed its lines or the reviewer says fixed', () => {
    const touched = appendReview(editedAndDisputed(), {
      ...review(2, SHA_B, []),
      changedLines: { 'src/a.ts': [[1, 5]] }
    })
    expect(touched.iterations[1]).toMatchObject({ resolved: [], gone: ['RL-A'] })
    const answered = appendReview(editedAndDisputed(), {
      ...review(2, SHA_B, []),
      changedLines: { 'src/a.ts': [[1, 5]] },
      answers: [{ id: 'RL-A', status: 'fixed', note: 'looks fixed' }]
    })
    expect(answered.iterations[1]).toMatchObject({ resolved: [], gone: ['RL-A'] })
  })

  it("a finding in a rewritten file is fixed only on the reviewer's word; a normal edit of its lines fixes it", () => {
    const fixed = updateLast(appendReview(state(), review(1, SHA_A, ['RL-A'])), it => ({
      ...it,
      fix: PUSHED
    }))
    const changedLines = { 'src/a.ts': [[1, 40]] as Array<[number, number]> }
    const rewrite = appendReview(fixed, {
      ...review(2, SHA_B, []),
      changedLines,
      rewritten: ['src/a.ts']
    })
    expect(rewrite.iterations[1]).toMatchObject({ resolved: [], gone: ['RL-A'] })
    const confirmed = appendReview(fixed, {
      ...review(2, SHA_B, []),
      changedLines,
      rewritten: ['src/a.ts'],
      answers: [{ id: 'RL-A', status: 'fixed', note: 'checked' }]
    })
    expect(confirmed.iterations[1]!.resolved).toEqual(['RL-A'])
    const edit = appendReview(fixed, { ...review(2, SHA_B, []), changedLines })
    expect(edit.iterations[1]!.resolved).toEqual(['RL-A'])
    expect(edit.iterations[1]!.gone).toBeUndefined()
  })

  it('an edit-and-dispute raised again is not a stalled blocker: the dispute is weighed', () => {
    const again = appendReview(editedAndDisputed(), review(2, SHA_B, ['RL-A']))
    expect(again.iterations[1]!.findings[0]).toMatchObject({ id: 'RL-A', status: 'disputed' })
    expect(repeatedBlocker(again, 'high')).toBeUndefined()
    expect(nextAfterReview(again, 'NO_GO', 'high', true)).toEqual({ kind: 'fix' })
  })

  it('a dispute the reviewer rejected (raised again, or answered dispute_rejected) and disputed again is repeated', () => {
    const raised = appendReview(editedAndDisputed(), review(2, SHA_B, ['RL-A']))
    expect(disputedAgain(raised, disputesA)).toEqual(['RL-A'])
    expect(disputeRound(raised, SHA_B, disputesA)).toBe('repeated')
    const answered = appendReview(editedAndDisputed(), {
      ...review(2, SHA_B, ['RL-B']),
      answers: [{ id: 'RL-A', status: 'dispute_rejected', note: 'still wrong' }]
    })
    expect(disputeRound(answered, SHA_B, disputesA)).toBe('repeated')
  })

  it('a first dispute, a dispute of another finding, or one the reviewer accepted is weighed once more', () => {
    const first = appendReview(state(), review(1, SHA_A, ['RL-A']))
    expect(disputeRound(first, SHA_A, disputesA)).toBe('first')
    const raised = appendReview(editedAndDisputed(), review(2, SHA_B, ['RL-A', 'RL-B']))
    expect(disputeRound(raised, SHA_B, [{ id: 'RL-B' }])).toBe('first')
    const accepted = appendReview(editedAndDisputed(), {
      ...review(2, SHA_B, ['RL-A']),
      answers: [{ id: 'RL-A', status: 'dispute_accepted', note: 'fair' }]
    })
    expect(disputeRound(accepted, SHA_B, disputesA)).toBe('first')
    expect(disputeRound(first, SHA_A, [])).toBe('none')
  })

  it('disputed again ends the loop for a human at once, naming the finding and the withheld fix', () => {
    const next = nextAfterFix('no_changes', 'repeated', false, undefined, {
      ids: ['RL-A'],
      withheld: true
    })
    expect(next).toMatchObject({ status: 'needs_discussion', retrigger: false })
    expect(next.reason).toContain('disputes again finding RL-A whose dispute the reviewer rejected')
    expect(next.reason).toContain('not pushed')
  })
})

describe('branchDeleted: a head branch deleted while the PR is open', () => {
  it('ends the loop for a human, naming the branch and the ways on', () => {
    const end = branchDeleted(pull({ number: 12, headRef: 'topic/x' }))
    expect(end.status).toBe('needs_discussion')
    expect(end.reason).toMatch(/head branch topic\/x of PR #12 was deleted while the PR is open/)
    expect(end.reason).toMatch(
      /Restore the branch, then push or comment \/review-loop retry; or close the PR/
    )
    expect(branchDeleted(pull(), 'fix-1.patch').reason).toContain('kept as fix-1.patch')
  })

  it('is no GO: the check run it leaves on a GO review is not green', () => {
    const end = branchDeleted(pull())
    expect(checkConclusion('GO', end.status, DEFAULT_FAIL_ON)).toBe('failure')
  })
})
