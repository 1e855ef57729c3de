import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it, expect, beforeAll, afterAll } from 'vitest'
import { getOctokit } from '@actions/github'
import { GitHubEmulator } from '../../test-support/github-emulator.js'

const OWNER = 'acme'
const REPO = 'widgets'
const R = `/repos/${OWNER}/${REPO}`

let dir: string
let bare: string
let work: string
let emu: GitHubEmulator

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd,
    encoding: 'utf8'
  }).trim()
}

function commit(file: string, content: string): void {
  writeFileSync(join(work, file), content)
  git(work, 'add', file)
  git(work, 'commit', '-q', '-m', `edit ${file}`)
}

async function api(
  method: string,
  path: string,
  token: string | undefined,
  body?: unknown
): Promise<{ status: number; json: unknown; headers: Headers }> {
  const headers: Record<string, string> = { accept: 'application/vnd.github+json' }
  if (token) headers.authorization = `token ${token}`
  if (body !== undefined) headers['content-type'] = 'application/json'
  const res = await fetch(`${emu.url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  const text = await res.text()
  return { status: res.status, json: text ? JSON.parse(text) : undefined, headers: res.headers }
}

const octokit = (token: string): ReturnType<typeof getOctokit> =>
  getOctokit(token, { baseUrl: emu.url })

interface AnnotationInput {
  path: string
  start_line: number
  end_line: number
  annotation_level: 'warning'
  message: string
}
const annotations = (n: number, from = 0): AnnotationInput[] =>
  Array.from({ length: n }, (_, i) => ({
    path: `src/f${from + i}.ts`,
    start_line: 1,
    end_line: 2,
    annotation_level: 'warning',
    message: `finding ${from + i}`
  }))

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gh-emu-'))
  bare = join(dir, 'origin.git')
  work = join(dir, 'work')
  git(dir, 'init', '-q', '--bare', '-b', 'main', bare)
  git(dir, 'clone', '-q', bare, work)
  git(work, 'checkout', '-q', '-b', 'main')
  commit('README.md', 'hello\n')
  git(work, 'push', '-q', 'origin', 'main')
  git(work, 'checkout', '-q', '-b', 'feature')
  commit('a.ts', 'export const a = 1\n')
  git(work, 'push', '-q', 'origin', 'feature')

  emu = await GitHubEmulator.start({
    owner: OWNER,
    repo: REPO,
    bareRepoPath: bare,
    tokens: {
      'bot-token': {
        login: 'github-actions[bot]',
        type: 'Bot',
        permissions: { contents: 'write', pull_requests: 'write', issues: 'write', checks: 'write' }
      },
      'dispatch-token': {
        login: 'github-actions[bot]',
        type: 'Bot',
        permissions: { actions: 'write' }
      },
      'user-token': {
        login: 'octocat',
        type: 'User',
        permissions: { pull_requests: 'write', issues: 'write', checks: 'write' }
      }
    }
  })
  emu.addPull({ number: 1, headRef: 'feature', title: 'Add a', author: 'octocat' })
  emu.addPull({ number: 2, headRef: 'feature', title: 'Chatty PR' })
})

afterAll(async () => {
  await emu?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('GitHubEmulator', () => {
  it('serves pull requests with head/base SHAs read from the bare repo at request time', async () => {
    const first = await octokit('bot-token').rest.pulls.get({
      owner: OWNER,
      repo: REPO,
      pull_number: 1
    })
    expect(first.data.head.sha).toBe(git(bare, 'rev-parse', 'refs/heads/feature'))
    expect(first.data.base.sha).toBe(git(bare, 'rev-parse', 'refs/heads/main'))
    expect(first.data).toMatchObject({ number: 1, state: 'open', draft: false, merged: false })
    expect(first.data.head.repo.fork).toBe(false)
    expect(first.data.commits).toBe(1)

    commit('b.ts', 'export const b = 2\n')
    git(work, 'push', '-q', 'origin', 'feature')
    const second = await api('GET', `${R}/pulls/1`, 'bot-token')
    expect(second.json).toMatchObject({ head: { sha: git(work, 'rev-parse', 'HEAD') }, commits: 2 })
    expect(second.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/)
    expect(second.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(emu.requests.at(-1)).toMatchObject({
      route: 'GET /repos/{owner}/{repo}/pulls/{pull_number}',
      status: 200,
      login: 'github-actions[bot]'
    })
  })

  it('authenticates tokens and scopes requests to the configured repository', async () => {
    expect((await api('GET', `${R}/pulls/1`, undefined)).status).toBe(401)
    expect((await api('GET', `${R}/pulls/1`, 'nope')).json).toMatchObject({
      message: 'Bad credentials'
    })
    expect((await api('GET', `/repos/${OWNER}/other/pulls/1`, 'bot-token')).status).toBe(404)
    expect((await api('GET', `${R}/pulls/99`, 'bot-token')).status).toBe(404)
    expect((await api('GET', `${R}/unknown`, 'bot-token')).status).toBe(404)
    expect(emu.requests.at(-1)?.route).toBe(`GET ${R}/unknown`)
  })

  it('rejects comments over 65,536 characters with GitHub-shaped 422', async () => {
    const ok = await api('POST', `${R}/issues/1/comments`, 'bot-token', { body: 'x'.repeat(65536) })
    expect(ok.status).toBe(201)
    expect(ok.json).toMatchObject({ user: { login: 'github-actions[bot]', type: 'Bot' } })

    const tooLong = await api('POST', `${R}/issues/1/comments`, 'bot-token', {
      body: 'x'.repeat(65537)
    })
    expect(tooLong.status).toBe(422)
    expect(tooLong.json).toMatchObject({
      message: 'Validation Failed',
      errors: [
        {
          resource: 'IssueComment',
          field: 'body',
          message: 'body is too long (maximum is 65536 characters)'
        }
      ]
    })

    const bad = await fetch(`${emu.url}${R}/issues/1/comments`, {
      method: 'POST',
      headers: { authorization: 'Bearer bot-token' },
      body: '{not json'
    })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ message: 'Problems parsing JSON' })
  })

  it('keeps the original author when another token edits a comment', async () => {
    const gh = octokit('bot-token')
    const created = await gh.rest.issues.createComment({
      owner: OWNER,
      repo: REPO,
      issue_number: 1,
      body: 'v1'
    })
    await new Promise(resolve => setTimeout(resolve, 5))
    const edited = await octokit('user-token').rest.issues.updateComment({
      owner: OWNER,
      repo: REPO,
      comment_id: created.data.id,
      body: 'v2'
    })
    expect(edited.data.body).toBe('v2')
    expect(edited.data.user?.login).toBe('github-actions[bot]')
    expect(edited.data.updated_at).not.toBe(created.data.updated_at)
  })

  it('limits annotations to 50 per request and accumulates them across updates', async () => {
    const gh = octokit('bot-token')
    const headSha = git(bare, 'rev-parse', 'refs/heads/feature')
    const create = (n: number): Promise<{ status: number; json: unknown; headers: Headers }> =>
      api('POST', `${R}/check-runs`, 'bot-token', {
        name: 'review-loop',
        head_sha: headSha,
        status: 'in_progress',
        output: { title: 'Review', summary: 'running', annotations: annotations(n) }
      })
    expect((await create(51)).status).toBe(422)
    const created = await create(50)
    expect(created.status).toBe(201)
    const id = (created.json as { id: number }).id

    const update = await gh.rest.checks.update({
      owner: OWNER,
      repo: REPO,
      check_run_id: id,
      conclusion: 'neutral',
      output: { title: 'Review', summary: 'done', annotations: annotations(50, 50) }
    })
    expect(update.data).toMatchObject({ status: 'completed', conclusion: 'neutral' })
    expect(update.data.output.annotations_count).toBe(100)

    const all = await gh.paginate(gh.rest.checks.listAnnotations, {
      owner: OWNER,
      repo: REPO,
      check_run_id: id,
      per_page: 100
    })
    expect(all).toHaveLength(100)
    expect(all[99]?.message).toBe('finding 99')

    const emptyPatch = await api('PATCH', `${R}/check-runs/${id}`, 'bot-token', {})
    expect(emptyPatch.status).toBe(200)
    const completedWithoutConclusion = await api('POST', `${R}/check-runs`, 'bot-token', {
      name: 'x',
      head_sha: headSha,
      status: 'completed'
    })
    expect(completedWithoutConclusion.status).toBe(422)
    const user = await api('POST', `${R}/check-runs`, 'user-token', {
      name: 'x',
      head_sha: headSha
    })
    expect(user.json).toMatchObject({ message: 'You must authenticate via a GitHub App.' })
  })

  it('answers 403 like GitHub for GITHUB_TOKEN on /user and for missing permissions', async () => {
    const bot = await api('GET', '/user', 'bot-token')
    expect(bot.status).toBe(403)
    expect(bot.json).toMatchObject({ message: 'Resource not accessible by integration' })
    expect((await octokit('user-token').rest.users.getAuthenticated()).data.login).toBe('octocat')

    const dispatch = (
      token: string,
      ref: string
    ): Promise<{ status: number; json: unknown; headers: Headers }> =>
      api('POST', `${R}/actions/workflows/review-loop.yml/dispatches`, token, {
        ref,
        inputs: { pr: '1' }
      })
    const denied = await dispatch('bot-token', 'feature')
    expect(denied.status).toBe(403)
    expect(denied.json).toMatchObject({ message: 'Resource not accessible by integration' })
    expect(denied.headers.get('x-accepted-github-permissions')).toBe('actions=write')
    expect(emu.dispatches).toHaveLength(0)

    expect((await dispatch('dispatch-token', 'refs/heads/feature')).status).toBe(204)
    expect(emu.dispatches).toMatchObject([
      { workflowId: 'review-loop.yml', ref: 'refs/heads/feature', inputs: { pr: '1' } }
    ])
    expect((await dispatch('dispatch-token', 'nope')).json).toMatchObject({
      errors: ['No ref found for: nope']
    })
    const other = await api(
      'POST',
      `${R}/actions/workflows/other.yml/dispatches`,
      'dispatch-token',
      {
        ref: 'main'
      }
    )
    expect(other.status).toBe(404)
  })

  it('paginates comments with Link headers that Octokit paginate follows', async () => {
    const gh = octokit('bot-token')
    for (let i = 0; i < 75; i++)
      await gh.rest.issues.createComment({
        owner: OWNER,
        repo: REPO,
        issue_number: 2,
        body: `c${i}`
      })

    const page1 = await api('GET', `${R}/issues/2/comments?per_page=30`, 'bot-token')
    const link = page1.headers.get('link') ?? ''
    expect(link).toContain('page=2>; rel="next"')
    expect(link).toContain('page=3>; rel="last"')
    expect(page1.json).toHaveLength(30)

    const all = await gh.paginate(gh.rest.issues.listComments, {
      owner: OWNER,
      repo: REPO,
      issue_number: 2,
      per_page: 30
    })
    expect(all.map(c => c.body)).toEqual(Array.from({ length: 75 }, (_, i) => `c${i}`))
  })

  it('refuses approvals from GitHub Actions and from the PR author', async () => {
    const review = (
      token: string,
      event: string
    ): Promise<{ status: number; json: unknown; headers: Headers }> =>
      api('POST', `${R}/pulls/1/reviews`, token, { event, body: 'looks good' })
    const bot = await review('bot-token', 'APPROVE')
    expect(bot.status).toBe(422)
    expect(bot.json).toMatchObject({
      message: 'Unprocessable Entity',
      errors: ['GitHub Actions is not permitted to approve pull requests.']
    })
    expect((await review('user-token', 'APPROVE')).json).toMatchObject({
      errors: ['Can not approve your own pull request']
    })
    expect((await review('bot-token', 'COMMENT')).status).toBe(200)
    expect(emu.reviews).toMatchObject([
      { pullNumber: 1, event: 'COMMENT', author: 'github-actions[bot]' }
    ])
  })

  it('manages labels and review requests', async () => {
    const gh = octokit('bot-token')
    const added = await gh.rest.issues.addLabels({
      owner: OWNER,
      repo: REPO,
      issue_number: 1,
      labels: ['a b', 'c']
    })
    expect(added.data.map(l => l.name)).toEqual(['a b', 'c'])
    const left = await gh.rest.issues.removeLabel({
      owner: OWNER,
      repo: REPO,
      issue_number: 1,
      name: 'a b'
    })
    expect(left.data.map(l => l.name)).toEqual(['c'])
    await expect(
      gh.rest.issues.removeLabel({ owner: OWNER, repo: REPO, issue_number: 1, name: 'a b' })
    ).rejects.toMatchObject({ status: 404 })

    const author = await api('POST', `${R}/pulls/1/requested_reviewers`, 'bot-token', {
      reviewers: ['octocat']
    })
    expect(author.status).toBe(422)
    const ok = await gh.rest.pulls.requestReviewers({
      owner: OWNER,
      repo: REPO,
      pull_number: 1,
      reviewers: ['hubot']
    })
    expect(ok.status).toBe(201)
    expect(ok.data.requested_reviewers?.map(u => u.login)).toEqual(['hubot'])
  })

  it('failNext injects faults for the next matching requests only', async () => {
    const route = 'GET /repos/{owner}/{repo}/pulls/{pull_number}'
    emu.failNext(route, 502)
    emu.failNext('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', 403, 1, {
      'Retry-After': '1'
    })
    const gh = octokit('bot-token')
    await expect(
      gh.rest.pulls.get({ owner: OWNER, repo: REPO, pull_number: 1 })
    ).rejects.toMatchObject({
      status: 502
    })
    expect((await gh.rest.pulls.get({ owner: OWNER, repo: REPO, pull_number: 1 })).status).toBe(200)

    const limited = await api('POST', `${R}/issues/1/comments`, 'bot-token', { body: 'hi' })
    expect(limited.status).toBe(403)
    expect(limited.headers.get('retry-after')).toBe('1')
    expect(limited.json).toMatchObject({ message: expect.stringContaining('secondary rate limit') })
    expect((await api('POST', `${R}/issues/1/comments`, 'bot-token', { body: 'hi' })).status).toBe(
      201
    )

    expect(
      emu.requests
        .filter(r => r.route === route)
        .map(r => r.status)
        .slice(-2)
    ).toEqual([502, 200])
    expect(() => emu.failNext('GET /nope', 500)).toThrow(/unknown route/)
  })
})

describe('GitHubEmulator faults', () => {
  const COMMENTS = 'POST /repos/{owner}/{repo}/issues/{issue_number}/comments'
  const PULL = 'GET /repos/{owner}/{repo}/pulls/{pull_number}'

  it('answers a status fault with GitHub-shaped rate-limit messages and headers, `times` over', async () => {
    const reset = String(Math.floor(Date.now() / 1000) + 3600)
    emu.addFault({
      route: PULL,
      status: 429,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
      times: 2
    })
    for (let i = 0; i < 2; i++) {
      const primary = await api('GET', `${R}/pulls/1`, 'bot-token')
      expect(primary.status).toBe(429)
      expect(primary.headers.get('x-ratelimit-reset')).toBe(reset)
      expect(primary.json).toMatchObject({ message: expect.stringContaining('API rate limit') })
    }
    expect((await api('GET', `${R}/pulls/1`, 'bot-token')).status).toBe(200)
    expect(emu.requests.slice(-3).map(r => r.fault)).toEqual(['429', '429', undefined])

    emu.addFault({ route: PULL, status: 429, headers: { 'retry-after': '10' } })
    const secondary = await api('GET', `${R}/pulls/1`, 'bot-token')
    expect(secondary.headers.get('retry-after')).toBe('10')
    expect(secondary.json).toMatchObject({ message: expect.stringContaining('secondary rate') })

    emu.addFault({ route: PULL, status: 500, times: 5 })
    emu.clearFaults()
    expect((await api('GET', `${R}/pulls/1`, 'bot-token')).status).toBe(200)
    expect(() => emu.addFault({ route: PULL })).toThrow(/needs a status/)
  })

  it('hang never answers and reset drops the connection; neither carries the request out', async () => {
    const before = emu.comments.length
    emu.addFault({ route: COMMENTS, hang: true })
    await expect(
      fetch(`${emu.url}${R}/issues/1/comments`, {
        method: 'POST',
        headers: { authorization: 'token bot-token' },
        body: JSON.stringify({ body: 'hung' }),
        signal: AbortSignal.timeout(200)
      })
    ).rejects.toThrow()
    emu.addFault({ route: COMMENTS, reset: true })
    await expect(
      api('POST', `${R}/issues/1/comments`, 'bot-token', { body: 'reset' })
    ).rejects.toThrow(/fetch failed/)
    expect(emu.comments.length).toBe(before)
    expect(emu.requests.slice(-2).map(r => [r.fault, r.status])).toEqual([
      ['hang', 0],
      ['reset', 0]
    ])
  })

  it('lost carries the request out, then answers 502 (or resets)', async () => {
    const before = emu.comments.length
    emu.addFault({ route: COMMENTS, lost: true })
    const lost = await api('POST', `${R}/issues/1/comments`, 'bot-token', { body: 'lost 1' })
    expect(lost.status).toBe(502)
    emu.addFault({ route: COMMENTS, lost: true, reset: true })
    await expect(
      api('POST', `${R}/issues/1/comments`, 'bot-token', { body: 'lost 2' })
    ).rejects.toThrow()
    expect(emu.comments.slice(before).map(c => c.body)).toEqual(['lost 1', 'lost 2'])
    expect(emu.requests.slice(-2).map(r => [r.fault, r.status])).toEqual([
      ['lost→502', 502],
      ['lost→reset', 0]
    ])
  })

  it('close() ends while a request hangs', async () => {
    const other = await GitHubEmulator.start({
      owner: OWNER,
      repo: REPO,
      bareRepoPath: bare,
      tokens: {}
    })
    other.addFault({ route: PULL, hang: true })
    const pending = fetch(`${other.url}${R}/pulls/1`).catch((e: unknown) => e)
    while (other.requests.length === 0) await new Promise(resolve => setTimeout(resolve, 5))
    await other.close()
    expect(await pending).toBeInstanceOf(Error)
  })
})

describe('GitHubEmulator lookups', () => {
  it('lists check runs for a ref by check_name, latest per name unless filter=all', async () => {
    const headSha = git(bare, 'rev-parse', 'refs/heads/feature')
    for (const id of ['a', 'b'])
      await api('POST', `${R}/check-runs`, 'bot-token', {
        name: 'lookup',
        head_sha: headSha,
        external_id: id,
        status: 'completed',
        conclusion: 'success'
      })
    const gh = octokit('bot-token')
    const all = await gh.rest.checks.listForRef({
      owner: OWNER,
      repo: REPO,
      ref: 'feature',
      check_name: 'lookup',
      filter: 'all'
    })
    expect(all.data.total_count).toBe(2)
    expect(all.data.check_runs.map(r => r.external_id)).toEqual(['b', 'a'])
    const latest = await api(
      'GET',
      `${R}/commits/${headSha}/check-runs?check_name=lookup`,
      'bot-token'
    )
    expect(latest.json).toMatchObject({ total_count: 1, check_runs: [{ external_id: 'b' }] })
    const denied = await api('GET', `${R}/commits/${headSha}/check-runs`, 'dispatch-token')
    expect(denied.status).toBe(403)
    expect((await api('GET', `${R}/commits/nope/check-runs`, 'bot-token')).status).toBe(422)
  })

  it('lists reviews of a pull request', async () => {
    const gh = octokit('bot-token')
    await gh.rest.pulls.createReview({
      owner: OWNER,
      repo: REPO,
      pull_number: 2,
      event: 'COMMENT',
      body: 'r1'
    })
    const { data } = await gh.rest.pulls.listReviews({ owner: OWNER, repo: REPO, pull_number: 2 })
    expect(data).toMatchObject([
      { body: 'r1', state: 'COMMENTED', user: { login: 'github-actions[bot]' } }
    ])
    expect(data[0]?.commit_id).toBe(git(bare, 'rev-parse', 'refs/heads/feature'))
  })

  it('dispatch creates a workflow run, answers it with return_run_details, and lists it', async () => {
    const path = `${R}/actions/workflows/review-loop.yml/dispatches`
    const quiet = await api('POST', path, 'dispatch-token', { ref: 'main' })
    expect(quiet.status).toBe(204)
    const told = await api('POST', path, 'dispatch-token', {
      ref: 'feature',
      return_run_details: true
    })
    expect(told.status).toBe(200)
    const runId = (told.json as { workflow_run_id: number }).workflow_run_id
    expect(told.json).toMatchObject({
      run_url: `${emu.url}${R}/actions/runs/${runId}`,
      html_url: `https://github.com/${OWNER}/${REPO}/actions/runs/${runId}`
    })
    expect(emu.dispatches.at(-1)).toMatchObject({ ref: 'feature', runId })
    const bad = await api('POST', path, 'dispatch-token', {
      ref: 'main',
      return_run_details: 'yes'
    })
    expect(bad.status).toBe(422)

    const gh = octokit('dispatch-token')
    const { data } = await gh.rest.actions.listWorkflowRuns({
      owner: OWNER,
      repo: REPO,
      workflow_id: 'review-loop.yml',
      event: 'workflow_dispatch',
      branch: 'feature'
    })
    expect(data.workflow_runs[0]).toMatchObject({
      id: runId,
      event: 'workflow_dispatch',
      head_branch: 'feature',
      path: '.github/workflows/review-loop.yml',
      head_sha: git(bare, 'rev-parse', 'refs/heads/feature')
    })
    expect(data.workflow_runs.every(r => r.head_branch === 'feature')).toBe(true)
    const denied = await api('GET', `${R}/actions/workflows/review-loop.yml/runs`, 'bot-token')
    expect(denied.status).toBe(403)
  })

  it('deletes comments with issues:write, 404 when gone', async () => {
    const created = await api('POST', `${R}/issues/1/comments`, 'bot-token', { body: 'to delete' })
    const id = (created.json as { id: number }).id
    expect((await api('DELETE', `${R}/issues/comments/${id}`, 'dispatch-token')).status).toBe(403)
    expect((await api('DELETE', `${R}/issues/comments/${id}`, 'bot-token')).status).toBe(204)
    expect(emu.comments.some(c => c.id === id)).toBe(false)
    expect((await api('DELETE', `${R}/issues/comments/${id}`, 'bot-token')).status).toBe(404)
  })

  it('lists only comments updated since a time', async () => {
    const since = new Date().toISOString()
    await new Promise(resolve => setTimeout(resolve, 5))
    await api('POST', `${R}/issues/1/comments`, 'bot-token', { body: 'recent' })
    const recent = await api('GET', `${R}/issues/1/comments?since=${since}`, 'bot-token')
    expect((recent.json as Array<{ body: string }>).map(c => c.body)).toEqual(['recent'])
  })
})
