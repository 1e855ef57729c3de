import { spawn, spawnSync } from 'node:child_process'
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { git, writeFiles } from '../../test-support/git-fixture.js'
import { defaultNode, Sandbox, WORKFLOW_TOKEN } from '../../test-support/harness.js'
import { BIN, cli, sampleRepo as sampleRepoIn, TODO_CHECK } from '../../test-support/local-cli.js'
import { runScenario, type Scenario } from '../../test-support/scenario.js'

const dirs: string[] = []
const sampleRepo = (files: Record<string, string> = {}): string => sampleRepoIn(dirs, files)

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

/** A folder with a bwrap that cannot create namespaces (Ubuntu 24.04's AppArmor), for PATH. */
function brokenBwrap(): string {
  const bin = mkdtempSync(path.join(os.tmpdir(), 'review-loop-fakebin-'))
  dirs.push(bin)
  writeFileSync(path.join(bin, 'bwrap'), '#!/bin/sh\n[ "$1" = --version ] && exit 0\nexit 1\n', {
    mode: 0o755
  })
  return bin
}

/** A sample repository with installed dependencies that git ignores (so a clone lacks them), in the
 * root and in a workspace. */
function repoWithDependencies(): string {
  const repo = sampleRepo({
    '.gitignore': 'node_modules/\n',
    'packages/web/package.json': '{}\n'
  })
  writeFiles(repo, {
    'node_modules/dep/index.js': 'module.exports = 42\n',
    'packages/web/node_modules/wdep/index.js': 'module.exports = 7\n'
  })
  return repo
}

