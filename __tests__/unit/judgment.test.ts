import { describe, expect, it } from 'vitest'
import type { FindingRecord, LoopState, ReviewerVerdict } from '../../src/loop/types.js'
import { Budget } from '../../src/model/budget.js'
import { verificationText } from '../../src/report/verification.js'
import { combinePasses, holdUp } from '../../src/review/judgment.js'
import { finding, iteration, pull, reviewerVerdict, SHA_A, SHA_B, state } from './builders.js'
import { FakeGit, settings } from './fake-ports.js'

const verdict = reviewerVerdict

const record = (id: string, line: number, status: FindingRecord['status'] = 'open') => ({
  id,
  severity: 'high' as const,
  category: 'logic' as const,
  title: `problem at ${line}`,
  file: 'src/a.ts',
  line,
  source: 'ai',
  status,
  since: 1
})

/** The loop after iteration 1 raised blockers at lines 10 and 40 of src/a.ts; the fix changed lines 9-11. */
function setup(
  findings: FindingRecord[] = [record('RL-10', 10), record('RL-40', 40)],
  inputs: Record<string, string> = {},
  more: Partial<LoopState> = {}
) {
  const git = new FakeGit(SHA_B)
  git.diffText = [
    'diff --git a/src/a.ts b/src/a.ts',
    '--- a/src/a.ts',
    '+++ b/src/a.ts',
    '@@ -9,3 +9,3 @@',
    '-a',
    '-b',
    '-c',
    '+a',
    '+b',
    '+c',
    ''
  ].join('\n')
  const loop = state({ iterations: [iteration({ reviewedSha: SHA_A, findings })], ...more })
  const ai = { ...settings({ 'anthropic-api-key': 'k', 'verify-findings': 'false', ...inputs }).ai }
  const deps = {
    client: { create: () => Promise.reject(new Error('no model call expected')) },
    ai,
    threshold: 'medium' as const,
    budget: new Budget(0, undefined),
    log: { info: () => {}, warning: () => {} }
  }
  const input = {
    pull: pull({ headSha: SHA_B }),
    git,
    deadline: Date.now() + 60_000,
    shape: 'json' as const,
    state: loop
  }
  return (v: ReviewerVerdict) => holdUp(deps, input, v, () => undefined)
}

describe('an earlier blocker is never let through on the reviewer’s word alone (issue 28)', () => {
  it('keeps open the one whose lines the fix did not touch, though its file changed', async () => {
    const out = await setup()(
      verdict({ earlier: [{ id: 'RL-10', status: 'fixed', note: 'done' }] })
    )
    expect(out.findings.map(f => f.id)).toEqual(['RL-40'])
    expect(out.findings[0]!.description).toContain('the reviewer did not answer on it')
    expect(out.decision).toBe('NO_GO')
  })

  it('also when it was disputed and the reviewer now calls it fixed', async () => {
    const run = setup([record('RL-40', 40, 'disputed')])
    const out = await run(verdict({ earlier: [{ id: 'RL-40', status: 'fixed', note: 'done' }] }))
    expect(out.findings.map(f => [f.id, f.description])).toEqual([
      ['RL-40', expect.stringContaining('the reviewer called it fixed')]
    ])
  })

  it('also when its only re-raise was set aside, and then it is no longer shown as set aside', async () => {
    const aside = finding({ id: 'RL-40', file: 'src/a.ts', line: 40, title: 'problem at 40' })
    const out = await setup()(
      verdict({
        decision: 'NO_GO',
        setAside: [
          { ...aside, verification: { status: 'outvoted', by: 'votes', why: 'x', blocks: false } }
        ]
      })
    )
    expect(out.findings.map(f => f.id)).toEqual(['RL-40'])
    expect(out.setAside ?? []).toEqual([])
    expect(out.decision).toBe('NO_GO')
  })
})

