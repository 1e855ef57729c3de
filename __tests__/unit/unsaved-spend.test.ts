import { describe, expect, it } from 'vitest'
import {
  carrySpend,
  MAX_CARRIED,
  readSpendMarkers,
  spendMarker,
  type UnsavedSpend
} from '../../src/loop/unsaved-spend.js'
import type { Usage } from '../../src/loop/types.js'
import { markSaved, newLedger, unsavedSpend, withUnsavedSpend } from '../../src/run/spend.js'
import { state as stateOf } from './builders.js'
import { context, fakeLog, FakeGitHub, settings } from './fake-ports.js'

const usage = (input: number, costUsd: number): Usage => ({
  inputTokens: input,
  outputTokens: 10,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd
})

describe('spend a run could not save', () => {
  it('round-trips through the marker and ignores anything malformed or forged beside it', () => {
    const entries: UnsavedSpend[] = [{ run: '42:1', usage: usage(100, 0.5) }]
    const text = [
      '> failed',
      spendMarker(entries),
      '<!-- review-loop:unsaved-spend [{"run":"x;rm","usage":{}}] -->',
      '<!-- review-loop:unsaved-spend [{"run":"7:1","usage":{"inputTokens":-5,"outputTokens":0,"cacheReadTokens":0,"cacheWriteTokens":0,"costUsd":1}}] -->',
      '<!-- review-loop:unsaved-spend [{"run":"8:1","usage":{"inputTokens":1,"outputTokens":0,"cacheReadTokens":0,"cacheWriteTokens":0,"costUsd":1e9}}] -->',
      '<!-- review-loop:unsaved-spend not json -->'
    ].join('\n')
    expect(readSpendMarkers(text)).toEqual(entries)
    expect(spendMarker([])).toBe('')
  })

  it('adds each run once: not this run, not a run the state carried already', () => {
    const base = stateOf({ totals: usage(1000, 1) })
    const found = [
      { run: '42:1', usage: usage(100, 0.5) },
      { run: '42:1', usage: usage(100, 0.5) },
      { run: '42:2', usage: usage(7, 0.25) }
    ]
    const once = carrySpend(base, found, '42:2')
    expect(once.state.totals).toMatchObject({ inputTokens: 1100, costUsd: 1.5 })
    expect(once.state.carriedSpend).toEqual(['42:1'])
    const again = carrySpend(once.state, found, '43:1')
    expect(again.state.totals).toMatchObject({ inputTokens: 1107, costUsd: 1.75 })
    expect(carrySpend(again.state, found, '44:1').carried).toEqual([])
    const many = Array.from({ length: MAX_CARRIED + 5 }, (_, i) => ({
      run: `${i}:1`,
      usage: usage(1, 0)
    }))
    expect(carrySpend(base, many, '0:9').state.carriedSpend).toHaveLength(MAX_CARRIED)
  })

  it("leaves out what a saved state holds, and takes a failed attempt's spend from its check run on a re-run", async () => {
    let spent = usage(300, 0.3)
    const ledger = newLedger()
    const ai = { spent: () => spent } as never
    const ctx = context({ runId: '77', runAttempt: 1 })
    expect(unsavedSpend({ ai, ledger, ctx })).toEqual([{ run: '77:1', usage: spent }])
    markSaved({ ai, ledger })
    expect(unsavedSpend({ ai, ledger, ctx })).toEqual([])
    spent = usage(500, 0.5)
    expect(unsavedSpend({ ai, ledger, ctx })).toEqual([
      { run: '77:1', usage: { ...usage(200, 0.2), outputTokens: 0 } }
    ])

    const github = new FakeGitHub()
    const s = settings({ checks: 'lint: true' })
    await github.createCheckRun({
      name: s.checkName,
      headSha: github.pull.headSha,
      conclusion: 'failure',
      title: 'review-loop failed',
      summary: `> failed\n${spendMarker([{ run: '77:1', usage: usage(300, 0.3) }])}`,
      annotations: [],
      externalId: `${github.pull.number}:failed:77:1`,
      startedAt: ''
    })
    const lines: string[] = []
    const deps = { github, settings: s, log: fakeLog(lines), ledger: newLedger() }
    const base = stateOf({ totals: usage(1000, 1) })
    // a new run (attempt 1) does not look at check runs; the re-run of run 77 does
    const first = await withUnsavedSpend(
      { ...deps, ctx: context({ runId: '78' }) },
      github.pull,
      undefined,
      base
    )
    expect(first.totals.inputTokens).toBe(1000)
    expect(github.calls).not.toContain('checkRunSummaries')
    const rerun = { ...deps, ctx: context({ runId: '77', runAttempt: 2 }) }
    const carried = await withUnsavedSpend(rerun, github.pull, undefined, base)
    expect(carried.totals).toMatchObject({ inputTokens: 1300, costUsd: 1.3 })
    expect(deps.ledger.pending.map(e => e.run)).toEqual(['77:1'])
    expect(lines.join('\n')).toContain('Carried the model spend of run 77:1')
  })
})
