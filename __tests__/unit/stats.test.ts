import { describe, expect, it } from 'vitest'
import type {
  Category,
  FindingRecord,
  FixOutcome,
  FixRecord,
  IterationRecord,
  LoopState
} from '../../src/loop/types.js'
import { zeroUsage } from '../../src/loop/usage.js'
import { computeStats, renderStats, statsLines } from '../../src/report/stats.js'
import { iteration, state } from './builders.js'

const WINDOW = 'the last 50 pull requests of acme/widgets'

function rec(id: string, category: Category, source: string): FindingRecord {
  return { id, severity: 'high', category, source, status: 'open', since: 1 }
}

function fix(outcome: FixOutcome): FixRecord {
  return {
    outcome,
    ...(outcome === 'pushed' ? { commitSha: 'f'.repeat(40) } : {}),
    filesChanged: ['src/a.ts'],
    commands: [],
    disputes: [],
    revertedProtected: [],
    durationMs: 1000
  }
}

/** Iterations 1..n of round 1, each with the given decision, findings and fix. */
function loop(
  pr: number,
  status: LoopState['status'],
  costUsd: number,
  steps: Array<Partial<IterationRecord>>
): LoopState {
  return state({
    pr,
    status,
    iterations: steps.map((s, i) => iteration({ n: i + 1, ...s })),
    totals: { ...zeroUsage(), inputTokens: 1000, outputTokens: 200, costUsd }
  })
}

/** Six PRs: GO at once, GO after three reviews, stalled, at the cap, needs discussion, running. */
function sample(): LoopState[] {
  return [
    loop(101, 'go', 0.1, [{ decision: 'GO', findings: [rec('S1', 'style', 'ai')] }]),
    loop(102, 'go', 0.9, [
      {
        findings: [rec('A', 'logic', 'ai'), rec('B', 'security', 'gate:lint')],
        fix: fix('pushed')
      },
      { findings: [rec('A', 'logic', 'ai'), rec('C', 'testing', 'human')], fix: fix('pushed') },
      { decision: 'GO' }
    ]),
    loop(103, 'stalled', 0.4, [
      { findings: [rec('D', 'logic', 'ai')], fix: fix('pushed') },
      { findings: [rec('D', 'logic', 'ai')], fix: fix('no_changes') }
    ]),
    loop(104, 'max_iterations', 1.2, [
      { findings: [rec('E', 'style', 'ai'), rec('F', 'security', 'ai')], fix: fix('pushed') },
      { findings: [rec('E', 'style', 'ai')], fix: fix('pushed') },
      { findings: [rec('E', 'style', 'ai')] }
    ]),
    loop(105, 'needs_discussion', 0.3, [
      { decision: 'NEEDS_DISCUSSION', findings: [rec('G', 'architecture', 'human')] }
    ]),
    loop(106, 'running', 0.2, [{ findings: [rec('H', 'logic', 'gate:lint')], fix: fix('pushing') }])
  ]
}

