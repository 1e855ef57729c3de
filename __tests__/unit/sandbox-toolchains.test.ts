import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Confined } from '../../src/ports/index.js'
import { bwrapArgs, createConfinement, hiddenFolders } from '../../src/process/sandbox.js'
import { CREDENTIALS, MAX_LINKED, mergeRoots, toolchainRoot } from '../../src/process/toolchains.js'
import {
  buildRunnerLayout,
  credentialProbe,
  systemPython,
  type RunnerLayout
} from '../../test-support/runner-layout.js'
import { fakeLog } from './fake-ports.js'

const hasBwrap = spawnSync('bwrap', ['--version']).status === 0

let dir: string
let layout: RunnerLayout
let repo: string

beforeAll(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'rl-layout-')))
  layout = buildRunnerLayout(dir)
  repo = path.join(dir, 'runner/_work/repo/repo')
  mkdirSync(repo, { recursive: true })
  execFileSync('git', ['init', '-q'], { cwd: repo })
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function confined(env: Record<string, string>): Promise<Confined> {
  const cleanConfig = path.join(dir, 'pr-config')
  writeFileSync(cleanConfig, '[core]\n\trepositoryformatversion = 0\n')
  const confine = createConfinement({
    mode: 'required',
    network: 'allow',
    passthrough: [],
    tempDir: path.join(env['RUNNER_TEMP']!, 'review-loop-private'),
    env,
    log: fakeLog()
  })
  return confine({ root: repo, gitDir: path.join(repo, '.git'), gitConfig: cleanConfig })
}

describe.skipIf(!hasBwrap)(
  "a runner's toolchains in the sandbox (actions/runner-images layout)",
  () => {
    it('the layout works outside the sandbox: each check reaches its tool (the control)', () => {
      for (const [name, command] of Object.entries(layout.checks)) {
        const r = spawnSync('bash', ['-c', command], {
          cwd: repo,
          env: layout.env,
          encoding: 'utf8'
        })
        expect(`${r.status} ${r.stdout}${r.stderr}`, name).toMatch(/^0 reached /)
      }
    })

    it('runs every check to its end in bubblewrap, as the action runs it', async () => {
      const c = await confined(layout.env)
      expect(c.sandboxed).toBe(true)
      const reached: string[] = []
      for (const [name, command] of Object.entries(layout.checks)) {
        const r = await c.runner.run(command, { cwd: repo, env: c.env, timeoutMs: 20_000 })
        expect(`${r.exitCode} ${r.output}`, name).toMatch(/^0 reached /)
        reached.push(name)
      }
      expect(reached.length).toBe(systemPython() ? 8 : 6)
      // the variables point at the shown folders; HOME stays private
      expect(c.env).toMatchObject({
        CARGO_HOME: path.join(layout.home, '.cargo'),
        RUSTUP_HOME: path.join(layout.home, '.rustup'),
        GOPATH: path.join(layout.home, 'go'),
        JAVA_HOME: layout.env['JAVA_HOME'],
        JAVA_HOME_17_X64: layout.env['JAVA_HOME'],
        RUNNER_TOOL_CACHE: layout.env['RUNNER_TOOL_CACHE']
      })
      expect(c.env['HOME']).not.toBe(layout.home)
    })

    it('keeps every credential file out of reach, inside shown toolchain homes too', async () => {
      const c = await confined(layout.env)
      const r = await c.runner.run(
        `${credentialProbe(layout.credentials)}; ls -a ~/ ${layout.home} ${layout.home}/.cargo ${layout.home}/.local 2>&1`,
        { cwd: repo, env: c.env, timeoutMs: 20_000 }
      )
      expect(r.output).not.toContain(layout.canary)
      // the home shows only the toolchain folders, never .ssh, .aws, .config
      expect(r.output).not.toMatch(
        /^\.(ssh|aws|azure|kube|config|docker|git-credentials|npmrc|netrc)$/m
      )
      // the probe can tell: outside the sandbox it reads all of them
      const outside = spawnSync('bash', ['-c', credentialProbe(layout.credentials)], {
        encoding: 'utf8'
      })
      expect(outside.stdout.split(layout.canary).length - 1).toBe(layout.credentials.length)
    })

    it('masks credentials.toml in a CARGO_HOME outside the home (a rust Docker image: /usr/local/cargo)', async () => {
      const cargo = path.join(dir, 'usr-local-cargo')
      mkdirSync(path.join(cargo, 'bin'), { recursive: true })
      writeFileSync(path.join(cargo, 'credentials.toml'), `token = "${layout.canary}"\n`)
      const c = await confined({ ...layout.env, CARGO_HOME: cargo })
      const r = await c.runner.run(`cat "$CARGO_HOME/credentials.toml"; ls "$CARGO_HOME"`, {
        cwd: repo,
        env: c.env,
        timeoutMs: 20_000
      })
      expect(r.output).not.toContain(layout.canary)
      expect(r.stdout).toContain('bin')
    })
  }
)

