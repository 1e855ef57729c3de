import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['__tests__/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // e2e tests spawn real git and node processes; two workers suit a 2-core machine
    maxWorkers: 2
  }
})