describe('npx review-loop', () => {
  it('prints its help and refuses a wrong command with exit 2', async () => {
    const help = await cli(['--help'], os.tmpdir())
    expect(help.code).toBe(0)
    expect(help.out).toContain('review-loop stats [options]')
    const wrong = await cli(['revew'], os.tmpdir())
    expect(wrong.code).toBe(2)
    expect(wrong.err).toContain("Unknown command 'revew'")
    const typo = await cli(['--chek', 'lint: true'], os.tmpdir())
    expect(typo.code).toBe(2)
    expect(typo.err).toBe(
      "review-loop: Unknown option '--chek': did you mean --check? See review-loop --help.\n"
    )
    // a one-letter option is no typo of a long one
    const short = await cli(['-x'], os.tmpdir())
    expect(short.code).toBe(2)
    expect(short.err).not.toContain('did you mean')
    expect(help.out).toContain('--no-lend            the checks install dependencies themselves')
  })

  it('says up front what it will not see, and takes the base origin/HEAD names', async () => {
    // a clone whose remote's default branch is trunk (no main), with a change not committed
    const upstream = sampleRepo()
    git(upstream, ['branch', '-m', 'main', 'trunk'])
    git(upstream, ['switch', '-q', 'trunk'])
    const repo = mkdtempSync(path.join(os.tmpdir(), 'review-loop-clone-'))
    dirs.push(repo)
    git(repo, ['clone', '-q', upstream, '.'])
    git(repo, ['switch', '-q', '--track', 'origin/feature'])
    writeFiles(repo, { 'README.md': '# changed, not committed\n' })
    const r = await cli(['--check', TODO_CHECK, '--dry-run'], repo)
    expect(r.err).toBe('')
    expect(r.out).toContain(
      'notice: Your work tree has uncommitted changes (1 tracked file): the loop reviews the commits of feature only; commit them to have them reviewed.'
    )
    expect(r.out).toContain(
      'notice: AI review is off: ANTHROPIC_API_KEY is not set (nor --set model-provider=bedrock or vertex), so only the checks review.\n'
    )
    // a dry run is one review
    expect(r.out).toContain('[1/1] review: NO_GO (1 finding)')
    // nothing ahead of the base: no review, no GO
    git(repo, ['switch', '-q', '-c', 'empty', 'trunk'])
    const empty = await cli(['--check', TODO_CHECK, '--dry-run'], repo)
    expect(empty.out).toBe(
      'review-loop: not reviewed — empty has no commit that trunk lacks: there is nothing to review (name another base with --base).\n'
    )
    expect(empty.code).toBe(0)
  })

  it("runs the checks on the user's installed dependencies, read-only, and commits none of them", async () => {
    const repo = repoWithDependencies()
    const check =
      "deps: node -e \"process.exit(require('dep') === 42 && require('./packages/web/node_modules/wdep') === 7 ? 0 : 1)\""
    const write = 'write: touch node_modules/dep/x 2>/dev/null && echo WROTE || echo READ-ONLY'
    // each run (one per review) excludes them once from the clone's git
    const once = 'once: test "$(grep -cx /node_modules .git/info/exclude)" = 1'
    const r = await cli(
      [
        '--check',
        check,
        '--check',
        write,
        '--check',
        once,
        '--check',
        TODO_CHECK,
        '--fix',
        "sed -i '/TODO/d' src/a.js",
        '--verbose'
      ],
      repo
    )
    expect(r.out).toContain(
      `Checks use your installed dependencies (node_modules, packages/web/node_modules of ${realpathSync(repo)}): read-only in the sandbox, a hard-linked copy without it (--no-lend if your checks install them).`
    )
    expect(r.out).toMatch(/── check deps: exit 0 \(\d+\.\ds\)|── check deps: exit 0\n/)
    expect(r.out).toContain('review-loop: go')
    expect(r.code).toBe(0)
    if (r.out.includes('your checks and fix commands run in bubblewrap')) {
      expect(r.out).toContain('READ-ONLY')
      expect(existsSync(path.join(repo, 'node_modules/dep/x'))).toBe(false)
    }
    // the fix commit holds the fix alone
    expect(git(repo, ['show', '--name-only', '--format=', 'HEAD'])).toBe('src/a.js')
    // without a sandbox the clone gets a copy of them
    git(repo, ['reset', '-q', '--hard', 'HEAD~1'])
    const linked = await cli(
      ['--check', check, '--check', TODO_CHECK, '--fix', "sed -i '/TODO/d' src/a.js"],
      repo,
      { PATH: `${brokenBwrap()}:${process.env['PATH'] ?? '/usr/bin:/bin'}` }
    )
    expect(linked.out).toContain('warning: Your checks and fix commands ran unsandboxed: ')
    expect(linked.out).not.toMatch(/secrets|run_check/)
    expect(linked.out).toContain('review-loop: go')
    expect(git(repo, ['show', '--name-only', '--format=', 'HEAD'])).toBe('src/a.js')
  })

  it("without the sandbox, a check that installs empties a copy, never the user's node_modules", async () => {
    const lock =
      '{"name":"x","version":"1.0.0","lockfileVersion":3,"requires":true,"packages":{"":{"name":"x","version":"1.0.0"}}}\n'
    const repo = sampleRepo({
      '.gitignore': 'node_modules/\n',
      'package.json': '{"name":"x","version":"1.0.0"}\n',
      'package-lock.json': lock
    })
    writeFiles(repo, { 'node_modules/eslint/package.json': '{"name":"eslint"}\n' })
    const install = 'deps: npm ci --offline --no-audit --no-fund && test ! -e node_modules/eslint'
    const args = ['--dry-run', '--set', 'sandbox=off', '--check', install]
    const r = await cli(args, repo)
    expect(r.out).toMatch(/── check deps: exit 0/)
    expect(r.out).toContain('review-loop (dry run, nothing fixed): GO, no findings')
    expect(readFileSync(path.join(repo, 'node_modules/eslint/package.json'), 'utf8')).toBe(
      '{"name":"eslint"}\n'
    )
    expect(
      readdirSync(path.join(repo, '.git/review-loop')).filter(f => f.startsWith('lent-'))
    ).toEqual([])
    // --no-lend: the checks install them themselves
    const unlent = await cli(
      ['--dry-run', '--no-lend', '--check', 'deps: test ! -e node_modules'],
      repo
    )
    expect(unlent.out).not.toContain('Checks use your installed dependencies')
    expect(unlent.out).toContain('review-loop (dry run, nothing fixed): GO, no findings')
    // where hard links cannot be made (the output on another file system), nothing is lent: it says so
    const shm = '/dev/shm'
    if (!existsSync(shm) || statSync(shm).dev === statSync(repo).dev) return
    const elsewhere = mkdtempSync(path.join(shm, 'review-loop-out-'))
    dirs.push(elsewhere)
    rmSync(path.join(repo, '.git/review-loop'), { recursive: true })
    symlinkSync(elsewhere, path.join(repo, '.git/review-loop'))
    const apart = await cli(
      ['--dry-run', '--set', 'sandbox=off', '--check', 'deps: test ! -e node_modules'],
      repo
    )
    expect(apart.out).toContain(
      `notice: Your installed dependencies (node_modules of ${realpathSync(repo)}) were not lent to the checks: `
    )
    expect(apart.out).toMatch(
      /lent-\w+ is on another file system\. Install them in a first check, for example --check 'deps: npm ci'\.\n/
    )
    expect(apart.out).toMatch(/── check deps: exit 0/)
    expect(existsSync(path.join(repo, 'node_modules/eslint/package.json'))).toBe(true)
  })

  it('without the sandbox, the copy keeps workspace packages and leaves caches out; Ctrl-C removes it', async () => {
    const repo = sampleRepo({
      '.gitignore': 'node_modules/\n',
      'package.json': '{"name":"x","version":"1.0.0","workspaces":["packages/*"]}\n',
      'packages/a/package.json': '{"name":"a","version":"1.0.0","main":"index.js"}\n',
      'packages/a/index.js': "module.exports = 'from the clone'\n"
    })
    writeFiles(repo, { 'node_modules/.cache/tool/state': 'yours\n' })
    // npm's workspace link, as `npm install` makes it
    symlinkSync('../packages/a', path.join(repo, 'node_modules/a'))
    const uses = `uses: node -p "require('a')" && test ! -e node_modules/.cache/tool/state`
    const r = await cli(['--dry-run', '--set', 'sandbox=off', '--check', uses, '--verbose'], repo)
    expect(r.out).toMatch(/── check uses: exit 0/)
    expect(r.out).toContain('from the clone')
    expect(readFileSync(path.join(repo, 'node_modules/.cache/tool/state'), 'utf8')).toBe('yours\n')
    // interrupted while a check runs: the copy in the repository and the clone are removed
    const started = path.join(repo, '.git', 'slow-started')
    const child = spawn(
      defaultNode(),
      [BIN, '--dry-run', '--set', 'sandbox=off', '--check', `slow: touch ${started} && sleep 30`],
      { cwd: repo, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: os.homedir() } }
    )
    const code = await new Promise<number | null>(resolve => {
      const poll = setInterval(() => {
        if (existsSync(started)) {
          clearInterval(poll)
          child.kill('SIGINT')
        }
      }, 100)
      child.on('close', c => {
        clearInterval(poll)
        resolve(c)
      })
    })
    expect(code).toBe(130)
    expect(
      readdirSync(path.join(repo, '.git/review-loop')).filter(f => f.startsWith('lent-'))
    ).toEqual([])
  })

  it("prints each check's real time, and a passing check's output only with --verbose", async () => {
    const repo = sampleRepo()
    const slow = 'slow: sleep 1.2; echo all-fine-here'
    const quiet = await cli(['--check', slow, '--dry-run'], repo)
    const took = /^── check slow: exit 0 \((\d+\.\d)s\)$/m.exec(quiet.out)
    expect(Number(took?.[1])).toBeGreaterThanOrEqual(1.2)
    expect(quiet.out).not.toContain('all-fine-here')
    // a passing check is its heading alone
    expect(quiet.out).not.toContain('check slow: exit 0: done in')
    const verbose = await cli(['--check', slow, '--dry-run', '--verbose'], repo)
    expect(verbose.out).toContain('all-fine-here')
    expect(
      Number(/^── check slow: exit 0: done in (\d+\.\d)s$/m.exec(verbose.out)?.[1])
    ).toBeGreaterThanOrEqual(1.2)
  })

  it('takes a local branch to GO with fix commands, commits the fix locally and writes the comment', async () => {
    const repo = sampleRepo()
    const out = path.join(repo, '..', `${path.basename(repo)}-out`)
    dirs.push(out)
    const r = await cli(
      ['--check', TODO_CHECK, '--fix', "sed -i '/TODO/d' src/a.js", '--out', out],
      repo
    )
    expect(r.code).toBe(0)
    // the same progress lines as the action's log, each finding right after its review
    const lines = r.out.split('\n')
    const at = (line: string): number => lines.indexOf(line)
    expect(at('[1/3] review: NO_GO (1 finding)')).toBeGreaterThan(-1)
    expect(at('src/a.js:2: failure: [high] todo: // TODO later')).toBe(
      at('[1/3] review: NO_GO (1 finding)') + 1
    )
    expect(at('[1/3] fix: committed (1 file)')).toBeGreaterThan(
      at('[1/3] review: NO_GO (1 finding)')
    )
    expect(r.out).toContain('[2/3] review: GO (no findings)')
    expect(r.out).toContain(`review-loop: go`)
    // local words: nothing was pushed or dispatched, and a failing check's output is shown
    expect(r.out).not.toMatch(/pushed \(|dispatched|re-trigger/)
    expect(r.out).toContain('src/a.js:2:// TODO later')
    expect(git(repo, ['log', '--format=%an %s', '-1'])).toBe(
      'Dev review-loop: address review (iteration 1)'
    )
    expect(readFileSync(path.join(repo, 'src/a.js'), 'utf8')).toBe('run()\n')
    expect(git(repo, ['status', '--porcelain'])).toBe('')
    const comment = readFileSync(path.join(out, 'comment.md'), 'utf8')
    expect(comment).toContain('## Review loop: GO')
    // no GitHub commands, pages or workflow runs in a local comment
    expect(comment).not.toMatch(/\/review-loop |file:\/\/|\]\(|workflow run/)
    expect(readdirSync(path.join(out, 'records'))).toEqual(['iteration-1', 'iteration-2'])
    // the fix record says what became of the fix, not the write-ahead `pushing`
    const fix = JSON.parse(
      readFileSync(path.join(out, 'records/iteration-1/fix-1.json'), 'utf8')
    ) as { outcome: string; commitSha: string }
    expect(fix.outcome).toBe('pushed')
    expect(git(repo, ['rev-parse', 'HEAD'])).toBe(fix.commitSha)
  })

  it('reviews only with --dry-run, offline with checks from .github/review-loop.yml of the base', async () => {
    const repo = sampleRepo({
      '.github/review-loop.yml': `checks:\n  - '${TODO_CHECK}'\nfix-commands: sed -i '/TODO/d' src/a.js\n`
    })
    const head = git(repo, ['rev-parse', 'HEAD'])
    const r = await cli(['--dry-run'], repo)
    expect(r.out).toContain('[1/1] review: NO_GO (1 finding)')
    expect(r.out).toContain('src/a.js:2: failure: [high]')
    expect(r.out).not.toContain('[1/1] fix')
    expect(r.out).toContain('review-loop (dry run, nothing fixed): NO_GO, 1 finding\n')
    expect(git(repo, ['rev-parse', 'HEAD'])).toBe(head)
    expect(r.code).toBe(1) // not GO
    const folder = /are in (\S+)/.exec(r.out)?.[1]
    expect(folder && existsSync(path.join(folder, 'comment.md'))).toBe(true)
  })

  it('names the missing fixer as a CLI user sets it: --fix and ANTHROPIC_API_KEY', async () => {
    // a fix command that changes nothing, and no API key for the AI fixer
    const fixed = await cli(['--check', TODO_CHECK, '--fix', 'true'], sampleRepo())
    expect(fixed.code).toBe(1)
    expect(fixed.out).toContain(
      'review-loop: stalled — The fix commands changed nothing and ANTHROPIC_API_KEY is not set for the AI fixer'
    )
    // no fixer at all
    const none = await cli(['--check', TODO_CHECK], sampleRepo())
    expect(none.code).toBe(1)
    expect(none.out).toContain(
      'review-loop: stalled — NO_GO and nothing can fix it: no --fix command was given and ANTHROPIC_API_KEY is not set'
    )
    expect(none.out + fixed.out).not.toMatch(/fix-commands is empty|anthropic-api-key/)
  })

  it("never uses sudo on the user's machine: no bubblewrap install, no AppArmor profile", async () => {
    const repo = sampleRepo()
    const bin = brokenBwrap()
    const calls = path.join(bin, 'calls')
    // a sudo that would say yes, and a bwrap that cannot create namespaces (Ubuntu 24.04's AppArmor)
    writeFileSync(path.join(bin, 'sudo'), `#!/bin/sh\necho "sudo $*" >> ${calls}\nexit 0\n`, {
      mode: 0o755
    })
    const r = await cli(['--check', TODO_CHECK, '--dry-run'], repo, {
      PATH: `${bin}:${process.env['PATH'] ?? '/usr/bin:/bin'}`
    })
    expect(r.out).toContain('[1/1] review: NO_GO (1 finding)')
    expect(r.out).toContain('warning: Your checks and fix commands ran unsandboxed: ')
    expect(existsSync(calls)).toBe(false)
  })

  it('names the input and the fix for a wrong option', async () => {
    const repo = sampleRepo()
    const r = await cli(['--check', TODO_CHECK, '--set', 'max-iterations=50'], repo)
    expect(r.code).toBe(2)
    expect(r.err).toContain("Input 'max-iterations'")
    const secret = await cli(['--set', 'github-token=x'], repo)
    expect(secret.code).toBe(2)
    expect(secret.err).toContain('--set github-token')
  })
})

