import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { defaultNode } from '../../test-support/harness.js'

const CHILD = path.join(import.meta.dirname, 'fixtures', 'startup-child.mjs')
const ROOT = path.resolve(import.meta.dirname, '..', '..')

interface Started {
  restarted: boolean
  sandbox: string | null
  tried: boolean
  secretInEnv: string | null
  secretInFirstEnvironment: boolean
  args: string[]
}

/** Starts the stand-in action (on Node 24, as the runner does) with the inputs given. */
async function start(env: Record<string, string>): Promise<Started> {
  const { stdout } = await promisify(execFile)(defaultNode(), ['--import', 'tsx', CHILD], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', CANARY_SECRET: 'sk-canary', ...env }
  })
  return JSON.parse(stdout.trim().split('\n').pop()!) as Started
}

describe('the action as it starts: a restart without the secrets only where PR code runs outside bubblewrap', () => {
  it('does not restart where bubblewrap works: PR code runs in its own PID namespace and /proc', async () => {
    const started = await start({})
    expect(started).toMatchObject({ restarted: false, sandbox: 'bwrap', secretInEnv: 'sk-canary' })
    // the first environment keeps the secrets: only processes outside the sandbox could read it
    expect(started.secretInFirstEnvironment).toBe(true)
  })

  it('restarts without the secrets with sandbox: off, and takes them back into memory', async () => {
    const started = await start({ INPUT_SANDBOX: 'off' })
    expect(started).toMatchObject({ restarted: true, sandbox: null, secretInEnv: 'sk-canary' })
    expect(started.secretInFirstEnvironment).toBe(false)
  })

  it('restarts where bubblewrap cannot run, saying so to the new image, which does not set it up again', async () => {
    // no bwrap (and no sudo to install it) on this PATH
    const started = await start({ PATH: path.join(ROOT, 'no-such-folder') })
    expect(started).toMatchObject({ restarted: true, sandbox: null, tried: true, args: [] })
    expect(started.secretInFirstEnvironment).toBe(false)
  })

  it('neither sets up a sandbox nor restarts for mode: stats, which runs no PR code', async () => {
    const started = await start({ INPUT_MODE: 'stats', PATH: path.join(ROOT, 'no-such-folder') })
    expect(started).toMatchObject({ restarted: false, sandbox: null, tried: false })
  })
})
