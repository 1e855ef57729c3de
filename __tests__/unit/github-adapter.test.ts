// The real GitHub adapter against the emulator over real HTTP on 127.0.0.1, with faults: hung and
// reset requests, rate limits, and answers lost after GitHub acted.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createGitHubAdapter, type AdapterOptions } from '../../src/github/octokit-adapter.js'
import type { Annotation } from '../../src/loop/types.js'
import type { CheckRunInput, GitHubPort } from '../../src/ports/index.js'
import { classify, isAmbiguous, isIdempotent } from '../../src/github/waiting.js'
import { ALL_WRITE } from '../../test-support/harness.js'
import { GitHubEmulator, type FaultSpec } from '../../test-support/github-emulator.js'

const OWNER = 'acme'
const REPO = 'widgets'
const BOT = 'github-actions[bot]'
const COMMENTS = 'POST /repos/{owner}/{repo}/issues/{issue_number}/comments'
const PULL = 'GET /repos/{owner}/{repo}/pulls/{pull_number}'
const CHECK_RUNS = 'POST /repos/{owner}/{repo}/check-runs'
const UPDATE_CHECK_RUN = 'PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}'
const DISPATCH = 'POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches'
const REVIEWS = 'POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews'

let dir: string
let emu: GitHubEmulator
let headSha: string
const warnings: string[] = []

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd,
    encoding: 'utf8'
  }).trim()
}

/** The adapter with short limits, so faults cost milliseconds. */
function adapter(overrides: Partial<AdapterOptions> = {}): GitHubPort {
  return createGitHubAdapter({
    token: 'ghs_bot',
    owner: OWNER,
    repo: REPO,
    baseUrl: emu.url,
    log: { warning: m => warnings.push(m), debug: () => {} },
    requestTimeoutMs: 300,
    backoffMs: 10,
    ...overrides
  })
}

/** The requests on `route` from index `from` of the log on. */
const requestsOn = (route: string, from: number): GitHubEmulator['requests'] =>
  emu.requests.slice(from).filter(r => r.route === route)

const annotations = (n: number): Annotation[] =>
  Array.from({ length: n }, (_, i) => ({
    file: `src/f${i}.ts`,
    startLine: 1,
    endLine: 1,
    level: 'warning',
    title: `finding ${i}`,
    message: `finding ${i}`
  }))

const checkRun = (externalId: string, n = 0): CheckRunInput => ({
  name: 'review-loop',
  headSha,
  conclusion: 'neutral',
  title: 'Review',
  summary: 'done',
  annotations: annotations(n),
  externalId,
  startedAt: new Date().toISOString()
})

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gh-adapter-'))
  const bare = join(dir, 'origin.git')
  const work = join(dir, 'work')
  git(dir, 'init', '-q', '--bare', '-b', 'main', bare)
  git(dir, 'clone', '-q', bare, work)
  git(work, 'checkout', '-q', '-b', 'main')
  writeFileSync(join(work, 'README.md'), 'hello\n')
  git(work, 'add', '.')
  git(work, 'commit', '-q', '-m', 'init')
  git(work, 'push', '-q', 'origin', 'main')
  for (const branch of ['feature', 'lost', 'unsent'])
    git(work, 'push', '-q', 'origin', `main:${branch}`)
  headSha = git(work, 'rev-parse', 'HEAD')
  const all = ALL_WRITE
  emu = await GitHubEmulator.start({
    owner: OWNER,
    repo: REPO,
    bareRepoPath: bare,
    tokens: {
      ghs_bot: { login: BOT, type: 'Bot', permissions: all },
      ghs_reader: {
        login: BOT,
        type: 'Bot',
        permissions: { pull_requests: 'read', issues: 'read' }
      }
    }
  })
  emu.addPull({ number: 1, headRef: 'feature', author: 'octocat' })
  // the emulator checks its first answer on a route against GitHub's OpenAPI description, which it
  // loads and compiles then: on a busy machine that took longer than the 300 ms timeout below, so
  // the bounded-wait tests would count a retry that no fault caused
  await adapter().getPull(1)
})

