import { describe, expect, it } from 'vitest'
import { loadScenario, runScenario, type ScenarioReport } from '../../test-support/scenario.js'

const DIR = 'scenarios/issue-29'

/** Review input tokens (uncached, cache read and written) per review, verifier and fixer calls aside. */
function reviewInput(report: ScenarioReport): number[] {
  const out: number[] = []
  let fixing = true
  for (const c of report.modelCalls) {
    if (!c.usage || c.verifier) continue
    if (!c.outputConfig) {
      fixing = true
      continue
    }
    if (fixing) out.push(0)
    fixing = false
    out[out.length - 1]! +=
      c.usage.input_tokens + c.usage.cache_read_input_tokens + c.usage.cache_creation_input_tokens
  }
  return out
}

/** The comment's folded list of where each file was reviewed at its current content. */
function reviewedAt(report: ScenarioReport): string {
  const body = report.comments.at(-1)!.body
  const at = body.indexOf('<summary>Reviewed at their current content')
  return body.slice(at, body.indexOf('</details>', at))
}

const OTHERS = [0, 1, 2, 4, 6].map(k => `\`src/mod${k}/big.js\``).join(', ')

describe('incremental review through dist/ (issue 29, Done when)', () => {
  it('a one-line fix of a 188k-token PR in 7 parts sends one part again and ends go', async () => {
    const report = await runScenario(loadScenario(`${DIR}/one-line-fix.yaml`))
    const [first, second, ...rest] = reviewInput(report)
    expect(rest).toEqual([])
    expect(first).toBeGreaterThan(150_000)
    expect(second! / first!).toBeLessThanOrEqual(0.25)
    expect(report.runs.at(-1)!.outputs['status']).toBe('go')
    expect(reviewedAt(report)).toContain(
      `- in this iteration (2 files): \`src/mod3/big.js\`, \`src/mod3/handler.js\`\n- in iteration 1, unchanged since (6 files): \`src/mod0/big.js\`, \`src/mod1/big.js\`, \`src/mod2/big.js\`, \`src/mod4/big.js\`, \`src/mod5/big.js\`, \`src/mod6/big.js\``
    )
  }, 120_000)

  it("a human push to a second file sends that file's part again too", async () => {
    const report = await runScenario(loadScenario(`${DIR}/human-push.yaml`))
    expect(report.finalState?.['iterations']).toEqual([
      expect.objectContaining({ coverage: expect.objectContaining({ batches: 7 }) }),
      expect.objectContaining({
        decision: 'GO',
        coverage: expect.objectContaining({ batches: 7, unchanged: 5, skipped: 5 })
      })
    ])
    expect(reviewedAt(report)).toContain(
      `- in this iteration (3 files): \`src/mod3/big.js\`, \`src/mod3/handler.js\`, \`src/mod5/big.js\`\n- in iteration 1, unchanged since (5 files): ${OTHERS}`
    )
  }, 120_000)
})
