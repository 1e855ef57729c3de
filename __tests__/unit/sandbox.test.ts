import { execFileSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Confined } from '../../src/ports/index.js'
import { chooseSandbox, type Exec } from '../../src/process/bwrap.js'
import { COMMAND_ID } from '../../src/process/command-runner.js'
import { bwrapArgs, createConfinement, hiddenFolders } from '../../src/process/sandbox.js'
import { fakeLog } from './fake-ports.js'
import { alive } from '../../test-support/processes.js'

const CANARY = 'canary-6f1d2c9e8b7a'

let dir: string
let repo: string
let runnerTemp: string
let home: string

function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim()
}

beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'rl-sandbox-')))
  repo = path.join(dir, 'work', 'repo', 'repo')
  runnerTemp = path.join(dir, 'work', '_temp')
  home = path.join(dir, 'home')
  for (const d of [repo, runnerTemp, path.join(runnerTemp, '_runner_file_commands'), home])
    mkdirSync(d, { recursive: true })
  writeFileSync(path.join(home, '.git-credentials'), `https://x:${CANARY}@github.com\n`)
  writeFileSync(path.join(runnerTemp, 'gha-creds-1.json'), CANARY)
  writeFileSync(path.join(runnerTemp, '_runner_file_commands', 'set_env_1'), '')
  git(repo, ['init', '-q'])
  git(repo, ['config', 'http.https://github.com/.extraheader', `AUTHORIZATION: basic ${CANARY}`])
  writeFileSync(path.join(repo, 'a.txt'), 'a\n')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

async function confined(
  mode: 'required' | 'off',
  network: 'allow' | 'deny' = 'allow'
): Promise<Confined> {
  const cleanConfig = path.join(dir, 'pr-config')
  writeFileSync(cleanConfig, '[core]\n\trepositoryformatversion = 0\n')
  const confine = createConfinement({
    mode,
    network,
    passthrough: [],
    tempDir: path.join(runnerTemp, 'review-loop-private'),
    env: {
      PATH: process.env['PATH'],
      HOME: home,
      RUNNER_TEMP: runnerTemp,
      RUNNER_WORKSPACE: path.join(dir, 'work', 'repo'),
      GITHUB_ENV: path.join(runnerTemp, '_runner_file_commands', 'set_env_1'),
      GITHUB_TOKEN: CANARY
    },
    log: fakeLog()
  })
  return confine({ root: repo, gitDir: path.join(repo, '.git'), gitConfig: cleanConfig })
}

async function run(c: Confined, command: string) {
  return c.runner.run(command, { cwd: repo, env: c.env, timeoutMs: 20_000 })
}

/** Starts processes that leave the process group, one without the marker, and waits for them. */
const ESCAPERS = (n: number[]): string =>
  [
    `echo "$${COMMAND_ID}"`,
    `(sleep ${n[0]} &)`,
    `setsid -f sleep ${n[1]}`,
    `nohup setsid sh -c 'sleep ${n[2]} & exit 0' >/dev/null 2>&1 & wait`,
    `env -u ${COMMAND_ID} setsid -f sleep ${n[3]}`,
    ...n.map(k => `until pgrep -xf 'sleep ${k}' >/dev/null; do :; done`)
  ].join('; ')

