import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * The files that take longest, in the order they start (`npm run profile` measures them). Unknown
 * to vitest on a clean clone (no cache of durations), they would start by size, and the dataset's
 * self-checks, four-line files that run tests for a minute each, would start last and end alone.
 * The unit project's come first, then the end-to-end ones, so that the e2e files stay together: a
 * worker that runs them (`isolate: false`) keeps its warm hosts only while e2e files follow one
 * another. Files that mostly wait (the fault matrix's timeouts) start beside ones that compute.
 */
const LONGEST = [
  '__tests__/eval/dataset-go.test.ts',
  '__tests__/eval/dataset-python.test.ts',
  '__tests__/e2e/fault-matrix-reads.test.ts',
  '__tests__/e2e/fault-matrix-writes.test.ts',
  '__tests__/e2e/gate-tools.test.ts',
  '__tests__/e2e/faults.test.ts',
  '__tests__/e2e/random-kill.test.ts',
  '__tests__/e2e/large-pr.test.ts',
  '__tests__/e2e/verdicts.test.ts',
  '__tests__/e2e/eval.test.ts'
]
/** Where an e2e file not in the list goes: after the listed ones, before the rest of the unit files. */
const OTHER_E2E = LONGEST.length
const OTHER = LONGEST.length + 1

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification): number => {
      const at = LONGEST.findIndex(file => spec.moduleId.endsWith(file))
      if (at >= 0) return at
      return spec.project.name === 'e2e' ? OTHER_E2E : OTHER
    }
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b))
  }
}