afterEach(() => emu.clearFaults())

afterAll(async () => {
  if (process.env['SHOW_WARNINGS']) console.log(warnings.join('\n'))
  await emu?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('the GitHub adapter waits within bounds', () => {
  it('bounds a hung request with requestTimeoutMs and retries it, as it retries a 502', async () => {
    const from = emu.requests.length
    emu.addFault({ route: PULL, hang: true })
    emu.addFault({ route: PULL, status: 502 })
    const started = Date.now()
    expect((await adapter().getPull(1)).headRef).toBe('feature')
    expect(Date.now() - started).toBeLessThan(5000)
    expect(requestsOn(PULL, from).map(r => r.fault ?? r.status)).toEqual(['hang', '502', 200])
  })

  it('gives up on a persistent hang once max-wait-seconds is spent', async () => {
    const from = emu.requests.length
    emu.addFault({ route: PULL, hang: true, times: 20 })
    const gh = adapter({ requestTimeoutMs: 200, maxWaitSeconds: 0.5 })
    await expect(gh.getPull(1)).rejects.toThrow(/get pull request: no answer from GitHub within/)
    expect(requestsOn(PULL, from).length).toBeLessThanOrEqual(4)
  })

  it('waits as long as retry-after says on a 429, then sends the comment once', async () => {
    const from = emu.requests.length
    emu.addFault({ route: COMMENTS, status: 429, headers: { 'retry-after': '2' } })
    await adapter().createComment(1, 'after a 429')
    const [limited, retried] = requestsOn(COMMENTS, from)
    expect(limited?.fault).toBe('429')
    expect(retried!.at - limited!.at).toBeGreaterThanOrEqual(1900)
    expect(emu.comments.filter(c => c.body === 'after a 429')).toHaveLength(1)
    expect(warnings.some(w => /rate limit on POST .* retrying in 2 s/.test(w))).toBe(true)
  })

  it('fails at once when the rate limit resets in an hour, naming the reset time', async () => {
    const reset = Math.floor(Date.now() / 1000) + 3600
    emu.addFault({
      route: PULL,
      status: 403,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) }
    })
    const at = new Date(reset * 1000).toISOString().replace('.000Z', 'Z')
    const started = Date.now()
    const error = await adapter()
      .getPull(1)
      .then(
        () => new Error('no error'),
        (e: unknown) => e as Error
      )
    expect(Date.now() - started).toBeLessThan(1000)
    expect(error).toMatchObject({ name: 'GitHubError', status: 403 })
    expect((error as Error).message).toContain(`until ${at} (UTC), 60 min from now`)
    expect((error as Error).message).toContain(`Re-run the workflow after ${at}`)

    emu.addFault({ route: COMMENTS, status: 429, headers: { 'retry-after': '600' } })
    await expect(adapter().createComment(1, 'later')).rejects.toThrow(/10 min from now.*Re-run/)
  })

  it('waits as long as retry-after says on a 503 to a write', async () => {
    const from = emu.requests.length
    emu.addFault({ route: COMMENTS, status: 503, headers: { 'retry-after': '2' } })
    await adapter().createComment(1, 'after a 503')
    const [refused, retried] = requestsOn(COMMENTS, from)
    expect(retried!.at - refused!.at).toBeGreaterThanOrEqual(1900)
    expect(emu.comments.filter(c => c.body === 'after a 503')).toHaveLength(1)
  })

  it('calls a timeout a timeout, with what to do', async () => {
    emu.addFault({ route: CHECK_RUNS, hang: true, times: 20 })
    const error = await adapter({ requestTimeoutMs: 200 })
      .createCheckRun(checkRun('hung-create'))
      .then(
        () => new Error('no error'),
        (e: unknown) => e as Error
      )
    // two timed-out attempts, then the third is not sent: the error says GitHub did not answer
    expect(error.message).toMatch(
      /^create check run: GitHub did not answer POST \/repos\/acme\/widgets\/check-runs twice in a row in this run \(no answer within 200 ms each\)/
    )
    expect(error.message).toContain('raise request-timeout-seconds')
    expect(error.message).not.toContain('HTTP 500')
  })

  it('says what to do about a 404 on a write: the permission to check', async () => {
    emu.addFault({ route: CHECK_RUNS, status: 404 })
    await expect(adapter().createCheckRun(checkRun('not-found'))).rejects.toThrow(
      /create check run: Not Found\. .*grant the workflow 'checks: write'.*re-run the job\. \(HTTP 404\)/
    )
  })

  it('keeps the permission hint on a 403 that is not a rate limit', async () => {
    const gh = adapter({ token: 'ghs_reader' })
    await expect(gh.createComment(1, 'denied')).rejects.toThrow(
      "Grant the workflow 'issues: write'"
    )
  })
})

