import { describe, expect, it } from 'vitest'
import { loadScenario, runScenario } from '../../test-support/scenario.js'
import { priceOf, tierOf } from '../../src/model/pricing.js'
import { REVIEW_OUTPUT_RESERVE } from '../../src/review/review-batch.js'

/**
 * Issue 28's measured case, through dist/: four review parts in parallel under a max-cost-usd the
 * estimate says fits, each answering with twice its output reserve. Parallel calls must never pass
 * the budget by more than one call's reserve; each call's max_tokens is cut to what the budget has
 * left, so the spend stays within the cap.
 */
describe('review parts in parallel under max-cost-usd, through dist/', () => {
  it('never passes the cap, however long the answers', async () => {
    const scenario = loadScenario('scenarios/issue-28/budget-parallel.yaml')
    const cap = Number(scenario.inputs!['max-cost-usd'])
    const report = await runScenario(scenario)
    const run = report.runs.at(-1)!
    const spend = Number(run.outputs['total-cost-usd'])
    const calls = report.modelCalls.filter(c => c.status === 200)
    // the review was started (its estimate fits) and its first answer outgrew its reserve
    expect(calls.length).toBeGreaterThanOrEqual(2)
    expect(Math.max(...calls.map(c => c.usage!.output_tokens))).toBeGreaterThan(
      2 * REVIEW_OUTPUT_RESERVE
    )
    // a call's reserve as the budget prices it: its whole prompt as a cache write, plus the reserve
    const reserves = calls.map(c => {
      const u = c.usage!
      const tokens = u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens
      const price = tierOf(priceOf(c.model).price, tokens)
      return (tokens * price.cacheWrite + REVIEW_OUTPUT_RESERVE * price.output) / 1_000_000
    })
    expect(spend - cap).toBeLessThanOrEqual(Math.max(...reserves))
    // within the cap, in fact: later calls were given only what the budget had left
    expect(spend).toBeLessThanOrEqual(cap)
    expect(calls.filter(c => c.maxTokens < 32_000).length).toBeGreaterThanOrEqual(1)
    expect(run.outputs['status']).toBe('budget_exhausted')
  }, 120_000)
})
