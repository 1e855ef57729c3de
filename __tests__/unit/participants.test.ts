import { describe, expect, it } from 'vitest'
import {
  coAuthorEmails,
  loopMade,
  madeBy,
  unchecked,
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
  pushes: [{ actor: 'octocat', after: 'aaaaaaa' }],
  ...more
})
const pushed = (...actors: string[]) => actors.map(actor => ({ actor, after: 'bbbbbbb' }))

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
    const m = makers([commit({})], { pushes: pushed('octocat', 'Dana', 'github-actions[bot]') })
    expect(madeBy('dana', pull, m)).toBe('someone who pushed to its head branch')
    expect(madeBy('maintainer', pull, m)).toBeUndefined()
  })

  it("when the pushers cannot be read, the fork's owner stands in for them; a maintainer still counts", () => {
    const fork = { ...pull, headRepoFullName: 'forker/widgets' }
    const unknown = makers([commit({})], { pushes: undefined, pushersUnknown: 'HTTP 404' })
    expect(madeBy('forker', fork, unknown)).toBe('the owner of the fork its head branch is on')
    expect(madeBy('maintainer', fork, unknown)).toBeUndefined()
    // the same login is no fork owner when the pushers were read, nor on a same-repository PR
    expect(madeBy('forker', fork, makers([commit({})]))).toBeUndefined()
    expect(madeBy('acme', pull, unknown)).toBeUndefined()
  })

  it('names a co-author by the account GitHub resolves their address to (any verified address)', () => {
    const message = 'greet\n\nCo-authored-by: Alice <alice@example.com>'
    const authors = [{ login: 'octocat', email: 'o@example.com' }]
    const m = makers([
      commit({ message, authors: [...authors, { email: 'alice@example.com', login: 'alice' }] })
    ])
    expect(madeBy('alice', pull, m)).toBe('a co-author of its commit 0123456 (Co-authored-by)')
    expect(madeBy('maintainer', pull, m)).toBeUndefined()
    // resolved to no account: nobody, and nothing left unchecked
    const nobody = makers([
      commit({ message, authors: [...authors, { email: 'alice@example.com' }] })
    ])
    expect(madeBy('alice', pull, nobody)).toBeUndefined()
    expect(unchecked(pull, nobody)).toEqual([])
    expect(untiedCoAuthors(nobody)).toBe(1)
  })

  it("leaves out the loop's own commits and pushes, whoever's token pushed them", () => {
    const identity = { name: 'github-actions[bot]', email: 'maintainer@example.com' }
    const state = {
      iterations: [{ fix: { outcome: 'pushed', commitSha: 'f1f1f1f' } }],
      lastPushedSha: 'f2f2f2f'
    } as unknown as Parameters<typeof loopMade>[1]
    const own = loopMade(7, state, identity)
    // the PAT of `maintainer` pushed both fixes; the fix commits are under an address of theirs
    const fix = (sha: string, message = 'review-loop: address review') =>
      commit({ sha, message, authorLogin: 'maintainer', committerLogin: 'maintainer' })
    const lost = fix(
      'f3f3f3f',
      'fix\n\nReview-loop-PR: 7\nReview-loop-iteration: 3\nReview-loop-run: 9:1'
    )
    const m = makers(
      [commit({}), fix('f1f1f1f'), fix('f2f2f2f'), { ...lost, committerEmail: identity.email }],
      {
        pushes: [
          { actor: 'octocat', after: 'aaaaaaa' },
          { actor: 'maintainer', after: 'f1f1f1f' },
          { actor: 'maintainer', after: 'f2f2f2f' }
        ]
      }
    )
    expect(madeBy('maintainer', pull, m, own)).toBeUndefined()
    // without knowing the loop's commits, the maintainer would be locked out
    expect(madeBy('maintainer', pull, m)).toBe('someone who pushed to its head branch')
    // a push of anything else by them still counts
    const more = { ...m, pushes: [...m.pushes!, { actor: 'maintainer', after: 'c0ffee0' }] }
    expect(madeBy('maintainer', pull, more, own)).toBe('someone who pushed to its head branch')
    // a commit of theirs the loop did not make still counts
    const theirs = makers([commit({ authorLogin: 'maintainer' })])
    expect(madeBy('maintainer', pull, theirs, own)).toBe('the author of its commit 0123456')
  })
})

describe('what the loop could not check of who made a PR (unchecked)', () => {
  it("lists a same-repository branch's unreadable pushes, partial lists and unresolved co-authors", () => {
    expect(unchecked(pull, makers([commit({})]))).toEqual([])
    const noPushes = makers([commit({})], { pushes: undefined, pushersUnknown: 'HTTP 403' })
    expect(unchecked(pull, noPushes)).toEqual(['who pushed to the head branch (HTTP 403)'])
    // a fork's owner stands in for its pushers: nothing unchecked
    const fork = { ...pull, headRepoFullName: 'forker/widgets' }
    expect(unchecked(fork, noPushes)).toEqual([])
    const partial = makers([commit({})], { partial: ['the commits after the first 250'] })
    expect(unchecked(pull, partial)).toEqual(['the commits after the first 250'])
    const message = 'x\n\nCo-authored-by: Alice <alice@example.com>'
    const unresolved = makers([commit({ message })], { authorsUnknown: 'GraphQL: FORBIDDEN' })
    expect(unchecked(pull, unresolved)).toEqual([
      'which accounts one co-author named by address is (GraphQL: FORBIDDEN)'
    ])
    // a noreply co-author needs no resolving
    const noreply = makers([
      commit({ message: 'x\n\nCo-authored-by: A <a@users.noreply.github.com>' })
    ])
    expect(unchecked(pull, noreply)).toEqual([])
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
    const resolved = (c: PullCommit): PullCommit => ({
      ...c,
      authors: [{ login: 'octocat' }, ...coAuthorEmails(c.message).map(email => ({ email }))]
    })
    expect(untiedCoAuthors(makers([resolved(commit({ message }))]))).toBe(2)
    expect(untiedCoAuthors(makers([resolved(commit({}))]))).toBe(0)
  })
})
