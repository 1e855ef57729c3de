import { describe, expect, it } from 'vitest'
import { zeroUsage } from '../../src/loop/usage.js'
import {
  caseLine,
  countMatches,
  placeMatches,
  samePlace,
  summarize,
  summaryLines,
  type EvalCaseResult
} from '../../src/report/eval-score.js'

const issue = { file: 'index.js', lines: [10, 12] as const }

function result(over: Partial<EvalCaseResult>): EvalCaseResult {
  return {
    id: 'case',
    language: 'javascript',
    kind: 'bug',
    status: 'done',
    decision: 'NO_GO',
    findings: 0,
    trueFindings: 0,
    duplicates: 0,
    issues: 1,
    foundIssues: 0,
    usage: zeroUsage(),
    wallMs: 1000,
    ...over
  }
}

describe('matching a finding to a labelled issue by place', () => {
  it('takes the same file and a line within the labelled lines ± the tolerance, and nothing else', () => {
    expect(samePlace(issue, { file: 'index.js', line: 11 }, 0)).toBe(true)
    expect(samePlace(issue, { file: 'index.js', line: 7 }, 3)).toBe(true)
    expect(samePlace(issue, { file: 'index.js', line: 6 }, 3)).toBe(false)
    expect(samePlace(issue, { file: 'index.js', line: 15 }, 3)).toBe(true)
    expect(samePlace(issue, { file: 'index.js', line: 16 }, 3)).toBe(false)
    // a finding's own range counts when it overlaps
    expect(samePlace(issue, { file: 'index.js', line: 1, endLine: 10 }, 0)).toBe(true)
    expect(samePlace(issue, { file: 'lib/index.js', line: 11 }, 3)).toBe(false)
    // no line: no match by place
    expect(samePlace(issue, { file: 'index.js' }, 3)).toBe(false)
  })

  it('counts an issue found by several findings once: the first is true, the rest duplicates', () => {
    const issues = [issue, { file: 'b.js', lines: [1, 1] as const }]
    const findings = [
      { file: 'index.js', line: 10 },
      { file: 'index.js', line: 12 }, // the same issue again: a duplicate
      { file: 'c.js', line: 1 }
    ]
    const matches = placeMatches(issues, findings, 0)
    expect(matches).toEqual([
      [0, 0],
      [1, 0]
    ])
    expect(countMatches(findings.length, issues.length, matches)).toEqual({
      findings: 3,
      trueFindings: 1,
      duplicates: 1,
      issues: 2,
      foundIssues: 1
    })
    // a later finding that also finds a new issue is true
    expect(
      countMatches(2, 2, [
        [0, 0],
        [1, 0],
        [1, 1]
      ])
    ).toMatchObject({ trueFindings: 2, duplicates: 0, foundIssues: 2 })
    // two labels within the tolerance of one finding: each finding still pairs with its own issue
    expect(
      countMatches(2, 2, [
        [0, 0],
        [0, 1],
        [1, 0]
      ])
    ).toMatchObject({ trueFindings: 2, duplicates: 0, foundIssues: 2 })
  })

  it('leaves duplicates out of precision and says how many', () => {
    // 3 findings on one issue and one false: 1 true of 2 judged, not 3 of 4
    const s = summarize([
      result({ findings: 4, trueFindings: 1, duplicates: 2, issues: 1, foundIssues: 1 })
    ])
    expect(s.precision).toBeCloseTo(1 / 2)
    expect(s.duplicates).toBe(2)
    expect(summaryLines(s, 3)).toContain(
      'Precision 0.50 (1 of 2 findings match a labelled issue, ±3 lines; 2 duplicates left out)'
    )
    expect(
      caseLine(result({ id: 'd', findings: 4, trueFindings: 1, duplicates: 2, foundIssues: 1 }), 1)
    ).toContain('1 true (2 duplicate), 1/1 issues')
  })
})

describe('the eval totals', () => {
  it('gives micro-averaged precision, recall and F1, false NO_GO on clean cases and GO on bug cases', () => {
    const s = summarize([
      result({ findings: 2, trueFindings: 1, issues: 1, foundIssues: 1 }),
      result({ findings: 1, trueFindings: 1, issues: 2, foundIssues: 1, decision: 'GO' }),
      result({ kind: 'clean', issues: 0, findings: 1, decision: 'NO_GO' }),
      result({ kind: 'clean', issues: 0, decision: 'GO' }),
      result({ status: 'error', error: 'boom' }),
      result({ status: 'skipped' })
    ])
    expect(s.precision).toBeCloseTo(2 / 4)
    expect(s.recall).toBeCloseTo(2 / 3)
    expect(s.f1).toBeCloseTo((2 * 0.5 * (2 / 3)) / (0.5 + 2 / 3))
    expect(s.falseNoGo).toEqual({ count: 1, of: 2, rate: 0.5 })
    expect(s.missedGo).toEqual({ count: 1, of: 2, rate: 0.5 })
    expect([s.done, s.errors, s.skipped]).toEqual([4, 1, 1])
    expect(s.fixed).toBeUndefined()
  })

  it('leaves precision undefined without findings; F1 is 0 when nothing was found', () => {
    const s = summarize([result({})])
    expect(s.precision).toBeUndefined()
    expect(s.recall).toBe(0)
    expect(s.f1).toBe(0)
    expect(summaryLines(s, 3)).toContain(
      'Precision – (0 of 0 findings match a labelled issue, ±3 lines)'
    )
    // only clean cases: no issue to find, nothing found: no recall and no F1
    const clean = summarize([result({ kind: 'clean', issues: 0, decision: 'GO' })])
    expect([clean.precision, clean.recall, clean.f1]).toEqual([undefined, undefined, undefined])
    expect(summaryLines(clean, 3)).toContain('F1        –')
  })

  it('counts a fix when the test failed before the loop and passes after, and a clean case the loop broke', () => {
    const s = summarize([
      result({ test: { before: 'failed', after: 'passed' } }),
      result({ test: { before: 'failed', after: 'failed' } }),
      result({ test: { before: 'failed', after: 'unavailable' } }),
      result({ kind: 'clean', issues: 0, test: { before: 'passed', after: 'failed' } })
    ])
    expect(s.fixed).toEqual({ count: 1, of: 2, rate: 0.5 })
    expect(s.broken).toEqual({ count: 1, of: 1 })
    expect(summaryLines(s, 3).join('\n')).toContain('Fix rate: 50 % (1 of 2)')
  })

  it('shows a case as a line with its verdict, counts, test and cost', () => {
    const line = caseLine(
      result({
        id: 'js-x',
        findings: 2,
        trueFindings: 1,
        foundIssues: 1,
        test: { before: 'failed', after: 'passed' },
        usage: { ...zeroUsage(), inputTokens: 1000, outputTokens: 200, costUsd: 0.004 }
      }),
      6
    )
    expect(line).toMatch(
      /^js-x {4}bug {4}NO_GO +2 found +1 true, 1\/1 issues +test failed → passed +1200 tok +\$0\.0040 +1\.0 s$/
    )
    expect(caseLine(result({ id: 'js-y', status: 'skipped' }), 4)).toBe(
      'js-y  bug    not run (budget)'
    )
  })
})
