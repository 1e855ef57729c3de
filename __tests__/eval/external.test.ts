// Fetched (external) cases: case.json without base/, loaded and checked; their repository fetched
// into the cache (a local path, and git over HTTP on 127.0.0.1) and built as a shipped case's is;
// a fetch that fails names the repository; free-text languages probe their test command.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { DatasetError, loadDataset, missingRuntime, type EvalCase } from '../../src/eval/dataset.js'
import { buildFetchedRepo, evalCache } from '../../src/eval/external.js'
import { placeMatches } from '../../src/report/eval-score.js'
import { GitHttpServer } from '../../test-support/git-http-server.js'
import { PRS, prRepository } from '../../test-support/martian-fixture.js'

const scratch = mkdtempSync(path.join(tmpdir(), 'review-loop-external-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
let made = 0
const fresh = (name: string) => path.join(scratch, `${name}-${made++}`)

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd, encoding: 'utf8' }).trim()

/** A dataset of one fetched case, its case.json `data` (and a fix.patch when given). */
function dataset(data: Record<string, unknown>, patch?: string): string {
  const root = fresh('set')
  const folder = path.join(root, 'cases', String(data.id))
  mkdirSync(folder, { recursive: true })
  writeFileSync(path.join(folder, 'case.json'), JSON.stringify(data))
  if (patch !== undefined) writeFileSync(path.join(folder, 'fix.patch'), patch)
  return root
}

const fetchedCase = (repo: string, commit: string, head?: string) => ({
  id: 'ruby-fetched',
  language: 'ruby',
  kind: 'bug',
  repo,
  commit,
  ...(head ? { head } : {}),
  commitSubject: 'Add a device limit',
  licence: 'NOASSERTION',
  issues: [
    { description: 'Two requests at once pass the limit.', severity: 'high' },
    { file: 'a.rb', lines: [1, 2], description: 'A placed one.' }
  ],
  hasTest: false,
  npmDevDeps: [],
  generatedFiles: []
})

const loadError = (dir: string): string => {
  try {
    loadDataset(dir)
  } catch (e) {
    expect(e).toBeInstanceOf(DatasetError)
    return (e as Error).message
  }
  throw new Error('loadDataset accepted a broken case')
}

const SHA = 'a'.repeat(40)
const HEAD = 'b'.repeat(40)

describe('a fetched case in case.json', () => {
  it('loads without base/: free-text language, labels with and without a place', () => {
    const [c] = loadDataset(dataset(fetchedCase('https://example.invalid/r.git', SHA, HEAD)))
    expect(c).toMatchObject({ id: 'ruby-fetched', language: 'ruby', fetched: true, head: HEAD })
    expect(c!.issues[0]).toEqual({
      description: 'Two requests at once pass the limit.',
      severity: 'high'
    })
  })

  it.each([
    ['a file without lines', { issues: [{ file: 'a.rb', description: 'x' }] }, /lines/],
    ['lines without a file', { issues: [{ lines: [1, 2], description: 'x' }] }, /file/],
    ['a head that is not a sha', { head: 'main' }, /"head" must match pattern/]
  ])('refuses %s', (_, change, message) => {
    const error = loadError(dataset({ ...fetchedCase('r', SHA, HEAD), ...change }))
    expect(error).toContain('ruby-fetched')
    expect(error).toMatch(message)
  })

  it('needs its PR as "head" or fix.patch, not both, nor none', () => {
    expect(loadError(dataset(fetchedCase('r', SHA)))).toMatch(
      /has no base\/, no "head" and no fix.patch/
    )
    expect(loadError(dataset(fetchedCase('r', SHA, HEAD), 'diff'))).toMatch(
      /has both "head" and fix.patch/
    )
    expect(loadDataset(dataset(fetchedCase('r', SHA), 'diff'))[0]!.fetched).toBe(true)
  })

  it('a label with no place is matched by no finding by place', () => {
    const issues = [{ description: 'x' }, { file: 'a.rb', lines: [3, 4] as [number, number] }]
    expect(placeMatches(issues, [{ file: 'a.rb', line: 3 }, { line: 1 }], 3)).toEqual([[0, 1]])
  })
})

describe('missingRuntime for a language with no probe of its own', () => {
  const c = (testCommand: string) =>
    ({ id: 'x', language: 'ruby', testCommand, npmDevDeps: [] }) as unknown as EvalCase
  it('looks for the test command on PATH, past VAR=value', () => {
    expect(missingRuntime(c('FOO=1 sh -c true'), scratch)).toBeUndefined()
    expect(missingRuntime(c('RAILS_ENV=test no-such-runtime-xyz spec'), scratch)).toBe(
      "no-such-runtime-xyz is not on PATH (the ruby case's test runs `RAILS_ENV=test no-such-runtime-xyz spec`): install it"
    )
  })
})

