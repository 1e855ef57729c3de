import { execFileSync, spawnSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
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
      // the variables point at the shown folders; HOME stays private, and with it where Cargo and
      // Go download (CARGO_HOME, GOPATH, GOMODCACHE unset); Go reads the runner's cache by GOPROXY
      expect(c.env).toMatchObject({
        RUSTUP_HOME: path.join(layout.home, '.rustup'),
        GOPROXY: `file://${layout.home}/go/pkg/mod/cache/download,https://proxy.golang.org,direct`,
        JAVA_HOME: layout.env['JAVA_HOME'],
        JAVA_HOME_17_X64: layout.env['JAVA_HOME'],
        RUNNER_TOOL_CACHE: layout.env['RUNNER_TOOL_CACHE']
      })
      expect(c.env['HOME']).not.toBe(layout.home)
      expect(Object.keys(c.env)).not.toEqual(
        expect.arrayContaining([expect.stringMatching(/^(CARGO_HOME|GOPATH|GOMODCACHE)$/)])
      )
    })

    it('reads no module cache through GOPROXY from a path GOPROXY would split (`,`)', async () => {
      const cache = path.join(layout.home, 'go', 'mod,cache')
      mkdirSync(path.join(cache, 'cache', 'download'), { recursive: true })
      const c = await confined({ ...layout.env, GOMODCACHE: cache })
      expect(c.env['GOPROXY']).toBeUndefined()
    })

    it('keeps every credential file out of reach, inside shown toolchain homes too', async () => {
      const c = await confined(layout.env)
      const r = await c.runner.run(
        `${credentialProbe(layout.credentials)}; ls -a ~/ ${layout.home} ${layout.home}/.cargo ${layout.home}/.local 2>&1`,
        { cwd: repo, env: c.env, timeoutMs: 20_000 }
      )
      // the command ran in the sandbox (a bwrap that fails to start would read nothing either)
      expect(r.exitCode, r.output).toBe(0)
      expect(r.stdout).toMatch(/^\.cargo$/m)
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
      writeFileSync(path.join(cargo, 'config.toml'), `[registry]\ntoken = "${layout.canary}"\n`)
      const c = await confined({ ...layout.env, CARGO_HOME: cargo })
      const r = await c.runner.run(
        `cat ${cargo}/credentials.toml ${cargo}/config.toml; ls ${cargo}`,
        {
          cwd: repo,
          env: c.env,
          timeoutMs: 20_000
        }
      )
      expect(r.output).not.toContain(layout.canary)
      expect(r.stdout).toContain('bin')
    })
  }
)