describe('a route GitHub leaves unanswered is sent at most twice in a run', () => {
  const UPDATE_COMMENT = 'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}'
  const REACTION = 'POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions'
  const RUNS = 'GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs'

  it('a hung comment update is sent twice, and a later write to that comment fails at once, saying what to do', async () => {
    const gh = adapter({ requestTimeoutMs: 200 })
    const [state, other] = [await gh.createComment(1, 'state'), await gh.createComment(1, 'other')]
    const from = emu.requests.length
    emu.addFault({ route: UPDATE_COMMENT, hang: true, times: 20 })
    await expect(gh.updateComment(state.id, 'saved')).rejects.toThrow(/no answer from GitHub/)
    const failure = await gh.updateComment(state.id, 'failure line').then(
      () => new Error('no error'),
      (e: unknown) => e as Error
    )
    expect(failure.message).toContain(
      `GitHub did not answer PATCH /repos/acme/widgets/issues/comments/${state.id} twice in a row in this run`
    )
    expect(failure.message).toMatch(/Re-run the job later.*raise request-timeout-seconds/)
    // final: a write that creates something does not look for it or try again
    expect(failure).toMatchObject({ name: 'GitHubError', final: true })
    expect(isAmbiguous(failure)).toBe(false)
    expect(requestsOn(UPDATE_COMMENT, from)).toHaveLength(2)
    // another comment is another route
    emu.clearFaults()
    await expect(gh.updateComment(other.id, 'other, updated')).resolves.toMatchObject({
      body: 'other, updated'
    })
  })

  it('a route that answers between two timeouts stays open: the timeouts were blips, not a hang', async () => {
    const gh = adapter({ requestTimeoutMs: 200 })
    const state = await gh.createComment(1, 'state')
    const from = emu.requests.length
    // a timeout, retried and answered
    emu.addFault({ route: UPDATE_COMMENT, hang: true })
    await expect(gh.updateComment(state.id, 'first')).resolves.toMatchObject({ body: 'first' })
    // later, one more timeout on the same comment: retried again, not refused
    emu.addFault({ route: UPDATE_COMMENT, hang: true })
    await expect(gh.updateComment(state.id, 'second')).resolves.toMatchObject({ body: 'second' })
    expect(requestsOn(UPDATE_COMMENT, from)).toHaveLength(4)
  })

  it('a hung comment create reaches GitHub twice at most', async () => {
    const from = emu.requests.length
    emu.addFault({ route: COMMENTS, hang: true, times: 20 })
    await expect(adapter({ requestTimeoutMs: 200 }).createComment(1, 'hung')).rejects.toThrow(
      /GitHub did not answer POST \/repos\/acme\/widgets\/issues\/1\/comments twice/
    )
    expect(requestsOn(COMMENTS, from)).toHaveLength(2)
    expect(emu.comments.filter(c => c.body === 'hung')).toEqual([])
  })

  it("a reaction is retried like other writes: once on the comment, and taken as this run's", async () => {
    const gh = adapter()
    const comment = await gh.createComment(1, 'react to me')
    emu.addFault({ route: REACTION, status: 502 })
    expect(await gh.react({ kind: 'comment', id: comment.id }, 'eyes')).toBe(true)
    emu.addFault({ route: REACTION, lost: true })
    expect(await gh.react({ kind: 'comment', id: comment.id }, 'rocket')).toBe(true)
    const on = emu.reactions.filter(r => r.subjectId === comment.id)
    expect(on.map(r => r.content).sort()).toEqual(['eyes', 'rocket'])
    // a reaction made before (200) is not this run's
    expect(await gh.react({ kind: 'comment', id: comment.id }, 'eyes')).toBe(false)
  })

  it('a lost dispatch whose run cannot be looked for is an unknown outcome, not a refusal', async () => {
    emu.addFault({ route: DISPATCH, lost: true })
    emu.addFault({ route: RUNS, status: 404 })
    const error = await adapter()
      .dispatchWorkflow('review-loop.yml', 'unsent', { pr: '1' })
      .then(
        () => new Error('no error'),
        (e: unknown) => e as Error
      )
    expect(error).toMatchObject({ name: 'GitHubError', outcomeUnknown: true })
  })

  it('a dispatch refused with a 404 is known not made and names its permission', async () => {
    emu.addFault({ route: DISPATCH, status: 404 })
    const error = await adapter()
      .dispatchWorkflow('review-loop.yml', 'unsent', { pr: '1' })
      .then(
        () => new Error('no error'),
        (e: unknown) => e as Error
      )
    expect(error).toMatchObject({ status: 404, outcomeUnknown: false, scope: 'actions: write' })
  })
})

