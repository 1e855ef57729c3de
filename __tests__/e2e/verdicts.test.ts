/**
 * Issue 10's "done when", through dist/ against the local Messages API with Anthropic's per-model
 * rules (test-support/model-rules.ts): the reviewer and fixer on Sonnet 5.5 and Opus 5.5, a corpus
 * of malformed and contradictory verdicts that must never become GO, multi-round scenarios in which
 * settled findings must not come back as new, and budget stops.
 */
import { FIX_EDIT } from './greet-replies.js'
import { afterAll, describe, expect, it } from 'vitest'
import { runScenario, type Scenario, type ScenarioReport } from '../../test-support/scenario.js'
import type { ScriptedReply } from '../../test-support/model-server.js'
import { fingerprint } from '../../src/loop/fingerprint.js'
import { costOf } from '../../src/model/pricing.js'

const GREET = "export function greet(name) {\n  return 'Hello, ' + name\n}\n"

interface Verdict {
  decision: string
  summary?: string
  findings?: unknown[]
  failedCriteria?: string[]
  requiredRework?: string[]
  earlierFindings?: unknown[]
}

const body = (v: Verdict) => ({
  decision: v.decision,
  summary: v.summary ?? 'Reviewed.',
  findings: v.findings ?? [],
  failedCriteria: v.failedCriteria ?? [],
  passedCriteria: [],
  requiredRework: v.requiredRework ?? [],
  earlierFindings: v.earlierFindings ?? []
})

/** A verdict as structured output (the current models). */
const json = (v: Verdict, extra: Partial<{ outputTokens: number; thinkingTokens: number }> = {}) =>
  ({ kind: 'json', value: body(v), ...extra }) as ScriptedReply

/** A verdict through the submit_review tool (a model without structured outputs). */
const tool = (input: unknown): ScriptedReply => ({ kind: 'tool_use', name: 'submit_review', input })

const EMPTY_NAME = {
  severity: 'high',
  category: 'logic',
  file: 'src/greet.js',
  line: 2,
  /** GREET's line 2 */
  evidence: "  return 'Hello, ' + name",
  title: 'greet prints "Hello, undefined" without a name',
  description: 'Calling greet() without a name yields "Hello, undefined".'
}
const critical = (over: Record<string, unknown> = {}) => ({
  ...EMPTY_NAME,
  severity: 'critical',
  title: 'SQL built from input',
  ...over
})

function scenario(replies: ScriptedReply[], inputs: Record<string, string> = {}): Scenario {
  return {
    base: { 'package.json': '{ "name": "sample", "type": "module" }\n' },
    pr: {
      title: 'Add greeting',
      body: 'Adds greet().',
      commits: [{ message: 'greet', files: { 'src/greet.js': GREET } }]
    },
    inputs: { 'max-iterations': '1', ...inputs },
    model: { replies }
  }
}

function rejected(report: ScenarioReport): number {
  return report.modelCalls.filter(c => c.status !== 200).length
}

describe('the reviewer and fixer on the current models, held to their request rules', () => {
  it.each([
    ['claude-sonnet-5-5 (the default)', undefined],
    ['claude-opus-5-5', 'claude-opus-5-5'],
    ['claude-fable-5-1', 'claude-fable-5-1']
  ])('runs NO_GO → a two-turn fix → GO on %s', async (_name, model) => {
    const report = await runScenario(
      scenario(
        [
          json({ decision: 'NO_GO', findings: [EMPTY_NAME] }),
          { kind: 'tool_use', name: 'read_file', input: { path: 'src/greet.js' } },
          FIX_EDIT,
          { kind: 'text', text: 'Defaulted the name to world.' },
          json({
            decision: 'GO',
            earlierFindings: [{ id: 'RL-x', status: 'fixed', note: 'defaulted' }]
          })
        ],
        { 'max-iterations': '3', ...(model ? { 'review-model': model } : {}) }
      )
    )
    // every request met the model's rules: no forced tool, thinking blocks passed back unchanged
    expect(rejected(report)).toBe(0)
    expect(report.runs.map(r => r.outputs['status'])).toEqual(['running', 'go'])
    const expected = model ?? 'claude-sonnet-5-5'
    expect(new Set(report.modelCalls.map(c => c.model))).toEqual(new Set([expected]))
    // the verifier's calls (issue 28; model-server.ts) left out
    const [review, ...rest] = report.modelCalls.filter(c => !c.verifier)
    // the reviewer's read-only tools, never a forced tool choice
    expect(review!.toolChoice).toEqual({ type: 'auto' })
    expect(review!.outputConfig).toMatchObject({ format: { type: 'json_schema' } })
    for (const fixTurn of rest.slice(0, 3)) expect(fixTurn.toolChoice).toEqual({ type: 'auto' })
    // the fixer's closing words reach the PR
    expect(report.comments[0]!.body).toContain('Defaulted the name to world.')
  })
})

