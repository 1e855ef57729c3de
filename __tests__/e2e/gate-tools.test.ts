import { execSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  copySample,
  located,
  runLive,
  sortPlanted,
  toolEnv
} from '../../test-support/gate-parity.js'
import { GATE_TOOLS, type GateTool } from '../../test-support/gate-tools.js'

/**
 * The real tools, run as checks on the sample repository through runGates: each finds what its
 * captured fixture holds. CI installs the npm and Debian ones (.ci/run sets
 * REVIEW_LOOP_REAL_TOOLS=required, so a missing one fails); clippy runs where rustup put cargo.
 */
const required = process.env['REVIEW_LOOP_REAL_TOOLS'] === 'required'

function installed(tool: GateTool): boolean {
  try {
    execSync(`command -v ${tool.run!.bin}`, { env: toolEnv(), stdio: 'ignore', shell: '/bin/sh' })
    return true
  } catch {
    return false
  }
}

const live = GATE_TOOLS.filter(t => t.run)

describe('the real tools, run as checks', () => {
  it.each(live.map(t => [`${t.tool} ${t.format}`, t] as const))(
    '%s',
    async (_name, tool) => {
      if (!installed(tool)) {
        if (required && tool.run!.from !== 'rustup')
          throw new Error(
            `${tool.run!.bin} is not installed (${tool.run!.from}); .ci/run installs it`
          )
        return
      }
      const root = copySample()
      try {
        expect(located(await runLive(tool, root))).toEqual(sortPlanted(tool.planted))
      } finally {
        rmSync(root, { recursive: true, force: true })
      }
    },
    240_000
  )
})