describe.skipIf(!hasBwrap)('credential folders inside a shown folder', () => {
  it('are empty: a toolchain home set to ~/.config shows it without gh and gcloud', async () => {
    const config = path.join(layout.home, '.config')
    const c = await confined({ ...layout.env, DOTNET_ROOT: config })
    const r = await c.runner.run(
      `ls "$DOTNET_ROOT"; ls -A "$DOTNET_ROOT/gh" "$DOTNET_ROOT/gcloud"; cat "$DOTNET_ROOT"/gh/* "$DOTNET_ROOT"/gcloud/*; touch "$DOTNET_ROOT/gh/x"`,
      { cwd: repo, env: c.env, timeoutMs: 20_000 }
    )
    expect(c.env['DOTNET_ROOT']).toBe(config)
    expect(r.stdout).toMatch(/^gcloud\ngh\n/)
    expect(r.output).not.toContain(layout.canary)
    expect(r.output).toMatch(/Read-only file system/)
  })
})

describe('where links on PATH lead', () => {
  it('shows the outermost node_modules of a package, the prefix above a bin, else the folder', () => {
    const hidden = ['/home/runner']
    expect(toolchainRoot('/home/runner/t/node_modules/x/bin/x.js', hidden)).toBe(
      '/home/runner/t/node_modules'
    )
    expect(toolchainRoot('/home/runner/.local/pipx/venvs/foo/bin/foo', hidden)).toBe(
      '/home/runner/.local/pipx/venvs/foo'
    )
    // ~/bin/x: the prefix would be the whole home, so only ~/bin
    expect(toolchainRoot('/home/runner/bin/x', hidden)).toBe('/home/runner/bin')
    expect(toolchainRoot('/home/runner/opt/tool.sh', hidden)).toBe('/home/runner/opt')
  })

  it('merges thousands of links into a few folders, never into the home itself', () => {
    const roots = Array.from({ length: 3000 }, (_, i) => `/home/runner/.venvs/v${i}`)
    roots.push(...Array.from({ length: 10 }, (_, i) => `/home/runner/t${i}`))
    const merged = mergeRoots(roots, ['/home/runner'])
    expect(merged.length).toBeLessThanOrEqual(MAX_LINKED)
    expect(merged).toContain('/home/runner/.venvs')
    expect(merged).not.toContain('/home/runner')
  })

  it('a PATH folder with 1000 links into the home makes one mount for them', () => {
    const home = path.join(dir, 'many/home')
    const bin = path.join(dir, 'many/bin')
    mkdirSync(bin, { recursive: true })
    for (let i = 0; i < 1000; i++) {
      mkdirSync(path.join(home, `.venvs/v${i}/bin`), { recursive: true })
      writeFileSync(path.join(home, `.venvs/v${i}/bin/t${i}`), '')
      symlinkSync(path.join(home, `.venvs/v${i}/bin/t${i}`), path.join(bin, `t${i}`))
    }
    const { show } = hiddenFolders({ HOME: home, PATH: bin }, { real: p => p })
    expect(show.filter(s => s.startsWith(home))).toEqual([path.join(home, '.venvs')])
  })
})

describe("the PR's own links", () => {
  it('are never followed: a node_modules/.bin link of the work tree opens no folder of the home', () => {
    const home = path.join(dir, 'pr-links/home')
    const work = path.join(dir, 'pr-links/work')
    mkdirSync(path.join(home, 'actions-runner/bin'), { recursive: true })
    writeFileSync(path.join(home, 'actions-runner/bin/Runner.Listener'), '')
    writeFileSync(path.join(home, 'actions-runner/.credentials'), layout.canary)
    mkdirSync(path.join(work, 'node_modules/.bin'), { recursive: true })
    symlinkSync(
      path.join(home, 'actions-runner/bin/Runner.Listener'),
      path.join(work, 'node_modules/.bin/evil')
    )
    writeFileSync(
      path.join(work, 'node_modules/.bin/script'),
      `#!${home}/actions-runner/bin/Runner.Listener\n`
    )
    const { show } = hiddenFolders(
      { HOME: home, PATH: path.join(work, 'node_modules/.bin') },
      { real: p => p, writable: [work] }
    )
    expect(show.filter(s => s.startsWith(home))).toEqual([])
  })
})