/** One verdict case: the replies of the review call and its repair. */
interface Case {
  name: string
  replies: ScriptedReply[]
  inputs?: Record<string, string>
  /** What the comment must say. */
  says?: RegExp
}

const OLD = { 'review-model': 'claude-3-5-haiku-20241022' }
/** The id the action gives EMPTY_NAME on the PR's head. */
const EMPTY_ID = fingerprint({
  title: EMPTY_NAME.title,
  file: 'src/greet.js',
  anchor: "  return 'Hello, ' + name"
})
const edit = (content: string): ScriptedReply => ({
  kind: 'tool_use',
  name: 'write_file',
  input: { path: 'src/greet.js', content }
})
const done = (text = 'Changed greet.'): ScriptedReply => ({ kind: 'text', text })
const twice = (r: ScriptedReply): ScriptedReply[] => [r, r]

const CASES: Case[] = [
  // schema-valid and contradictory, on structured outputs; repaired the same way
  ...[
    ['GO with a critical finding at a line that does not exist', critical({ line: 99 })],
    ['GO with a critical finding in a file that does not exist', critical({ file: 'src/nope.js' })],
    [
      'GO with a critical finding without a location',
      critical({ file: undefined, line: undefined })
    ],
    ['GO with a located high finding', EMPTY_NAME],
    ['GO with a located critical finding', critical()],
    ['GO with a medium finding (the threshold)', { ...EMPTY_NAME, severity: 'medium' }]
  ].map(([name, finding]) => ({
    name: name as string,
    replies: twice(json({ decision: 'GO', findings: [finding] })),
    says: /not GO|failed closed/
  })),
  {
    name: 'GO with failed criteria',
    replies: twice(json({ decision: 'GO', failedCriteria: ['handles empty names'] })),
    says: /Failed criteria/
  },
  {
    name: 'GO with required rework',
    replies: twice(json({ decision: 'GO', requiredRework: ['default the name'] }))
  },
  {
    name: 'GO with failed criteria and rework, then GO with a blocker',
    replies: [
      json({ decision: 'GO', failedCriteria: ['x'], requiredRework: ['y'] }),
      json({ decision: 'GO', findings: [EMPTY_NAME] })
    ]
  },
  {
    name: 'GO with a dropped blocker, then GO with a blocker in another missing file',
    replies: [
      json({ decision: 'GO', findings: [critical({ line: 50 })] }),
      json({ decision: 'GO', findings: [critical({ file: 'lib/ghost.js' })] })
    ],
    says: /Dropped findings/
  },
  {
    // structured outputs do not guarantee an enum's case; the tool never did
    name: 'a lower-case "go" with a critical finding',
    replies: twice(tool({ ...body({ decision: 'GO', findings: [critical()] }), decision: 'go' })),
    inputs: OLD
  },
  // cut off and refused
  {
    name: 'cut off at max_tokens twice',
    replies: twice(json({ decision: 'GO' }, { outputTokens: 200_000 })),
    says: /failed closed/
  },
  {
    name: 'cut off inside its thinking twice',
    replies: twice(json({ decision: 'GO' }, { thinkingTokens: 200_000 })),
    says: /failed closed/
  },
  {
    name: 'cut off, then GO with a critical finding',
    replies: [
      json({ decision: 'GO' }, { outputTokens: 200_000 }),
      json({ decision: 'GO', findings: [critical()] })
    ]
  },
  {
    name: 'a refusal',
    replies: [{ kind: 'refusal', text: 'I cannot help with that.' }],
    says: /refused/
  },
  {
    name: 'GO with a blocker, then a refusal',
    replies: [json({ decision: 'GO', findings: [critical()] }), { kind: 'refusal' }]
  },
  // through the submit_review tool on a model without structured outputs
  {
    name: 'text instead of the tool, twice',
    replies: twice({ kind: 'text', text: 'LGTM, ship it: GO' }),
    inputs: OLD
  },
  {
    name: 'an unknown decision, twice',
    replies: twice(tool({ ...body({ decision: 'LGTM' }) })),
    inputs: OLD
  },
  { name: 'missing fields, twice', replies: twice(tool({ decision: 'GO' })), inputs: OLD },
  {
    name: 'findings that are not a list',
    replies: twice(tool({ ...body({ decision: 'GO' }), findings: 'none' })),
    inputs: OLD
  },
  {
    name: 'an empty summary with GO',
    replies: twice(tool({ ...body({ decision: 'GO' }), summary: '' })),
    inputs: OLD
  },
  {
    name: 'an extra property',
    replies: twice(tool({ ...body({ decision: 'GO' }), confidence: 0.99 })),
    inputs: OLD
  },
  {
    name: 'a null decision',
    replies: twice(tool({ ...body({ decision: 'GO' }), decision: null })),
    inputs: OLD
  },
  {
    name: 'two submit_review calls: GO, then NO_GO with a critical finding; twice',
    replies: twice({
      kind: 'tool_uses',
      calls: [
        { name: 'submit_review', input: body({ decision: 'GO' }) },
        { name: 'submit_review', input: body({ decision: 'NO_GO', findings: [critical()] }) }
      ]
    }),
    inputs: OLD
  },
  {
    name: 'two submit_review calls that agree on GO, the second with a critical finding; twice',
    replies: twice({
      kind: 'tool_uses',
      calls: [
        { name: 'submit_review', input: body({ decision: 'GO' }) },
        { name: 'submit_review', input: body({ decision: 'GO', findings: [critical()] }) }
      ]
    }),
    inputs: OLD
  },
  {
    name: 'a GO whose own answer keeps an earlier blocker open, after a fix; twice',
    replies: [
      json({ decision: 'NO_GO', findings: [EMPTY_NAME] }),
      edit(`${GREET}// touched\n`),
      done(),
      ...twice(
        json({
          decision: 'GO',
          earlierFindings: [{ id: EMPTY_ID, status: 'still_open', note: 'still prints undefined' }]
        })
      )
    ],
    inputs: { 'max-iterations': '3' },
    says: /is still open by your own answer|not GO/
  },
  {
    name: 'GO with a critical finding beyond the end, through the tool, twice',
    replies: twice(tool(body({ decision: 'GO', findings: [critical({ line: 77 })] }))),
    inputs: OLD
  },
  {
    name: 'invalid, then GO with required rework',
    replies: [tool({ decision: 'GO' }), tool(body({ decision: 'GO', requiredRework: ['tests'] }))],
    inputs: OLD
  },
  {
    name: 'GO with failed criteria, then invalid',
    replies: [tool(body({ decision: 'GO', failedCriteria: ['x'] })), tool({ decision: 'GO' })],
    inputs: OLD
  }
]

