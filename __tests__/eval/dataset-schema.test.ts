// The dataset module on its own: loadDataset's errors name the case, the field and the fix;
// buildCaseRepo is reproducible and keeps the bug out of the PR's title; runCaseTest counts a run
// that ran no test as failed and says what to install when a tool is missing.
import { execFileSync } from 'node:child_process'
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import {
  buildCaseRepo,
  DatasetError,
  loadDataset,
  missingRuntime,
  runCaseTest,
  shippedDataset,
  type EvalCase
} from '../../src/eval/dataset.js'
import { createCommandRunner } from '../../src/process/command-runner.js'

const scratch = mkdtempSync(path.join(tmpdir(), 'review-loop-dataset-schema-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
let made = 0

const BUG = 'js-minimist-short-equals'
const CLEAN = 'clean-js-minimist-isbooleankey'

/** A dataset of one real case, its case.json changed by `edit`. */
function datasetWith(id: string, edit: (c: Record<string, unknown>) => void = () => {}): string {
  const root = path.join(scratch, `set-${made++}`)
  const folder = path.join(root, 'cases', id)
  cpSync(path.join('eval', 'cases', id), folder, { recursive: true })
  const file = path.join(folder, 'case.json')
  const data = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
  edit(data)
  writeFileSync(file, JSON.stringify(data))
  return root
}

const loadError = (dir: string): string => {
  try {
    loadDataset(dir)
  } catch (e) {
    expect(e).toBeInstanceOf(DatasetError)
    return (e as Error).message
  }
  throw new Error('loadDataset accepted a broken case')
}

describe('loadDataset', () => {
  it('reads the shipped dataset: every case, sorted by id, each in its own folder', () => {
    const cases = loadDataset('eval')
    const ids = cases.map(c => c.id)
    expect(ids).toEqual([...ids].sort())
    expect(new Set(ids).size).toBe(ids.length)
    for (const c of cases) expect(c.dir).toBe(path.join('eval', 'cases', c.id))
    const bugs = cases.filter(c => c.kind === 'bug')
    const clean = cases.filter(c => c.kind === 'clean')
    expect(bugs.length).toBeGreaterThanOrEqual(40)
    expect(clean.length).toBeGreaterThanOrEqual(10)
    expect(bugs.every(c => c.issues.length > 0)).toBe(true)
    expect(clean.every(c => c.issues.length === 0 && c.expectedVerdict === 'GO')).toBe(true)
    expect(new Set(cases.map(c => c.language))).toEqual(
      new Set(['javascript', 'typescript', 'python', 'go'])
    )
  })

  it("eval/NOTICE names every case's repository, licence and commit", () => {
    const notice = readFileSync('eval/NOTICE', 'utf8')
    for (const c of loadDataset('eval')) {
      const entry = notice.slice(notice.indexOf(`${c.repo}\n`))
      expect(entry, `${c.id}: ${c.repo} in eval/NOTICE`).toMatch(
        new RegExp(`^\\S+\n  Licence: ${c.licence}`)
      )
      expect(entry.split('\n\n')[0], `${c.id}: its commit in eval/NOTICE`).toContain(
        `${c.commit} (${c.id})`
      )
    }
  })

  it('finds eval/ beside dist/, as the prompts are found', () => {
    const saved = process.argv[1]
    process.argv[1] = path.resolve('dist', 'index.js')
    try {
      expect(shippedDataset()).toBe(path.resolve('eval'))
    } finally {
      process.argv[1] = saved!
    }
  })

  it.each([
    [
      'a missing field',
      BUG,
      (c: Record<string, unknown>) => delete c.licence,
      /"licence" is missing.*add it/
    ],
    [
      'a field the schema does not know',
      BUG,
      (c: Record<string, unknown>) => (c.severity = 'high'),
      /"severity" is not one eval\/schema.json knows: remove it/
    ],
    [
      'a bug case without issues',
      BUG,
      (c: Record<string, unknown>) => (c.issues = []),
      /a bug case needs at least one labelled issue in "issues"/
    ],
    [
      'a clean case with an issue',
      CLEAN,
      (c: Record<string, unknown>) =>
        (c.issues = [{ file: 'index.js', lines: [1, 2], description: 'x' }]),
      /a clean case has no labelled issues: remove "issues"/
    ],
    [
      'a clean case without its verdict',
      CLEAN,
      (c: Record<string, unknown>) => delete c.expectedVerdict,
      /"expectedVerdict" is missing \(a clean case needs it\)/
    ],
    [
      'an empty language',
      BUG,
      (c: Record<string, unknown>) => (c.language = ''),
      /"language" must NOT have fewer than 1 characters/
    ],
    [
      'an id that is not the folder name',
      BUG,
      (c: Record<string, unknown>) => (c.id = 'another-name'),
      /"id" is "another-name" but the folder is js-minimist-short-equals: make them the same/
    ],
    [
      'a line range backwards',
      BUG,
      (c: Record<string, unknown>) =>
        (c.issues = [{ file: 'index.js', lines: [9, 3], description: 'x' }]),
      /lines \[9, 3\]: give \[first, last\]/
    ]
  ])('names the case, the field and the fix for %s', (_, id, edit, message) => {
    const dir = datasetWith(id, edit)
    const error = loadError(dir)
    expect(error).toContain(path.join(dir, 'cases', id))
    expect(error).toMatch(message)
  })

  it('says so when case.json is not JSON, or base/ or fix.patch is missing', () => {
    const broken = datasetWith(BUG)
    writeFileSync(path.join(broken, 'cases', BUG, 'case.json'), '{ "id": ')
    expect(loadError(broken)).toMatch(/case.json is not JSON .*: fix its syntax/)
    // without base/ a case is fetched from its repo: its PR is then "head" or fix.patch
    const noBase = datasetWith(BUG)
    rmSync(path.join(noBase, 'cases', BUG, 'base'), { recursive: true })
    expect(loadDataset(noBase)[0]).toMatchObject({ id: BUG, fetched: true })
    rmSync(path.join(noBase, 'cases', BUG, 'fix.patch'))
    expect(loadError(noBase)).toMatch(/has no base\/, no "head" and no fix.patch: ship the tree/)
    const noPatch = datasetWith(BUG)
    rmSync(path.join(noPatch, 'cases', BUG, 'fix.patch'))
    expect(loadError(noPatch)).toMatch(/has no fix.patch/)
    expect(loadError(path.join(scratch, 'nowhere'))).toMatch(/no such folder/)
  })

  it('refuses a base/ holding a .git (git would run what its config says) or a link out of it', () => {
    const withGit = datasetWith(BUG)
    const dotGit = path.join(withGit, 'cases', BUG, 'base', 'lib', '.git')
    mkdirSync(dotGit, { recursive: true })
    writeFileSync(path.join(dotGit, 'config'), '[core]\n\tfsmonitor = "touch /tmp/owned"\n')
    expect(loadError(withGit)).toMatch(/base\/ holds lib\/\.git: a case's tree has no \.git/)
    const linked = datasetWith(BUG)
    symlinkSync('/etc/passwd', path.join(linked, 'cases', BUG, 'base', 'passwd'))
    expect(loadError(linked)).toMatch(/base\/ holds passwd \(a link to \/etc\/passwd\)/)
    // a link within base/ is a case's own
    const inside = datasetWith(BUG)
    symlinkSync('index.js', path.join(inside, 'cases', BUG, 'base', 'alias.js'))
    expect(loadDataset(inside).map(c => c.id)).toEqual([BUG])
  })
})

describe('buildCaseRepo', () => {
  const cases = loadDataset('eval')
  const bug = cases.find(c => c.id === BUG)!
  const git = (cwd: string, ...args: string[]): string =>
    execFileSync('git', args, { cwd, encoding: 'utf8' }).trim()

  it('makes the same commits every time, main holding base/ and pr the change, pr checked out', () => {
    const one = buildCaseRepo(bug, path.join(scratch, 'repo-1'))
    const two = buildCaseRepo(bug, path.join(scratch, 'repo-2'))
    expect(two).toEqual(one)
    const repo = path.join(scratch, 'repo-1')
    expect(git(repo, 'rev-parse', 'main', 'pr')).toBe(`${one.base}\n${one.head}`)
    expect(git(repo, 'branch', '--show-current')).toBe('pr')
    expect(git(repo, 'diff', '--name-only', one.base, one.head)).toBe('index.js')
    expect(git(repo, 'log', '-1', '--format=%s', one.base)).toBe(
      'base: minimistjs/minimist@' + bug.commit.slice(0, 10)
    )
    // the PR's title names the files, not the bug (the fix commit's subject would give it away)
    expect(git(repo, 'log', '-1', '--format=%s')).toBe('Change index.js')
    expect(git(repo, 'status', '--porcelain')).toBe('')
  })

  it('gives a clean case its commit subject, and refuses a folder that is not empty', () => {
    const clean = cases.find(c => c.id === CLEAN)!
    const repo = path.join(scratch, 'repo-clean')
    buildCaseRepo(clean, repo)
    expect(git(repo, 'log', '-1', '--format=%s')).toBe(clean.commitSubject)
    expect(() => buildCaseRepo(clean, repo)).toThrow(/is not empty; give a new folder/)
  })

  it('says which case when its fix.patch does not apply', () => {
    const dir = datasetWith(BUG)
    writeFileSync(path.join(dir, 'cases', BUG, 'base', 'index.js'), 'changed\n')
    const [c] = loadDataset(dir)
    expect(() => buildCaseRepo(c!, path.join(scratch, 'repo-bad'))).toThrow(
      /js-minimist-short-equals: fix.patch does not apply to base\//
    )
  })
})

describe('runCaseTest', () => {
  const runner = createCommandRunner()
  const tools = path.resolve('node_modules')

  /** A case of `language` whose tree is `files`, its test `testCommand`. */
  function tiny(
    language: EvalCase['language'],
    testCommand: string,
    files: Record<string, string>,
    npmDevDeps: string[] = []
  ): { c: EvalCase; tree: string } {
    const tree = path.join(scratch, `tiny-${made++}`)
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(tree, name)), { recursive: true })
      writeFileSync(path.join(tree, name), text)
    }
    const c: EvalCase = {
      ...{ id: 'tiny', language, kind: 'clean', repo: 'https://github.com/o/r', commit: '' },
      ...{ licence: 'MIT', commitSubject: 's', issues: [], testCommand, npmDevDeps, dir: tree }
    }
    return { c, tree }
  }
  const run = ({ c, tree }: { c: EvalCase; tree: string }, tools_ = tools) =>
    runCaseTest(c, tree, {
      runner,
      env: process.env,
      tools: tools_,
      copy: path.join(scratch, `copy-${made++}`)
    })

  it('runs the test on a copy of the tree with heldout.patch applied, leaving the tree as it was', async () => {
    const before = "require('tape')('t', t => { t.ok(true); t.end() })\n"
    const made_ = tiny('javascript', 'tape test.js', { 'test.js': before }, ['tape@5'])
    const dir = path.join(scratch, `case-${made++}`)
    mkdirSync(dir)
    const c = { ...made_.c, dir }
    writeFileSync(
      path.join(dir, 'heldout.patch'),
      [
        'diff --git a/test.js b/test.js',
        '--- a/test.js',
        '+++ b/test.js',
        '@@ -1 +1 @@',
        "-require('tape')('t', t => { t.ok(true); t.end() })",
        "+require('tape')('t', t => { t.ok(false, 'held out'); t.end() })",
        ''
      ].join('\n')
    )
    const result = await run({ c, tree: made_.tree })
    expect(result.status).toBe('failed')
    expect(result.detail).toContain('held out')
    expect(readFileSync(path.join(made_.tree, 'test.js'), 'utf8')).toBe(before)
    writeFileSync(
      path.join(dir, 'heldout.patch'),
      'diff --git a/nothing.js b/nothing.js\n--- a/nothing.js\n+++ b/nothing.js\n@@ -1 +1 @@\n-a\n+b\n'
    )
    await expect(run({ c, tree: made_.tree })).rejects.toThrow(/heldout\.patch does not apply/)
  })

  it('says which npm packages to install, and where, when the tools folder lacks them', async () => {
    const empty = path.join(scratch, 'no-tools', 'node_modules')
    mkdirSync(empty, { recursive: true })
    const result = await run(tiny('javascript', 'mocha test.js', {}, ['mocha@10']), empty)
    expect(result.status).toBe('unavailable')
    expect(result.detail).toContain(`npm packages missing from ${empty}: mocha@10`)
    expect(result.detail).toContain('npm install --no-save mocha@10')
    expect(missingRuntime(tiny('javascript', 'x', {}, ['mocha@9']).c, tools)).toMatch(/mocha@9/)
  })

  it('counts a mocha run with no test as failed, and a passing one as passed', async () => {
    const none = await run(tiny('javascript', 'mocha test.js', { 'test.js': '' }, ['mocha@10']))
    expect(none.status).toBe('failed')
    expect(none.detail).toMatch(/ran no test[\s\S]*0 passing/)
    const one = tiny('javascript', 'mocha test.js', { 'test.js': "it('x', () => {})" }, [
      'mocha@10'
    ])
    expect(await run(one)).toMatchObject({ status: 'passed' })
  })

  it('counts a tape run with no test as failed, and tells a failing test from a passing one', async () => {
    const none = await run(tiny('javascript', 'tape test.js', { 'test.js': '' }, ['tape@5']))
    expect(none).toMatchObject({ status: 'failed' })
    expect(none.detail).toContain('# tests 0')
    const failing = "require('tape')('t', t => { t.equal(1, 2); t.end() })"
    const result = await run(tiny('javascript', 'tape test.js', { 'test.js': failing }, ['tape@5']))
    expect(result.status).toBe('failed')
    expect(result.detail).toMatch(/^exit 1\n/)
  })

  it.skipIf(missingRuntime(tiny('python', 'pytest', {}).c, tools) !== undefined)(
    'counts a pytest run that collected no test as failed',
    async () => {
      const cmd = 'python3 -m pytest -q -p no:cacheprovider -c /dev/null --rootdir . test_x.py'
      const result = await run(tiny('python', cmd, { 'test_x.py': 'x = 1\n' }))
      expect(result.status).toBe('failed')
      expect(result.detail).toMatch(/^exit 5 \(pytest ran no test\)/)
    }
  )

  it.skipIf(missingRuntime(tiny('go', 'go', {}).c, tools) !== undefined)(
    'counts a go test run that matched no test as failed',
    async () => {
      const files = {
        'go.mod': 'module example.com/x\n\ngo 1.13\n',
        'x_test.go': 'package x\n\nimport "testing"\n\nfunc TestX(t *testing.T) {}\n'
      }
      const none = await run(tiny('go', "go test -count=1 -run '^TestY$' .", files))
      expect(none).toMatchObject({ status: 'failed' })
      expect(none.detail).toContain('no tests to run')
      expect(await run(tiny('go', 'go test -count=1 .', files))).toMatchObject({
        status: 'passed'
      })
    }
  )
})
