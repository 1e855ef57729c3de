import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  COMMAND_ID,
  ConfinementBroken,
  createCommandRunner,
  processesWith
} from '../../src/process/command-runner.js'
import { commandEnv, refusedPassthrough } from '../../src/process/command-env.js'
import { alive } from '../../test-support/processes.js'

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
      JAVA_HOME: '/opt/java',
      npm_config_update_notifier: 'false'
    })
  })

  it('sets CI=true as a runner does, where the environment has none (a laptop); keeps one it has', () => {
    const dirs = { home: '/private/home', tmp: '/private/tmp' }
    expect(commandEnv({ PATH: '/usr/bin' }, [], dirs)['CI']).toBe('true')
    expect(commandEnv({ CI: 'false' }, [], dirs)['CI']).toBe('false')
    expect(commandEnv({ CI: '' }, [], dirs)['CI']).toBe('')
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
  it('fails the run, not hangs, where the kill after a command fails; after still runs', async () => {
    const seen: string[] = []
    const runner = createCommandRunner(undefined, {
      kill: async () => {
        throw new ConfinementBroken('a process survived the kill')
      },
      after: async () => void seen.push('after')
    })
    await expect(
      runner.run('echo hi', { cwd: tmpdir(), timeoutMs: 10_000, env: {} })
    ).rejects.toThrow(/a process survived the kill/)
    expect(seen).toEqual(['after'])
  })

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

  it('cuts a flood of output at line ends: no half line is left to be read as a problem', async () => {
    const r = await runner.run("yes 'src/a.js:1:1: error: same' | head -n 1000000; exit 1", {
      cwd: dir,
      timeoutMs: 60_000,
      env: env()
    })
    expect(r.output.length).toBeLessThan(9 * 1024 * 1024)
    const lines = new Set(r.output.trimEnd().split('\n'))
    expect([...lines].filter(l => !l.includes('characters cut'))).toEqual([
      'src/a.js:1:1: error: same'
    ])
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

  it('is done when its own process exits: a background child holding the pipes is killed, not waited for', async () => {
    const r = await runner.run(`echo "$${COMMAND_ID}"; echo before; (sleep 98765 &); exit 0`, {
      cwd: dir,
      timeoutMs: 60_000,
      env: env()
    })
    expect(r.exitCode).toBe(0)
    expect(r.timedOut).toBe(false)
    const [id, said] = r.stdout.trim().split('\n')
    expect(id).toMatch(/^[0-9a-f]{32}$/)
    expect(said).toBe('before')
    expect(alive('sleep 98765')).toEqual([])
    expect(alive(`${COMMAND_ID}=${id}`)).toEqual([])
  })

  // each waits until its child has left the process group, which the group kill alone misses
  it.each([
    [
      "setsid sleep 98764 & until pgrep -xf 'sleep 98764' >/dev/null; do :; done; exit 0",
      'sleep 98764',
      0
    ],
    [
      "setsid -f sleep 98763; until pgrep -xf 'sleep 98763' >/dev/null; do :; done",
      'sleep 98763',
      0
    ],
    [`nohup setsid sh -c 'sleep 98762 & exit 0' >/dev/null 2>&1 & wait; exit 3`, 'sleep 98762', 3]
  ])('kills what left its process group when it exits: %s', async (command, survivor, exitCode) => {
    const r = await runner.run(`echo "$${COMMAND_ID}"; ${command}`, {
      cwd: dir,
      timeoutMs: 60_000,
      env: env()
    })
    expect(r.exitCode).toBe(exitCode)
    expect(r.timedOut).toBe(false)
    expect(alive(survivor)).toEqual([])
    expect(alive(`${COMMAND_ID}=${r.stdout.trim()}`)).toEqual([])
  })

  it('kills a setsid child at the timeout too', async () => {
    const r = await runner.run(`echo "$${COMMAND_ID}"; setsid -f sleep 98761; sleep 98760`, {
      cwd: dir,
      timeoutMs: 1000,
      env: env()
    })
    expect(r.exitCode).toBe(124)
    expect(r.timedOut).toBe(true)
    expect(alive('sleep 98761')).toEqual([])
    expect(alive('sleep 98760')).toEqual([])
    expect(alive(`${COMMAND_ID}=${r.stdout.trim()}`)).toEqual([])
  })

  it("leaves another command's processes alone", async () => {
    const stop = path.join(dir, 'stop')
    const other = runner.run(
      `echo "$${COMMAND_ID}"; setsid -f sleep 98759; while [ -d ${dir} ] && [ ! -e ${stop} ]; do sleep 0.05; done`,
      { cwd: dir, timeoutMs: 60_000, env: env() }
    )
    try {
      while (alive('sleep 98759').length === 0) await new Promise(r => setTimeout(r, 20))
      const r = await runner.run('setsid -f sleep 98758', {
        cwd: dir,
        timeoutMs: 60_000,
        env: env()
      })
      expect(r.exitCode).toBe(0)
      expect(alive('sleep 98758')).toEqual([])
      expect(alive('sleep 98759')).toHaveLength(1)
    } finally {
      writeFileSync(stop, '')
    }
    const o = await other
    expect(o.exitCode).toBe(0)
    expect(o.timedOut).toBe(false)
    expect(alive('sleep 98759')).toEqual([])
    expect(alive(`${COMMAND_ID}=${o.stdout.trim()}`)).toEqual([])
  })
})

describe('processesWith', () => {
  it('finds only the processes whose environment holds the exact marker', async () => {
    const entry = `${COMMAND_ID}=0123456789abcdef`
    const start = (extra: Record<string, string>) =>
      spawn('sleep', ['98757'], { env: { PATH: process.env['PATH'], ...extra }, stdio: 'ignore' })
    const marked = start({ [COMMAND_ID]: '0123456789abcdef' })
    const others = [
      start({ [COMMAND_ID]: '0123456789abcdef0' }),
      start({ NOTE: entry }),
      start({ [COMMAND_ID]: '0123456789abcde' })
    ]
    try {
      while (alive('sleep 98757').length < 4) await new Promise(r => setTimeout(r, 20))
      expect(processesWith(entry)).toEqual([marked.pid])
    } finally {
      for (const p of [marked, ...others]) p.kill('SIGKILL')
    }
  })
})
