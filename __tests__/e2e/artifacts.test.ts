import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { DefaultArtifactClient } from '@actions/artifact'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { ArtifactService } from '../../test-support/artifact-service.js'
import { Sandbox, type RunRecord } from '../../test-support/harness.js'

const GREET_WITH_TRAILING_SPACE = "export function greet(name) {\n  return 'Hello, ' + name   \n}\n"
const WHITESPACE_CHECK = "whitespace: grep -rnE ' +$' src && exit 1 || exit 0"
const FIX_WHITESPACE = "sed -i -E 's/ +$//' src/*.js"
const UNAVAILABLE = /artifact service is not available|Uploading artifact .* failed/

function newSandbox(): Promise<Sandbox> {
  return Sandbox.create({
    base: {
      'package.json': '{ "name": "sample", "private": true }\n',
      'src/util.js': 'export const one = 1\n'
    },
    pr: {
      commits: [{ message: 'add greeting', files: { 'src/greet.js': GREET_WITH_TRAILING_SPACE } }]
    }
  })
}

function describeRun(run: RunRecord): string {
  return `exit ${run.exitCode}\n--- stdout\n${run.stdout.slice(-4000)}\n--- stderr\n${run.stderr.slice(-4000)}`
}

describe('the artifact service emulator with the real @actions/artifact client', () => {
  let svc: ArtifactService
  let dir: string
  const saved = { ...process.env }

  beforeAll(async () => {
    // the client logs through @actions/core (workflow commands on stdout)
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
    svc = await ArtifactService.start()
    dir = mkdtempSync(path.join(os.tmpdir(), 'artifact-client-'))
    writeFileSync(path.join(dir, 'a.txt'), 'alpha\n')
    writeFileSync(path.join(dir, 'b.json'), '{"b":2}\n')
  })
  afterEach(() => {
    for (const name of ['ACTIONS_RUNTIME_TOKEN', 'ACTIONS_RESULTS_URL', 'GITHUB_SERVER_URL']) {
      if (saved[name] === undefined) delete process.env[name]
      else process.env[name] = saved[name]
    }
  })
  afterAll(async () => {
    vi.restoreAllMocks()
    await svc.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const upload = (name: string, token = svc.runtimeToken()) => {
    process.env['ACTIONS_RUNTIME_TOKEN'] = token
    process.env['ACTIONS_RESULTS_URL'] = `${svc.url}/`
    delete process.env['GITHUB_SERVER_URL']
    return new DefaultArtifactClient().uploadArtifact(
      name,
      [path.join(dir, 'a.txt'), path.join(dir, 'b.json')],
      dir,
      { retentionDays: 30 }
    )
  }

  it('accepts an upload through CreateArtifact, the blob block protocol and FinalizeArtifact', async () => {
    const result = await upload('first')
    const artifact = svc.artifacts.find(a => a.name === 'first')!
    expect(result.id).toBe(artifact.id)
    expect(result.size).toBe(artifact.zip.length)
    expect(`sha256:${result.digest}`).toBe(artifact.digest)
    expect(artifact.files).toEqual({ 'a.txt': 'alpha\n', 'b.json': '{"b":2}\n' })
    expect(artifact.mimeType).toBe('application/zip')
    const days = (Date.parse(artifact.expiresAt!) - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(29.9)
    expect(days).toBeLessThan(30.1)
    const paths = svc.requests.map(
      r => `${r.method} ${r.path.replace(/\?.*comp=(\w+).*/, '?comp=$1')} ${r.status}`
    )
    expect(paths).toEqual([
      'POST /twirp/github.actions.results.api.v1.ArtifactService/CreateArtifact 200',
      `PUT /upload/${artifact.id}?comp=block 201`,
      `PUT /upload/${artifact.id}?comp=blocklist 201`,
      'POST /twirp/github.actions.results.api.v1.ArtifactService/FinalizeArtifact 200'
    ])
  })

  it('rejects a second artifact of the same name in the run (409), not in another run', async () => {
    await upload('dup')
    await expect(upload('dup')).rejects.toThrow(
      /CreateArtifact.*\(409\).*an artifact with this name already exists on the workflow run/
    )
    await upload('dup', svc.runtimeToken({ runBackendId: 'another-run' }))
    expect(svc.artifacts.filter(a => a.name === 'dup').map(a => a.runBackendId)).toEqual([
      svc.runBackendId,
      'another-run'
    ])
  })

  it('rejects a token it did not sign, and a missing one (401)', async () => {
    const other = await ArtifactService.start()
    try {
      await expect(upload('forged', other.runtimeToken())).rejects.toThrow(
        /CreateArtifact.*\(401\).*invalid token signature/
      )
    } finally {
      await other.close()
    }
    const res = await fetch(
      `${svc.url}/twirp/github.actions.results.api.v1.ArtifactService/CreateArtifact`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }
    )
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({ code: 'unauthenticated', msg: 'missing bearer token' })
    expect(svc.artifacts.some(a => a.name === 'forged')).toBe(false)
  })

  it('refuses blob writes with a forged signature (403)', async () => {
    const created = await fetch(
      `${svc.url}/twirp/github.actions.results.api.v1.ArtifactService/CreateArtifact`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${svc.runtimeToken()}`
        },
        body: JSON.stringify({
          workflow_run_backend_id: svc.runBackendId,
          workflow_job_run_backend_id: svc.jobBackendId,
          name: 'forged-sig',
          version: 7
        })
      }
    )
    const { signed_upload_url } = (await created.json()) as { signed_upload_url: string }
    const forged = signed_upload_url.replace(/sig=[^&]*/, 'sig=AAAA')
    const res = await fetch(forged, {
      method: 'PUT',
      headers: { 'x-ms-blob-type': 'BlockBlob' },
      body: 'x'
    })
    expect(res.status).toBe(403)
    expect(res.headers.get('x-ms-error-code')).toBe('AuthenticationFailed')
  })
})

describe('review-loop uploads its iteration records through dist/ to the artifact service', () => {
  let svc: ArtifactService
  const sandboxes: Sandbox[] = []

  beforeAll(async () => {
    svc = await ArtifactService.start()
  })
  afterAll(async () => {
    await svc.close()
    for (const s of sandboxes) await s.close()
  })

  // each workflow run has its own backend id; its attempts share it
  const artifactEnv = (runBackendId: string) => ({
    ACTIONS_RUNTIME_TOKEN: svc.runtimeToken({ runBackendId }),
    ACTIONS_RESULTS_URL: `${svc.url}/`
  })

  it('uploads review-1.json, review-1.md and fix-1.json as review-loop-pr-7-iteration-1', async () => {
    const sandbox = await newSandbox()
    sandboxes.push(sandbox)
    const run = await sandbox.run({
      event: 'pull_request',
      action: 'opened',
      inputs: { checks: WHITESPACE_CHECK, 'fix-commands': FIX_WHITESPACE },
      env: artifactEnv(randomUUID())
    })
    expect(run.exitCode, describeRun(run)).toBe(0)
    expect(run.outputs['verdict']).toBe('NO_GO')
    const artifact = svc.artifacts.find(a => a.name === 'review-loop-pr-7-iteration-1')
    expect(artifact, describeRun(run)).toBeDefined()
    expect(Object.keys(artifact!.files)).toEqual(
      expect.arrayContaining(['review-1.json', 'review-1.md', 'fix-1.json'])
    )
    const review = JSON.parse(artifact!.files['review-1.json']!) as Record<string, unknown>
    expect(review['iteration']).toBe(1)
    expect(review['verdict'] ?? review['decision']).toBeDefined()
    expect(artifact!.files['review-1.md']!.length).toBeGreaterThan(0)
    expect(() => JSON.parse(artifact!.files['fix-1.json']!) as unknown).not.toThrow()
    expect(artifact!.mimeType).toBe('application/zip')
    expect(artifact!.expiresAt).toBeDefined()
    // the summary and outputs name the uploaded artifact, not a folder or a failure
    expect(run.summary).not.toMatch(UNAVAILABLE)
    expect(JSON.stringify(run.outputs)).not.toMatch(UNAVAILABLE)
    expect(run.stdout).not.toMatch(UNAVAILABLE)
    expect(run.summary).toContain('artifact `review-loop-pr-7-iteration-1`')
  })

  it('a re-run attempt of the same run uploads under a distinct name', async () => {
    const sandbox = await newSandbox()
    sandboxes.push(sandbox)
    const before = svc.artifacts.length
    const payload = sandbox.payload('pull_request', 'opened')
    const inputs = { checks: WHITESPACE_CHECK, 'fix-commands': 'true' }
    const runBackendId = randomUUID()
    // attempt 1 uploads its records, then fails to write the PR comment, so no state is saved and
    // the re-run reviews the same head as iteration 1 again
    sandbox.emulator.failNext('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', 422)
    const first = await sandbox.run({
      event: 'pull_request',
      payload,
      inputs,
      runId: 4242,
      runAttempt: 1,
      env: artifactEnv(runBackendId)
    })
    expect(first.exitCode, describeRun(first)).not.toBe(0)
    expect(first.stdout, describeRun(first)).toMatch(/::error::.*Validation Failed/)
    // the re-run: same run (same run backend id in the token), same payload, attempt 2
    const second = await sandbox.run({
      event: 'pull_request',
      payload,
      inputs,
      runId: 4242,
      runAttempt: 2,
      env: artifactEnv(runBackendId)
    })
    // 'true' fixes nothing, so the re-run ends as stalled (a failing status by default)
    expect(second.outputs['status'], describeRun(second)).toBe('stalled')
    const uploaded = svc.artifacts.slice(before)
    expect(uploaded.map(a => a.name)).toEqual([
      'review-loop-pr-7-iteration-1',
      'review-loop-pr-7-iteration-1-attempt-2'
    ])
    expect(uploaded.every(a => a.runBackendId === runBackendId)).toBe(true)
    expect(uploaded[1]!.files['review-1.json']).toBeDefined()
    expect(svc.requests.filter(r => r.status === 409)).toEqual([])
    expect(second.summary).not.toMatch(UNAVAILABLE)
    expect(second.summary).toContain('artifact `review-loop-pr-7-iteration-1-attempt-2`')
  })
})
