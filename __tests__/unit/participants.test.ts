import { describe, expect, it } from 'vitest'
import {
  coAuthorEmails,
  madeBy,
  noreplyLogin,
  untiedCoAuthors,
  type PullCommit,
  type PullMakers
} from '../../src/loop/participants.js'

const pull = {
  author: 'octocat',
  headRepoFullName: 'acme/widgets',
  baseRepoFullName: 'acme/widgets'
}
const commit = (c: Partial<PullCommit>): PullCommit => ({
  sha: '0123456789abcdef',
  message: 'work',
  authorLogin: 'octocat',
  committerLogin: 'octocat',
  ...c
})
const makers = (commits: PullCommit[], more: Partial<PullMakers> = {}): PullMakers => ({
  commits,
  pushers: ['octocat'],
  ...more
})

describe('who made a PR, and so cannot settle it (madeBy)', () => {
  it("names the PR's author, whatever the case of the login", () => {
    expect(madeBy('OctoCat', pull, makers([]))).toBe("the PR's author")
  })

  it("names a commit's author and committer by the account GitHub ties to them", () => {
    const m = makers([commit({ authorLogin: 'alice', committerLogin: 'bob' })])
    expect(madeBy('alice', pull, m)).toBe('the author of its commit 0123456')
    expect(madeBy('Bob', pull, m)).toBe('the committer of its commit 0123456')
    expect(madeBy('maintainer', pull, m)).toBeUndefined()
  })

  it('names a commit author GitHub could not tie to an account by a noreply address', () => {
    const m = makers([
      commit({ authorLogin: undefined, authorEmail: '7+alice@users.noreply.github.com' }),
      commit({
        sha: 'fedcba9876543210',
        committerLogin: undefined,
        committerEmail: 'bob@users.noreply.github.com'
      })
    ])
    expect(madeBy('alice', pull, m)).toBe('the author of its commit 0123456')
    expect(madeBy('bob', pull, m)).toBe('the committer of its commit fedcba9')
  })

  it('names a co-author by a noreply address, in either form', () => {
    const message = [
      'greet',
      '',
      'Co-authored-by: Carol <4242+carol@users.noreply.github.com>',
      'co-authored-by: Dan <dan@users.noreply.github.com>',
      'Co-Authored-By: Erin Example <erin@example.com>'
    ].join('\n')
    const m = makers([commit({}), commit({ sha: 'fedcba9876543210', message })])
    expect(madeBy('carol', pull, m)).toBe('a co-author of its commit fedcba9 (Co-authored-by)')
    expect(madeBy('dan', pull, m)).toBe('a co-author of its commit fedcba9 (Co-authored-by)')
    // GitHub keeps other addresses private: nothing ties erin@example.com to a login
    expect(madeBy('erin', pull, m)).toBeUndefined()
    expect(madeBy('maintainer', pull, m)).toBeUndefined()
  })

  it('does not take a Co-authored-by naming someone else, or a noreply look-alike, for the person', () => {
    const message = [
      'Co-authored-by: maintainer <4242+maintainer-x@users.noreply.github.com>',
      'Co-authored-by: M <maintainer@users.noreply.github.com.evil.example>',
      'Signed-off-by: M <maintainer@users.noreply.github.com>'
    ].join('\n')
    expect(madeBy('maintainer', pull, makers([commit({ message })]))).toBeUndefined()
  })

  it('names anyone who pushed to the head branch, though they made no commit', () => {
    const m = makers([commit({})], { pushers: ['octocat', 'Dana', 'github-actions[bot]'] })
    expect(madeBy('dana', pull, m)).toBe('someone who pushed to its head branch')
    expect(madeBy('maintainer', pull, m)).toBeUndefined()
  })

  it("when the pushers cannot be read, the fork's owner stands in for them; a maintainer still counts", () => {
    const fork = { ...pull, headRepoFullName: 'forker/widgets' }
    const unknown = makers([commit({})], { pushers: undefined, pushersUnknown: 'HTTP 404' })
    expect(madeBy('forker', fork, unknown)).toBe('the owner of the fork its head branch is on')
    expect(madeBy('maintainer', fork, unknown)).toBeUndefined()
    // the same login is no fork owner when the pushers were read, nor on a same-repository PR
    expect(madeBy('forker', fork, makers([commit({})]))).toBeUndefined()
    expect(madeBy('acme', pull, unknown)).toBeUndefined()
  })
})

describe('the addresses GitHub ties to a login', () => {
  it('reads both noreply forms and nothing else', () => {
    expect(noreplyLogin('41898282+github-actions[bot]@users.noreply.github.com')).toBe(
      'github-actions[bot]'
    )
    expect(noreplyLogin('carol@users.noreply.github.com')).toBe('carol')
    expect(noreplyLogin('carol@example.com')).toBeUndefined()
    expect(noreplyLogin('carol@users.noreply.github.com.example')).toBeUndefined()
  })

  it('reads every Co-authored-by trailer of a message', () => {
    expect(
      coAuthorEmails('x\n\nCo-authored-by: A <a@x.example>\nCo-authored-by: B B <b@y.example>\n')
    ).toEqual(['a@x.example', 'b@y.example'])
    expect(coAuthorEmails('mentions Co-authored-by: A <a@x.example> mid-line')).toEqual([])
  })

  it('counts the co-authors named by an address no account is tied to, once each', () => {
    const message = [
      'Co-authored-by: Carol <4242+carol@users.noreply.github.com>',
      'Co-authored-by: Erin <erin@example.com>',
      'Co-authored-by: Erin <ERIN@example.com>',
      'Co-authored-by: Finn <finn@example.com>'
    ].join('\n')
    expect(untiedCoAuthors(makers([commit({ message })]))).toBe(2)
    expect(untiedCoAuthors(makers([commit({})]))).toBe(0)
  })
})