describe('buildFetchedRepo', () => {
  const pr = PRS[0]!
  const dir = fresh('repos')
  mkdirSync(dir)
  const made = prRepository(dir, pr)
  const env = (cache: string) => ({ REVIEW_LOOP_EVAL_CACHE: cache, HOME: scratch })
  const asCase = (repo: string, head?: string): EvalCase => ({
    ...(fetchedCase(repo, made.mergeBase, head) as unknown as EvalCase),
    issues: [],
    dir: fresh('case'),
    fetched: true
  })

  it('fetches into the cache and builds main (the base) and pr (the head), one commit each', async () => {
    const cache = fresh('cache')
    const into = fresh('repo')
    const built = await buildFetchedRepo(asCase(made.bare, made.head), into, env(cache))
    expect(git(into, 'rev-list', '--count', 'main')).toBe('1')
    expect(git(into, 'rev-list', '--count', 'pr')).toBe('2')
    expect(git(into, 'branch', '--show-current')).toBe('pr')
    expect(git(into, 'rev-parse', 'main', 'pr')).toBe(`${built.base}\n${built.head}`)
    expect(git(into, 'log', '-1', '--format=%s', 'pr')).toBe('Add a device limit')
    // the head's tree exactly: the base's file removed, the PR's files added
    expect(git(into, 'diff', '--name-status', 'main', 'pr').split('\n').sort()).toEqual([
      'A\tpackages/features/bookings/cancel.ts',
      'M\tpackages/app-store/index.ts'
    ])
    expect(git(into, 'ls-tree', '-r', '--name-only', 'pr')).toBe(
      git(made.bare, 'ls-tree', '-r', '--name-only', made.head)
    )
    // nothing of the upstream history: no later main, no other refs
    expect(git(into, 'for-each-ref', '--format=%(refname)')).toBe('refs/heads/main\nrefs/heads/pr')
    // the same commits from the cache, built again
    expect(await buildFetchedRepo(asCase(made.bare, made.head), fresh('repo'), env(cache))).toEqual(
      built
    )
  })

  it('over git HTTP on 127.0.0.1: fetches once, a partial fetch, and reuses the cache after', async () => {
    const server = await GitHttpServer.start(made.bare, 'tok')
    try {
      const url = server.url.replace('http://', 'http://x-access-token:tok@')
      const cache = fresh('cache')
      await buildFetchedRepo(asCase(url, made.head), fresh('repo'), env(cache))
      const asked = server.requests.filter(r => r.route === 'git fetch' && r.status === 200)
      expect(asked.length).toBeGreaterThan(0)
      const [folder] = readdirSync(cache)
      // the cache keeps no password, and is a partial clone of two shallow commits
      expect(folder).not.toContain('tok')
      const cached = path.join(cache, folder!)
      expect(git(cached, 'config', 'remote.origin.partialclonefilter')).toBe('blob:none')
      expect(git(cached, 'rev-parse', '--is-shallow-repository')).toBe('true')
      const into = fresh('repo')
      const before = server.requests.length
      await buildFetchedRepo(asCase(url, made.head), into, env(cache))
      expect(server.requests.length).toBe(before)
      // the base commit's message names the repository without the token
      expect(git(into, 'log', '-1', '--format=%s', 'main')).not.toContain('tok')
    } finally {
      await server.close()
    }
  })

  it('reads a local path relative to the case folder', async () => {
    const c = asCase('', made.head)
    const into = fresh('repo')
    await buildFetchedRepo({ ...c, repo: path.relative(c.dir, made.bare) }, into, env(fresh('c')))
    expect(git(into, 'rev-list', '--count', 'pr')).toBe('2')
  })

  it('applies fix.patch on the fetched commit when the case has no head', async () => {
    const c = asCase(made.bare)
    mkdirSync(c.dir, { recursive: true })
    writeFileSync(
      path.join(c.dir, 'fix.patch'),
      git(made.bare, 'diff', made.mergeBase, made.head, '--', 'packages/app-store/index.ts') + '\n'
    )
    const into = fresh('repo')
    await buildFetchedRepo(c, into, env(fresh('cache')))
    expect(git(into, 'diff', '--name-only', 'main', 'pr')).toBe('packages/app-store/index.ts')
    expect(git(into, 'log', '-1', '--format=%s', 'pr')).toBe('Change packages/app-store/index.ts')
  })

  it('a fetch that fails is a DatasetError naming the case, the repository and what to do', async () => {
    const missing = path.join(scratch, 'no-such-repo.git')
    await expect(
      buildFetchedRepo(asCase(missing, made.head), fresh('repo'), env(fresh('c')))
    ).rejects.toThrow(
      new RegExp(
        `eval case ruby-fetched: cannot fetch ${made.mergeBase.slice(0, 12)} and ${made.head.slice(0, 12)} from ${missing} \\(.*\\): check that the repository can be reached`
      )
    )
    const gone = asCase(made.bare, 'c'.repeat(40))
    await expect(buildFetchedRepo(gone, fresh('repo'), env(fresh('c')))).rejects.toThrow(
      /cannot fetch/
    )
  })

  it('a cache that cannot be written is a DatasetError saying what to set', async () => {
    const file = fresh('not-a-folder')
    writeFileSync(file, '')
    await expect(
      buildFetchedRepo(asCase(made.bare, made.head), fresh('repo'), env(file))
    ).rejects.toThrow(
      /cannot use the cache .*: set REVIEW_LOOP_EVAL_CACHE to a folder you can write/
    )
  })

  it('keeps its cache in REVIEW_LOOP_EVAL_CACHE, else XDG_CACHE_HOME, else ~/.cache', () => {
    expect(evalCache({ REVIEW_LOOP_EVAL_CACHE: '/c', XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe('/c')
    expect(evalCache({ XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe('/x/review-loop/eval')
    expect(evalCache({ HOME: '/h' })).toBe('/h/.cache/review-loop/eval')
  })
})