describe('malformed and contradictory verdicts never become GO', () => {
  const table: Array<{ name: string; verdict: string; status: string; calls: number }> = []

  afterAll(() => {
    const go = table.filter(r => r.verdict === 'GO').length
    console.log(
      `\n${table.length} malformed or contradictory verdicts, through dist/: GO ${go} times\n` +
        table
          .map(
            r => `  ${r.verdict.padEnd(16)} ${r.status.padEnd(16)} ${r.calls} call(s)  ${r.name}`
          )
          .join('\n')
    )
  })

  it('has at least 25 cases', () => expect(CASES.length).toBeGreaterThanOrEqual(25))

  it.each(CASES.map(c => [c.name, c] as const))('%s', async (_name, c) => {
    const report = await runScenario(scenario(c.replies, c.inputs))
    const run = report.runs.at(-1)!
    table.push({
      name: c.name,
      verdict: run.outputs['verdict'] ?? '?',
      status: run.outputs['status'] ?? '?',
      calls: report.modelCalls.length
    })
    expect(run.outputs['verdict']).not.toBe('GO')
    expect(run.outputs['status']).not.toBe('go')
    expect(report.checkRuns.at(-1)!.conclusion).not.toBe('success')
    // every repair request met the API's rules (a tool_result for every tool_use)
    expect(rejected(report)).toBe(0)
    if (c.says) expect(report.comments[0]!.body).toMatch(c.says)
  })

  it('asks a cut-off review again with twice the room', async () => {
    const report = await runScenario(
      scenario([json({ decision: 'GO' }, { outputTokens: 40_000 }), json({ decision: 'GO' })])
    )
    expect(report.runs[0]!.outputs['verdict']).toBe('GO')
    expect(report.modelCalls.map(c => c.maxTokens)).toEqual([32_000, 64_000])
  })

  it('repairs a contradiction once, naming it, and takes the repaired verdict', async () => {
    let repairText = ''
    const report = await runScenario(
      scenario([
        json({ decision: 'GO', failedCriteria: ['handles empty names'] }),
        json({ decision: 'GO' })
      ]),
      {
        keep: async (_s, model) => {
          repairText = JSON.stringify(model!.calls[1]!.messages.at(-1))
        }
      }
    )
    expect(report.runs[0]!.outputs['verdict']).toBe('GO')
    expect(repairText).toContain('The decision is GO but 1 criteria failed')
  })
})

