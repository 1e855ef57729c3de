// The eval's numbers as a user reads them, through dist/ against the local model server: one issue
// found twice counts once, a review cut short is not scored, the printed "at most" holds for a
// reviewer that takes every turn, and shards merged give the totals of one run.
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { Budget } from '../../src/model/budget.js'
import { evalCli, readJson, runCli, type EvalJson } from '../../test-support/eval-cli.js'
import {
  changedFiles,
  evidenceAt,
  falseFinding,
  finding,
  fromLabels,
  readCase,
  verdict
} from '../../test-support/eval-replies.js'
import { ModelServer, type ScriptedReply } from '../../test-support/model-server.js'
import { TEST_API_KEY } from '../../test-support/scenario.js'

const CASES = path.resolve('eval/cases')
const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

const caseJson = (id: string) => readCase(CASES, id)
const caseArgs = (ids: readonly string[]) => ids.flatMap(id => ['--case', id])
const BUG = 'js-cookie-domain-leading-dot'

/** A reviewer turn that reads a file the PR changes, answering `outputTokens` long. */
const reading = (file: string, outputTokens: number): ScriptedReply => ({
  kind: 'tool_use',
  name: 'read_file',
  input: { path: file },
  outputTokens
})

/** The printed "at most", in dollars. */
const atMost = (out: string): number =>
  Number(/Estimated cost: at most \$(\d+\.\d\d)/.exec(out)?.[1] ?? NaN)