describe('the sandbox (bubblewrap) around PR code', () => {
  // the process that runs the command holds the canary, as the action holds its token
  beforeEach(() => {
    process.env['REVIEW_LOOP_TEST_CANARY'] = CANARY
  })
  afterEach(() => {
    delete process.env['REVIEW_LOOP_TEST_CANARY']
  })

  it("hides the action's processes: no /proc/$PPID/environ of the parent, no other process at all", async () => {
    const c = await confined('required')
    expect(c.sandboxed).toBe(true)
    const r = await run(
      c,
      `cat /proc/$PPID/environ /proc/1/environ 2>/dev/null | tr '\\0' '\\n'; for p in /proc/[0-9]*; do cat $p/environ $p/cmdline 2>/dev/null; done; echo; ls /proc | grep -c '^[0-9]'`
    )
    expect(r.output).not.toContain(CANARY)
    // bwrap's init, bash, and the commands of the pipeline: a handful, not the host's
    expect(Number(r.stdout.trim().split('\n').pop())).toBeLessThan(10)
  })

  it("hides the runner's home and temp folders and shows a credential-free .git/config", async () => {
    const c = await confined('required')
    const r = await run(
      c,
      `cat ${home}/.git-credentials ${runnerTemp}/gha-creds-1.json .git/config 2>&1; ls ${runnerTemp}/_runner_file_commands 2>&1; env`
    )
    expect(r.output).not.toContain(CANARY)
    expect(r.output).toContain('repositoryformatversion')
  })

  it('keeps .git read-only and the work tree writable', async () => {
    const c = await confined('required')
    const r = await run(
      c,
      'echo x > b.txt && git config core.hooksPath /tmp/evil; echo "rc=$?"; touch .git/x; echo "rc=$?"'
    )
    expect(r.stdout).toContain('rc=255')
    expect(existsSync(path.join(repo, 'b.txt'))).toBe(true)
    expect(existsSync(path.join(repo, '.git', 'x'))).toBe(false)
    expect(git(repo, ['config', '--list'])).not.toContain('hookspath')
  }, 30_000)

  it('kills every process the command started when it ends', async () => {
    const c = await confined('required')
    const marker = path.join(repo, 'survivor')
    const started = Date.now()
    await run(
      c,
      `(setsid sh -c 'sleep 2; touch ${marker}' &) ; nohup sh -c 'sleep 2; touch ${marker}' >/dev/null 2>&1 & echo started`
    )
    await new Promise(r => setTimeout(r, 3000))
    expect(existsSync(marker)).toBe(false)
    expect(Date.now() - started).toBeGreaterThan(2000)
  }, 30_000)

  it('kills setsid and double-forked children in the sandbox when the command exits, marked or not', async () => {
    const c = await confined('required')
    const sleeps = [98756, 98755, 98754, 98753]
    const r = await c.runner.run(`${ESCAPERS(sleeps)}; exit 0`, {
      cwd: repo,
      env: c.env,
      timeoutMs: 60_000
    })
    expect(r.exitCode).toBe(0)
    expect(r.timedOut).toBe(false)
    expect(r.stdout.trim()).toMatch(/^[0-9a-f]{32}$/)
    // the one without the marker died with the PID namespace, when its first process ended
    for (const k of sleeps) expect(alive(`sleep ${k}`), `sleep ${k}`).toEqual([])
    expect(alive(`${COMMAND_ID}=${r.stdout.trim()}`)).toEqual([])
  })

  it('kills setsid children in the sandbox at the timeout too', async () => {
    const c = await confined('required')
    const sleeps = [98752, 98751, 98750, 98749]
    const r = await c.runner.run(`${ESCAPERS(sleeps)}; sleep 98748`, {
      cwd: repo,
      env: c.env,
      timeoutMs: 1000
    })
    expect(r.exitCode).toBe(124)
    expect(r.timedOut).toBe(true)
    for (const k of [...sleeps, 98748]) expect(alive(`sleep ${k}`), `sleep ${k}`).toEqual([])
    expect(alive(`${COMMAND_ID}=${r.stdout.trim()}`)).toEqual([])
  })

  it('denies the network when asked: loopback only', async () => {
    const c = await confined('required', 'deny')
    const r = await run(c, 'cut -d: -f1 /proc/net/dev | tail -n +3')
    expect(r.stdout.trim().split(/\s+/)).toEqual(['lo'])
  })

  it('without the sandbox, still gives only the allow-listed environment, and says so', async () => {
    const c = await confined('off')
    expect(c.warning).toMatch(/without bubblewrap|unsandboxed/)
    const r = await run(c, 'env')
    expect(r.output).not.toContain(CANARY)
  })

  it.runIf(process.getuid?.() === 0)(
    "without the sandbox, as root: PR code runs as the user made for it, cannot read the action's process, leaves nothing running, and what it wrote is the action's again",
    async () => {
      const c = await confined('off')
      expect(c.warning).toMatch(/as the user review-loop-pr made for it/)
      const r = await run(
        c,
        `id -un; cat /proc/${process.pid}/environ; head -c1 /proc/${process.pid}/mem; echo made > made.txt; mkdir -p d/e && echo x > d/e/f; setsid -f sleep 98771; git status --short | head -1`
      )
      expect(r.output).toMatch(/^review-loop-pr$/m)
      expect(r.output).toMatch(/environ: Permission denied/)
      expect(r.output).toMatch(/mem.*Permission denied/)
      expect(r.output).not.toContain(CANARY)
      // git works in a .git another user owns
      expect(r.output).toMatch(/^\?\? /m)
      expect(alive('sleep 98771')).toEqual([])
      for (const f of ['made.txt', 'd', 'd/e', 'd/e/f'])
        expect(statSync(path.join(repo, f)).uid, f).toBe(0)
    }
  )
})

