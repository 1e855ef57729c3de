import path from 'node:path'
import { afterAll, beforeAll, expect } from 'vitest'
import { cpuSeconds, record } from './cpu.js'

/**
 * vitest's setup file under `npm run profile` (scripts/profile-ci.ts): for each test file, the CPU
 * its worker spent (itself, and the processes it started and waited for) and the wall time.
 */
// taken as the setup file loads, before the test file's own imports
const start = { ...cpuSeconds(), wall: performance.now(), at: Date.now() }
beforeAll(() => {
  const testPath = expect.getState().testPath ?? ''
  globalThis.__REVIEW_LOOP_TEST_FILE__ = path.relative(process.cwd(), testPath)
})
afterAll(() => {
  const now = cpuSeconds()
  record('files', {
    wallS: (performance.now() - start.wall) / 1000,
    startedAt: start.at,
    endedAt: Date.now(),
    selfS: now.self - start.self,
    childrenS: now.children - start.children
  })
})
