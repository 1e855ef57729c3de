import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
  existsSync,
  linkSync
} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { createCommandRunner } from '../../src/process/command-runner.js'
import { runTool, toolSpecs, type ToolContext } from '../../src/fix/workspace-tools.js'

let root: string
let outside: string
let ctx: ToolContext

beforeEach(() => {
  const base = mkdtempSync(path.join(os.tmpdir(), 'tools-'))
  root = path.join(base, 'ws')
  outside = path.join(base, 'outside')
  mkdirSync(path.join(root, '.git'), { recursive: true })
  mkdirSync(path.join(root, 'src'), { recursive: true })
  mkdirSync(outside)
  writeFileSync(
    path.join(root, '.git', 'config'),
    '[http] extraheader = AUTHORIZATION: basic c2VjcmV0\n'
  )
  writeFileSync(path.join(root, 'src', 'a.js'), 'const value = 1\nexport { value }\n')
  writeFileSync(path.join(outside, 'secret.txt'), 'top secret\n')
  ctx = {
    root,
    protectedPaths: ['.github/workflows/**', 'dist/**'],
    gates: [{ name: 'env', command: 'env' }],
    runner: createCommandRunner(),
    cwd: root,
    env: { PATH: process.env['PATH'] ?? '' },
    timeoutMs: 10_000,
    findingIds: new Set(['RL-0000000001']),
    secrets: [],
    sandboxed: true
  }
})