interface StateShape {
  status: string
  iterations: Array<{
    n: number
    findings: Array<{ id: string; title?: string; reraised?: boolean; status: string }>
    resolved: string[]
    gone?: string[]
    answers?: Array<{ id: string; status: string; note: string }>
    fix?: { disputes: Array<{ id: string; reason: string }>; summary?: string }
  }>
}

/**
 * Findings of a later iteration that raise an earlier problem again under a new id: each scenario
 * names the problems its reviews raise, so a new id for an old problem is counted.
 */
function settledAsNew(state: StateShape, problemOf: (title: string) => string): number {
  const idOf = new Map<string, string>()
  let count = 0
  for (const it of state.iterations)
    for (const f of it.findings) {
      const problem = problemOf(f.title ?? '')
      const known = idOf.get(problem)
      if (known !== undefined && known !== f.id) count++
      idOf.set(problem, f.id)
    }
  return count
}

describe('settled findings stay settled, and the loop knows when it is stuck', () => {
  const counts: Array<{ name: string; asNew: number; status: string }> = []
  afterAll(() => {
    console.log(
      `\nmulti-round scenarios: ${counts.reduce((a, c) => a + c.asNew, 0)} settled findings shown as new\n` +
        counts.map(c => `  ${c.name}: ${c.asNew} as new, ended ${c.status}`).join('\n')
    )
  })
  const problem = (title: string) =>
    /undefined|no name|without a name|empty/i.test(title) ? 'empty-name' : title

  it('keeps the id of a finding reworded at a shifted line, marks it re-raised and stalls', async () => {
    const report = await runScenario(
      scenario(
        [
          json({ decision: 'NO_GO', findings: [EMPTY_NAME] }),
          edit(`// greeting\n${GREET}`),
          done(),
          json({
            decision: 'NO_GO',
            findings: [
              { ...EMPTY_NAME, line: 3, title: 'greet() still says "Hello, undefined" for no name' }
            ]
          })
        ],
        { 'max-iterations': '3' }
      )
    )
    const state = report.finalState as unknown as StateShape
    counts.push({
      name: 'reworded and shifted',
      asNew: settledAsNew(state, problem),
      status: state.status
    })
    expect(settledAsNew(state, problem)).toBe(0)
    expect(state.status).toBe('stalled')
    expect(state.iterations[1]!.findings[0]!.reraised).toBe(true)
  })

  it("takes the reviewer's previousId for a finding it raises again in other words", async () => {
    const id = fingerprint({
      title: EMPTY_NAME.title,
      file: 'src/greet.js',
      anchor: "  return 'Hello, ' + name"
    })
    const report = await runScenario(
      scenario(
        [
          json({ decision: 'NO_GO', findings: [EMPTY_NAME] }),
          edit('export function greet(name) {\n  return `Hello, ${name}`\n}\n'),
          done(),
          json({
            decision: 'NO_GO',
            findings: [
              {
                ...EMPTY_NAME,
                title: 'No default for a missing name',
                evidence: '  return `Hello, ${name}`',
                previousId: id
              }
            ],
            earlierFindings: [
              { id, status: 'still_open', note: 'the template literal still prints undefined' }
            ]
          })
        ],
        { 'max-iterations': '3' }
      )
    )
    const state = report.finalState as unknown as StateShape
    const asNew = settledAsNew(state, t => (/name/i.test(t) ? 'empty-name' : t))
    counts.push({ name: 'reworded with previousId', asNew, status: state.status })
    expect(state.iterations.map(it => it.findings[0]!.id)).toEqual([id, id])
    expect(asNew).toBe(0)
    expect(state.status).toBe('stalled')
  })

  it("shows the fixer's dispute, its reason and the reviewer's answer, and asks a human when disputed again", async () => {
    const id = fingerprint({
      title: EMPTY_NAME.title,
      file: 'src/greet.js',
      anchor: "  return 'Hello, ' + name"
    })
    const dispute: ScriptedReply = {
      kind: 'tool_use',
      name: 'dispute_finding',
      input: { id, reason: 'greet is only ever called with a name' }
    }
    const report = await runScenario(
      scenario(
        [
          json({ decision: 'NO_GO', findings: [EMPTY_NAME] }),
          dispute,
          done('Disputed the finding.'),
          json({
            decision: 'NO_GO',
            findings: [{ ...EMPTY_NAME, previousId: id }],
            earlierFindings: [
              { id, status: 'dispute_rejected', note: 'the README example calls greet()' }
            ]
          }),
          dispute,
          done('Disputed it again.')
        ],
        { 'max-iterations': '3' }
      )
    )
    const state = report.finalState as unknown as StateShape
    counts.push({ name: 'disputed', asNew: settledAsNew(state, problem), status: state.status })
    expect(settledAsNew(state, problem)).toBe(0)
    expect(state.status).toBe('needs_discussion')
    const comment = report.comments[0]!.body
    expect(comment).toContain('greet is only ever called with a name')
    expect(comment).toContain('reviewer: dispute rejected: the README example calls greet()')
  })

  it('stalls when the fixes go round in circles: the code of review 3 is the code of review 1', async () => {
    const other = {
      severity: 'high',
      category: 'logic',
      file: 'src/greet.js',
      line: 1,
      evidence: 'export function greet(name) {',
      title: 'Template literal breaks the older runtime',
      description: 'The project still supports a runtime without template literals.'
    }
    const third = {
      ...other,
      title: 'Concatenation is slow in a hot loop',
      category: 'performance'
    }
    const report = await runScenario(
      scenario(
        [
          json({ decision: 'NO_GO', findings: [EMPTY_NAME] }),
          edit('export function greet(name) {\n  return `Hello, ${name}`\n}\n'),
          done(),
          json({ decision: 'NO_GO', findings: [other] }),
          edit(GREET),
          done('Back to concatenation.'),
          json({ decision: 'NO_GO', findings: [third] })
        ],
        { 'max-iterations': '5' }
      )
    )
    const state = report.finalState as unknown as StateShape
    counts.push({ name: 'oscillating', asNew: settledAsNew(state, problem), status: state.status })
    expect(state.status).toBe('stalled')
    expect(report.comments[0]!.body).toContain('is the same as in iteration 1')
    // the first fix changed the first finding's line, so it counts as fixed, not just no longer raised
    expect(state.iterations[1]!.resolved).toEqual([state.iterations[0]!.findings[0]!.id])
  })
})