describe('choosing the sandbox', () => {
  const calls: string[] = []
  const fake =
    (answers: Record<string, number>): Exec =>
    async (file, args) => {
      const key = `${file} ${args.join(' ')}`
      calls.push(key)
      const hit = Object.entries(answers).find(([k]) => key.startsWith(k))
      return {
        code: hit ? hit[1] : 0,
        output: hit && hit[1] ? 'bwrap: setting up uid map: Permission denied' : ''
      }
    }

  it('loads the AppArmor profile with sudo when user namespaces are restricted (Ubuntu 24.04)', async () => {
    calls.length = 0
    let probes = 0
    const exec: Exec = async (file, args, input) => {
      const r = await fake({})(file, args, input)
      if (file === 'bwrap' && args[0] !== '--version')
        return {
          code: probes++ === 0 ? 1 : 0,
          output: 'bwrap: setting up uid map: Permission denied'
        }
      return r
    }
    const choice = await chooseSandbox('auto', 'allow', exec, 'linux')
    expect(choice.kind).toBe('bwrap')
    expect(calls).toContain('sudo -n apparmor_parser -r /etc/apparmor.d/review-loop-bwrap')
    expect(choice.setup.join()).toMatch(/AppArmor profile/)
  })

  it('gives up with the reason where there is neither a working bwrap nor sudo', async () => {
    const choice = await chooseSandbox(
      'auto',
      'allow',
      fake({ 'sudo -n true': 1, 'bwrap --die-with-parent': 1 }),
      'linux'
    )
    expect(choice).toMatchObject({ kind: 'none' })
    expect(choice.kind === 'none' && choice.reason).toMatch(/cannot create namespaces.*uid map/)
  })

  it('refuses auto where neither bubblewrap nor a user of its own can run, while secrets are there; runs with off', async () => {
    const exec: Exec = async file =>
      ['bwrap', 'sudo', 'setpriv'].includes(file)
        ? { code: 1, output: `${file}: Operation not permitted` }
        : { code: 0, output: file === 'id' ? '2000000001' : '' }
    const options = {
      network: 'allow' as const,
      passthrough: [],
      tempDir: path.join(runnerTemp, 'x'),
      env: { PATH: process.env['PATH'] },
      log: fakeLog(),
      exec,
      secretsAtRisk: ['github-token', 'anthropic-api-key']
    }
    const checkout = { root: repo, gitDir: path.join(repo, '.git'), gitConfig: '/dev/null' }
    await expect(createConfinement({ ...options, mode: 'auto' })(checkout)).rejects.toThrow(
      /sandbox: auto will not run your checks and fix commands here: .*cannot run as a user of their own \(setpriv cannot start a command as review-loop-pr.*they could read github-token, anthropic-api-key.*set sandbox: off/
    )
    const off = await createConfinement({ ...options, mode: 'off' })(checkout)
    expect(off.sandboxed).toBe(false)
    expect(off.warning).toMatch(
      /^PR code ran unsandboxed \(sandbox: off\), as the action's own user \(.*\)\. It could read the job's secrets/
    )
    // with no PR code to run, auto runs on, saying so
    const none = await createConfinement({ ...options, mode: 'auto', secretsAtRisk: [] })(checkout)
    expect(none.warning).toMatch(/^PR code ran unsandboxed: /)
    // off Linux (a self-hosted macOS runner) there is no user of its own either: auto refuses too
    await expect(
      createConfinement({ ...options, mode: 'auto', platform: 'darwin' })(checkout)
    ).rejects.toThrow(
      /cannot run as a user of their own \(setpriv runs on Linux alone, not on darwin\)/
    )
  })

  it('fails a required sandbox with what to install', async () => {
    const confine = createConfinement({
      mode: 'required',
      network: 'allow',
      passthrough: [],
      tempDir: path.join(runnerTemp, 'x'),
      env: {},
      log: fakeLog(),
      exec: fake({ 'sudo -n true': 1, 'bwrap --version': 127, 'bwrap --die-with-parent': 127 })
    })
    await expect(
      confine({ root: repo, gitDir: path.join(repo, '.git'), gitConfig: '/dev/null' })
    ).rejects.toThrow(
      /sandbox is required but bubblewrap \(bwrap\) is not installed.*apt-get install bubblewrap/
    )
  })
})

describe('hiddenFolders', () => {
  it('hides the runner install folder, and leaves work-tree folders on PATH writable', () => {
    const { hide, show } = hiddenFolders(
      { PATH: '/srv/ws/repo/node_modules/.bin:/opt/actions-runner/externals/node20/bin:/usr/bin' },
      {
        execPath: '/opt/actions-runner/externals/node24/bin/node',
        writable: ['/srv/ws/repo']
      }
    )
    expect(hide).toEqual(expect.arrayContaining(['/opt/actions-runner', '/run', '/tmp']))
    expect(show).toContain('/opt/actions-runner/externals/node20/bin')
    expect(show).not.toContain('/srv/ws/repo/node_modules/.bin')
  })

  it('hides the real folder behind a symbolic link (a work folder on another disk)', () => {
    const disk = path.join(dir, 'disk', 'work', '_temp')
    mkdirSync(disk, { recursive: true })
    mkdirSync(path.join(dir, 'h'))
    symlinkSync(path.join(dir, 'disk', 'work'), path.join(dir, 'h', 'work'))
    const { hide } = hiddenFolders(
      { HOME: path.join(dir, 'h'), RUNNER_TEMP: path.join(dir, 'h', 'work', '_temp') },
      { real: p => (existsSync(p) ? realpathSync(p) : path.resolve(p)) }
    )
    expect(hide).toContain(disk)
  })
})

describe('bwrapArgs', () => {
  it('mounts parents before children, so the work tree inside the hidden home stays visible', () => {
    const { hide, show } = hiddenFolders({
      HOME: '/home/runner',
      RUNNER_TEMP: '/home/runner/work/_temp',
      RUNNER_WORKSPACE: '/home/runner/work/repo',
      PATH: '/home/runner/.cargo/bin:/usr/bin'
    })
    expect(hide).toEqual(
      expect.arrayContaining(['/tmp', '/home/runner', '/home/runner/work/_temp'])
    )
    // on a hosted runner /home/runner/.cargo and .rustup exist and are shown too
    expect(show.slice(0, 2)).toEqual(['/home/runner/.cargo/bin', '/run/systemd/resolve'])
    const args = bwrapArgs(
      {
        root: '/home/runner/work/repo/repo',
        gitDir: '/home/runner/work/repo/repo/.git',
        gitConfig: '/home/runner/work/_temp/pr-config',
        dirs: { home: '/home/runner/work/_temp/p/home', tmp: '/home/runner/work/_temp/p/tmp' },
        hide,
        show,
        mask: ['/var/run/docker.sock'],
        network: 'allow',
        root_user: true
      },
      '/home/runner/work/repo/repo',
      'npm test'
    )
    const at = (...seq: string[]) => args.join('\u0000').indexOf(seq.join('\u0000'))
    expect(at('--tmpfs', '/home/runner')).toBeLessThan(at('--bind', '/home/runner/work/repo/repo'))
    expect(at('--bind', '/home/runner/work/repo/repo')).toBeLessThan(
      at('--ro-bind', '/home/runner/work/repo/repo/.git')
    )
    expect(at('--tmpfs', '/home/runner/work/_temp')).toBeLessThan(
      at('--bind', '/home/runner/work/_temp/p/home')
    )
    expect(args).toEqual(
      expect.arrayContaining(['--unshare-pid', '--die-with-parent', '--cap-drop', 'ALL'])
    )
    expect(at('--ro-bind', '/dev/null', '/var/run/docker.sock')).toBeGreaterThan(0)
    expect(args.slice(-2)).toEqual(['-c', 'npm test'])
  })
})
