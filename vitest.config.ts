import { defineConfig } from 'vitest/config'
import LongestFirst from './test-support/sequencer.js'

const E2E = '__tests__/e2e/**/*.test.ts'

export default defineConfig({
  test: {
    globalSetup: ['test-support/global-setup.ts'],
    // `npm run profile` (scripts/profile-ci.ts) records each file's CPU
    setupFiles: process.env['REVIEW_LOOP_PROFILE'] ? ['test-support/profile-setup.ts'] : [],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // e2e tests spawn real git and node processes and wait on them about half the time: three
    // workers keep a 2-core machine busy (measured: two left it a third idle outside the fault matrix)
    maxWorkers: 3,
    // tests marked concurrent (the fault matrix, the random kills) run this many at a time per file
    maxConcurrency: 4,
    // the longest files start first (test-support/sequencer.ts)
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'e2e',
          include: [E2E],
          // a worker runs one end-to-end file after another without starting again: the emulators'
          // OpenAPI description and the warm hosts that hold the built action (test-support/
          // action-hosts.ts) are loaded once per worker, not once per file (npm run profile: 0.6
          // CPU-s a file). Each file makes its own emulators, repositories and runs.
          isolate: false
        }
      },
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['__tests__/**/*.test.ts'],
          exclude: [E2E],
          // as for e2e: a worker keeps the modules it loaded from one file to the next (measured:
          // 103 → 98 CPU-s for this project); no unit test changes a module another one reads
          isolate: false
        }
      }
    ]
  }
})
