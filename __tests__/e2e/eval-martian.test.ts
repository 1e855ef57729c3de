// Martian's Code Review Bench through dist/: `review-loop eval import martian` on the fixture's
// golden comment files (in the format of its files) against a stand-in for GitHub's REST API on 127.0.0.1,
// then `review-loop eval` on what it wrote: each PR fetched from a local repository (one over git
// HTTP on 127.0.0.1, two by path), reviewed by a scripted reviewer, its findings matched to the
// golden comments by a scripted judge, pairwise as Martian's, and batch; the totals a user reads.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { finding, verdict } from '../../test-support/eval-replies.js'
import { GitHttpServer } from '../../test-support/git-http-server.js'
import {
  FIXTURE,
  PRS,
  prRepository,
  reviewLoop,
  startPullsApi,
  type ApiPr
} from '../../test-support/martian-fixture.js'
import { ModelServer, type RecordedCall } from '../../test-support/model-server.js'
import { TEST_API_KEY } from '../../test-support/scenario.js'

const JUDGE = 'claude-haiku-4-5'
const GOLDEN = ['cal_dot_com', 'grafana', 'keycloak'].map(f =>
  path.join(FIXTURE, 'golden_comments', `${f}.json`)
)

/**
 * The scripted reviewer's findings per case, found by a file its diff holds: two on cal.com (one
 * the golden forEach comment, one false), two on grafana (both golden comments), none on keycloak.
 */
const REVIEWS: Array<{ file: string; findings: ReturnType<typeof finding>[] }> = [
  {
    file: 'packages/features/bookings/cancel.ts',
    findings: [
      finding(
        'packages/features/bookings/cancel.ts',
        2,
        'Unawaited async forEach',
        '  refs.forEach(async ref => {'
      ),
      finding('packages/app-store/index.ts', 1, 'Not a real problem', 'export const appStore = {')
    ]
  },
  {
    file: 'pkg/plugins/log.go',
    findings: [
      finding('pkg/plugins/log.go', 4, 'Nil request panics', '\tm.log(req.PluginContext)'),
      finding(
        'pkg/plugins/log.go',
        3,
        'TraceID no longer logged',
        'func (m *ContextualLoggerMiddleware) QueryData(req *Request) {'
      )
    ]
  },
  { file: 'services/Passkeys.java', findings: [] }
]

/** Which finding (by its title) is which golden comment (by words of it): the judge's knowledge. */
const SAME: Array<[string, string]> = [
  ['Unawaited async forEach', 'forEach with async callbacks'],
  ['Nil request panics', 'panic when a nil request'],
  ['TraceID no longer logged', 'traceID is no longer logged']
]
const same = (finding: string, golden: string) =>
  SAME.some(([f, g]) => finding.includes(f) && golden.includes(g))

const text = (call: RecordedCall) => JSON.stringify(call.messages)

/** The batch judge's answer: its prompt's numbered labels and findings, matched by SAME. */
function batchAnswer(prompt: string) {
  const section = (from: string, to: string) =>
    prompt
      .slice(prompt.indexOf(from), to ? prompt.indexOf(to) : undefined)
      .split('\n')
      .filter(l => /^\d+\. /.test(l))
  const issues = section('Labelled issues:', 'Findings')
  const findings = section('Findings', '')
  const matches = findings.flatMap((f, fi) =>
    issues.flatMap((g, gi) => (same(f, g) ? [{ finding: fi, issue: gi }] : []))
  )
  return { kind: 'json' as const, value: { matches } }
}

function responder(call: RecordedCall) {
  const prompt = (call.messages[0] as { content: Array<{ text: string }> }).content[0]!.text
  if (call.model === JUDGE) {
    if (!prompt.includes('Known issue')) return batchAnswer(prompt)
    const golden = prompt.slice(0, prompt.indexOf('Candidate ('))
    const candidate = prompt.slice(prompt.indexOf('Candidate ('))
    const match = same(candidate, golden)
    return { kind: 'json' as const, value: { reasoning: 'scripted', match, confidence: 1 } }
  }
  const review = REVIEWS.find(r => text(call).includes(r.file))
  return verdict(review?.findings ?? [])
}

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

