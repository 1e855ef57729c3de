import Anthropic from '@anthropic-ai/sdk'
import { afterEach, describe, expect, it } from 'vitest'
import { keepEarlierIds, sameProblem, titleSimilarity } from '../../src/loop/matching.js'
import type { Finding } from '../../src/loop/types.js'
import { messagesClient } from '../../src/model/anthropic.js'
import { Budget } from '../../src/model/budget.js'
import { traitsOf } from '../../src/model/models.js'
import { aiReview } from '../../src/review/ai-reviewer.js'
import { contradictions, settleContradiction } from '../../src/review/contradictions.js'
import {
  createVerdictValidator,
  verdictSchema,
  wireSchema
} from '../../src/review/verdict-schema.js'
import { ModelServer, unsupportedSchemaFeature } from '../../test-support/model-server.js'
import { finding, iteration, pull, state } from './builders.js'
import { FakeGit, fakeLog, settings } from './fake-ports.js'

describe('contradictions', () => {
  const go = { decision: 'GO' as const, failedCriteria: [], requiredRework: [] }

  it('lets a clean GO and any NO_GO stand', () => {
    expect(contradictions(go, [finding({ severity: 'low' })], [], 'medium')).toEqual([])
    expect(
      contradictions({ ...go, decision: 'NO_GO', failedCriteria: ['x'] }, [finding()], [], 'medium')
    ).toEqual([])
  })

  it('names a GO with a blocking finding, placed or dropped, failed criteria or rework', () => {
    const problems = contradictions(
      { ...go, failedCriteria: ['handles empty input'], requiredRework: ['add a test'] },
      [finding({ title: 'placed', severity: 'high' })],
      [{ severity: 'critical', title: 'ghost', why: 'cites src/x.ts, which is not in abc1234' }],
      'medium'
    )
    expect(problems).toHaveLength(4)
    expect(problems.join('\n')).toMatch(/"placed" is high/)
    expect(problems.join('\n')).toMatch(/"ghost" cites src\/x.ts/)
    expect(problems.join('\n')).toMatch(/1 criteria failed \(handles empty input\)/)
    expect(problems.join('\n')).toMatch(/rework is required \(add a test\)/)
  })

  it('names an answer with two different verdicts', () => {
    expect(contradictions(go, [], [], 'medium', ['NO_GO'])[0]).toMatch(/2 verdicts \(GO, NO_GO\)/)
  })

  it('settles what stays contradictory as NO_GO with a blocker to fix, else NEEDS_DISCUSSION', () => {
    expect(settleContradiction('NO_GO', [finding({ severity: 'high' })], 'medium')).toBe('NO_GO')
    expect(settleContradiction('NO_GO', [finding({ severity: 'low' })], 'medium')).toBe(
      'NEEDS_DISCUSSION'
    )
    expect(settleContradiction('NO_GO', [], 'medium')).toBe('NEEDS_DISCUSSION')
    // a GO that still carries a blocker after its repair fails closed: a person decides
    expect(settleContradiction('GO', [finding({ severity: 'high' })], 'medium')).toBe(
      'NEEDS_DISCUSSION'
    )
  })
})

describe('the verdict schema on the wire', () => {
  it('keeps only what structured outputs accept, while ajv still checks the limits', () => {
    expect(unsupportedSchemaFeature(wireSchema(verdictSchema))).toBeUndefined()
    expect(unsupportedSchemaFeature(verdictSchema)).toMatch(/not supported/)
    const validate = createVerdictValidator()
    const base = {
      decision: 'go',
      summary: 's',
      findings: [],
      failedCriteria: [],
      passedCriteria: [],
      requiredRework: [],
      earlierFindings: []
    }
    // enum case is not guaranteed by structured outputs: normalised
    expect(validate(base)).toMatchObject({ ok: true, verdict: { decision: 'GO' } })
    expect(validate({ ...base, summary: 'x'.repeat(5000) }).ok).toBe(false)
  })
})

