import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createGit } from '../../src/git/git.js'
import { commitFix, pushFix } from '../../src/fix/apply-fix.js'
import { commitAndPush, git, writeFiles } from '../../test-support/git-fixture.js'

const AUTHOR = { name: 'review-loop', email: 'bot@example.com' }

let dir: string
let origin: string
let work: string

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'rl-git-'))
  origin = path.join(dir, 'origin.git')
  work = path.join(dir, 'work')
  git(dir, ['init', '-q', '--bare', origin])
  git(dir, ['clone', '-q', origin, work])
  git(work, ['checkout', '-q', '-b', 'feature'])
  writeFiles(work, { 'a.txt': 'one\n', 'src/b.txt': 'two\n' })
  git(work, ['add', '-A'])
  git(work, ['commit', '-q', '-m', 'initial'])
  git(work, ['push', '-q', 'origin', 'feature'])
})

afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe('createGit', () => {
  it('refuses a directory that is not a checkout', async () => {
    await expect(createGit(dir)).rejects.toThrow(/is not a git checkout/)
  })

  const entry = (p: string, text: string) => ({
    path: p,
    mode: '100644' as const,
    content: Buffer.from(text)
  })

  it('commits nothing when the entries change nothing', async () => {
    const g = await createGit(work)
    const before = await g.head()
    expect(await g.commitEntries(before, [], 'fix: nothing', AUTHOR)).toBeUndefined()
    expect(await g.commitEntries(before, [entry('a.txt', 'one\n')], 'same', AUTHOR)).toBeUndefined()
    expect(await g.head()).toBe(before)
  })

  it('commits the given entries on the base, as the given author, and moves HEAD there', async () => {
    const g = await createGit(work)
    const base = await g.head()
    const sha = await g.commitEntries(
      base,
      [
        entry('a.txt', 'ONE\n'),
        entry('new/c.txt', 'three\n'),
        { path: 'src/b.txt', deleted: true }
      ],
      'fix: review findings',
      AUTHOR
    )
    expect(sha).toBe(await g.head())
    expect(git(work, ['log', '-1', '--format=%an <%ae>|%s'])).toBe(
      'review-loop <bot@example.com>|fix: review findings'
    )
    expect((await g.changedBetween(base, sha!)).sort()).toEqual(['a.txt', 'new/c.txt', 'src/b.txt'])
    expect(git(work, ['show', `${sha}:a.txt`])).toBe('ONE')
  })

  it('lists paths changed since a commit: tracked changes and untracked files not excepted', async () => {
    const g = await createGit(work)
    const base = await g.head()
    writeFiles(work, {
      'a.txt': 'changed\n',
      'src/b.txt': null,
      'new/deep/c.txt': 'new\n',
      'left.txt': 'x'
    })
    expect((await g.changedSince(base, new Set(['left.txt']))).sort()).toEqual([
      'a.txt',
      'new/deep/c.txt',
      'src/b.txt'
    ])
  })

  it('pushes a fix, and never forces over a branch that moved on origin', async () => {
    const g = await createGit(work)
    const fixed = await g.commitEntries(
      await g.head(),
      [entry('a.txt', 'fixed\n')],
      'fix 1',
      AUTHOR
    )
    expect(await g.push('feature', fixed!)).toEqual({ kind: 'pushed' })
    expect(await g.remoteHead('feature')).toBe(fixed)

    // someone else pushes to the branch in the meantime
    const other = path.join(dir, 'other')
    git(dir, ['clone', '-q', origin, other])
    const theirs = commitAndPush(other, 'feature', { 'theirs.txt': 'human\n' }, 'human commit')

    const again = await g.commitEntries(fixed!, [entry('a.txt', 'fixed again\n')], 'fix 2', AUTHOR)
    const result = await g.push('feature', again!)
    expect(result.kind).toBe('rejected')
    expect(await g.remoteHead('feature')).toBe(theirs)
  })
  it('reports a branch missing on origin as undefined', async () => {
    const g = await createGit(work)
    expect(await g.remoteHead('no-such-branch')).toBeUndefined()
  })

  describe("what PR code did to .git/config does not reach the action's git", () => {
    it('pushes to the URL origin had before, whatever pushurl, uploadpack or receivepack say now', async () => {
      const g = await createGit(work)
      const decoy = path.join(dir, 'decoy.git')
      git(dir, ['init', '-q', '--bare', decoy])
      const pwned = path.join(dir, 'pwned')
      // what a check could do to the repository's config
      git(work, ['config', 'remote.origin.pushurl', decoy])
      git(work, ['config', 'remote.origin.url', decoy])
      git(work, ['config', 'remote.origin.receivepack', `touch ${pwned}; git-receive-pack`])
      git(work, ['config', 'remote.origin.uploadpack', `touch ${pwned}; git-upload-pack`])
      git(work, ['config', 'core.sshCommand', `touch ${pwned}`])
      const fixed = await g.commitEntries(
        await g.head(),
        [entry('a.txt', 'fixed\n')],
        'fix',
        AUTHOR
      )
      expect(await g.remoteHead('feature')).not.toBe(fixed)
      expect(await g.push('feature', fixed!)).toEqual({ kind: 'pushed' })
      expect(git(origin, ['rev-parse', 'refs/heads/feature'])).toBe(fixed)
      expect(git(decoy, ['for-each-ref'])).toBe('')
      expect(existsSync(pwned)).toBe(false)
    })

    it('commits what the work tree holds, without clean filters a check configured', async () => {
      const g = await createGit(work)
      const pwned = path.join(dir, 'filtered')
      writeFiles(work, { '.gitattributes': '* filter=evil\n' })
      git(work, ['config', 'filter.evil.clean', `sh -c 'touch ${pwned}; echo smuggled'`])
      git(work, ['config', 'filter.evil.required', 'true'])
      const base = await g.head()
      writeFiles(work, { 'a.txt': 'real fix\n' })
      expect(await g.changedSince(base)).toContain('a.txt')
      const sha = await g.commitEntries(base, [entry('a.txt', 'real fix\n')], 'fix', AUTHOR)
      expect(git(work, ['show', `${sha}:a.txt`])).toBe('real fix')
      expect(existsSync(pwned)).toBe(false)
    })

    it('shows PR code a config without the persisted credentials', async () => {
      git(work, ['config', 'http.https://github.com/.extraheader', 'AUTHORIZATION: basic c2VjcmV0'])
      git(work, ['config', 'credential.helper', 'store'])
      git(work, ['config', 'http.proxy', 'http://user:ghs_canary@proxy.internal:3128'])
      git(work, [
        'config',
        'url.https://ghs_canary@github.com/.pushInsteadOf',
        'https://github.com/'
      ])
      git(work, [
        'config',
        'remote.origin.url',
        'https://x-access-token:ghs_canary@github.com/o/r.git'
      ])
      const g = await createGit(work)
      const copy = readFileSync(await g.configForPrCode(), 'utf8')
      expect(copy).not.toMatch(/extraheader|c2VjcmV0|credential|ghs_canary/)
      expect(copy).toContain('https://github.com/o/r.git')
    })
  })

  describe('the fix commit (commitFix)', () => {
    const fix = (g: Awaited<ReturnType<typeof createGit>>, base: string) =>
      commitFix(g, {
        reviewedSha: base,
        leftovers: new Set(),
        protectedPaths: ['.github/workflows/**'],
        secrets: ['ghs_canary_value_1234'],
        message: 'fix',
        author: AUTHOR
      })

    it('keeps edits to a tracked .env.example, leaves a new credential file out', async () => {
      writeFiles(work, { '.env.example': 'A=\n' })
      git(work, ['add', '-A'])
      git(work, ['commit', '-q', '-m', 'env example'])
      const g = await createGit(work)
      const base = await g.head()
      writeFiles(work, { '.env.example': 'A=\nB=\n', 'gha-creds-1.json': '{}', 'a.txt': 'fixed\n' })
      const r = await fix(g, base)
      expect(r.filesChanged.sort()).toEqual(['.env.example', 'a.txt'])
      expect(r.leftOut.map(l => l.path)).toEqual(['gha-creds-1.json'])
    })

    it('commits a file turned into a folder and a folder turned into a link, losing nothing', async () => {
      const g = await createGit(work)
      const base = await g.head()
      rmSync(path.join(work, 'a.txt'))
      writeFiles(work, { 'a.txt/inner.txt': 'now a folder\n' })
      rmSync(path.join(work, 'src'), { recursive: true })
      symlinkSync('a.txt', path.join(work, 'src'))
      const r = await fix(g, base)
      expect(r.refusal).toBeUndefined()
      expect(r.filesChanged.sort()).toEqual(['a.txt', 'a.txt/inner.txt', 'src', 'src/b.txt'])
      expect(git(work, ['cat-file', '-p', `${r.commitSha}:src`])).toBe('a.txt')
    })

    it('masks and refuses to push a fix that holds a secret value', async () => {
      const g = await createGit(work)
      const base = await g.head()
      writeFiles(work, { 'a.txt': 'token ghs_canary_value_1234\n' })
      const r = await fix(g, base)
      expect(r.secretFound).toBe(true)
      expect(git(work, ['show', `${r.commitSha}:a.txt`])).toBe('token ***')
      const delivered = await pushFix(g, 'feature', base, r, ['ghs_canary_value_1234'])
      expect(delivered).toMatchObject({ outcome: 'push_failed' })
      expect(await g.remoteHead('feature')).toBe(base)
    })

    it("runs no submodule's filter in the action's own diff", async () => {
      const g = await createGit(work)
      const base = await g.head()
      const pwned = path.join(dir, 'submodule-filter-ran')
      // a gitlink, and a submodule repository a check made, with a filter in its own config
      const sub = path.join(work, 'sub')
      git(work, ['init', '-q', sub])
      writeFiles(sub, { 'f.txt': 'x\n', '.gitattributes': '* filter=evil\n' })
      git(sub, ['add', '-A'])
      git(sub, ['-c', 'user.name=a', '-c', 'user.email=a@b', 'commit', '-q', '-m', 's'])
      git(work, [
        'update-index',
        '--add',
        '--cacheinfo',
        `160000,${git(sub, ['rev-parse', 'HEAD'])},sub`
      ])
      git(work, ['-c', 'user.name=a', '-c', 'user.email=a@b', 'commit', '-q', '-m', 'gitlink'])
      git(sub, ['config', 'filter.evil.clean', `sh -c 'touch ${pwned}; cat'`])
      writeFiles(sub, { 'f.txt': 'changed\n' })
      await g.changedSince(base)
      await g.changedSince(await g.head())
      expect(existsSync(pwned)).toBe(false)
    })
  })
})
