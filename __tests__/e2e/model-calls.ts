/**
 * What the e2e tests of the verified review (issue 28) and the fail-safe rule (issue 37) read of the
 * model server's recorded calls: which call was the verifier, the reviewer's second look, the fixer.
 */
import { runScenario, type Scenario } from '../../test-support/scenario.js'
import type { RecordedCall } from '../../test-support/model-server.js'

/** A call's messages as one text (JSON), to search. */
export const text = (c: RecordedCall) => JSON.stringify(c.messages)
export const isVerifier = (c: RecordedCall) => /# (Earlier finding|Finding) to verify/.test(text(c))
export const isReconsider = (c: RecordedCall) => text(c).includes('# Finding to reconsider')
export const isFixer = (c: RecordedCall) =>
  (c.tools as Array<{ name: string }>).some(t => t.name === 'edit_file')

/** Runs a scenario through dist/ and keeps every model call; `State` is the final state's shape. */
export async function runRecorded<State>(scenario: Scenario) {
  let calls: RecordedCall[] = []
  const report = await runScenario(scenario, {
    keep: async (_s, server) => {
      calls = [...server!.calls]
    }
  })
  return { report, calls, state: report.finalState as unknown as State }
}
