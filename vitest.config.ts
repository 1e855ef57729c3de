import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['__tests__/**/*.test.ts'],
    globalSetup: ['test-support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // e2e tests spawn real git and node processes and wait on them about half the time: three
    // workers keep a 2-core machine busy (measured: two left it a third idle outside the fault matrix)
    maxWorkers: 3,
    // tests marked concurrent (the fault matrix, the random kills) run this many at a time per file
    maxConcurrency: 4
  }
})