describe('the eval counts honestly', () => {
  it('counts an issue two findings name once, and leaves the duplicate out of precision', async () => {
    const c = caseJson(BUG)
    const label = c.issues![0]!
    const again = finding(
      label.file,
      label.lines[0],
      'The same defect, said again',
      evidenceAt(c, label.file, label.lines[0], label.lines[1])
    )
    const server = await ModelServer.start({
      apiKey: TEST_API_KEY,
      script: [verdict([...fromLabels(c), again, falseFinding(c)])]
    })
    try {
      const r = await evalCli(server, caseArgs([BUG]), dirs)
      expect(r.code, r.out + r.err).toBe(0)
      const labelled = c.issues!.length
      // before: 2 true of 3; now the labels' findings are true, the repeat a duplicate, one false
      expect(r.json.summary).toMatchObject({
        findings: labelled + 2,
        trueFindings: labelled,
        duplicates: 1,
        precision: labelled / (labelled + 1),
        recall: 1
      })
      expect(r.out).toContain('1 duplicate left out')
    } finally {
      await server.close()
    }
  })

  it('never passes the printed "at most" with a reviewer that takes every turn and a verifier call', async () => {
    const c = caseJson(BUG)
    const file = changedFiles(CASES, BUG)[0]!
    // review-max-turns is 6: five turns reading, each as long as the output reserve, then the answer
    const script: ScriptedReply[] = [
      ...Array.from({ length: 5 }, () => reading(file, 8000)),
      { ...verdict(fromLabels(c)), outputTokens: 8000 } as ScriptedReply
    ]
    const server = await ModelServer.start({ apiKey: TEST_API_KEY, script })
    try {
      const r = await evalCli(server, caseArgs([BUG]), dirs)
      expect(r.code, r.out + r.err).toBe(0)
      expect(server.calls.filter(call => call.verifier)).toHaveLength(c.issues!.length)
      const spent = r.json.summary.usage.costUsd
      expect(spent).toBeLessThanOrEqual(r.json.estimateUsd)
      expect(spent).toBeLessThanOrEqual(atMost(r.out))
      // the estimate it replaces, one answer on the diff and the files, is passed by far
      const chars =
        statSync(path.join(CASES, BUG, 'fix.patch')).size +
        statSync(path.join(CASES, BUG, 'base', file)).size +
        12_000
      expect(spent).toBeGreaterThan(Budget.reserve('claude-sonnet-5-5', chars, 8000))
    } finally {
      await server.close()
    }
  })

  it('prints a review the budget cut short as not run, with why, and counts none of it', async () => {
    const file = changedFiles(CASES, BUG)[0]!
    // without the verifier, the estimate is the review's alone
    const args = [...caseArgs([BUG]), '--set', 'verify-findings=false']
    const idle = await ModelServer.start({ apiKey: TEST_API_KEY })
    const priced = await evalCli(idle, [...args, '--max-cost-usd', '0.000001'], dirs)
    await idle.close()
    const estimate = priced.json.estimateUsd
    expect(estimate).toBeGreaterThan(0)
    // a reviewer whose every turn is four times the output reserve: the case's budget (its
    // estimate) runs out before its sixth turn
    const server = await ModelServer.start({
      apiKey: TEST_API_KEY,
      templates: [{ reply: reading(file, 32_000) }]
    })
    try {
      const r = await evalCli(server, [...args, '--max-cost-usd', estimate.toFixed(6)], dirs)
      expect(r.code, r.out + r.err).toBe(0)
      const [c] = r.json.cases
      expect(c).toMatchObject({ status: 'skipped' })
      expect(c!.error).toMatch(/^the review was cut short: .*max-cost-usd/)
      expect(r.out).toMatch(
        /\[1\/1\] js-cookie-domain-leading-dot +bug +not run \(the review was cut short: /
      )
      expect(r.json.summary).toMatchObject({ done: 0, skipped: 1, issues: 0, findings: 0 })
      expect(r.json.summary.recall).toBeUndefined()
      expect(r.json.summary.missedGo).toMatchObject({ of: 0 })
      expect(r.json.summary.usage.costUsd).toBeLessThanOrEqual(estimate)
    } finally {
      await server.close()
    }
  })
  it("scores a review that failed on the model's own account, and goes on past two of them", async () => {
    // a reviewer that only lists files, never answering: its turns run out on every case
    const ids = ['go-humanize-bytes-overflow', BUG, 'py-cachetools-key-pickle']
    const server = await ModelServer.start({
      apiKey: TEST_API_KEY,
      templates: [{ reply: { kind: 'tool_use', name: 'list_files', input: {} } }]
    })
    try {
      const r = await evalCli(server, caseArgs(ids), dirs)
      expect(r.code, r.out + r.err).toBe(0)
      expect(r.out).not.toContain('Stopped')
      expect(r.json.cases.map(c => [c.status, c.decision])).toEqual(
        ids.map(() => ['done', 'NEEDS_DISCUSSION'])
      )
      // its misses count: recall 0 over every labelled issue
      expect(r.json.summary.recall).toBe(0)
      expect(r.json.summary.done).toBe(3)
    } finally {
      await server.close()
    }
  })
})

describe('shards and contexts', () => {
  /** Four shipped cases in the order one run takes them (by id). */
  const PICKED = [
    'clean-js-cookie-jsdoc-typo',
    'go-humanize-bytes-overflow',
    'js-cookie-domain-leading-dot',
    'py-cachetools-key-pickle'
  ]
  /** Each case's answer: its labels and one false finding (the clean case: the false one alone). */
  const answer = (id: string) => verdict([...fromLabels(caseJson(id)), falseFinding(caseJson(id))])
  const scoring = (j: EvalJson) => {
    const {
      usage: _usage,
      wallMs: _wall,
      ...counts
    } = j.summary as EvalJson['summary'] & {
      wallMs: number
    }
    return { counts, cases: j.cases.map(c => [c.id, c.status, c.decision]) }
  }

  it('--shard 1/2 and 2/2, merged, give the cases and totals of one run', async () => {
    const run = async (ids: string[], extra: string[]) => {
      const server = await ModelServer.start({ apiKey: TEST_API_KEY, script: ids.map(answer) })
      try {
        return await evalCli(server, [...caseArgs(PICKED), ...extra], dirs)
      } finally {
        await server.close()
      }
    }
    const whole = await run(PICKED, [])
    const first = await run([PICKED[0]!, PICKED[2]!], ['--shard', '1/2'])
    const second = await run([PICKED[1]!, PICKED[3]!], ['--shard', '2/2'])
    expect(first.out).toContain('review-loop eval: 2 cases')
    const where = path.dirname(first.dir)
    const merged = path.join(first.dir, 'merged.json')
    const summary = path.join(first.dir, 'summary.md')
    const m = await runCli(
      [
        'eval',
        'merge',
        path.join(second.dir, 'eval.json'),
        path.join(first.dir, 'eval.json'),
        '--json',
        merged,
        '--summary',
        summary
      ],
      where
    )
    expect(m.code, m.out + m.err).toBe(0)
    expect(scoring(readJson(merged))).toEqual(scoring(whole.json))
    expect(readJson(merged).summary.usage.costUsd).toBeCloseTo(
      first.json.summary.usage.costUsd + second.json.summary.usage.costUsd,
      10
    )
    // the totals a user reads are the same lines
    const lines = (out: string) =>
      out.split('\n').filter(l => /^(Precision|Recall|F1|False|GO)/.test(l))
    expect(lines(m.out)).toEqual(lines(whole.out))
    expect(readFileSync(summary, 'utf8')).toMatch(/^## review-loop eval\n/)

    // a shard left out, or given twice, is named
    const missing = await runCli(['eval', 'merge', path.join(first.dir, 'eval.json')], where)
    expect(missing.code).toBe(2)
    expect(missing.err).toContain('shard 2/2 missing')
    const twice = await runCli(
      ['eval', 'merge', path.join(first.dir, 'eval.json'), path.join(first.dir, 'eval.json')],
      where
    )
    expect(twice.err).toContain('are both shard 1/2')

    // a report cut off before its last case, one of an older version, one with a broken case
    const firstJson = JSON.parse(readFileSync(path.join(first.dir, 'eval.json'), 'utf8')) as {
      cases: unknown[]
      reportSchema?: number
    }
    const write = (name: string, report: object) => {
      const file = path.join(first.dir, name)
      writeFileSync(file, JSON.stringify(report))
      return file
    }
    const merged2 = (file: string) =>
      runCli(['eval', 'merge', file, path.join(second.dir, 'eval.json')], where)
    const cut = await merged2(
      write('cut.json', { ...firstJson, cases: firstJson.cases.slice(0, 1) })
    )
    expect(cut.err).toContain(
      'stopped before 1 of its 2 cases (js-cookie-domain-leading-dot): its run was cut off (cancelled, timed out); run it again with --shard 1/2.'
    )
    const old = await merged2(write('old.json', { ...firstJson, reportSchema: undefined }))
    expect(old.err).toContain('was written by an older review-loop')
    const broken = await merged2(
      write('broken.json', { ...firstJson, cases: [null, ...firstJson.cases] })
    )
    expect(broken.err).toContain('has a case 1 that is not a result of review-loop eval')
    expect([cut.code, old.code, broken.code]).toEqual([2, 2, 2])
  })

  it('--context diff gives the reviewer no read tools, and the report says which context', async () => {
    const server = await ModelServer.start({ apiKey: TEST_API_KEY, script: [answer(BUG)] })
    try {
      const r = await evalCli(server, [...caseArgs([BUG]), '--context', 'diff'], dirs)
      expect(r.code, r.out + r.err).toBe(0)
      expect(r.out).toContain(
        "Context: diff (the diff and the changed files' full text; no read tools)"
      )
      expect(r.json.context).toBe('diff')
      const tools = server.calls.flatMap(c =>
        (c.tools as Array<{ name?: string }>).map(t => t.name)
      )
      expect(tools).not.toContain('read_file')
      const bad = await runCli(['eval', '--context', 'files'], path.dirname(r.dir))
      expect(bad.err).toContain(
        "--context takes diff (the diff and the changed files only) or tools (with the read tools), not 'files'."
      )
    } finally {
      await server.close()
    }
  })
})
