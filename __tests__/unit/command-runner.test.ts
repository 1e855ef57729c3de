import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createCommandRunner } from '../../src/process/command-runner.js'
import { commandEnv, refusedPassthrough } from '../../src/process/command-env.js'

describe('commandEnv', () => {
  it('keeps only the allow-list and the names passed through, with private HOME and TMPDIR', () => {
    const env = commandEnv(
      {
        PATH: '/usr/bin:/bin',
        HOME: '/home/runner',
        LANG: 'C.UTF-8',
        LC_ALL: 'C.UTF-8',
        CI: 'true',
        GITHUB_ACTIONS: 'true',
        RUNNER_OS: 'Linux',
        JAVA_HOME: '/opt/java',
        GITHUB_REPOSITORY: 'octo/sample',
        GITHUB_TOKEN: 'ghs_secret',
        'INPUT_GITHUB-TOKEN': 'ghs_secret',
        ACTIONS_RUNTIME_TOKEN: 'runtime',
        GH_PAT: 'ghp_secret',
        DEPLOY_KEY: 'deploy',
        SIGNING_KEY: 'signing',
        OPENAI_KEY: 'sk-openai',
        DATABASE_URL: 'postgres://u:pw@db/x',
        SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T/B/X',
        GITHUB_ENV: '/home/runner/work/_temp/_runner_file_commands/set_env_1',
        GITHUB_OUTPUT: '/home/runner/work/_temp/_runner_file_commands/set_output_1',
        NODE_OPTIONS: '--require /tmp/evil.js',
        UNSET: undefined
      },
      ['JAVA_HOME'],
      { home: '/private/home', tmp: '/private/tmp' }
    )
    expect(env).toEqual({
      PATH: '/usr/bin:/bin',
      HOME: '/private/home',
      TMPDIR: '/private/tmp',
      LANG: 'C.UTF-8',
      LC_ALL: 'C.UTF-8',
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      RUNNER_OS: 'Linux',
      JAVA_HOME: '/opt/java'
    })
  })

  it("refuses to pass through the action's credentials and the runner's control variables", () => {
    for (const name of [
      'GITHUB_TOKEN',
      'ACTIONS_RUNTIME_TOKEN',
      'INPUT_GITHUB-TOKEN',
      'GITHUB_ENV',
      'NODE_OPTIONS'
    ])
      expect(refusedPassthrough(name)).toBeDefined()
    expect(refusedPassthrough('JAVA_HOME')).toBeUndefined()
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