describe('loop analytics figures', () => {
  const stats = computeStats(sample())

  it('counts the PRs and how their loops ended, running ones apart', () => {
    expect(stats.counted).toBe(6)
    expect(stats.byStatus).toMatchObject({
      go: 2,
      stalled: 1,
      max_iterations: 1,
      needs_discussion: 1,
      running: 1,
      budget_exhausted: 0,
      stopped: 0,
      error: 0,
      closed: 0,
      merged: 0
    })
  })

  it("takes first-pass GO from the first review, and iterations to GO from GO'd PRs only", () => {
    expect(stats.firstPassGoRate).toBeCloseTo(1 / 6)
    expect(stats.prs.filter(p => p.firstPassGo).map(p => p.pr)).toEqual([101])
    expect(stats.prs.map(p => p.iterationsToGo)).toEqual([
      1,
      3,
      undefined,
      undefined,
      undefined,
      undefined
    ])
    expect(stats.iterationsToGo).toEqual({ median: 2, mean: 2 })
  })

  it("does not count a human's approval (/review-loop approve) as the loop reaching GO", () => {
    const approved = {
      ...loop(201, 'go', 0.5, [
        { decision: 'NO_GO' },
        { decision: 'NO_GO' },
        { decision: 'NO_GO' }
      ]),
      override: {
        by: 'maintainer',
        reason: 'known flake',
        sha: 'a'.repeat(40),
        at: '2026-11-22T00:00:00Z'
      }
    } as LoopState
    const figures = computeStats([approved])
    expect(figures.byStatus['go']).toBe(1)
    expect(figures.prs[0]!.iterationsToGo).toBeUndefined()
    expect(figures.iterationsToGo).toEqual({ median: undefined, mean: undefined })
  })

  it('counts a finding once per PR however many iterations raised it, then sums over PRs', () => {
    expect(stats.prs.find(p => p.pr === 102)!.categories).toEqual({
      logic: 1,
      security: 1,
      testing: 1
    })
    expect(stats.topCategories).toEqual([
      ['logic', 3],
      ['security', 2],
      ['style', 2],
      ['architecture', 1],
      ['testing', 1]
    ])
    expect(stats.topSources).toEqual([
      ['ai', 5],
      ['gate:lint', 2],
      ['human', 2]
    ])
  })

  it('counts only fixes that were pushed (not no-change, not still pushing)', () => {
    expect(stats.prs.map(p => [p.pr, p.fixesPushed])).toEqual([
      [101, 0],
      [102, 2],
      [103, 1],
      [104, 2],
      [105, 0],
      [106, 0]
    ])
    expect(stats.fixesPushed).toBe(5)
  })

  it('sums cost and tokens, with mean, median and max cost per PR', () => {
    expect(stats.cost.total).toBeCloseTo(3.1)
    expect(stats.cost.mean).toBeCloseTo(3.1 / 6)
    expect(stats.cost.median).toBeCloseTo(0.35)
    expect(stats.cost.max).toBe(1.2)
    expect(stats.tokens).toBe(6 * 1200)
  })

  it('keeps only the top five categories, ties broken by name', () => {
    const all: Category[] = [
      'testing',
      'style',
      'security',
      'performance',
      'logic',
      'documentation'
    ]
    const s = computeStats([
      loop(1, 'go', 0, [
        { decision: 'GO', findings: all.map((c, i) => rec(`X${i}`, c, 'ai')) },
        { decision: 'GO', findings: [rec('Y', 'testing', 'ai')] }
      ])
    ])
    expect(s.topCategories).toEqual([
      ['testing', 2],
      ['documentation', 1],
      ['logic', 1],
      ['performance', 1],
      ['security', 1]
    ])
  })

  it('judges first pass on round 1 and iterations to GO on the round that reached it', () => {
    const s = computeStats([
      state({
        pr: 9,
        status: 'go',
        round: 2,
        iterations: [
          iteration({ n: 1, round: 1, decision: 'GO' }),
          iteration({ n: 2, round: 2, fix: fix('pushed') }),
          // a fix a human asked for carries the review: it is no review of its own
          iteration({ n: 3, round: 2, trigger: { by: 'octocat', command: 'fix' } }),
          iteration({ n: 4, round: 2, decision: 'GO' })
        ]
      })
    ])
    expect(s.prs[0]).toMatchObject({ iterations: 4, firstPassGo: true, iterationsToGo: 2 })
  })

  it('keeps the newest state when a PR is given twice', () => {
    const older = loop(5, 'running', 0.1, [{}])
    const newer = {
      ...loop(5, 'go', 0.5, [{}, { decision: 'GO' }]),
      updatedAt: '2025-02-01T00:00:00.000Z'
    }
    const s = computeStats([newer, older])
    expect(s.counted).toBe(1)
    expect(s.prs[0]).toMatchObject({ status: 'go', iterationsToGo: 2, costUsd: 0.5 })
  })
})