describe('re-raised findings keep their id', () => {
  const earlier = {
    id: 'RL-old',
    severity: 'high' as const,
    category: 'logic' as const,
    title: 'greet prints "Hello, undefined" without a name',
    file: 'src/greet.js',
    line: 2,
    source: 'ai',
    status: 'open' as const,
    since: 1
  }
  const raised = finding({
    id: 'RL-new',
    category: 'logic',
    file: 'src/greet.js',
    line: 9,
    title: 'greet() still prints "Hello, undefined" when no name is given'
  })

  it('matches the same source, file and category, a line within reach and a similar title', () => {
    expect(titleSimilarity(raised.title, earlier.title)).toBeGreaterThanOrEqual(0.5)
    expect(sameProblem(raised, earlier)).toBe(true)
    expect(sameProblem({ ...raised, category: 'security' }, earlier)).toBe(false)
    expect(sameProblem({ ...raised, line: 40 }, earlier)).toBe(false)
    expect(sameProblem({ ...raised, file: 'src/other.js' }, earlier)).toBe(false)
    expect(sameProblem({ ...raised, title: 'Unused import of fs' }, earlier)).toBe(false)
    expect(sameProblem({ ...raised, source: 'gate:lint' }, earlier)).toBe(false)
  })

  it('gives an earlier id to one finding at most, and merges findings that end up with one id', () => {
    const s = state({ iterations: [iteration({ findings: [earlier] })] })
    const kept = keepEarlierIds([raised, { ...raised, id: 'RL-new2', line: 8 }], s)
    expect(kept.map(f => f.id)).toEqual(['RL-old', 'RL-new2'])
    const merged = keepEarlierIds([{ ...raised, id: 'RL-old' }, raised], s)
    expect(merged.map(f => f.id)).toEqual(['RL-old', 'RL-new'])
    // two findings naming one earlier id (previousId twice): the most severe stays
    const twice = keepEarlierIds(
      [
        { ...raised, id: 'RL-old', severity: 'low' },
        { ...raised, id: 'RL-old', severity: 'critical' }
      ],
      s
    )
    expect(twice.map(f => [f.id, f.severity])).toEqual([['RL-old', 'critical']])
  })

  it('tells sibling findings apart, and never revives a fixed one', () => {
    const email = {
      ...earlier,
      id: 'RL-email',
      title: 'Missing input validation for email',
      line: 10
    }
    const phone = finding({
      id: 'RL-phone',
      category: 'logic',
      file: 'src/greet.js',
      line: 20,
      title: 'Missing input validation for phone'
    })
    expect(sameProblem(phone, email)).toBe(false)
    // a few lines apart, the same words mostly: the same problem moved by a fix above it
    expect(sameProblem({ ...phone, line: 12 }, email)).toBe(true)
    const fixed = state({
      iterations: [
        iteration({ n: 1, findings: [email] }),
        iteration({ n: 2, findings: [], resolved: ['RL-email'] })
      ]
    })
    expect(keepEarlierIds([{ ...phone, line: 12 }], fixed)[0]!.id).toBe('RL-phone')
    // the reviewer answered it fixed in this very review
    const open = state({ iterations: [iteration({ findings: [email] })] })
    expect(keepEarlierIds([{ ...phone, line: 12 }], open, new Set(['RL-email']))[0]!.id).toBe(
      'RL-phone'
    )
    expect(keepEarlierIds([{ ...phone, line: 12 }], open)[0]!.id).toBe('RL-email')
  })
})

describe('the model traits', () => {
  it.each([
    ['claude-sonnet-5-5', 'anthropic', true, 128_000],
    ['claude-opus-5-5', 'vertex', true, 128_000],
    ['us.anthropic.claude-sonnet-5-5', 'bedrock', false, 128_000],
    ['us.anthropic.claude-sonnet-4-6-v1:0', 'bedrock', true, 64_000],
    ['claude-haiku-4-5-20251001', 'anthropic', true, 64_000],
    ['claude-3-5-haiku-20241022', 'anthropic', false, 8192]
  ] as const)('%s on %s: structured outputs %s, %d output tokens', (model, provider, so, max) => {
    expect(traitsOf(model, provider)).toEqual({ structuredOutputs: so, maxOutputTokens: max })
  })
})

describe('review-timeout-minutes bounds the review, retries included', () => {
  let server: ModelServer | undefined
  afterEach(async () => server?.close())

  it('ends a review whose answers never come at the deadline, saying what to raise', async () => {
    server = await ModelServer.start()
    server.addFault({ route: 'POST /v1/messages', hang: true, times: 10 })
    const client = messagesClient(
      new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 4, timeout: 60_000 })
    )
    const ai = { ...settings({ 'anthropic-api-key': 'k' }).ai, reviewTimeoutMinutes: 0.01 }
    const git = new FakeGit('a'.repeat(40))
    git.diffText = 'diff --git a/x.js b/x.js\n--- a/x.js\n+++ b/x.js\n@@ -1 +1 @@\n-a\n+b\n'
    const started = Date.now()
    const review = aiReview(
      {
        client,
        ai,
        threshold: 'medium',
        budget: new Budget(0, undefined),
        log: fakeLog(),
        promptsDir: 'prompts'
      },
      { pull: pull(), state: state(), git, gates: [] }
    )
    await expect(review).rejects.toThrow(/did not answer within the time limit, retries included/)
    // 0.6 s of budget: one hung attempt, no five attempts of a minute each
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(server.calls.length).toBe(1)
  })
})

describe('findings that differ only in case keep their own earlier ids', () => {
  const alone = finding({
    id: 'RL-usual',
    category: 'testing',
    file: 'src/check.js',
    line: 2,
    title: 'parses input',
    source: 'gate:test'
  })
  const earlier = { ...alone, status: 'open' as const, since: 1 }
  const twin = { ...alone, id: 'RL-twin-upper', title: 'parses Input' }
  const same = { ...alone, id: 'RL-twin-lower' }

  it('gives the earlier id to the finding of the very same title, whatever the order', () => {
    // iteration 1 failed 'parses input' only; now its case twin fails too and both ids are new
    const s = state({ iterations: [iteration({ findings: [earlier] })] })
    const ids = (findings: Finding[]) => keepEarlierIds(findings, s).map(f => [f.title, f.id])
    expect(ids([twin, same])).toEqual([
      ['parses Input', 'RL-twin-upper'],
      ['parses input', 'RL-usual']
    ])
    expect(ids([same, twin])).toEqual([
      ['parses input', 'RL-usual'],
      ['parses Input', 'RL-twin-upper']
    ])
    // with no finding of the very same title, a similar one still raises it again
    expect(ids([twin])).toEqual([['parses Input', 'RL-usual']])
  })
})