describe('review-loop stats', () => {
  const loop = (number: number, overrides: Partial<Scenario>): Scenario => ({
    base: { 'README.md': '# sample\n' },
    pr: { number, commits: [{ message: 'todo', files: { 'src/a.js': 'run()\n// TODO later\n' } }] },
    inputs: { checks: TODO_CHECK, 'fix-commands': "sed -i '/TODO/d' src/a.js" },
    ...overrides
  })

  it('prints the figures over the loop states of the emulated pull requests, and the action mode writes them with charts', async () => {
    // three real loops: GO after a fix, GO at once, stalled (nothing fixes)
    const reports = await Promise.all([
      runScenario(loop(11, {})),
      runScenario(
        loop(12, {
          pr: { number: 12, commits: [{ message: 'ok', files: { 'src/a.js': 'run()\n' } }] }
        })
      ),
      runScenario(loop(13, { inputs: { checks: TODO_CHECK } }))
    ])
    const sandbox = await Sandbox.create({
      base: { 'README.md': '# sample\n' },
      pr: { number: 11, commits: [{ message: 'x', files: { 'src/a.js': 'run()\n' } }] }
    })
    try {
      const emu = sandbox.emulator
      for (const n of [12, 13, 14]) emu.addPull({ number: n, headRef: 'feature' })
      reports.forEach((r, i) => {
        const body = r.comments.find(c => c.body.includes('review-loop:state'))!.body
        const at = new Date().toISOString()
        emu.comments.push({
          id: 500 + i,
          issueNumber: 11 + i,
          body,
          author: 'github-actions[bot]',
          authorType: 'Bot',
          createdAt: at,
          updatedAt: at
        })
      })
      const summary = path.join(sandbox.dir, 'stats.md')
      const r = await cli(
        [
          'stats',
          '--repo',
          'acme/widgets',
          '--last',
          '10',
          '--api-url',
          emu.url,
          '--summary',
          summary
        ],
        sandbox.dir,
        { GITHUB_TOKEN: WORKFLOW_TOKEN }
      )
      expect(r.err).toBe('')
      expect(r.code).toBe(0)
      expect(r.out).toContain('Over the last 4 pull requests of acme/widgets:')
      expect(r.out).toMatch(/first-pass GO: 33% \(1 of 3\)/i)
      expect(r.out).toMatch(/fixes pushed: 1/i)
      expect(r.out).toMatch(/stalled[^\n]*1/i)
      expect(readFileSync(summary, 'utf8')).toContain('```mermaid')
      // the action's mode: stats, as a scheduled or dispatched workflow runs it
      const run = await sandbox.run({ event: 'workflow_dispatch', inputs: { mode: 'stats' } })
      expect(run.exitCode).toBe(0)
      expect(run.summary).toContain('```mermaid')
      expect(run.summary).toContain('the last 4 pull requests of acme/widgets')
      expect(emu.openApiProblems).toEqual([])
    } finally {
      await sandbox.close()
    }
  })
})