describe('budget stops are budget_exhausted, never past the cap by more than one call', () => {
  it('ends as budget_exhausted when the budget stops the fixer before it changes anything', async () => {
    const report = await runScenario(
      scenario([json({ decision: 'NO_GO', findings: [EMPTY_NAME] }, { outputTokens: 6000 })], {
        'max-iterations': '3',
        'max-cost-usd': '0.1'
      })
    )
    const run = report.runs[0]!
    expect(run.outputs['status']).toBe('budget_exhausted')
    expect(Number(run.outputs['total-cost-usd'])).toBeLessThanOrEqual(0.1)
    const state = report.finalState as unknown as StateShape & {
      iterations: Array<{ fix?: { stopReason?: string } }>
    }
    expect(state.iterations[0]!.fix!.stopReason).toBe('budget')
  })

  it('stops a costly fixer mid-way, pushes what it did, and ends as budget_exhausted at the next review', async () => {
    const pricey = (r: ScriptedReply) => ({ ...r, outputTokens: 3500 }) as ScriptedReply
    const report = await runScenario(
      scenario(
        [
          json({ decision: 'NO_GO', findings: [EMPTY_NAME] }),
          pricey(edit(`${GREET}// 1\n`)),
          pricey(edit(`${GREET}// 2\n`)),
          pricey(edit(`${GREET}// 3\n`)),
          pricey(edit(`${GREET}// 4\n`)),
          pricey(done())
        ],
        { 'max-iterations': '3', 'max-cost-usd': '0.15' }
      )
    )
    const last = report.runs.at(-1)!
    expect(last.outputs['status']).toBe('budget_exhausted')
    expect(Number(last.outputs['total-cost-usd'])).toBeLessThanOrEqual(0.15)
    expect(report.pushes.filter(p => p.by !== 'octocat').length).toBeGreaterThanOrEqual(1)
  })
})