describe('the GitHub adapter creates once when an answer is lost', () => {
  const lostKinds: Array<[string, Partial<FaultSpec>]> = [
    ['a 502', { lost: true }],
    ['a reset', { lost: true, reset: true }],
    ['a timeout', { lost: true, hang: true }]
  ]

  it.each(lostKinds)('a comment whose answer is lost to %s is posted once', async (kind, fault) => {
    const body = `state after ${kind}`
    emu.addFault({ route: COMMENTS, ...fault })
    const comment = await adapter().createComment(1, body)
    const posted = emu.comments.filter(c => c.body === body)
    expect(posted.map(c => c.id)).toEqual([comment.id])
    expect(comment).toMatchObject({ author: BOT, body })
  })

  it('a comment that was not posted (502 before acting) is posted again, once', async () => {
    emu.addFault({ route: COMMENTS, status: 502 })
    await adapter().createComment(1, 'sent twice')
    expect(emu.comments.filter(c => c.body === 'sent twice')).toHaveLength(1)
  })

  it('a check run whose creation answer is lost is created once', async () => {
    emu.addFault({ route: CHECK_RUNS, lost: true })
    const run = await adapter().createCheckRun(checkRun('lost-create', 30))
    const runs = emu.checkRuns.filter(r => r.externalId === 'lost-create')
    expect(runs.map(r => r.id)).toEqual([run.id])
    expect(runs[0]?.annotations).toHaveLength(30)
  })

  it('80 annotations with a lost second batch end with exactly 80', async () => {
    const from = emu.requests.length
    emu.addFault({ route: UPDATE_CHECK_RUN, lost: true })
    const run = await adapter().createCheckRun(checkRun('lost-batch', 80))
    const created = emu.checkRuns.find(r => r.id === run.id)
    expect(created?.annotations).toHaveLength(80)
    expect(created?.annotations.map(a => a.message)).toEqual(annotations(80).map(a => a.message))
    expect(requestsOn(UPDATE_CHECK_RUN, from)).toHaveLength(1)
  })

  it('a batch that did not land (502 before acting) is sent again: still exactly 80', async () => {
    emu.addFault({ route: UPDATE_CHECK_RUN, status: 502 })
    const run = await adapter().createCheckRun(checkRun('unsent-batch', 80))
    expect(emu.checkRuns.find(r => r.id === run.id)?.annotations).toHaveLength(80)
  })

  it('a lost dispatch starts one run and still reports its id', async () => {
    const before = emu.dispatches.length
    emu.addFault({ route: DISPATCH, lost: true })
    const { runId } = await adapter().dispatchWorkflow('review-loop.yml', 'lost', { pr: '1' })
    expect(emu.dispatches.slice(before).map(d => d.runId)).toEqual([runId])
    expect(runId).toBeTypeOf('number')
  })

  it('a dispatch that did not land is sent again, once; the answer names the run', async () => {
    const before = emu.dispatches.length
    emu.addFault({ route: DISPATCH, status: 502 })
    const { runId } = await adapter().dispatchWorkflow('review-loop.yml', 'unsent', { pr: '1' })
    expect(emu.dispatches.slice(before)).toMatchObject([{ ref: 'unsent', runId }])
  })

  it('a dispatch refused by a 500 is not taken as made for the run that is asking (its own dispatched run)', async () => {
    // the run making the request was itself dispatched a moment ago, on the same branch
    const { runId: self } = await adapter().dispatchWorkflow('review-loop.yml', 'feature', {
      pr: '1'
    })
    const before = emu.dispatches.length
    emu.addFault({ route: DISPATCH, status: 500, times: 20 })
    const gh = adapter({ selfRunId: String(self) })
    const error = await gh.dispatchWorkflow('review-loop.yml', 'feature', { pr: '1' }).then(
      () => new Error('no error'),
      (e: unknown) => e as Error
    )
    expect(error).toMatchObject({ name: 'GitHubError', status: 500 })
    expect(error.message).toMatch(/dispatch workflow: .*Re-run the job/)
    expect(emu.dispatches.slice(before)).toEqual([])
  })

  it('a review whose answer is lost is submitted once', async () => {
    const before = emu.reviews.length
    emu.addFault({ route: REVIEWS, lost: true, reset: true })
    await adapter().createReview(1, 'COMMENT', 'needs a human', headSha)
    expect(emu.reviews.slice(before)).toMatchObject([{ body: 'needs a human', commitId: headSha }])
  })

  it('deletes a comment, and one already gone is fine', async () => {
    const gh = adapter()
    const comment = await gh.createComment(1, 'duplicate')
    await gh.deleteComment(comment.id)
    await gh.deleteComment(comment.id)
    expect(emu.comments.some(c => c.id === comment.id)).toBe(false)
  })
})

