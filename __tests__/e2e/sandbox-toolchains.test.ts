import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { loadScenario, runScenario } from '../../test-support/scenario.js'
import { systemPython } from '../../test-support/runner-layout.js'

/**
 * Issue 26's done-when, through dist/ with `sandbox: required`: on a runner-images layout
 * (test-support/runner-layout.ts) every check reaches its tool through a rustup-style proxy, links,
 * a pyenv shim and a pip --user script and ends with its own exit code, and a check that reads
 * every credential file of the runner's home and temp folder reads none.
 */
const hasBwrap = spawnSync('bwrap', ['--version']).status === 0

describe.skipIf(!hasBwrap || !systemPython())('toolchains in the sandbox, through dist/', () => {
  it('runs every check to its real exit code, and no credential file is readable', async () => {
    const report = await runScenario(loadScenario('scenarios/issue-26/sandbox-toolchains.yaml'))
    const summary = report.runs[0]!.summary
    const rows = Object.fromEntries(
      [...summary.matchAll(/^\| ([a-z0-9-]+) \| (?:✅ pass|❌ fail) \| (\d+) \|/gm)].map(m => [
        m[1],
        Number(m[2])
      ])
    )
    expect(rows).toEqual({
      'rustup-proxy': 0,
      'pipx-link': 0,
      'tarball-link': 0,
      'node-modules-link': 0,
      'go-modcache': 0,
      'java-home': 0,
      'pyenv-shim': 0,
      'user-site': 0,
      'planted-exit-3': 3,
      credentials: 0
    })
  }, 120_000)
})
