// The dataset's self-check, shared by the per-language test files (so the workers split them):
// every case's fix.patch applies, its labels point into the PR's change, and its test tells the
// trees apart — a bug case's fails on the PR (buggy) and passes on main (fixed), with the fix's
// held-out test (heldout.patch) applied to a copy of each, a clean case's passes on both. A case whose runtime this machine lacks is skipped, saying what to install.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import {
  buildCaseRepo,
  changedFiles,
  heldOutPatch,
  loadDataset,
  missingRuntime,
  runCaseTest,
  type CaseLanguage,
  type EvalCase
} from '../../src/eval/dataset.js'
import { createCommandRunner } from '../../src/process/command-runner.js'

const TOOLS = path.resolve('node_modules')

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd, encoding: 'utf8' }).trim()

/** The labels point at lines the PR's change touches, in files it changes, inside the file; the title hides the bug. */
function checkLabels(c: EvalCase, repo: string, changed: string[]): void {
  for (const issue of c.issues) {
    if (!issue.file || !issue.lines)
      throw new Error(`${c.id}: a shipped case's label needs a place`)
    // a hunk's + side (`@@ -a,b +c,d @@`): lines c…c+d-1, or the place after c where lines went
    const hunks = git(repo, 'diff', '-U0', 'main', 'pr', '--', issue.file).matchAll(
      /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/gm
    )
    const [first, last] = issue.lines
    const touched = [...hunks].some(([, start, count]) => {
      const from = Number(start)
      const to = count === '0' ? from + 1 : from + Number(count ?? 1) - 1
      return first <= to && last >= from
    })
    expect(touched, `${c.id}: ${issue.file} lines ${first}-${last} are outside the change`).toBe(
      true
    )
    expect(changed, `${c.id}: labelled file ${issue.file}`).toContain(issue.file)
    const text = execFileSync('git', ['show', `pr:${issue.file}`], { cwd: repo, encoding: 'utf8' })
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
    expect(issue.lines[1], `${c.id}: ${issue.file} has ${lines} lines`).toBeLessThanOrEqual(lines)
  }
  const held = heldOutPatch(c)
  if (c.kind === 'bug' && c.testAddedByFix)
    expect(held, `${c.id}: the fix's test is held out in heldout.patch`).toBeDefined()
  if (held) {
    // the held-out files are the fix's tests, not the PR's files, and neither branch holds their change
    const heldFiles = changedFiles({ dir: path.dirname(held) }, 'heldout.patch')
    expect(heldFiles.length, `${c.id}: heldout.patch changes no file`).toBeGreaterThan(0)
    for (const f of heldFiles) expect(changed, `${c.id}: ${f} is held out`).not.toContain(f)
    // against each branch's tree, in an index of its own: the work tree is the test runs' to check out
    for (const branch of ['main', 'pr']) {
      const env = { ...process.env, GIT_INDEX_FILE: path.join(repo, '.git', `held-${branch}`) }
      execFileSync('git', ['read-tree', branch], { cwd: repo, env })
      execFileSync('git', ['apply', '--cached', '--check', held], { cwd: repo, env })
    }
  }
  const subject = git(repo, 'log', '-1', '--format=%s', 'pr')
  if (c.kind === 'bug') expect(subject, `${c.id}: the PR's title`).not.toMatch(/revert|fix/i)
  else expect(subject).toBe(c.commitSubject)
}

export function checkDataset(languages: CaseLanguage[]): void {
  const cases = loadDataset('eval').filter(c => languages.includes(c.language))
  const scratch = mkdtempSync(path.join(tmpdir(), 'review-loop-dataset-'))
  const runner = createCommandRunner()
  const counts = {
    cases: cases.length,
    applies: 0,
    testsRun: 0,
    failsBefore: 0,
    passesAfter: 0,
    cleanPassesBoth: 0,
    unavailable: 0
  }
  const unavailable = new Map<string, string[]>()
  const started = Date.now()
  afterAll(() => {
    rmSync(scratch, { recursive: true, force: true })
    const seconds = Math.round((Date.now() - started) / 1000)
    console.log(`dataset check (${languages.join(', ')}): ${JSON.stringify(counts)}, ${seconds} s`)
    for (const [why, ids] of unavailable)
      console.log(`tests not run here (${ids.length} cases: ${ids.join(', ')}): ${why}`)
  })

  it(`has cases in ${languages.join(', ')}`, () => {
    expect(cases.length).toBeGreaterThan(0)
  })

  /** The case's repository, built once for both of its tests (synchronously: no test sees half of it). */
  const repos = new Map<string, { repo: string; base: string; head: string }>()
  const repoOf = (c: EvalCase): { repo: string; base: string; head: string } => {
    let built = repos.get(c.id)
    if (!built) {
      const repo = path.join(scratch, c.id)
      built = { repo, ...buildCaseRepo(c, repo) }
      repos.set(c.id, built)
    }
    return built
  }

  describe.concurrent(languages.join(', '), () => {
    for (const c of cases) {
      it(`${c.id}: the change applies, its labels point into it`, () => {
        const { repo, base, head } = repoOf(c)
        const changed = git(repo, 'diff', '--name-only', base, head).split('\n')
        expect(changed.filter(Boolean).length, `${c.id}: the PR changes nothing`).toBeGreaterThan(0)
        checkLabels(c, repo, changed)
        counts.applies++
      })

      const missing = c.hasTest ? missingRuntime(c, TOOLS) : undefined
      if (missing) {
        counts.unavailable++
        unavailable.set(missing, [...(unavailable.get(missing) ?? []), c.id])
      }
      const expected =
        c.kind === 'bug' ? 'fails on the PR, passes on main' : 'passes on the PR and on main'
      it.skipIf(!c.hasTest || missing !== undefined)(
        `${c.id}: its test ${expected}`,
        async () => {
          const { repo } = repoOf(c)
          counts.testsRun++
          const how = (branch: string) => ({
            runner,
            env: process.env,
            tools: TOOLS,
            timeoutMs: 240_000,
            copy: path.join(scratch, `${c.id}.test-on-${branch}`)
          })
          const clean = (): void =>
            expect(
              git(repo, 'status', '--porcelain', '--ignored'),
              `${c.id}: the test or its held-out patch wrote into the reviewed tree`
            ).toBe('')
          git(repo, 'checkout', '-q', 'pr')
          const onPr = await runCaseTest(c, repo, how('pr'))
          clean()
          git(repo, 'checkout', '-q', 'main')
          const onBase = await runCaseTest(c, repo, how('main'))
          clean()
          if (c.kind === 'bug') {
            expect(onPr.status, `${c.id} on the PR (buggy):\n${onPr.detail}`).toBe('failed')
            counts.failsBefore++
            expect(onBase.status, `${c.id} on main (fixed):\n${onBase.detail}`).toBe('passed')
            counts.passesAfter++
          } else {
            expect(onPr.status, `${c.id} on the PR:\n${onPr.detail}`).toBe('passed')
            expect(onBase.status, `${c.id} on main:\n${onBase.detail}`).toBe('passed')
            counts.cleanPassesBoth++
          }
        },
        300_000
      )
    }
  })
}