describe('the retry policy', () => {
  const answer = (status: number, headers: Record<string, string> = {}, message = 'x') => ({
    status,
    message,
    response: { headers, data: { message } }
  })

  it('reads rate limits as GitHub documents them; other 403s are final', () => {
    expect(classify(answer(429, { 'retry-after': '10' }))).toMatchObject({ waitSeconds: 10 })
    expect(classify(answer(429))).toMatchObject({ kind: 'rate-limit', waitSeconds: 60 })
    expect(classify(answer(403, {}, 'You have exceeded a secondary rate limit'), 2)).toMatchObject({
      kind: 'rate-limit',
      waitSeconds: 240
    })
    const reset = Math.floor(Date.now() / 1000) + 30
    expect(
      classify(answer(403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) }))
    ).toMatchObject({ kind: 'rate-limit', resetAt: reset * 1000 })
    expect(classify(answer(403, {}, 'Resource not accessible by integration'))).toEqual({
      kind: 'final'
    })
    expect(classify(answer(422))).toEqual({ kind: 'final' })
    expect(classify(answer(502))).toMatchObject({ kind: 'transient', timedOut: false })
  })

  it('re-sends only requests that are safe to repeat', () => {
    const R = '/repos/{owner}/{repo}'
    expect(isIdempotent('GET', `${R}/pulls/{pull_number}`)).toBe(true)
    expect(isIdempotent('PATCH', `${R}/issues/comments/{comment_id}`)).toBe(true)
    expect(isIdempotent('DELETE', `${R}/issues/comments/{comment_id}`)).toBe(true)
    expect(isIdempotent('POST', `${R}/issues/{issue_number}/labels`)).toBe(true)
    expect(isIdempotent('POST', `${R}/issues/{issue_number}/comments`)).toBe(false)
    expect(isIdempotent('POST', `${R}/check-runs`)).toBe(false)
    expect(isIdempotent('POST', `${R}/actions/workflows/{workflow_id}/dispatches`)).toBe(false)
    expect(isIdempotent('POST', `${R}/pulls/{pull_number}/reviews`)).toBe(false)
    const patch = `${R}/check-runs/{check_run_id}`
    expect(isIdempotent('PATCH', patch, { output: { annotations: [{}] } })).toBe(false)
    expect(isIdempotent('PATCH', patch, { output: { annotations: [] } })).toBe(true)
    // a commit status, a GraphQL query and resolving a thread leave the same result when repeated
    expect(isIdempotent('POST', `${R}/statuses/{sha}`)).toBe(true)
    expect(isIdempotent('POST', '/graphql', { query: 'query { viewer { login } }' })).toBe(true)
    const resolve =
      'mutation($threadId: ID!) {\n  resolveReviewThread(input: { threadId: $threadId }) { thread { id } } }'
    expect(isIdempotent('POST', '/graphql', { query: resolve })).toBe(true)
    const other = 'mutation { addComment(input: {}) { clientMutationId } }'
    expect(isIdempotent('POST', '/graphql', { query: other })).toBe(false)
  })
})

