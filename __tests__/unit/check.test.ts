import { describe, expect, it } from 'vitest'
import { parseSettings } from '../../src/inputs.js'
import { checkConclusion } from '../../src/loop/rules.js'
import { appendReview } from '../../src/loop/record.js'
import { newState } from '../../src/loop/state.js'
import { checkRunSummary, checkTitle, toAnnotations } from '../../src/report/check-run.js'
import { finding, NOW, reviewed, verifiedReview } from './builders.js'

describe('toAnnotations', () => {
  it('maps severities to annotation levels, most severe first', () => {
    const annotations = toAnnotations([
      finding({ severity: 'suggestion', line: 5 }),
      finding({ severity: 'low', line: 4 }),
      finding({ severity: 'critical', line: 1 }),
      finding({ severity: 'medium', line: 3 }),
      finding({ severity: 'high', line: 2 })
    ])
    expect(annotations.map(a => [a.startLine, a.level, a.title])).toEqual([
      [1, 'failure', '[critical] Something is wrong'],
      [2, 'failure', '[high] Something is wrong'],
      [3, 'warning', '[medium] Something is wrong'],
      [4, 'warning', '[low] Something is wrong'],
      [5, 'notice', '[suggestion] Something is wrong']
    ])
    expect(annotations[0]).toMatchObject({ file: 'src/a.ts', message: 'A longer explanation.' })
  })

  it('skips findings without a file or line', () => {
    const annotations = toAnnotations([
      finding({ file: undefined, line: undefined, title: 'no location' }),
      finding({ line: undefined, title: 'file only' }),
      finding({ line: 0, title: 'line zero' }),
      finding({ title: 'located' })
    ])
    expect(annotations.map(a => a.title)).toEqual(['[high] located'])
  })

  it('never ends an annotation before it starts', () => {
    const [backwards, range] = toAnnotations([
      finding({ line: 10, endLine: 4 }),
      finding({ line: 10, endLine: 14 })
    ])
    expect(backwards).toMatchObject({ startLine: 10, endLine: 10 })
    expect(range).toMatchObject({ startLine: 10, endLine: 14 })
  })

  it('puts the suggested fix in the details', () => {
    const [a] = toAnnotations([finding({ suggestedFix: 'Use a Map.' })])
    expect(a!.details).toBe('Suggested fix:\nUse a Map.')
  })
})

describe('checkConclusion', () => {
  const failOn = (value: string) =>
    parseSettings(name => ({ 'github-token': 't', checks: 'a: b', 'fail-on': value })[name] ?? '')
      .failOn

  it('succeeds on GO', () => {
    expect(checkConclusion('GO', 'go', failOn(''))).toBe('success')
  })

  it('fails a NO_GO while the loop goes on', () => {
    expect(checkConclusion('NO_GO', 'running', failOn('never'))).toBe('failure')
  })

  it('fails a terminal state listed in fail-on, and is neutral for the others', () => {
    expect(checkConclusion('NO_GO', 'max_iterations', failOn(''))).toBe('failure')
    expect(checkConclusion('NO_GO', 'stalled', failOn('stalled'))).toBe('failure')
    expect(checkConclusion('NO_GO', 'max_iterations', failOn('stalled'))).toBe('neutral')
    expect(checkConclusion('NEEDS_DISCUSSION', 'needs_discussion', failOn('never'))).toBe('neutral')
  })

  it('is no success for a GO review on which the loop did not end GO (its branch deleted)', () => {
    expect(checkConclusion('GO', 'needs_discussion', failOn(''))).toBe('failure')
    expect(checkConclusion('GO', 'needs_discussion', failOn('never'))).toBe('neutral')
    expect(checkTitle('GO', [], 'needs_discussion')).toBe(
      'Not GO: the loop ended needs_discussion (see the summary)'
    )
    expect(checkTitle('GO', [], 'go')).toBe('GO')
    expect(checkTitle('NO_GO', [finding()], 'needs_discussion')).toMatch(/^NO_GO: 1 finding/)
  })
})

describe('checkRunSummary, with verified findings', () => {
  const links = { serverUrl: 'https://github.com', owner: 'acme', repo: 'widgets', pr: 7 }
  const { findings, setAside } = verifiedReview()
  const s = appendReview(newState(7, 3, NOW), reviewed({ findings, setAside }))

  it("shows each blocker's evidence, the verifier's word and votes, then what was not acted on", () => {
    const summary = checkRunSummary(s, findings, links, undefined, undefined, setAside)
    expect(summary).toContain(
      '  ✅ confirmed by the verifier: average() is called with \\[\\] from report.ts (read src/stats.ts:12, src/report.ts:40) · raised by 2 of 3 passes\n  ```\n  const mean = total / items.length'
    )
    expect(summary.indexOf('### Not acted on (3)')).toBeGreaterThan(
      summary.indexOf('### Open findings (2)')
    )
    expect(summary).toContain(
      '3 findings were not acted on: 1 quotes code that is not in the file, 2 refuted by the verifier.'
    )
    expect(summary).toContain(
      '<details><summary>🚫 SQL injection in search — refuted by the verifier</summary>'
    )
  })

  it('says the count from the state when the findings are not at hand', () => {
    expect(checkRunSummary(s, findings, links)).toContain(
      '**Not acted on:** 3 findings were not acted on: 1 quotes code that is not in the file, 2 refuted by the verifier.'
    )
  })
})