describe('a model outage at the fixer fails the step and the re-run resumes', () => {
  it('keeps the state as it was when the fixer cannot start, and a re-run completes the loop', async () => {
    const down: ScriptedReply = {
      kind: 'error',
      status: 529,
      type: 'overloaded_error',
      message: 'Overloaded',
      retryAfter: 0
    }
    const report = await runScenario({
      ...scenario(
        [
          json({ decision: 'NO_GO', findings: [EMPTY_NAME] }),
          down,
          down,
          down,
          down,
          down,
          json({ decision: 'NO_GO', findings: [EMPTY_NAME] }),
          edit("export function greet(name) {\n  return 'Hello, ' + (name ?? 'world')\n}\n"),
          done(),
          json({ decision: 'GO' })
        ],
        { 'max-iterations': '3' }
      ),
      rerunFailed: true
    })
    const [first, rerun] = report.runs
    expect(first!.exitCode).not.toBe(0)
    expect(first!.errors.join('\n')).toMatch(/AI fixer could not start.*re-run to resume/s)
    expect(rerun!.attempt).toBe(2)
    expect(report.runs.at(-1)!.outputs['status']).toBe('go')
    expect(report.runs.map(r => r.outputs['status'])).not.toContain('stalled')
    // the review of the failed run was paid for, and the state counts it
    const paid = report.modelCalls
      .filter(c => c.status === 200)
      .reduce(
        (sum, c) =>
          sum +
          costOf(c.model, {
            inputTokens: c.usage!.input_tokens,
            outputTokens: c.usage!.output_tokens,
            cacheReadTokens: c.usage!.cache_read_input_tokens,
            cacheWriteTokens: c.usage!.cache_creation_input_tokens
          }),
        0
      )
    const totals = (report.finalState as { totals: { costUsd: number } }).totals
    expect(totals.costUsd).toBeCloseTo(paid, 5)
  })
})
