import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createGit } from '../../src/git/git.js'
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

  it('commits nothing when nothing changed', async () => {
    const g = await createGit(work)
    const before = await g.head()
    expect(await g.commitChanges('fix: nothing', AUTHOR)).toBeUndefined()
    expect(await g.head()).toBe(before)
  })

  it('commits every change, new files included, as the given author', async () => {
    const g = await createGit(work)
    writeFiles(work, { 'a.txt': 'ONE\n', 'new/c.txt': 'three\n' })
    const sha = await g.commitChanges('fix: review findings', AUTHOR)
    expect(sha).toBe(await g.head())
    expect(git(work, ['log', '-1', '--format=%an <%ae>|%s'])).toBe(
      'review-loop <bot@example.com>|fix: review findings'
    )
    expect(git(work, ['show', '--name-only', '--format=', 'HEAD']).split('\n').sort()).toEqual([
      'a.txt',
      'new/c.txt'
    ])
    expect(await g.changedPaths()).toEqual([])
  })

  it('lists changed tracked files and untracked files', async () => {
    const g = await createGit(work)
    writeFiles(work, { 'a.txt': 'changed\n', 'src/b.txt': null, 'new/deep/c.txt': 'new\n' })
    expect((await g.changedPaths()).sort()).toEqual(['a.txt', 'new/deep/c.txt', 'src/b.txt'])
  })

  it('discards changes: restores tracked files and removes untracked ones', async () => {
    const g = await createGit(work)
    writeFiles(work, {
      'a.txt': 'changed\n',
      'src/b.txt': null,
      'new/c.txt': 'new\n',
      'keep.txt': 'kept\n'
    })
    await g.discard(['a.txt', 'src/b.txt', 'new/c.txt'])
    expect(readFileSync(path.join(work, 'a.txt'), 'utf8')).toBe('one\n')
    expect(readFileSync(path.join(work, 'src/b.txt'), 'utf8')).toBe('two\n')
    expect(existsSync(path.join(work, 'new/c.txt'))).toBe(false)
    expect(await g.changedPaths()).toEqual(['keep.txt'])
  })

  it('pushes a fix, and never forces over a branch that moved on origin', async () => {
    const g = await createGit(work)
    writeFiles(work, { 'a.txt': 'fixed\n' })
    const fixed = await g.commitChanges('fix 1', AUTHOR)
    expect(await g.push('feature')).toEqual({ kind: 'pushed' })
    expect(await g.remoteHead('feature')).toBe(fixed)

    // someone else pushes to the branch in the meantime
    const other = path.join(dir, 'other')
    git(dir, ['clone', '-q', origin, other])
    const theirs = commitAndPush(other, 'feature', { 'theirs.txt': 'human\n' }, 'human commit')

    writeFiles(work, { 'a.txt': 'fixed again\n' })
    await g.commitChanges('fix 2', AUTHOR)
    const result = await g.push('feature')
    expect(result.kind).toBe('rejected')
    expect(await g.remoteHead('feature')).toBe(theirs)
  })

  it('reports a branch missing on origin as undefined', async () => {
    const g = await createGit(work)
    expect(await g.remoteHead('no-such-branch')).toBeUndefined()
  })
})
