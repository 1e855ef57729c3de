// The importer of Martian's Code Review Bench on its fixture (three pull requests in the
// exact format of its golden comment files), against a stand-in for GitHub's REST API on 127.0.0.1; and the pairwise judge, one call
// per (golden comment, finding) pair, against a fake model client.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadDataset } from '../../src/eval/dataset.js'
import { caseId, importMartian, prRef, readGolden } from '../../src/eval/martian.js'
import { judgePairs, pairwiseEstimateUsd, PAIRWISE_FINDINGS } from '../../src/eval/pairwise.js'
import { zeroUsage } from '../../src/loop/usage.js'
import type { ModelClient, ModelRequest, ModelResponse } from '../../src/ports/index.js'
import { FIXTURE, startPullsApi } from '../../test-support/martian-fixture.js'

const scratch = mkdtempSync(path.join(tmpdir(), 'review-loop-martian-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
const GOLDEN = ['cal_dot_com', 'grafana', 'keycloak'].map(f =>
  path.join(FIXTURE, 'golden_comments', `${f}.json`)
)

describe('readGolden', () => {
  it("reads entries in the format of Martian's files as they are", () => {
    const [entry] = readGolden(GOLDEN[2]!)
    expect(entry).toMatchObject({
      pr_title: 'Fixing Re-authentication with passkeys',
      url: 'https://github.com/ai-code-review-evaluation/keycloak-greptile/pull/1',
      original_url: 'https://github.com/keycloak/keycloak/pull/41249'
    })
    expect(entry!.comments.map(c => c.severity)).toEqual(['Medium', 'Medium'])
  })

  it.each([
    ['not JSON', '[{', /not a JSON file of golden comments/],
    ['not an array', '{"url": 1}', /is not an array/],
    ['a URL that is no PR', '[{"url": "https://github.com/a/b", "comments": []}]', /entry 0/],
    [
      'a comment without text',
      '[{"url": "https://github.com/a/b/pull/1", "comments": [{}]}]',
      /no "comment" text/
    ]
  ])('names the file and the entry for %s', (_, text, message) => {
    const file = path.join(scratch, `bad-${Math.random()}.json`)
    writeFileSync(file, text)
    expect(() => readGolden(file)).toThrow(message)
    expect(() => readGolden(file)).toThrow(file)
  })

  it('takes a PR URL apart and names its case', () => {
    const pr = prRef('https://github.com/calcom/cal.com/pull/8087')!
    expect(pr).toEqual({ owner: 'calcom', name: 'cal.com', number: 8087 })
    expect(caseId(pr)).toBe('cal-com-pr8087')
    expect(prRef('https://github.com/calcom/cal.com/issues/8087')).toBeUndefined()
  })
})

describe('importMartian', () => {
  it('writes a fetched case per PR, its golden comments as placeless labels, loadable as a dataset', async () => {
    const api = await startPullsApi({
      'calcom/cal.com/8087': {
        cloneUrl: 'https://git.invalid/calcom/cal.com.git',
        baseTip: '1'.repeat(40),
        mergeBase: '2'.repeat(40),
        head: '3'.repeat(40),
        language: 'TypeScript'
      },
      'grafana/grafana/76186': {
        cloneUrl: 'https://git.invalid/grafana/grafana.git',
        baseTip: '4'.repeat(40),
        mergeBase: '5'.repeat(40),
        head: '6'.repeat(40),
        language: 'Go'
      }
    })
    const out = path.join(scratch, 'imported')
    const said: string[] = []
    try {
      const result = await importMartian(GOLDEN, out, { api: api.url, say: l => said.push(l) })
      expect(result.written).toEqual(['cal-com-pr8087', 'grafana-pr76186'])
      expect(result.comments).toBe(4)
      // keycloak's fork is not known to the API: named, and the others are written
      expect(result.failed).toEqual([
        'https://github.com/ai-code-review-evaluation/keycloak-greptile/pull/1: GET /repos/ai-code-review-evaluation/keycloak-greptile/pulls/1: HTTP 404'
      ])
      expect(api.requests).toContain(
        `/repos/calcom/cal.com/compare/${'1'.repeat(40)}...${'3'.repeat(40)}`
      )
    } finally {
      await api.close()
    }
    const cases = loadDataset(out)
    expect(cases.map(c => c.id)).toEqual(['cal-com-pr8087', 'grafana-pr76186'])
    expect(cases[0]).toMatchObject({
      language: 'typescript',
      kind: 'bug',
      repo: 'https://git.invalid/calcom/cal.com.git',
      // the merge base, not the base branch's tip: the tree GitHub diffs the PR against
      commit: '2'.repeat(40),
      head: '3'.repeat(40),
      commitSubject: 'Async import of the appStore packages',
      fetched: true
    })
    expect(cases[0]!.issues[1]).toEqual({
      description: expect.stringMatching(/^The code uses forEach with async callbacks/),
      severity: 'critical'
    })
    expect(readFileSync(path.join(out, 'README.md'), 'utf8')).toContain('MIT licence')
  })
})

/** A model client whose answer to each pair is `match(prompt)`; it records the prompts. */
function fakeJudge(match: (prompt: string) => boolean) {
  const prompts: string[] = []
  const client: ModelClient = {
    create: async (request: ModelRequest): Promise<ModelResponse> => {
      const text = (request.messages[0]!.content as Array<{ text: string }>)[0]!.text
      prompts.push(text)
      const answer = { reasoning: 'r', match: match(text), confidence: 1 }
      return {
        content: [{ type: 'text', text: JSON.stringify(answer) }],
        stopReason: 'end_turn',
        usage: { ...zeroUsage(), inputTokens: 100, outputTokens: 10, costUsd: 0.001 }
      }
    }
  }
  return { client, prompts }
}

describe('judgePairs', () => {
  const judge = (client: ModelClient) => ({
    client,
    model: 'claude-haiku-4-5',
    provider: 'anthropic' as const,
    timeoutMs: 10_000
  })
  const findings = [
    { title: 'Unawaited async forEach', description: 'Deletions run without being awaited.' },
    { title: 'Not a real problem', description: 'Nothing.' }
  ]
  const issues = [
    { description: 'A try-catch is missing.' },
    { description: 'forEach with async callbacks.' }
  ]

  it("asks once per (issue, finding) pair, asking Martian's question in our words, and keeps the matches", async () => {
    const fake = fakeJudge(p => p.includes('forEach with async') && p.includes('Unawaited'))
    const r = await judgePairs(judge(fake.client), findings, issues, undefined)
    expect(r.calls).toBe(4)
    expect(r.matches).toEqual([[0, 1]])
    expect(r.usage.costUsd).toBeCloseTo(0.004, 10)
    expect(fake.prompts[0]).toContain('Is the candidate the same problem as the known issue?')
    expect(r.error).toBeUndefined()
  })

  it('stops before a pair the budget cannot pay for, and says how many were not asked', async () => {
    const fake = fakeJudge(() => true)
    const r = await judgePairs(judge(fake.client), findings, issues, 0)
    expect(r.calls).toBe(0)
    expect(r.error).toBe('judge not asked for 4 of 4 pairs: the budget is spent')
  })

  it('is estimated at every label against the findings it counts', () => {
    const one = pairwiseEstimateUsd('claude-haiku-4-5', [issues[0]!])
    expect(pairwiseEstimateUsd('claude-haiku-4-5', issues)).toBeGreaterThan(2 * one * 0.99)
    expect(PAIRWISE_FINDINGS).toBe(10)
  })
})
