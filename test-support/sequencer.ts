import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * The files that take longest, in the order they start (`npm run profile` measures them). Unknown
 * to vitest on a clean clone (no cache of durations), they would start by size, and the dataset's
 * self-checks, four-line files that run tests for a minute each, would start last and end alone.
 * Files that mostly wait (the fault matrix's timeouts) start beside files that keep a core busy.
 */
const LONGEST = [
  '__tests__/e2e/fault-matrix-reads.test.ts',
  '__tests__/eval/dataset-go.test.ts',
  '__tests__/e2e/fault-matrix-writes.test.ts',
  '__tests__/eval/dataset-python.test.ts',
  '__tests__/eval/dataset-js.test.ts',
  '__tests__/e2e/gate-tools.test.ts',
  '__tests__/e2e/faults.test.ts',
  '__tests__/e2e/random-kill.test.ts',
  '__tests__/e2e/large-pr.test.ts',
  '__tests__/e2e/verdicts.test.ts',
  '__tests__/e2e/eval.test.ts',
  '__tests__/unit/git.test.ts'
]

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification): number => {
      const at = LONGEST.findIndex(file => spec.moduleId.endsWith(file))
      return at < 0 ? LONGEST.length : at
    }
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b))
  }
}
