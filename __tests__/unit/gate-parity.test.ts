import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  copySample,
  loadFixture,
  located,
  replay,
  sortPlanted
} from '../../test-support/gate-parity.js'
import { GATE_TOOLS } from '../../test-support/gate-tools.js'

/**
 * Every fixture of real tool output (__tests__/fixtures/gates, each naming the tool and version that
 * printed it) replayed through the gates: every planted problem lands on its file and line with the
 * tool's severity, and nothing else does.
 */
let root: string
beforeAll(() => {
  root = copySample()
})
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('gates read what real tools print', () => {
  it.each(GATE_TOOLS.map(t => [`${t.tool} ${t.format}`, t] as const))('%s', (_name, tool) => {
    const fixture = loadFixture(tool.id)
    expect(fixture.check).toBe(tool.check)
    expect(located(replay(tool, fixture, root))).toEqual(sortPlanted(tool.planted))
  })
})
