import { describe, expect, it } from 'vitest'
import { loadScenario, runScenario, type ScenarioReport } from '../../test-support/scenario.js'

const FILE = 'scenarios/issue-37/caller-reexport.yaml'

/**
 * The templates that answered each review's calls, one list per review (verifier calls aside): a
 * call with output_config is a review part's, a fixer's call ends the review before it.
 */
function reviews(report: ScenarioReport): number[][] {
  const out: number[][] = []
  let fixing = true
  for (const c of report.modelCalls) {
    if (c.verifier) continue
    if (!c.outputConfig) {
      fixing = true
      continue
    }
    if (fixing) out.push([])
    fixing = false
    out.at(-1)!.push(c.template ?? -1)
  }
  return out
}

describe('incremental review reaches callers through dist/ (issue 37)', () => {
  it("a fix that changes a function's signature sends its caller's part again, through a re-export", async () => {
    const scenario = loadScenario(FILE)
    const templates = scenario.model!.templates!
    // the reviewer's answer to the caller's part (src/cli/main.js's diff) in a later review
    const caller = templates.findIndex(t =>
      JSON.stringify(t.when ?? {}).includes('+export const count = line => splitWords(line).length')
    )
    const go = templates.length - 1
    expect(caller).toBeGreaterThan(0)
    const report = await runScenario(scenario)
    const [first, second, third, ...rest] = reviews(report)
    expect(rest).toEqual([])
    // iteration 1: all 3 parts, none of them the caller's later review
    expect(first).toHaveLength(3)
    expect(first).not.toContain(caller)
    // iteration 2: the fixed part and the caller's part (unchanged, but it names splitWords); the
    // third part names nothing that changed and is not sent again
    expect(second!.sort()).toEqual([caller, go].sort())
    // iteration 3: the caller's mended part alone, GO
    expect(third).toEqual([go])
    expect(report.runs.at(-1)!.outputs['status']).toBe('go')
    expect(report.finalState?.['iterations']).toEqual([
      expect.objectContaining({
        decision: 'NO_GO',
        coverage: expect.objectContaining({ batches: 3 })
      }),
      expect.objectContaining({
        decision: 'NO_GO',
        coverage: expect.objectContaining({ batches: 3, skipped: 1 }),
        findings: [
          expect.objectContaining({
            file: 'src/cli/main.js',
            title: 'count calls splitWords without the separator it now takes'
          })
        ]
      }),
      expect.objectContaining({ decision: 'GO' })
    ])
  }, 120_000)
})