describe('fixer tools stay inside the workspace', () => {
  it('reads, searches, edits and writes inside it', async () => {
    expect((await runTool('read_file', { path: 'src/a.js' }, ctx)).content).toContain(
      '1  const value = 1'
    )
    expect((await runTool('search', { text: 'value' }, ctx)).content).toContain(
      'src/a.js:1: const value = 1'
    )
    const edit = await runTool(
      'edit_file',
      { path: 'src/a.js', old_text: 'value = 1', new_text: 'value = 2' },
      ctx
    )
    expect(edit.isError).toBe(false)
    expect(readFileSync(path.join(root, 'src/a.js'), 'utf8')).toContain('value = 2')
    expect((await runTool('write_file', { path: 'src/new/b.js', content: 'x' }, ctx)).isError).toBe(
      false
    )
    expect((await runTool('list_files', {}, ctx)).content.split('\n').sort()).toEqual([
      'src/a.js',
      'src/new/b.js'
    ])
  })

  it('refuses absolute paths, .., and the .git folder', async () => {
    for (const p of [
      '/etc/passwd',
      '../outside/secret.txt',
      'src/../../outside/secret.txt',
      '.git/config',
      'src/.git/x'
    ]) {
      const r = await runTool('read_file', { path: p }, ctx)
      expect(r.isError, p).toBe(true)
      expect(r.refused, p).toBeTruthy()
    }
  })

  it('follows no symbolic link: not into .git, not out of the workspace, not a dangling one', async () => {
    symlinkSync(path.join(root, '.git'), path.join(root, 'gitlink'))
    symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'src', 'leak.txt'))
    symlinkSync(path.join(outside, 'new.txt'), path.join(root, 'dangling'))
    expect((await runTool('read_file', { path: 'gitlink/config' }, ctx)).refused).toContain(
      'symbolic link'
    )
    expect(
      (await runTool('write_file', { path: 'gitlink/hooks/pre-push', content: 'x' }, ctx)).refused
    ).toContain('symbolic link')
    expect((await runTool('read_file', { path: 'src/leak.txt' }, ctx)).refused).toContain(
      'symbolic link'
    )
    expect(
      (await runTool('write_file', { path: 'dangling', content: 'x' }, ctx)).refused
    ).toContain('symbolic link')
    expect(existsSync(path.join(outside, 'new.txt'))).toBe(false)
    const search = await runTool('search', { text: 'secret' }, ctx)
    expect(search.content).not.toContain('top secret')
    expect(search.content).not.toContain('extraheader')
  })

  it('refuses to change protected paths and workflow files', async () => {
    for (const p of ['.github/workflows/ci.yml', 'dist/index.js']) {
      const r = await runTool('write_file', { path: p, content: 'x' }, ctx)
      expect(r.refused, p).toContain('protected')
    }
  })

  it('refuses look-alikes of the workflow folder and the settings file, writing nothing', async () => {
    for (const p of [
      '.GITHUB/workflows/x.yml',
      '.github/Workflows/x.yml',
      '.github./workflows/x.yml',
      '.GitHub/Review-Loop.yml'
    ]) {
      const r = await runTool('write_file', { path: p, content: 'on: push' }, ctx)
      expect(r.refused, p).toMatch(/is protected by "\.github\/(workflows\/|review-loop\.yml)"/)
      expect(existsSync(path.join(ctx.root, p)), p).toBe(false)
      expect(r.keptOut?.path, p).toBe(p)
    }
  })

  it('runs only configured checks, and records disputes of known findings', async () => {
    expect((await runTool('run_check', { name: 'rm -rf /' }, ctx)).isError).toBe(true)
    const env = await runTool('run_check', { name: 'env' }, ctx)
    expect(env.content).toMatch(/^exit code 0/)
    expect(
      (await runTool('dispute_finding', { id: 'RL-nope', reason: 'wrong', explanation: 'x' }, ctx))
        .isError
    ).toBe(true)
    const d = await runTool(
      'dispute_finding',
      { id: 'RL-0000000001', reason: 'stale', explanation: 'fixed in a.js:1' },
      ctx
    )
    expect(d.dispute).toEqual({ id: 'RL-0000000001', reason: 'stale: fixed in a.js:1' })
  })

  it('refuses .git in any case or with trailing dots and spaces', async () => {
    for (const p of [
      '.GIT/config',
      '.Git/hooks/pre-commit',
      '.git./config',
      '.git /config',
      'src/.gIt/x'
    ]) {
      const r = await runTool('write_file', { path: p, content: 'x' }, ctx)
      expect(r.refused, p).toContain('.git folder is off limits')
    }
  })

  it('refuses hard-linked files, which could be another file of the machine', async () => {
    linkSync(path.join(outside, 'secret.txt'), path.join(root, 'src', 'linked.txt'))
    expect((await runTool('read_file', { path: 'src/linked.txt' }, ctx)).refused).toMatch(
      /hard links/
    )
    expect(
      (await runTool('write_file', { path: 'src/linked.txt', content: 'pwned' }, ctx)).refused
    ).toMatch(/hard links/)
    expect(readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('top secret\n')
    expect((await runTool('search', { text: 'top secret' }, ctx)).content).toBe('no matches')
  })

  it('caps one write at 1 MB', async () => {
    const r = await runTool('write_file', { path: 'big.txt', content: 'x'.repeat(1_000_001) }, ctx)
    expect(r.refused).toMatch(/more than the 1000000-byte limit/)
    expect(existsSync(path.join(root, 'big.txt'))).toBe(false)
  })

  it("masks the job's secrets in every result", async () => {
    writeFileSync(path.join(root, 'src', 'leak.txt'), 'token=ghs_canary123456\n')
    const masked = { ...ctx, secrets: ['ghs_canary123456'] }
    expect((await runTool('read_file', { path: 'src/leak.txt' }, masked)).content).toContain(
      'token=***'
    )
    expect((await runTool('search', { text: 'token' }, masked)).content).not.toContain('ghs_canary')
    const env = await runTool(
      'run_check',
      { name: 'env' },
      { ...masked, env: { SECRET: 'ghs_canary123456' } }
    )
    expect(env.content).toContain('SECRET=***')
  })

  it("gives the fixer a check's report as located findings and leaves no report file to commit", async () => {
    const sarif = JSON.stringify({
      version: '2.1.0',
      runs: [
        {
          tool: { driver: { name: 'lint' } },
          results: [
            {
              level: 'error',
              ruleId: 'no-x',
              message: { text: 'x is bad' },
              locations: [
                {
                  physicalLocation: {
                    artifactLocation: { uri: 'src/a.js' },
                    region: { startLine: 2 }
                  }
                }
              ]
            }
          ]
        }
      ]
    })
    writeFileSync(
      path.join(root, 'lint.sh'),
      `mkdir -p out && printf '%s' '${sarif}' > out/lint.sarif; exit 1\n`
    )
    const gates = [{ name: 'lint', command: 'sh lint.sh', report: 'out/lint.sarif' }]
    const r = await runTool('run_check', { name: 'lint' }, { ...ctx, gates })
    expect(r.content).toContain('src/a.js:2 [high] no-x: x is bad')
    expect(existsSync(path.join(root, 'out/lint.sarif'))).toBe(false)
  })

  it('offers no run_check when PR code cannot be sandboxed', async () => {
    const unsandboxed = { ...ctx, sandboxed: false }
    expect(toolSpecs(unsandboxed).map(t => t.name)).not.toContain('run_check')
    expect(toolSpecs(ctx).map(t => t.name)).toContain('run_check')
    expect((await runTool('run_check', { name: 'env' }, unsandboxed)).refused).toMatch(
      /not available/
    )
  })
})