describe('the credential list', () => {
  it('names each entry with its reason, the README table made from it', () => {
    for (const c of CREDENTIALS) expect(c.why.length, c.path).toBeGreaterThan(10)
    expect(CREDENTIALS.map(c => c.path)).toEqual(
      expect.arrayContaining(['~/.ssh', '$CARGO_HOME/credentials.toml', '~/.config/gh'])
    )
  })

  it('masks a credential folder with an empty read-only folder, after the folder that holds it', () => {
    const args = bwrapArgs(
      {
        root: '/w/r',
        gitDir: '/w/r/.git',
        gitConfig: '/t/c',
        dirs: { home: '/t/h', tmp: '/t/t' },
        hide: ['/home/runner'],
        show: ['/home/runner/.cargo'],
        mask: ['/home/runner/.cargo/credentials.toml'],
        maskFolders: ['/home/runner/.cargo/secrets'],
        network: 'allow',
        root_user: false
      },
      '/w/r',
      'true'
    ).join(' ')
    expect(args).toContain('--ro-bind /dev/null /home/runner/.cargo/credentials.toml')
    expect(args.indexOf('--tmpfs /home/runner/.cargo/secrets --remount-ro')).toBeGreaterThan(
      args.indexOf('--ro-bind-try /home/runner/.cargo /home/runner/.cargo')
    )
  })
})

const works = (command: string): boolean => spawnSync('bash', ['-c', command]).status === 0

describe.skipIf(!hasBwrap)("this machine's own toolchains, through the sandbox", () => {
  // real tools as installed here (rustup in ~/.cargo and ~/.rustup, pyenv, go): each skips when absent
  async function realRun(files: Record<string, string>, command: string) {
    const work = realpathSync(mkdtempSync(path.join(tmpdir(), 'rl-real-')))
    try {
      for (const [name, text] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(work, name)), { recursive: true })
        writeFileSync(path.join(work, name), text)
      }
      execFileSync('git', ['init', '-q'], { cwd: work })
      writeFileSync(path.join(work, '.git/clean-config'), '[core]\n')
      const env = { ...process.env, RUNNER_TEMP: path.join(work, '.runner-temp') } as Record<
        string,
        string
      >
      const c = await createConfinement({
        mode: 'required',
        network: 'deny',
        passthrough: [],
        tempDir: path.join(work, '.runner-temp', 'private'),
        env,
        log: fakeLog()
      })({
        root: work,
        gitDir: path.join(work, '.git'),
        gitConfig: path.join(work, '.git/clean-config')
      })
      return await c.runner.run(command, { cwd: work, env: c.env, timeoutMs: 120_000 })
    } finally {
      rmSync(work, { recursive: true, force: true })
    }
  }

  it.skipIf(!works('cargo clippy --version'))(
    "cargo build, clippy and test run through rustup's proxy with CARGO_HOME read-only",
    async () => {
      const r = await realRun(
        {
          'Cargo.toml': '[package]\nname = "adder"\nversion = "0.1.0"\nedition = "2021"\n',
          'src/lib.rs':
            'pub fn add(a: i32, b: i32) -> i32 { a + b }\n#[cfg(test)]\nmod t { #[test] fn adds() { assert_eq!(super::add(1, 2), 3); } }\n'
        },
        'cargo build --offline && cargo clippy --offline && cargo test --offline'
      )
      expect(`${r.exitCode} ${r.output}`).toMatch(/^0 [\s\S]*test t::adds \.\.\. ok/)
    },
    180_000
  )

  it.skipIf(!works('go version'))(
    'go build and go vet run with a fresh GOCACHE and GOPATH read-only',
    async () => {
      const r = await realRun(
        {
          'go.mod': 'module example.com/m\n\ngo 1.19\n',
          'm.go': 'package m\n\nfunc Add(a, b int) int { return a + b }\n',
          'm_test.go':
            'package m\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal("add")\n\t}\n}\n'
        },
        'go build ./... && go vet ./... && echo vetted'
      )
      expect(`${r.exitCode} ${r.output}`).toMatch(/^0 [\s\S]*vetted/)
    },
    120_000
  )

  it.skipIf(!process.env['PYENV_ROOT'] || !works('python3 --version'))(
    "python3 runs through pyenv's shim",
    async () => {
      const r = await realRun({}, 'python3 -c "import sys; print(sys.prefix)"')
      expect(r.exitCode, r.output).toBe(0)
      expect(r.stdout.trim()).toContain(process.env['PYENV_ROOT'])
    }
  )
})