describe('a NO_GO that rested on findings set aside', () => {
  const aside = finding({
    severity: 'medium',
    verification: { status: 'refuted', by: 'verifier', why: 'not real', blocks: false }
  })
  it('is GO below hold-go-at when the reviewer failed no criterion, and a human decides when it did', async () => {
    const run = setup([])
    const go = await run(verdict({ decision: 'NO_GO', setAside: [aside] }))
    expect(go.decision).toBe('GO')
    expect(go.summary).toContain('rested only on findings that did not hold up')
    const human = await run(
      verdict({ decision: 'NO_GO', setAside: [aside], failedCriteria: ['totals'] })
    )
    expect(human.decision).toBe('NEEDS_DISCUSSION')
    expect(human.summary).toContain('a human decides')
  })

  it('at or above hold-go-at, a refuted blocker nobody could ask the reviewer about holds GO', async () => {
    const high = { ...aside, id: 'RL-h', severity: 'high' as const, title: 'Overflow' }
    const held = await setup([])(verdict({ decision: 'NO_GO', setAside: [high] }))
    expect(held.decision).toBe('NEEDS_DISCUSSION')
    expect(held.findings).toEqual([
      expect.objectContaining({
        id: 'RL-h',
        verification: expect.objectContaining({
          status: 'refuted',
          held: true,
          reconsidered: { kept: true, why: 'it could not be asked: no review part holds it' }
        })
      })
    ])
    expect(held.setAside).toBeUndefined()
    expect(held.summary).toContain('"Overflow" (RL-h, src/a.ts:3, high: the verifier refuted it)')
    expect(held.summary).toContain('a maintainer decides')
    // hold-go-at: none is the behaviour before it: set aside, GO
    const before = await setup([], { 'hold-go-at': 'none' })(
      verdict({ decision: 'NO_GO', setAside: [high] })
    )
    expect(before.decision).toBe('GO')
    expect(before.findings).toEqual([])
  })

  it('a finding one pass set aside and another raised with its evidence is judged once, as raised', async () => {
    const raised = finding({ id: 'RL-a', severity: 'high', evidence: 'x' })
    const unmatched = {
      ...raised,
      verification: {
        status: 'unverified' as const,
        by: 'evidence' as const,
        why: 'no',
        blocks: false
      }
    }
    const out = await setup([])(
      verdict({ decision: 'NO_GO', findings: [raised], setAside: [unmatched] })
    )
    expect(out.findings.map(f => [f.id, f.verification?.held])).toEqual([['RL-a', undefined]])
    expect(out.setAside).toBeUndefined()
    expect(out.decision).toBe('NO_GO')
  })

  it('a blocker a maintainer dismissed is not held', async () => {
    const high = { ...aside, id: 'RL-h', severity: 'high' as const }
    const dismissed = [{ id: 'RL-h', by: 'maintainer', at: '2026-11-28T00:00:00Z' }]
    const out = await setup([], {}, { dismissed })(verdict({ decision: 'NO_GO', setAside: [high] }))
    expect(out.decision).toBe('GO')
    expect(out.setAside?.map(f => f.id)).toEqual(['RL-h'])
    // the PR's author cannot dismiss it (the same rule as approve)
    const own = [{ ...dismissed[0]!, by: pull().author }]
    const held = await setup(
      [],
      {},
      { dismissed: own }
    )(verdict({ decision: 'NO_GO', setAside: [high] }))
    expect(held.decision).toBe('NEEDS_DISCUSSION')
  })
})

describe('a blocker the verifier could not check', () => {
  it('still blocks, saying why, when the verifier call fails', async () => {
    const git = new FakeGit(SHA_B)
    const ai = settings({ 'anthropic-api-key': 'k' }).ai
    const deps = {
      client: { create: () => Promise.reject(new Error('overloaded (529) after retries')) },
      ai: { ...ai, reviewMaxTurns: 1 },
      threshold: 'medium' as const,
      budget: new Budget(0, undefined),
      log: { info: () => {}, warning: () => {} },
      promptsDir: 'prompts'
    }
    const part = { system: [], tools: [], messages: [{ role: 'user' as const, content: [] }] }
    const input = {
      pull: pull({ headSha: SHA_B }),
      git,
      deadline: Date.now() + 60_000,
      shape: 'json' as const,
      state: state()
    }
    const x = finding({ id: 'RL-x', evidence: 'x' })
    const out = await holdUp(deps, input, verdict({ decision: 'NO_GO', findings: [x] }), () => part)
    expect(out.decision).toBe('NO_GO')
    expect(out.findings.map(f => [f.id, f.verification])).toEqual([
      [
        'RL-x',
        {
          status: 'uncertain',
          by: 'verifier',
          why: 'overloaded (529) after retries',
          blocks: true,
          unverifiable: true
        }
      ]
    ])
  })
})

describe('votes of several passes', () => {
  it('a pass whose part failed casts no vote, and its unreviewed files stay unreviewed', () => {
    const x = finding({ id: 'RL-x', file: 'src/a.ts', line: 3 })
    const coverage = (unreviewed: string[]) => ({
      files: 2,
      reviewed: 2 - unreviewed.length,
      ignored: [],
      unreviewed,
      failures: unreviewed.length ? ['part 1: API error'] : [],
      batches: 2
    })
    const out = combinePasses(
      [
        verdict({ decision: 'NO_GO', findings: [x], coverage: coverage([]) }),
        verdict({ decision: 'GO', coverage: coverage(['src/a.ts']), error: 'part 1 failed' })
      ],
      2,
      'medium'
    )
    expect(out.findings.map(f => [f.id, f.votes])).toEqual([['RL-x', { count: 1, passes: 2 }]])
    expect(out.coverage?.unreviewed).toEqual(['src/a.ts'])
    expect(out.coverage?.reviewed).toBe(1)
    expect(out.error).toBe('part 1 failed')
  })
})

describe('what people read of a verification', () => {
  it('says a finding that could not be verified blocks as raised, and why', () => {
    const text = verificationText(
      finding({
        verification: {
          status: 'uncertain',
          by: 'verifier',
          why: 'max-cost-usd left no room',
          blocks: true,
          unverifiable: true
        }
      })
    )
    expect(text).toContain('could not be verified: max-cost-usd left no room (it blocks as raised)')
    expect(text).not.toContain('block-uncertain')
  })
})