describe('who made a PR, as the adapter reads it (pullMakers)', () => {
  it("lists the pushers to the head branch, and says so when GitHub will not list a fork's pushes", async () => {
    emu.recordActivity({ branch: 'feature', before: headSha, after: headSha, actor: 'dana' })
    emu.recordActivity({ branch: 'lost', before: headSha, after: headSha, actor: 'erin' })
    const own = await adapter().getPull(1)
    const made = await adapter().pullMakers(own)
    expect(made).toEqual({ commits: [], pushes: [{ actor: 'dana', after: headSha }] })
    // a fork's branch is in another repository: GitHub answers 404 to this token
    emu.addPull({
      number: 2,
      headRef: 'feature',
      author: 'forker',
      headRepoFullName: 'forker/widgets'
    })
    const fork = await adapter().getPull(2)
    expect(await adapter().pullMakers(fork)).toEqual({
      commits: [],
      pushersUnknown: "GitHub would not list the pushes to forker/widgets's feature (HTTP 404)"
    })
    // a token without contents: read is refused (403): the pushers are unknown, not an error
    const reader = await adapter({ token: 'ghs_reader' }).pullMakers(own)
    expect(reader.pushersUnknown).toMatch(/HTTP 403/)
  })

  it('resolves co-authors to accounts through GraphQL, and says why when it cannot', async () => {
    const work = join(dir, 'work')
    git(work, 'checkout', '-q', '-b', 'coauthored', 'main')
    writeFileSync(join(work, 'co.md'), 'co\n')
    git(work, 'add', '.')
    const message =
      'co\n\nCo-authored-by: Carol <carol@example.com>\nCo-authored-by: Finn <finn@example.com>'
    execFileSync(
      'git',
      [
        '-c',
        'user.name=Alice',
        '-c',
        'user.email=alice@example.com',
        'commit',
        '-q',
        '-m',
        message
      ],
      { cwd: work }
    )
    git(work, 'push', '-q', 'origin', 'coauthored')
    emu.addEmail('carol', 'carol@example.com')
    emu.addPull({ number: 3, headRef: 'coauthored', author: 'octocat' })
    const pull = await adapter().getPull(3)
    const made = await adapter().pullMakers(pull)
    expect(made.commits.map(c => c.authors)).toEqual([
      [
        { email: 'alice@example.com' },
        { email: 'carol@example.com', login: 'carol' },
        { email: 'finn@example.com' }
      ]
    ])
    expect(made.authorsUnknown).toBeUndefined()
    expect(made.partial).toBeUndefined()
    // GraphQL failing: the co-authors are unresolved, and the makers say why
    emu.addFault({ route: 'POST /graphql', status: 502, times: 20 })
    const refused = await adapter().pullMakers(pull)
    expect(refused.commits.map(c => c.authors)).toEqual([undefined])
    expect(refused.authorsUnknown).toMatch(
      /^GitHub's GraphQL API would not list the commits' authors/
    )
  })
})