describe('the analytics job summary', () => {
  const md = renderStats(computeStats(sample()), { window: WINDOW })

  it('shows the headline figures in a table', () => {
    expect(md).toMatch(/^## Review-loop analytics\n/)
    expect(md).toContain(`Over ${WINDOW}: 6 pull requests with review-loop state.`)
    expect(md).toContain('| first-pass GO | 17% (1 of 6) |')
    expect(md).toContain('| iterations to GO | median 2, mean 2.0 (over 2 PRs that reached GO) |')
    expect(md).toContain('| still running | 1 |')
    expect(md).toContain('| fixes pushed | 5 (0.83 per PR) |')
    expect(md).toContain('| cost per PR | mean $0.52, median $0.35, max $1.20 |')
    expect(md).toContain('| total cost | $3.10 |')
    expect(md).toContain('| tokens | 7,200 |')
    expect(md).not.toMatch(/NaN|undefined/)
  })

  it('charts how loops ended as a Mermaid pie, running loops left out', () => {
    const pie = md.match(/```mermaid\npie showData\n([\s\S]*?)```/)
    expect(pie).not.toBeNull()
    expect(pie![1]!.split('\n').filter(Boolean)).toEqual([
      '  "GO" : 2',
      '  "stopped at the iteration cap" : 1',
      '  "needs discussion" : 1',
      '  "stalled" : 1'
    ])
  })

  it('charts iterations to GO as a Mermaid bar chart with a bar for each count', () => {
    expect(md).toContain(
      [
        '```mermaid',
        'xychart-beta',
        '  title "Review iterations to GO"',
        '  x-axis "review iterations" ["1", "2", "3"]',
        '  y-axis "pull requests" 0 --> 1',
        '  bar [1, 0, 1]',
        '```'
      ].join('\n')
    )
  })

  it('lists top categories and sources, and each PR with its figures', () => {
    expect(md).toContain('| 1 | logic | 3 | ai | 5 |')
    expect(md).toContain('| 4 | architecture | 1 |  |  |')
    expect(md).toContain('| #102 | GO | 3 | no | 3 | 2 | $0.90 |')
    expect(md).toContain('| #101 | GO | 1 | yes | 1 | 0 | $0.10 |')
    expect(md).toContain('| #106 | running | 1 | no | — | 0 | $0.20 |')
  })

  it('escapes a gate name that would break the table, and takes a title', () => {
    const s = computeStats([loop(1, 'stalled', 0, [{ findings: [rec('Z', 'logic', 'gate:a|b')] }])])
    const out = renderStats(s, { title: 'Loops this week', window: WINDOW })
    expect(out).toMatch(/^## Loops this week\n/)
    expect(out).toContain('| 1 | logic | 1 | gate:a\\|b | 1 |')
  })

  it('draws no bar chart when no PR reached GO, and says so', () => {
    const out = renderStats(computeStats(sample().filter(s => s.status !== 'go')), {
      window: WINDOW
    })
    expect(out).toContain('pie showData')
    expect(out).not.toContain('xychart-beta')
    expect(out).toContain('| iterations to GO | no PR reached GO |')
  })

  it('says plainly that nothing was found for no states, with no NaN', () => {
    const stats = computeStats([])
    expect(stats).toMatchObject({
      counted: 0,
      firstPassGoRate: undefined,
      iterationsToGo: {},
      cost: { total: 0 },
      tokens: 0
    })
    const out = renderStats(stats, { window: WINDOW })
    expect(out).toContain(`No review-loop state found in ${WINDOW}.`)
    expect(out).not.toMatch(/NaN|undefined|mermaid/)
    expect(statsLines(stats)).toEqual(['No review-loop state found.'])
  })
})

describe('the analytics as terminal lines', () => {
  it('gives the same figures as the summary', () => {
    expect(statsLines(computeStats(sample()))).toEqual([
      'Pull requests with loop state: 6',
      'First-pass GO: 17% (1 of 6)',
      'Iterations to GO: median 2, mean 2.0 (over 2 PRs that reached GO)',
      'Ended: GO: 2 · stopped at the iteration cap: 1 · needs discussion: 1 · stalled: 1',
      'Still running: 1',
      'Top categories: logic 3, security 2, style 2, architecture 1, testing 1',
      'Top sources: ai 5, gate:lint 2, human 2',
      'Fixes pushed: 5 (0.83 per PR)',
      'Cost per PR: mean $0.52, median $0.35, max $1.20; total $3.10',
      'Tokens: 7,200'
    ])
  })
})

describe('findings not acted on, in the analytics', () => {
  it('sums the findings the reviews set aside by why, and says nothing of them when there were none', () => {
    const states = [
      loop(201, 'go', 0.2, [
        { setAside: { unverified: 1, refuted: 1 } },
        { decision: 'GO', setAside: { refuted: 1 } }
      ]),
      loop(202, 'stalled', 0.2, [{ setAside: { uncertain: 2, outvoted: 1 } }])
    ]
    const stats = computeStats(states)
    expect(stats.setAside).toEqual({ unverified: 1, refuted: 2, uncertain: 2, outvoted: 1 })
    const why =
      '6: 1 quotes code that is not in the file, 2 refuted by the verifier, 2 left uncertain by the verifier, 1 raised by too few review passes'
    expect(renderStats(stats, { window: WINDOW })).toContain(`| findings not acted on | ${why} |`)
    expect(statsLines(stats)).toContain(`Findings not acted on: ${why}`)
    const none = computeStats(sample())
    expect(renderStats(none, { window: WINDOW })).not.toContain('not acted on')
    expect(statsLines(none).join('\n')).not.toContain('not acted on')
  })
})
