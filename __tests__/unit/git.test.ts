import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createGit } from '../../src/git/git.js'
import { commitFix, pushFix } from '../../src/fix/apply-fix.js'
import { commitAndPush, git, writeFiles } from '../../test-support/git-fixture.js'
import { GitHttpServer } from '../../test-support/git-http-server.js'

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
  it('reviews a head with no history shared with the base against the base tip, diffing from there', async () => {
    const g = await createGit(work)
    const base = await g.head()
    git(work, ['push', '-q', 'origin', 'HEAD:refs/heads/main'])
    // a human force-pushes a history of its own to the branch
    git(work, ['checkout', '-q', '--orphan', 'fresh'])
    writeFiles(work, { 'a.txt': 'one\n', 'src/b.txt': 'rewritten\n' })
    git(work, ['add', '-A'])
    git(work, ['commit', '-q', '-m', 'start over'])
    const head = git(work, ['rev-parse', 'HEAD'])
    expect(await g.reviewBase('main', base, head)).toEqual({ sha: base, shared: false })
    expect(await g.isAncestor(base, head)).toBe(false)
    const diff = await g.diff(base, head)
    expect(diff).toContain('+rewritten')
    expect(diff).not.toContain('a.txt')
    // a head on the base's history: its merge base
    expect(await g.reviewBase('main', base, base)).toEqual({ sha: base, shared: true })
    expect(await g.isAncestor('f'.repeat(40), head)).toBeUndefined()
  })

  it('deepens a shallow checkout to find the merge base, or fails naming fetch-depth: 0', async () => {
    const base = git(work, ['rev-parse', 'HEAD'])
    git(work, ['push', '-q', 'origin', 'HEAD:refs/heads/main'])
    commitAndPush(work, 'feature', { 'a.txt': 'two\n' }, 'second')
    const head = commitAndPush(work, 'feature', { 'a.txt': 'three\n' }, 'third')
    const shallow = path.join(dir, 'shallow')
    const clone = ['clone', '-q', '--depth', '1', '--branch', 'feature', `file://${origin}`]
    git(dir, [...clone, shallow])
    const g = await createGit(shallow)
    expect(await g.isAncestor(base, head)).toBeUndefined()
    expect(await g.reviewBase('main', base, head)).toEqual({ sha: base, shared: true })
    expect(await g.isAncestor(base, head)).toBe(true)
    expect(await g.fullHistory()).toBe(false)

    const cut = path.join(dir, 'cut')
    git(dir, [...clone, cut])
    // origin cannot serve the rest of the history
    git(cut, ['remote', 'set-url', 'origin', path.join(dir, 'gone.git')])
    const failing = await createGit(cut)
    await expect(failing.fullHistory()).rejects.toThrow(/shallow.*fetch-depth: 0/)
  })

  it("deepens a shallow checkout of a head origin holds only as the PR's pull ref (a fork's PR)", async () => {
    const base = git(work, ['rev-parse', 'HEAD'])
    git(work, ['push', '-q', 'origin', 'HEAD:refs/heads/main'])
    commitAndPush(work, 'feature', { 'a.txt': 'two\n' }, 'second')
    const head = commitAndPush(work, 'feature', { 'a.txt': 'three\n' }, 'third')
    // the commits live in the fork: the base repository serves them as refs/pull/7/head only
    git(origin, ['update-ref', 'refs/pull/7/head', head])
    git(origin, ['update-ref', '-d', 'refs/heads/feature'])
    const shallow = path.join(dir, 'fork-shallow')
    git(dir, ['init', '-q', shallow])
    git(shallow, ['remote', 'add', 'origin', `file://${origin}`])
    git(shallow, [
      'fetch',
      '-q',
      '--depth',
      '1',
      'origin',
      '+refs/pull/7/head:refs/remotes/pull/7/head'
    ])
    git(shallow, ['checkout', '-q', '--detach', head])
    const g = await createGit(shallow)
    expect(await g.reviewBase('main', base, head)).toEqual({ sha: base, shared: true })
    expect(await g.diff(base, head)).toContain('+three')
  })

  it("checks out a fork's head the checkout lacks, which origin holds only as the PR's pull ref", async () => {
    git(work, ['push', '-q', 'origin', 'HEAD:refs/heads/main'])
    const head = commitAndPush(work, 'feature', { 'a.txt': 'from the fork\n' }, 'fork commit')
    git(origin, ['update-ref', 'refs/pull/7/head', head])
    git(origin, ['update-ref', '-d', 'refs/heads/feature'])
    // a depth-1 checkout of another commit (actions/checkout's merge ref): the head is not here
    const checkout = path.join(dir, 'merge-ref')
    git(dir, ['clone', '-q', '--depth', '1', '--branch', 'main', `file://${origin}`, checkout])
    const g = await createGit(checkout)
    await g.checkoutPullHead('feature', head)
    expect(await g.head()).toBe(head)
    expect(readFileSync(path.join(checkout, 'a.txt'), 'utf8')).toBe('from the fork\n')
    await expect(g.checkoutPullHead('feature', 'f'.repeat(40))).rejects.toThrow(/git fetch failed/)
  })

  it('never calls a head unrelated while its history is cut off: it fails naming fetch-depth: 0', async () => {
    const base = git(work, ['rev-parse', 'HEAD'])
    git(work, ['push', '-q', 'origin', 'HEAD:refs/heads/main'])
    commitAndPush(work, 'feature', { 'a.txt': 'two\n' }, 'second')
    const head = commitAndPush(work, 'feature', { 'a.txt': 'three\n' }, 'third')
    const cut = path.join(dir, 'cut-off')
    git(dir, ['clone', '-q', '--depth', '1', '--branch', 'feature', `file://${origin}`, cut])
    // origin now holds main but not the head's history (as the base repository without a fork's commits)
    const mirror = path.join(dir, 'main-only.git')
    git(dir, ['init', '-q', '--bare', mirror])
    git(work, ['push', '-q', mirror, `${base}:refs/heads/main`])
    git(cut, ['remote', 'set-url', 'origin', `file://${mirror}`])
    const g = await createGit(cut)
    await expect(g.reviewBase('main', base, head)).rejects.toThrow(
      /shallow.*fetch-depth: 0.*history of the head [0-9a-f]{40} still stops/
    )
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

    it("leaves out new links that reach a protected folder through the reviewed commit's own links", async () => {
      // the reviewed commit links docs/gh to gh (not there yet), and holds a link with odd bytes
      symlinkSync('../gh', path.join(work, 'src/gh'))
      symlinkSync('caf\u00e9\nx', path.join(work, 'odd'))
      git(work, ['add', '-A'])
      git(work, ['commit', '-q', '-m', 'links'])
      const g = await createGit(work)
      const base = await g.head()
      expect(await g.links(base)).toEqual(
        new Map([
          ['odd', 'caf\u00e9\nx'],
          ['src/gh', '../gh']
        ])
      )
      symlinkSync('.github', path.join(work, 'gh'))
      symlinkSync('../src/gh/workflows', path.join(work, 'src/wf'))
      symlinkSync('b.txt', path.join(work, 'src/b-link'))
      const r = await fix(g, base)
      expect(r.filesChanged).toEqual(['src/b-link'])
      expect(r.leftOut.map(l => l.path).sort()).toEqual(['gh', 'src/wf'])
      expect(r.leftOut.find(l => l.path === 'src/wf')!.reason).toMatch(
        /^it is a link into a protected folder: "\.\.\/src\/gh\/workflows" reaches "\.github\/workflows"/
      )
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

describe('fetch, ls-remote and push against a server that fails (git smart HTTP)', () => {
  const TOKEN = 'ghs_unit_token_value_0123456789'
  let server: GitHttpServer
  let warnings: string[]

  beforeEach(async () => {
    server = await GitHttpServer.start(origin, TOKEN)
    // the checkout kept no credentials: the action authenticates with its token
    git(work, ['remote', 'set-url', 'origin', server.url])
    warnings = []
  })
  afterEach(() => server.close())

  const open = (options: Parameters<typeof createGit>[1] = {}) =>
    createGit(work, {
      token: TOKEN,
      retryDelaysMs: [10, 10],
      warn: m => warnings.push(m),
      ...options
    })
  const fixCommit = async (g: Awaited<ReturnType<typeof createGit>>) =>
    (await g.commitEntries(
      await g.head(),
      [{ path: 'a.txt', mode: '100644', content: Buffer.from('fixed\n') }],
      'fix',
      AUTHOR
    ))!
  const faults = () => server.requests.flatMap(r => (r.fault ? [`${r.route} ${r.fault}`] : []))

  it('keeps the token out of the environment and command line of every git process while it pushes', async () => {
    const g = await open({ networkTimeoutMs: 3000, retryDelaysMs: [] })
    const fixed = await fixCommit(g)
    // the push is carried out, then its answer never comes: git waits, holding its credentials
    server.addFault({ route: 'git push', lost: true, hang: true })
    const pushed = g.push('feature', fixed)
    while (!server.requests.some(r => r.fault === 'lost→hang'))
      await new Promise(resolve => setTimeout(resolve, 20))
    const basic = Buffer.from(`x-access-token:${TOKEN}`).toString('base64')
    const gits = readdirSync('/proc').filter(pid => {
      try {
        return /^\d+$/.test(pid) && readlinkSync(`/proc/${pid}/cwd`) === realpathSync(work)
      } catch {
        return false
      }
    })
    const seen = gits.flatMap(pid =>
      ['environ', 'cmdline'].map(file => readFileSync(`/proc/${pid}/${file}`, 'latin1'))
    )
    // git and its remote helper at least
    expect(seen.filter(text => text.includes('git')).length).toBeGreaterThanOrEqual(2)
    expect(seen.filter(text => text.includes(TOKEN) || text.includes(basic))).toEqual([])
    await pushed
  })

  it('pushes after a 503 and a reset connection, saying it tries again', async () => {
    const g = await open()
    const fixed = await fixCommit(g)
    server.addFault({ route: 'git push', status: 503 })
    server.addFault({ route: 'git push', reset: true })
    expect(await g.push('feature', fixed)).toEqual({ kind: 'pushed' })
    expect(git(origin, ['rev-parse', 'refs/heads/feature'])).toBe(fixed)
    expect(faults()).toEqual(['git push 503', 'git push reset'])
    expect(warnings).toHaveLength(2)
    expect(warnings[0]).toMatch(/git push failed \(.*returned error: 503.*\); trying again/)
  })

  it('reads the remote head after a 500', async () => {
    const g = await open()
    server.addFault({ route: 'git fetch', status: 500 })
    expect(await g.remoteHead('feature')).toBe(git(origin, ['rev-parse', 'refs/heads/feature']))
    expect(faults()).toEqual(['git fetch 500'])
  })

  it.each([
    { name: 'a 500', lost: true },
    { name: 'a reset connection', lost: true, reset: true }
  ])('ends pushed when the push landed but its answer was lost ($name)', async fault => {
    const g = await open()
    const fixed = await fixCommit(g)
    server.addFault({ route: 'git push', lost: fault.lost, reset: fault.reset })
    expect(await g.push('feature', fixed)).toEqual({ kind: 'pushed' })
    expect(git(origin, ['rev-parse', 'refs/heads/feature'])).toBe(fixed)
    expect(faults()).toEqual([`git push lost→${fault.reset ? 'reset' : '500'}`])
  })

  it.each([401, 403])(
    'names the github-token input and contents: write when origin answers %i, without retrying',
    async status => {
      const g = await open()
      // git asks without credentials first and with them after a 401: both are refused
      server.addFault({ route: 'git push', status, times: 2 })
      const r = await g.push('feature', await fixCommit(g))
      expect(r.kind).toBe('failed')
      const message = 'message' in r ? r.message : ''
      expect(message).toMatch(/`github-token` input/)
      expect(message).toMatch(/`contents: write`.*`permissions:`/s)
      expect(message).toMatch(/fork/)
      expect(faults()).toEqual(Array(status === 401 ? 2 : 1).fill(`git push ${status}`))
      expect(warnings).toEqual([])
    }
  )

  it('says what to fix, never the token, when origin refuses the token to fetch', async () => {
    const wrong = 'ghs_wrong_token_value_9876543210'
    const g = await open({ token: wrong })
    const error = await g.remoteHead('feature').then(
      () => undefined,
      (e: Error) => e.message
    )
    expect(error).toMatch(/Authentication failed/)
    expect(error).toMatch(/`github-token` input.*`contents: write`/s)
    expect(error).not.toContain(wrong)
    expect(server.requests.filter(r => r.authorized)).toEqual([])
  })

  it('ends failed after the retries when the server keeps answering 500', async () => {
    const g = await open()
    const before = git(origin, ['rev-parse', 'refs/heads/feature'])
    server.addFault({ route: 'git push', status: 500, times: 10 })
    const r = await g.push('feature', await fixCommit(g))
    expect(r).toMatchObject({ kind: 'failed' })
    expect('message' in r && r.message).toMatch(/git push failed after 3 attempts .*error: 500/)
    expect(faults()).toEqual(['git push 500', 'git push 500', 'git push 500'])
    expect(git(origin, ['rev-parse', 'refs/heads/feature'])).toBe(before)
  })

  it('leaves a push over a branch that moved rejected, and does not retry it', async () => {
    const g = await open()
    const other = path.join(dir, 'other')
    git(dir, ['clone', '-q', origin, other])
    commitAndPush(other, 'feature', { 'theirs.txt': 'x\n' }, 'human')
    const r = await g.push('feature', await fixCommit(g))
    expect(r.kind).toBe('rejected')
    // git saw the moved branch in the ref advertisement, and asked once (with the token)
    expect(server.requests.filter(r => r.route === 'git push' && r.authorized)).toHaveLength(1)
    expect(warnings).toEqual([])
  })

  it('gives up on a server that stops sending (http.lowSpeedTime), and says so', async () => {
    const g = await open({ lowSpeed: { bytesPerSecond: 1000, seconds: 1 }, retryDelaysMs: [10] })
    server.addFault({ route: 'git fetch', hang: true, times: 10 })
    await expect(g.remoteHead('feature')).rejects.toThrow(
      /git ls-remote failed after 2 attempts .*Operation too slow/
    )
    expect(faults()).toEqual(['git fetch hang', 'git fetch hang'])
  })

  it('stops a network command at its timeout, retries it, and reports a lasting hang', async () => {
    const g = await open({ lowSpeed: { bytesPerSecond: 1, seconds: 600 }, networkTimeoutMs: 500 })
    const fixed = await fixCommit(g)
    server.addFault({ route: 'git push', hang: true })
    expect(await g.push('feature', fixed)).toEqual({ kind: 'pushed' })
    expect(warnings[0]).toMatch(/timed out after 0.5 s/)

    server.addFault({ route: 'git fetch', hang: true, times: 10 })
    await expect(g.remoteHead('feature')).rejects.toThrow(
      /git ls-remote failed after 3 attempts \(exit 124\): timed out after 0.5 s; git was stopped/
    )
  })
})
