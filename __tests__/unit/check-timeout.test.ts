import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTerminalLog } from '../../src/cli/terminal-log.js'
import { runGates } from '../../src/gates/run-gates.js'
import { createCommandRunner } from '../../src/process/command-runner.js'

let dir: string

beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'rl-timeout-')))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** A check that prints `output` and then never ends, run to a 1-second timeout; what a terminal shows. */
async function hangingCheck(output: string) {
  const shown: string[] = []
  writeFileSync(path.join(dir, 'printed.txt'), output)
  const [gate] = await runGates(
    [{ name: 'test', command: 'cat printed.txt; sleep 60' }],
    createCommandRunner(),
    {
      repoRoot: dir,
      cwd: dir,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
      timeoutMs: 1000,
      log: createTerminalLog(line => shown.push(line))
    }
  )
  return { gate: gate!, shown: shown.join('\n') }
}

describe('a check that times out', () => {
  it('in watch mode (Vitest where CI is not set): the finding and the terminal show its last lines and name the cause', async () => {
    // the last lines Vitest 4.1.12 printed in watch mode on a terminal (run here under `script`,
    // where CI is not set), after a passing run of one test, its colours kept
    const { gate, shown } = await hangingCheck(
      [
        '\x1b[2m   Duration \x1b[22m 957ms\x1b[2m (transform 33ms, setup 0ms, import 193ms, tests 5ms, environment 0ms)\x1b[22m\r',
        '\r',
        '\x1b[1m\x1b[30m\x1b[42m PASS \x1b[49m\x1b[39m\x1b[22m \x1b[32mWaiting for file changes...\x1b[39m\r',
        '       \x1b[2mpress \x1b[22m\x1b[1mh\x1b[22m\x1b[2m to show help\x1b[22m\x1b[2m, \x1b[22m\x1b[2mpress \x1b[22m\x1b[1mq\x1b[22m\x1b[2m to quit\x1b[22m\r',
        ''
      ].join('\n')
    )
    expect(gate.timedOut).toBe(true)
    const [finding] = gate.findings
    expect(finding?.title).toBe("Check 'test' timed out in watch mode")
    expect(finding?.description).toContain('PASS  Waiting for file changes...')
    expect(finding?.description).toContain('`vitest run`')
    expect(finding?.description).toContain('CI=true')
    // on the terminal: the check's last lines, then why
    expect(shown).toMatch(
      /── check test: timed out\n\$ .*\n(.*\n)*.*press h to show help.*\n.*watch mode.*`vitest run`.*CI=true/
    )
  })

  it('otherwise: its last lines, and the usual causes', async () => {
    const { gate, shown } = await hangingCheck('starting the server on port 3000\n')
    const [finding] = gate.findings
    expect(finding?.title).toBe("Check 'test' timed out")
    expect(finding?.description).toContain('starting the server on port 3000')
    expect(finding?.description).toMatch(
      /usually waiting: a test runner in watch mode .*command-timeout-minutes/
    )
    expect(shown).toContain('usually waiting: a test runner in watch mode')
  })
})
