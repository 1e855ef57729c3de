import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createCommandRunner } from '../../src/process/command-runner.js'
import { scrubbedEnv } from '../../src/process/scrubbed-env.js'

describe('scrubbedEnv', () => {
  it('removes tokens, keys and action inputs but keeps what commands need', () => {
    const env = scrubbedEnv({
      PATH: '/usr/bin:/bin',
      HOME: '/home/runner',
      GITHUB_REPOSITORY: 'octo/sample',
      CI: 'true',
      GITHUB_TOKEN: 'ghs_secret',
      'INPUT_GITHUB-TOKEN': 'ghs_secret',
      'INPUT_ANTHROPIC-API-KEY': 'sk-ant-secret',
      INPUT_CHECKS: 'test: npm test',
      ACTIONS_RUNTIME_TOKEN: 'runtime',
      ACTIONS_ID_TOKEN_REQUEST_URL: 'https://token',
      ANTHROPIC_API_KEY: 'sk-ant-secret',
      AWS_SECRET_ACCESS_KEY: 'aws-secret',
      NPM_TOKEN: 'npm-secret',
      UNSET: undefined
    })
    expect(env).toEqual({
      PATH: '/usr/bin:/bin',
      HOME: '/home/runner',
      GITHUB_REPOSITORY: 'octo/sample',
      CI: 'true'
    })
  })
})

describe('createCommandRunner', () => {
  const runner = createCommandRunner()
  let dir: string
  const env = () => ({ PATH: process.env['PATH'], GREETING: 'hello' })

  beforeEach(() => {
    dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'rl-run-')))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('reports the exit code, stdout alone and both streams together, in the given directory and env', async () => {
    const r = await runner.run('echo "$GREETING from $(pwd)"; echo oops >&2; exit 3', {
      cwd: dir,
      timeoutMs: 10_000,
      env: env()
    })
    expect(r.exitCode).toBe(3)
    expect(r.timedOut).toBe(false)
    expect(r.stdout).toBe(`hello from ${dir}\n`)
    expect(r.output).toContain(`hello from ${dir}`)
    expect(r.output).toContain('oops')
    expect(r.stdout).not.toContain('oops')
  })

  it('fails a pipeline whose first command fails', async () => {
    const r = await runner.run('false | cat', { cwd: dir, timeoutMs: 10_000, env: env() })
    expect(r.exitCode).toBe(1)
  })

  it('kills a command at its timeout, with the processes it started', async () => {
    const pidFile = path.join(dir, 'child.pid')
    const r = await runner.run(`bash -c 'echo $$ > ${pidFile}; sleep 30' & sleep 30`, {
      cwd: dir,
      timeoutMs: 300,
      env: env()
    })
    expect(r.exitCode).toBe(124)
    expect(r.timedOut).toBe(true)
    expect(r.durationMs).toBeLessThan(10_000)
    expect(existsSync(pidFile)).toBe(true)
    const pid = readFileSync(pidFile, 'utf8').trim()
    // gone, or a zombie waiting to be reaped by init: either way no longer running
    const status = existsSync(`/proc/${pid}/status`)
      ? readFileSync(`/proc/${pid}/status`, 'utf8')
      : 'State:\tX (gone)'
    expect(status).toMatch(/State:\s+[ZX]/)
  })

  it('reports a missing directory as a failure instead of throwing', async () => {
    const r = await runner.run('true', {
      cwd: path.join(dir, 'missing'),
      timeoutMs: 10_000,
      env: env()
    })
    expect(r.exitCode).not.toBe(0)
    expect(r.timedOut).toBe(false)
  })
})
