import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'

// The release workflow, its CHANGELOG and scripts/changelog-section.sh. The steps' shell is run
// for real with bash (and real git against a bare repository standing in for origin).

interface Step {
  name?: string
  uses?: string
  with?: Record<string, unknown>
  env?: Record<string, string>
  run?: string
}
interface Workflow {
  on: Record<string, { inputs?: Record<string, { required?: boolean; type?: string }> } | null>
  permissions: unknown
  concurrency: unknown
  jobs: Record<string, { permissions?: unknown; steps: Step[] }>
}

const workflow = parse(readFileSync('.github/workflows/release.yml', 'utf8')) as Workflow
const steps = Object.values(workflow.jobs).flatMap(job => job.steps)
const changelog = readFileSync('CHANGELOG.md', 'utf8')
const script = resolve('scripts/changelog-section.sh')
const notesFile = '"$RUNNER_TEMP/release-notes.md"'

const temps: string[] = []
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true })
})
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'release-test-'))
  temps.push(dir)
  return dir
}

/** A minimal environment: no GITHUB_* or git settings of the machine running the tests. */
const home = tempDir()
const baseEnv = {
  PATH: process.env['PATH'] ?? '/usr/bin:/bin',
  HOME: home,
  LC_ALL: 'C',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1'
}

function exec(command: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const result = spawnSync(command, args, { cwd, env: { ...baseEnv, ...env }, encoding: 'utf8' })
  if (result.error) throw result.error
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

function git(cwd: string, ...args: string[]): string {
  const result = exec('git', args, cwd)
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`)
  return result.stdout.trim()
}

const identity = ['-c', 'user.name=Test', '-c', 'user.email=test@example.com']

function commit(cwd: string, message: string): string {
  git(cwd, ...identity, 'commit', '-q', '--allow-empty', '-m', message)
  return git(cwd, 'rev-parse', 'HEAD')
}

/** A bare origin and a clone with one commit on main; `tags` are tagged there and pushed. */
function repository(tags: string[] = []): { origin: string; clone: string; first: string } {
  const dir = tempDir()
  const origin = join(dir, 'origin.git')
  const clone = join(dir, 'clone')
  git(dir, 'init', '-q', '--bare', origin)
  git(dir, 'init', '-q', clone)
  git(clone, 'remote', 'add', 'origin', origin)
  const first = commit(clone, 'first')
  for (const tag of tags) git(clone, ...identity, 'tag', '-a', tag, '-m', tag)
  git(clone, 'push', '-q', 'origin', 'HEAD:refs/heads/main', ...tags.map(t => `refs/tags/${t}`))
  return { origin, clone, first }
}

function tagged(repo: string, tag: string): string {
  return git(repo, 'rev-parse', `refs/tags/${tag}^{commit}`)
}

/** One step's shell, run as the runner runs `run:` without a `shell:` (bash -e). */
function runStep(step: Step, cwd: string, env: Record<string, string>) {
  expect(step.run, step.name).toBeDefined()
  return exec('bash', ['--noprofile', '--norc', '-e', '-c', step.run ?? ''], cwd, env)
}

function stepRunning(pattern: RegExp): Step {
  const found = steps.filter(step => pattern.test(step.run ?? ''))
  expect(found, `one step runs ${pattern}`).toHaveLength(1)
  return found[0] as Step
}

function indexOf(step: Step): number {
  return steps.indexOf(step)
}

function section(version: string, file: string, cwd = process.cwd()) {
  return exec('bash', [script, version, file], cwd)
}

describe('release workflow', () => {
  it('is started by hand only, with a required version input', () => {
    expect(Object.keys(workflow.on)).toEqual(['workflow_dispatch'])
    const inputs = workflow.on['workflow_dispatch']?.inputs ?? {}
    expect(Object.keys(inputs)).toEqual(['version'])
    expect(inputs['version']).toMatchObject({ required: true, type: 'string' })
  })

  it('may only write contents, and releases one at a time', () => {
    expect(workflow.permissions).toEqual({ contents: 'write' })
    for (const job of Object.values(workflow.jobs)) expect(job.permissions).toBeUndefined()
    expect(workflow.concurrency).toBe('release')
  })

  it('pins every action by its major version tag and checks out the full history', () => {
    const uses = steps.flatMap(step => (step.uses ? [step.uses] : []))
    expect(uses.length).toBeGreaterThan(0)
    for (const action of uses) expect(action).toMatch(/^[\w.-]+\/[\w.-]+@v\d+$/)
    const checkout = steps.find(step => step.uses?.startsWith('actions/checkout@'))
    expect(checkout?.with?.['fetch-depth']).toBe(0)
  })

  it('rebuilds dist/ and fails when the committed dist/ differs, then tests, before tagging', () => {
    const dist = stepRunning(/npm run build/)
    expect(dist.run).toMatch(/git (status --porcelain|diff --exit-code) -- dist\//)
    expect(dist.run).toMatch(/exit 1/)
    const install = stepRunning(/^npm ci$/m)
    const test = stepRunning(/^npm test$/m)
    const tag = stepRunning(/git tag -a /)
    const release = stepRunning(/gh release create/)
    expect(indexOf(install)).toBeLessThan(indexOf(dist))
    expect(indexOf(dist)).toBeLessThan(indexOf(tag))
    expect(indexOf(test)).toBeLessThan(indexOf(tag))
    expect(indexOf(tag)).toBeLessThan(indexOf(release))
  })

  it('takes the release notes from the CHANGELOG section of the version', () => {
    const notes = stepRunning(/changelog-section\.sh/)
    expect(notes.run).toContain(
      `bash scripts/changelog-section.sh "$VERSION" CHANGELOG.md > ${notesFile}`
    )
    const release = stepRunning(/gh release create/)
    expect(release.run).toContain(`--notes-file ${notesFile}`)
    expect(indexOf(notes)).toBeLessThan(indexOf(release))
  })

  it('accepts MAJOR.MINOR.PATCH only, saying what it wants', () => {
    const check = stepRunning(/=~/)
    for (const version of ['1.2.0', '0.1.0', '10.20.30']) {
      expect(runStep(check, home, { VERSION: version }).status, version).toBe(0)
    }
    for (const version of ['v1.2.0', '1.2', '1.2.0-rc.1', '1.2.0+build', '01.2.0', '', '1.2.0\n']) {
      const result = runStep(check, home, { VERSION: version })
      expect(result.status, JSON.stringify(version)).toBe(1)
      expect(result.stdout).toContain('::error::The version input must be MAJOR.MINOR.PATCH')
    }
  })

  it('writes the notes file, or fails asking for the CHANGELOG section', () => {
    const step = stepRunning(/changelog-section\.sh/)
    const runnerTemp = tempDir()
    const version = /^## \[(\d+\.\d+\.\d+)\]/m.exec(changelog)?.[1] ?? ''
    expect(version).not.toBe('')
    expect(runStep(step, process.cwd(), { VERSION: version, RUNNER_TEMP: runnerTemp }).status).toBe(
      0
    )
    expect(readFileSync(join(runnerTemp, 'release-notes.md'), 'utf8')).toBe(
      section(version, 'CHANGELOG.md').stdout
    )

    const missing = runStep(step, process.cwd(), { VERSION: '999.0.0', RUNNER_TEMP: runnerTemp })
    expect(missing.status).toBe(1)
    expect(missing.stdout).toContain(
      "::error::CHANGELOG.md has no notes for 999.0.0: add a '## [999.0.0] - YYYY-MM-DD' section"
    )
  })

  it('refuses a version whose tag is already on origin', () => {
    const { clone } = repository(['v1.0.0', 'v1'])
    const step = stepRunning(/git ls-remote/)
    const released = runStep(step, clone, { VERSION: '1.0.0' })
    expect(released.status).toBe(1)
    expect(released.stdout).toContain('::error::Tag v1.0.0 already exists')
    expect(runStep(step, clone, { VERSION: '1.1.0' }).status).toBe(0)

    git(clone, 'remote', 'set-url', 'origin', join(clone, 'no-such-origin'))
    const unreachable = runStep(step, clone, { VERSION: '1.1.0' })
    expect(unreachable.status).toBe(1)
    expect(unreachable.stdout).toContain('::error::Could not list the tags of origin')
  })

  it('tags vX.Y.Z and moves the major tag to it with force, never overwriting a release', () => {
    const step = stepRunning(/git tag -a /)
    expect(step.run).toMatch(/git tag -fa "\$major"/)
    expect(step.run).toMatch(/\+refs\/tags\/\$major|--force/)

    const { origin, clone, first } = repository(['v1.0.0', 'v1'])
    const second = commit(clone, 'second')
    expect(runStep(step, clone, { VERSION: '1.1.0' }).status).toBe(0)
    expect(tagged(origin, 'v1.1.0')).toBe(second)
    expect(git(origin, 'cat-file', '-t', 'refs/tags/v1.1.0')).toBe('tag') // annotated
    expect(tagged(origin, 'v1')).toBe(second)
    expect(tagged(origin, 'v1.0.0')).toBe(first)

    // a major tag that does not exist yet is created
    expect(runStep(step, clone, { VERSION: '2.0.0' }).status).toBe(0)
    expect(tagged(origin, 'v2')).toBe(second)

    // the tag is known here: nothing is tagged or pushed
    commit(clone, 'third')
    expect(runStep(step, clone, { VERSION: '1.1.0' }).status).not.toBe(0)
    // the tag is on origin only: the atomic push is refused, and v1 stays where it was
    git(clone, 'tag', '-d', 'v1.1.0')
    expect(runStep(step, clone, { VERSION: '1.1.0' }).status).not.toBe(0)
    expect(tagged(origin, 'v1.1.0')).toBe(second)
    expect(tagged(origin, 'v1')).toBe(second)
  })
})

describe('CHANGELOG.md', () => {
  const headings = [...changelog.matchAll(/^## (.*)$/gm)].map(match => match[1] ?? '')

  it('starts with an Unreleased section', () => {
    expect(headings[0]).toBe('[Unreleased]')
  })

  it('gives every version as [X.Y.Z] - YYYY-MM-DD, newest first, each with notes', () => {
    const versions = headings.slice(1)
    expect(versions.length).toBeGreaterThan(0)
    const parsed = versions.map(heading => {
      const match = /^\[((0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*))\] - (\d{4}-\d{2}-\d{2})$/.exec(
        heading
      )
      expect(match, heading).not.toBeNull()
      const [, version = '', major = '', minor = '', patch = '', date = ''] = match ?? []
      expect(new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10), heading).toBe(date)
      expect(section(version, 'CHANGELOG.md').status, heading).toBe(0)
      return [Number(major), Number(minor), Number(patch)] as const
    })
    for (let i = 1; i < parsed.length; i++) {
      const [newer, older] = [parsed[i - 1] ?? [0, 0, 0], parsed[i] ?? [0, 0, 0]]
      const order = newer[0] - older[0] || newer[1] - older[1] || newer[2] - older[2]
      expect(order, `${versions[i - 1]} before ${versions[i]}`).toBeGreaterThan(0)
    }
  })
})

describe('scripts/changelog-section.sh', () => {
  const dir = tempDir()
  const file = join(dir, 'CHANGELOG.md')
  writeFileSync(
    file,
    [
      '# Changelog',
      '',
      '## [Unreleased]',
      '',
      '## [1.10.0] - 2026-12-02',
      '',
      '### Added',
      '',
      '- ten',
      '',
      '## [1.1.0] - 2026-12-01\r',
      '\r',
      '### Fixed\r',
      '\r',
      '- one, line endings from Windows\r',
      '\r',
      '## [1.0.0]',
      '- zero',
      '',
      '',
      '[1.0.0]: https://example.com/releases/v1.0.0',
      ''
    ].join('\n')
  )

  it('prints the section without its heading, trimmed, up to the next heading', () => {
    expect(section('1.10.0', file)).toEqual({
      status: 0,
      stdout: '### Added\n\n- ten\n',
      stderr: ''
    })
  })

  it('matches the version as text: 1.1.0 is not 1.10.0, nor 1x1x0', () => {
    expect(section('1.1.0', file).stdout).toBe('### Fixed\n\n- one, line endings from Windows\n')
    expect(section('1x1x0', file).status).toBe(1)
    expect(section('1.1', file).status).toBe(1)
  })

  it('stops before the link definitions at the end', () => {
    expect(section('1.0.0', file).stdout).toBe('- zero\n')
  })

  it('exits 1 with a message when the section is missing or empty', () => {
    expect(section('2.0.0', file)).toEqual({
      status: 1,
      stdout: '',
      stderr: `${file} has no '## [2.0.0]' section\n`
    })
    expect(section('Unreleased', file)).toMatchObject({ status: 1, stdout: '' })
    expect(section('Unreleased', file).stderr).toContain('is empty')
    expect(section('1.0.0', join(dir, 'missing.md'))).toMatchObject({ status: 1, stdout: '' })
  })

  it('reads CHANGELOG.md of the current folder by default, and exits 2 on a usage error', () => {
    const here = tempDir()
    writeFileSync(join(here, 'CHANGELOG.md'), '## [3.0.0] - 2026-01-01\n\n- three\n')
    expect(exec('bash', [script, '3.0.0'], here)).toMatchObject({ status: 0, stdout: '- three\n' })
    expect(exec('bash', [script], here).status).toBe(2)
    expect(exec('bash', [script, '1', '2', '3'], here).status).toBe(2)
  })
})