/** Whether bubblewrap works here as it is (the CLI uses no sudo). */
const bwrapWorks = spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-pid', 'true']).status === 0

describe('npx review-loop: the checks meet tools as on a runner', () => {
  it('gives the checks CI=true, unless your environment sets CI', async () => {
    const repo = sampleRepo()
    const ci = ['--dry-run', '--check', 'ci: test "$CI" = true']
    expect((await cli(ci, repo)).out).toMatch(/── check ci: exit 0/)
    const off = await cli(['--dry-run', '--check', 'ci: test "$CI" = false'], repo, { CI: 'false' })
    expect(off.out).toMatch(/── check ci: exit 0/)
  })

  it.skipIf(!bwrapWorks)(
    "in the sandbox, a tool writes its cache in your read-only node_modules (Vitest's .vite), not into yours",
    async () => {
      const repo = repoWithDependencies()
      // as Vitest 2 writes its results (node_modules/.vite/vitest/results.json), in each package
      const write = (nm: string) =>
        `mkdir -p ${nm}/.vite/vitest && echo '{}' > ${nm}/.vite/vitest/results.json && test -s ${nm}/.vite/vitest/results.json`
      const args = ['--dry-run', '--check', `cache: ${write('node_modules')}`]
      args.push('--check', `web: ${write('packages/web/node_modules')}`)
      args.push('--check', 'ro: ! touch node_modules/dep/x 2>/dev/null')
      const r = await cli(args, repo)
      expect(r.out).toMatch(/── check cache: exit 0/)
      expect(r.out).toMatch(/── check web: exit 0/)
      expect(r.out).toMatch(/── check ro: exit 0/)
      expect(r.out).toContain('review-loop (dry run, nothing fixed): GO, no findings')
      expect(existsSync(path.join(repo, 'node_modules/.vite/vitest'))).toBe(false)
      expect(existsSync(path.join(repo, 'node_modules/dep/x'))).toBe(false)
    }
  )

  it('lends a node_modules that is a link to one elsewhere, and names a link it does not lend', async () => {
    const repo = sampleRepo({ '.gitignore': 'node_modules\n.venv\n' })
    // a monorepo's hoisted node_modules, outside this package's repository
    const shared = mkdtempSync(path.join(os.tmpdir(), 'review-loop-shared-'))
    dirs.push(shared)
    writeFiles(shared, { 'node_modules/dep/index.js': 'module.exports = 42\n' })
    symlinkSync(path.join(shared, 'node_modules'), path.join(repo, 'node_modules'))
    // a link to a folder of another name is not lent: the checks would see all of it
    symlinkSync(shared, path.join(repo, '.venv'))
    const check = `deps: node -e "process.exit(require('dep') === 42 ? 0 : 1)"`
    const r = await cli(['--dry-run', '--check', check], repo)
    expect(r.out).toContain(
      `Checks use your installed dependencies (node_modules of ${realpathSync(repo)})`
    )
    expect(r.out).toContain(
      `notice: Your .venv is a link to ${realpathSync(shared)}, not lent to the checks: it leads to a folder not named node_modules, .venv, venv, which the checks would see whole.`
    )
    expect(r.out).toMatch(/── check deps: exit 0/)
  })
})