describe.skipIf(!hasBwrap)('credential folders inside a shown folder', () => {
  it('are empty: a toolchain home set to ~/.config shows it without gh and gcloud', async () => {
    const config = path.join(layout.home, '.config')
    const c = await confined({ ...layout.env, PIPX_HOME: config })
    const r = await c.runner.run(
      `ls "$PIPX_HOME"; ls -A "$PIPX_HOME/gh" "$PIPX_HOME/gcloud"; cat "$PIPX_HOME"/gh/* "$PIPX_HOME"/gcloud/*; touch "$PIPX_HOME/gh/x"`,
      { cwd: repo, env: c.env, timeoutMs: 20_000 }
    )
    expect(c.env['PIPX_HOME']).toBe(config)
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
    // a folder right in the home holds settings and keys (~/.m2, ~/.config): never shown for a link
    expect(toolchainRoot('/home/runner/opt/tool.sh', hidden)).toBeUndefined()
    expect(toolchainRoot('/home/runner/.m2/settings.xml', hidden)).toBeUndefined()
    // its bin alone is: ~/.deno/bin/deno shows ~/.deno/bin, not ~/.deno
    expect(toolchainRoot('/home/runner/.deno/bin/deno', hidden)).toBe('/home/runner/.deno/bin')
  })

  it('merges thousands of links into a few folders, never into the home or a folder right in it', () => {
    const roots = Array.from({ length: 3000 }, (_, i) => `/home/runner/.local/share/venvs/v${i}`)
    roots.push(...Array.from({ length: 10 }, (_, i) => `/home/runner/t${i}/x`))
    const { roots: merged, dropped } = mergeRoots(roots, ['/home/runner'])
    expect(merged.length).toBeLessThanOrEqual(MAX_LINKED)
    expect(merged).toContain('/home/runner/.local/share/venvs')
    expect(dropped).toEqual([])
    const spread = Array.from({ length: 30 }, (_, i) => `/home/runner/.config/t${i}`)
    const r = mergeRoots(spread, ['/home/runner'])
    expect(r.roots.length).toBe(MAX_LINKED)
    expect(r.dropped.length).toBe(30 - MAX_LINKED)
    expect([...r.roots, ...r.dropped]).not.toContain('/home/runner/.config')
  })

  it('25 tools linked into ~/.config/<tool>/bin never show ~/.config (its auth files), and say which were left out', async () => {
    const home = path.join(dir, 'cfg/home')
    const bin = path.join(home, '.local/bin')
    mkdirSync(bin, { recursive: true })
    for (let i = 0; i < 25; i++) {
      mkdirSync(path.join(home, `.config/t${i}/bin`), { recursive: true })
      writeFileSync(path.join(home, `.config/t${i}/bin/t${i}`), '')
      symlinkSync(path.join(home, `.config/t${i}/bin/t${i}`), path.join(bin, `t${i}`))
    }
    const { show, dropped } = hiddenFolders({ HOME: home, PATH: bin }, { real: p => p })
    expect(show).not.toContain(path.join(home, '.config'))
    expect(show.filter(s => s.startsWith(`${home}/.config/`)).length).toBe(MAX_LINKED)
    expect(dropped).toEqual([expect.stringMatching(new RegExp(`^${home}/\\.config/t\\d+$`))])
    if (!hasBwrap) return
    // the run's log says once which tools will not start
    const lines: string[] = []
    const temp = path.join(dir, 'cfg/temp')
    await createConfinement({
      mode: 'required',
      network: 'deny',
      passthrough: [],
      tempDir: temp,
      env: { HOME: home, PATH: bin, RUNNER_TEMP: temp },
      log: fakeLog(lines)
    })({ root: repo, gitDir: path.join(repo, '.git'), gitConfig: path.join(dir, 'pr-config') })
    expect(lines.filter(l => l.startsWith('warning'))).toEqual([
      `warning sandbox: links on PATH lead into more folders of the hidden home than the ${MAX_LINKED} shown; not shown (1), so their tools do not start in the sandbox (exit 127): ${dropped[0]}. Put them on PATH directly, or install them outside the home.`
    ])
  })

  it('a PATH folder with 1000 links into the home makes one mount for them', () => {
    const home = path.join(dir, 'many/home')
    const bin = path.join(dir, 'many/bin')
    mkdirSync(bin, { recursive: true })
    for (let i = 0; i < 1000; i++) {
      mkdirSync(path.join(home, `.local/share/venvs/v${i}/bin`), { recursive: true })
      writeFileSync(path.join(home, `.local/share/venvs/v${i}/bin/t${i}`), '')
      symlinkSync(path.join(home, `.local/share/venvs/v${i}/bin/t${i}`), path.join(bin, `t${i}`))
    }
    const { show } = hiddenFolders({ HOME: home, PATH: bin }, { real: p => p })
    expect(show.filter(s => s.startsWith(home))).toEqual([path.join(home, '.local/share/venvs')])
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

/**
 * A runner where an earlier step ran `npm install -g .` (or `npm link`) on the PR's checkout: the
 * global `bin/mytool` leads through `lib/node_modules/mytool` (a link to the workspace) to the PR's
 * `bin/cli.js`, which the PR commits as a link to `~/.m2/settings.xml` (review of issue 26, M1).
 */
function npmLinked(name: string) {
  const t = path.join(dir, name)
  const home = path.join(t, 'home')
  const ws = path.join(home, 'work/repo/repo')
  const temp = path.join(home, 'work/_temp')
  mkdirSync(path.join(home, '.m2'), { recursive: true })
  writeFileSync(path.join(home, '.m2/settings.xml'), `<password>${layout.canary}</password>`)
  mkdirSync(path.join(ws, 'bin'), { recursive: true })
  mkdirSync(temp, { recursive: true })
  execFileSync('git', ['init', '-q'], { cwd: ws })
  symlinkSync(path.join(home, '.m2/settings.xml'), path.join(ws, 'bin/cli.js'))
  // a script whose interpreter is reached the same way
  writeFileSync(
    path.join(ws, 'bin/run.sh'),
    `#!${t}/usr-local/lib/node_modules/mytool/bin/cli.js\n`
  )
  const prefix = path.join(t, 'usr-local')
  mkdirSync(path.join(prefix, 'lib/node_modules'), { recursive: true })
  mkdirSync(path.join(prefix, 'bin'), { recursive: true })
  symlinkSync(ws, path.join(prefix, 'lib/node_modules/mytool'))
  symlinkSync('../lib/node_modules/mytool/bin/cli.js', path.join(prefix, 'bin/mytool'))
  const env = {
    HOME: home,
    PATH: `${path.join(prefix, 'bin')}:${path.join(home, '.local/bin')}:/usr/bin:/bin`,
    GITHUB_WORKSPACE: ws,
    RUNNER_TEMP: temp
  }
  mkdirSync(path.join(home, '.local/bin'), { recursive: true })
  writeFileSync(
    path.join(home, '.local/bin/tool'),
    `#!${prefix}/lib/node_modules/mytool/bin/cli.js\n`
  )
  return { t, home, ws, temp, env }
}

describe("the PR's links reached through a link of the runner (npm link of the checkout)", () => {
  it('are not followed: no folder of the home is shown', () => {
    const l = npmLinked('npm-link')
    const { show } = hiddenFolders(l.env, {
      writable: [l.ws],
      real: p => (existsSync(p) ? realpathSync(p) : path.resolve(p))
    })
    // only the PATH folder itself; not ~/.m2, nor the folders the chain passes through
    expect(show.filter(s => s.startsWith(l.home))).toEqual([path.join(l.home, '.local/bin')])
  })

  it.skipIf(!hasBwrap)('PR code cannot read ~/.m2/settings.xml in bubblewrap', async () => {
    const l = npmLinked('npm-link-bwrap')
    const cfg = path.join(l.t, 'clean-config')
    writeFileSync(cfg, '[core]\n')
    const c = await createConfinement({
      mode: 'required',
      network: 'deny',
      passthrough: [],
      tempDir: path.join(l.temp, 'private'),
      env: l.env,
      log: fakeLog()
    })({ root: l.ws, gitDir: path.join(l.ws, '.git'), gitConfig: cfg })
    const r = await c.runner.run(`cat ${l.home}/.m2/settings.xml; echo ran`, {
      cwd: l.ws,
      env: c.env,
      timeoutMs: 20_000
    })
    expect(r.output).not.toContain(layout.canary)
    expect(r.stdout).toMatch(/^ran$/m)
    expect(r.output).toMatch(/No such file or directory/)
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
  async function realRun(
    files: Record<string, string>,
    command: string,
    runnerEnv: Record<string, string> = {},
    prepare?: (work: string) => Record<string, string>
  ) {
    const work = realpathSync(mkdtempSync(path.join(tmpdir(), 'rl-real-')))
    try {
      for (const [name, text] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(work, name)), { recursive: true })
        writeFileSync(path.join(work, name), text)
      }
      const prepared = prepare?.(work)
      execFileSync('git', ['init', '-q'], { cwd: work })
      writeFileSync(path.join(work, '.git/clean-config'), '[core]\n')
      const env = {
        ...process.env,
        ...runnerEnv,
        ...prepared,
        RUNNER_TEMP: path.join(work, '.runner-temp')
      } as Record<string, string>
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
      spawnSync('chmod', ['-R', 'u+w', work]) // Go's module cache is read-only
      rmSync(work, { recursive: true, force: true })
    }
  }

  it.skipIf(!works('cargo clippy --version'))(
    "cargo build, clippy and test run through rustup's proxy; Cargo's home (where it downloads crates) is writable",
    async () => {
      const r = await realRun(
        {
          'Cargo.toml': '[package]\nname = "adder"\nversion = "0.1.0"\nedition = "2021"\n',
          'src/lib.rs':
            'pub fn add(a: i32, b: i32) -> i32 { a + b }\n#[cfg(test)]\nmod t { #[test] fn adds() { assert_eq!(super::add(1, 2), 3); } }\n'
        },
        'cargo build --offline && cargo clippy --offline && cargo test --offline && mkdir -p "${CARGO_HOME:-$HOME/.cargo}/registry/cache" && echo WRITABLE'
      )
      expect(`${r.exitCode} ${r.output}`).toMatch(/^0 [\s\S]*test t::adds \.\.\. ok[\s\S]*WRITABLE/)
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

  /** A Go module as a GOPROXY serves it (`<proxy>/<module>/@v/…`), made with `zip`. */
  function goModule(proxy: string, module: string, source: string): void {
    const src = mkdtempSync(path.join(tmpdir(), 'rl-gomod-'))
    const root = path.join(src, `${module}@v1.0.0`)
    mkdirSync(root, { recursive: true })
    writeFileSync(path.join(root, 'go.mod'), `module ${module}\n`)
    writeFileSync(path.join(root, 'lib.go'), source)
    const at = path.join(proxy, module, '@v')
    mkdirSync(at, { recursive: true })
    writeFileSync(path.join(at, 'list'), 'v1.0.0\n')
    writeFileSync(path.join(at, 'v1.0.0.info'), '{"Version":"v1.0.0"}\n')
    writeFileSync(path.join(at, 'v1.0.0.mod'), `module ${module}\n`)
    execFileSync('zip', ['-qr', path.join(at, 'v1.0.0.zip'), `${module}@v1.0.0`], { cwd: src })
    rmSync(src, { recursive: true, force: true })
  }

  it.skipIf(!works('go version') || !works('zip -v'))(
    "go build finds a module of the runner's module cache with the network denied, and downloads one the PR adds",
    async () => {
      const t = realpathSync(mkdtempSync(path.join(tmpdir(), 'rl-go-')))
      // the runner's GOPATH (under /tmp, hidden as the home is) holds example.com/greet only
      const gopath = path.join(t, 'gopath')
      goModule(
        path.join(t, 'cached'),
        'example.com/greet',
        'package greet\n\nconst Hi = "reached greet"\n'
      )
      const main =
        'package main\n\nimport (\n\t"fmt"\n\t"example.com/greet"\n\t"example.com/added"\n)\n\nfunc main() { fmt.Println(greet.Hi, added.Hi) }\n'
      const files = {
        'go.mod':
          'module example.com/m\n\ngo 1.19\n\nrequire (\n\texample.com/greet v1.0.0\n\texample.com/added v1.0.0\n)\n',
        'main.go': main
      }
      try {
        const r = await realRun(
          files,
          'go run . && mkdir -p "$(go env GOMODCACHE)/cache/download/x" && echo WRITABLE',
          // the runner's GOPROXY: a folder of the work tree stands for proxy.golang.org
          { GOPATH: gopath },
          work => {
            // example.com/added, which the PR adds, is only on "the network" (the env's GOPROXY)
            goModule(
              path.join(work, 'proxy'),
              'example.com/added',
              'package added\n\nconst Hi = "and added"\n'
            )
            const go = (args: string[], proxy: string, cache: string) =>
              execFileSync('go', args, {
                cwd: work,
                env: {
                  ...process.env,
                  GOPATH: cache,
                  GOPROXY: proxy,
                  GOSUMDB: 'off',
                  GOFLAGS: '-mod=mod'
                }
              })
            // go.sum as the PR commits it; then warm the runner's cache with greet alone
            go(['mod', 'tidy'], `file://${t}/cached,file://${work}/proxy`, path.join(t, 'scratch'))
            go(['mod', 'download', 'example.com/greet'], `file://${t}/cached`, gopath)
            return { GOPROXY: `file://${work}/proxy` }
          }
        )
        expect(`${r.exitCode} ${r.output}`).toMatch(/^0 [\s\S]*reached greet and added\nWRITABLE/)
      } finally {
        execFileSync('chmod', ['-R', 'u+w', t])
        rmSync(t, { recursive: true, force: true })
      }
    },
    120_000
  )

  it.skipIf(!works('python3 -m venv --help'))(
    'an active virtual environment outside the work tree is shown whole: a module installed in it runs; its pip.conf is not readable',
    async () => {
      const venv = realpathSync(mkdtempSync(path.join(tmpdir(), 'rl-venv-')))
      try {
        execFileSync('python3', ['-m', 'venv', '--without-pip', venv])
        const site = execFileSync(path.join(venv, 'bin/python'), [
          '-c',
          'import sysconfig; print(sysconfig.get_paths()["purelib"])'
        ])
          .toString()
          .trim()
        writeFileSync(path.join(site, 'rlprobe.py'), 'print("reached the venv\'s module")\n')
        writeFileSync(
          path.join(venv, 'pip.conf'),
          '[global]\nindex-url = https://u:SECRET@pypi.example/simple\n'
        )
        // as `source venv/bin/activate` leaves it
        const active = { VIRTUAL_ENV: venv, PATH: `${venv}/bin:${process.env['PATH']}` }
        const r = await realRun(
          {},
          'python -m rlprobe && (cat "$VIRTUAL_ENV/pip.conf" || true)',
          active
        )
        expect(`${r.exitCode} ${r.stdout}`).toBe("0 reached the venv's module\n")
        expect(r.output).not.toContain('SECRET')
      } finally {
        rmSync(venv, { recursive: true, force: true })
      }
    }
  )

  it('an active conda environment is shown whole, but not the secrets conda and pip keep in it', async () => {
    const env = realpathSync(mkdtempSync(path.join(tmpdir(), 'rl-conda-')))
    try {
      const files: Record<string, string> = {
        'conda-meta/history': '==> 2024-01-01 <==\n',
        'bin/rltool': '#!/bin/sh\necho reached the environment\n',
        // `conda env config vars set API_KEY=…` keeps the variables here
        'conda-meta/state': '{"env_vars": {"API_KEY": "SECRET-1"}}\n',
        // conda's docs: per-environment variables in an activate.d script
        'etc/conda/activate.d/env_vars.sh': "export API_KEY='SECRET-2'\n",
        // pip's site settings: sys.prefix is the environment
        'pip.conf': '[global]\nindex-url = https://u:SECRET-3@pypi.example/simple\n',
        condarc: 'channels:\n  - https://conda.example/t/SECRET-4/main\n'
      }
      for (const [name, text] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(env, name)), { recursive: true })
        writeFileSync(path.join(env, name), text, { mode: 0o755 })
      }
      const r = await realRun(
        {},
        'rltool; cd "$CONDA_PREFIX" && cat conda-meta/state etc/conda/activate.d/env_vars.sh pip.conf condarc 2>&1; true',
        { CONDA_PREFIX: env, PATH: `${env}/bin:${process.env['PATH']}` }
      )
      expect(r.stdout).toContain('reached the environment')
      expect(r.output).not.toMatch(/SECRET/)
    } finally {
      rmSync(env, { recursive: true, force: true })
    }
  })

  it("a virtual environment made at a repository's root is not shown: that would show the repository", async () => {
    const repo = realpathSync(mkdtempSync(path.join(tmpdir(), 'rl-venv-repo-')))
    try {
      mkdirSync(path.join(repo, '.git'))
      writeFileSync(
        path.join(repo, '.git/config'),
        '[remote "o"]\n\turl = https://x:SECRET-1@git.example/r\n'
      )
      writeFileSync(path.join(repo, '.env'), 'API_KEY=SECRET-2\n')
      writeFileSync(path.join(repo, 'pyvenv.cfg'), 'home = /usr/bin\n')
      const r = await realRun({}, 'cat "$VIRTUAL_ENV/.git/config" "$VIRTUAL_ENV/.env" 2>&1; true', {
        VIRTUAL_ENV: repo,
        PATH: process.env['PATH']!
      })
      expect(r.output).not.toMatch(/SECRET/)
    } finally {
      rmSync(repo, { recursive: true, force: true })
    }
  })

  it.skipIf(!works('go version'))(
    "Go's build cache is kept from run to run in the loop's own folder, not yours",
    async () => {
      const work = realpathSync(mkdtempSync(path.join(tmpdir(), 'rl-gocache-')))
      try {
        writeFileSync(path.join(work, 'go.mod'), 'module example.com/m\n\ngo 1.19\n')
        writeFileSync(
          path.join(work, 'm.go'),
          'package m\n\nimport "fmt"\n\nvar S = fmt.Sprint(1)\n'
        )
        execFileSync('git', ['init', '-q'], { cwd: work })
        const caches = path.join(work, '.git/review-loop/caches')
        // each run of the loop: a confinement of its own, with a new private HOME
        const run = async (command: string) => {
          const c = await createConfinement({
            mode: 'required',
            network: 'deny',
            passthrough: [],
            tempDir: path.join(work, '.git/private'),
            env: process.env as Record<string, string>,
            log: fakeLog(),
            caches
          })({ root: work, gitDir: path.join(work, '.git'), gitConfig: '/dev/null' })
          return c.runner.run(command, { cwd: work, env: c.env, timeoutMs: 120_000 })
        }
        const first = await run('go build ./... && go env GOCACHE')
        expect(`${first.exitCode} ${first.stdout}`).toBe(`0 ${caches}/go-build\n`)
        // the second run builds nothing: every action is found in the cache the first one wrote
        const second = await run('go build -x ./... 2>&1 | grep -c "compile" || true')
        expect(second.stdout.trim()).toBe('0')
      } finally {
        rmSync(work, { recursive: true, force: true })
      }
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