describe("Martian's Code Review Bench, imported and run through dist/", () => {
  let root: string
  let gitServer: GitHttpServer
  let api: Awaited<ReturnType<typeof startPullsApi>>
  let env: Record<string, string>

  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'review-loop-martian-e2e-'))
    dirs.push(root)
    const repos = path.join(root, 'repos')
    mkdirSync(repos)
    const made = PRS.map(pr => prRepository(repos, pr))
    gitServer = await GitHttpServer.start(made[0]!.bare, 'tok')
    const prs: Record<string, ApiPr> = {}
    for (const [i, pr] of PRS.entries()) {
      const m = made[i]!
      prs[pr.route] = {
        // cal.com over git HTTP (its token in the URL), the others by path
        cloneUrl: i === 0 ? gitServer.url.replace('http://', 'http://x-access-token:tok@') : m.bare,
        baseTip: m.baseTip,
        mergeBase: m.mergeBase,
        head: m.head,
        language: pr.language
      }
    }
    api = await startPullsApi(prs)
    mkdirSync(path.join(root, 'home'))
    env = {
      HOME: path.join(root, 'home'),
      REVIEW_LOOP_EVAL_CACHE: path.join(root, 'cache'),
      ANTHROPIC_API_KEY: TEST_API_KEY
    }
  })

  afterAll(async () => {
    await gitServer?.close()
    await api?.close()
  })

  const evalArgs = (server: ModelServer, dataset: string, json: string, more: string[] = []) => [
    'eval',
    dataset,
    ...more,
    '--set',
    `anthropic-base-url=${server.url}`,
    '--json',
    json,
    '--out',
    path.join(root, `out-${path.basename(json)}`)
  ]

  it('imports the fixture, refuses it without a judge, and scores it pairwise and batch alike', async () => {
    const dataset = path.join(root, 'martian')
    const imported = await reviewLoop(
      ['eval', 'import', 'martian', ...GOLDEN, '--out', dataset, '--api-url', api.url],
      {}
    )
    expect(imported.code, imported.out + imported.err).toBe(0)
    expect(imported.out).toContain(`Wrote 3 cases (6 golden comments) to ${dataset}`)
    const list = await reviewLoop(['eval', dataset, '--list'], env)
    expect(list.out.trim().split('\n')).toEqual([
      expect.stringMatching(/^cal-com-pr8087 +typescript +bug +no test$/),
      expect.stringMatching(/^grafana-pr76186 +go +bug +no test$/),
      expect.stringMatching(/^keycloak-greptile-pr1 +java +bug +no test$/),
      '3 cases: 3 bug, 0 clean; 0 with a test'
    ])

    const server = await ModelServer.start({ apiKey: TEST_API_KEY, responder })
    try {
      const refused = await reviewLoop(evalArgs(server, dataset, path.join(root, 'none.json')), env)
      expect(refused.code).toBe(2)
      expect(refused.err).toContain(
        '3 cases (cal-com-pr8087, grafana-pr76186, keycloak-greptile-pr1) have labels with no place, which only a judge can match: add --judge-model MODEL'
      )
      expect(server.calls).toHaveLength(0)

      const pairwiseJson = path.join(root, 'pairwise.json')
      const pairwise = await reviewLoop(
        evalArgs(server, dataset, pairwiseJson, [
          '--judge-model',
          JUDGE,
          '--judge-mode',
          'pairwise'
        ]),
        env
      )
      expect(pairwise.code, pairwise.out + pairwise.err).toBe(0)
      expect(pairwise.out).toContain(`Reviewer claude-sonnet-5-5, judge ${JUDGE} (pairwise)`)
      expect(pairwise.out).toContain('3 cases fetched from their repositories into')
      expect(pairwise.out).toMatch(/^Precision 0\.75 \(3 of 4 findings match a labelled issue/m)
      expect(pairwise.out).toMatch(/^Recall +0\.50 \(3 of 6 labelled issues found\)/m)
      expect(pairwise.out).toMatch(/^F1 +0\.60$/m)
      expect(pairwise.out).toContain(
        `Judge ${JUDGE}, pairwise: one call per (labelled issue, finding) pair`
      )
      const judged = server.calls.filter(c => c.model === JUDGE && !c.verifier)
      // every (golden comment, finding) pair of the two cases with findings: 2×2 + 2×2
      expect(judged).toHaveLength(8)
      const report = JSON.parse(readFileSync(pairwiseJson, 'utf8')) as {
        judgeMode: string
        summary: Record<string, unknown>
        cases: Array<Record<string, unknown>>
      }
      expect(report.judgeMode).toBe('pairwise')
      expect(report.summary).toMatchObject({
        findings: 4,
        trueFindings: 3,
        issues: 6,
        foundIssues: 3,
        precision: 0.75,
        recall: 0.5
      })
      expect(report.cases.map(c => [c.id, c.status, c.decision, c.foundIssues])).toEqual([
        ['cal-com-pr8087', 'done', 'NO_GO', 1],
        ['grafana-pr76186', 'done', 'NO_GO', 2],
        ['keycloak-greptile-pr1', 'done', 'GO', 0]
      ])
      const fetches = gitServer.requests.length
      expect(fetches).toBeGreaterThan(0)

      // batch: one judge call per case with findings, the same totals; the cache is reused
      server.calls.length = 0
      const batchJson = path.join(root, 'batch.json')
      const batch = await reviewLoop(
        evalArgs(server, dataset, batchJson, ['--judge-model', JUDGE]),
        env
      )
      expect(batch.code, batch.out + batch.err).toBe(0)
      expect(server.calls.filter(c => c.model === JUDGE && !c.verifier)).toHaveLength(2)
      const again = JSON.parse(readFileSync(batchJson, 'utf8')) as typeof report
      expect(again.judgeMode).toBe('batch')
      expect(again.summary).toMatchObject({
        trueFindings: 3,
        foundIssues: 3,
        precision: 0.75,
        recall: 0.5
      })
      expect(gitServer.requests.length).toBe(fetches)
    } finally {
      await server.close()
    }
  })

  it('a case whose repository cannot be fetched is an error naming it; the others run', async () => {
    const dataset = path.join(root, 'martian-broken')
    await reviewLoop(
      ['eval', 'import', 'martian', ...GOLDEN, '--out', dataset, '--api-url', api.url],
      {}
    )
    // grafana's repository gone: its case fails to fetch, with what to do
    const caseFile = path.join(dataset, 'cases', 'grafana-pr76186', 'case.json')
    const c = JSON.parse(readFileSync(caseFile, 'utf8')) as Record<string, unknown>
    writeFileSync(caseFile, JSON.stringify({ ...c, repo: path.join(root, 'gone.git') }))
    const server = await ModelServer.start({ apiKey: TEST_API_KEY, responder })
    try {
      const json = path.join(root, 'broken.json')
      const r = await reviewLoop(evalArgs(server, dataset, json, ['--judge-model', JUDGE]), env)
      expect(r.code).toBe(1)
      expect(r.out).toMatch(
        new RegExp(
          `grafana-pr76186 +bug +error: eval case grafana-pr76186: cannot fetch [0-9a-f]{12} and [0-9a-f]{12} from ${path.join(root, 'gone.git')}`
        )
      )
      expect(r.out).toMatch(/^Cases: 2 of 3 run, 1 error/m)
    } finally {
      await server.close()
    }
  })
})
