import { describe, expect, it } from 'vitest'
import { runAgent, type AgentSpec } from '../../src/model/agent-runner.js'
import { Budget } from '../../src/model/budget.js'
import { roughTokens } from '../../src/model/client.js'
import { priceOf } from '../../src/model/pricing.js'
import type {
  ContentBlock,
  Message,
  ModelClient,
  ModelRequest,
  ModelResponse
} from '../../src/ports/index.js'

/**
 * The one agent loop (src/model/agent-runner.ts) at the ModelClient port: what it sends, what it
 * keeps, and why it stops.
 */

const MODEL = 'claude-sonnet-4-6'
const PRICE = priceOf(MODEL).price

/** An answer's usage as the API would bill it: the prompt at the input price, `output` tokens out. */
function usageOf(request: ModelRequest, output: number): ModelResponse['usage'] {
  const input = roughTokens(
    JSON.stringify({ s: request.system, t: request.tools, m: request.messages }).length
  )
  const costUsd = (input * PRICE.input + output * PRICE.output) / 1_000_000
  return {
    inputTokens: input,
    outputTokens: output,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    costUsd
  }
}

type Answer = ContentBlock[] | Error | ((request: ModelRequest) => Promise<ModelResponse>)

/** A model that answers from a script and keeps every request as it was sent. */
function scripted(answers: Answer[]): { client: ModelClient; sent: ModelRequest[] } {
  const sent: ModelRequest[] = []
  const client: ModelClient = {
    async create(request) {
      sent.push(structuredClone({ ...request, signal: undefined }))
      const answer = answers.shift() ?? [{ type: 'text', text: 'done' }]
      if (answer instanceof Error) throw answer
      if (typeof answer === 'function') return answer(request)
      const calls = answer.some(b => b.type === 'tool_use')
      return {
        content: answer,
        stopReason: calls ? 'tool_use' : 'end_turn',
        usage: usageOf(request, 50)
      }
    }
  }
  return { client, sent }
}

const READ: ContentBlock = {
  type: 'tool_use',
  id: 'toolu_1',
  name: 'read_file',
  input: { path: 'src/a.ts' }
}

function spec(over: Partial<AgentSpec> = {}): AgentSpec {
  return {
    model: MODEL,
    system: [{ type: 'text', text: 'You review code.', cache_control: { type: 'ephemeral' } }],
    tools: [
      { name: 'read_file', description: 'Reads a file', input_schema: { type: 'object' } },
      {
        name: 'submit_review',
        description: 'The verdict',
        input_schema: { type: 'object' },
        cache_control: { type: 'ephemeral' }
      }
    ],
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Review this diff.' }] }],
    maxTurns: 6,
    deadline: 60_000,
    maxTokens: 32_000,
    outputReserve: 8000,
    finalTools: new Set(['submit_review']),
    runTools: async calls =>
      calls.map(c => ({ type: 'tool_result' as const, tool_use_id: c.id, content: 'file text' })),
    ...over
  }
}

const deps = (client: ModelClient, budget = new Budget(0, undefined), now = () => 0) => ({
  client,
  budget,
  now
})

function marks(request: ModelRequest): number {
  const blocks = [
    ...request.system,
    ...request.tools,
    ...request.messages.flatMap((m: Message) => m.content)
  ]
  return blocks.filter(b => (b as { cache_control?: unknown }).cache_control).length
}

describe('runAgent', () => {
  it('ends at a final tool without running it: the answer is in that call', async () => {
    const submit: ContentBlock = {
      type: 'tool_use',
      id: 'toolu_9',
      name: 'submit_review',
      input: { decision: 'GO' }
    }
    const { client, sent } = scripted([[READ], [submit]])
    const ran: string[] = []
    const run = await runAgent(
      deps(client),
      spec({
        runTools: async calls => {
          ran.push(...calls.map(c => c.name))
          return calls.map(c => ({ type: 'tool_result' as const, tool_use_id: c.id, content: 'x' }))
        }
      })
    )
    expect(run.stopReason).toBe('final_tool')
    expect(run.turns).toBe(2)
    expect(ran).toEqual(['read_file'])
    expect(run.response?.content).toEqual([submit])
    expect(sent).toHaveLength(2)
  })

  it('sends the thinking blocks back exactly as received, and keeps them in the transcript', async () => {
    const thinking: ContentBlock = { type: 'thinking', thinking: '', signature: 'c2lnbmF0dXJl' }
    const redacted: ContentBlock = { type: 'redacted_thinking', data: 'ZW5jcnlwdGVk' }
    const { client, sent } = scripted([[thinking, redacted, READ], [{ type: 'text', text: 'ok' }]])
    const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'Fix it.' }] }]
    const run = await runAgent(deps(client), spec({ messages }))
    expect(run.stopReason).toBe('done')
    expect(sent[1]!.messages[1]).toEqual({ role: 'assistant', content: [thinking, redacted, READ] })
    expect(messages.map(m => m.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
    expect(messages[1]!.content).toEqual([thinking, redacted, READ])
  })

  it('puts at most four cache breakpoints in a request, the moving one on its last block', async () => {
    const { client, sent } = scripted([[READ], [READ], [READ], [{ type: 'text', text: 'ok' }]])
    const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'Fix it.' }] }]
    await runAgent(deps(client), spec({ messages }))
    expect(sent).toHaveLength(4)
    for (const request of sent) {
      expect(marks(request)).toBeLessThanOrEqual(4)
      const last = request.messages.at(-1)!.content.at(-1) as { cache_control?: unknown }
      expect(last.cache_control).toEqual({ type: 'ephemeral' })
    }
    // the marks are on the copy sent: the transcript carries none
    expect(JSON.stringify(messages)).not.toContain('cache_control')

    // four of the caller's own: the moving one would be a fifth, so it is not added
    const full = scripted([[{ type: 'text', text: 'ok' }]])
    const own = { type: 'ephemeral' as const }
    await runAgent(
      deps(full.client),
      spec({
        system: [
          { type: 'text', text: 'a', cache_control: own },
          { type: 'text', text: 'b', cache_control: own },
          { type: 'text', text: 'c', cache_control: own }
        ]
      })
    )
    expect(marks(full.sent[0]!)).toBe(4)
  })

  it('makes no call the budget cannot pay for: stopReason budget', async () => {
    const { client, sent } = scripted([])
    const run = await runAgent(deps(client, new Budget(0, 0.001)), spec())
    expect(run).toMatchObject({ stopReason: 'budget', turns: 0 })
    expect(sent).toHaveLength(0)
  })

  it('stops at the deadline: before a turn, and when the call is cut by it', async () => {
    const late = scripted([])
    const before = await runAgent(
      deps(late.client, undefined, () => 60_000),
      spec()
    )
    expect(before).toMatchObject({ stopReason: 'timeout', turns: 0 })
    expect(late.sent).toHaveLength(0)

    let clock = 0
    const cut = scripted([
      [READ],
      async () => {
        clock = 60_000
        throw new Error('Request was aborted.')
      }
    ])
    const during = await runAgent(
      deps(cut.client, undefined, () => clock),
      spec()
    )
    expect(during).toMatchObject({ stopReason: 'timeout', turns: 1 })
  })

  it('ends with stopReason error on an API error, never throwing, with what was thrown', async () => {
    const outage = new Error('529 Overloaded')
    const { client } = scripted([[READ], outage])
    const run = await runAgent(deps(client), spec())
    expect(run).toMatchObject({ stopReason: 'error', turns: 1, error: outage })
  })

  it('stops at max_turns, and says max_tokens when an answer is cut off', async () => {
    const busy = scripted([[READ], [READ]])
    expect(await runAgent(deps(busy.client), spec({ maxTurns: 2 }))).toMatchObject({
      stopReason: 'max_turns',
      turns: 2
    })
    const cut = scripted([
      async request => ({
        content: [{ type: 'text', text: 'half an ans' }],
        stopReason: 'max_tokens',
        usage: usageOf(request, request.maxTokens)
      })
    ])
    expect(await runAgent(deps(cut.client), spec())).toMatchObject({ stopReason: 'max_tokens' })
  })
})

describe('calls in parallel under max-cost-usd', () => {
  /** A model whose every answer takes all of max_tokens, answered when the test says so. */
  function held(): {
    client: ModelClient
    sent: ModelRequest[]
    answerOne(): void
  } {
    const sent: ModelRequest[] = []
    const waiting: Array<() => void> = []
    const client: ModelClient = {
      create: request =>
        new Promise(resolve => {
          sent.push(request)
          waiting.push(() =>
            resolve({
              content: [{ type: 'text', text: 'a long answer' }],
              stopReason: 'end_turn',
              usage: usageOf(request, request.maxTokens)
            })
          )
        })
    }
    return { client, sent, answerOne: () => waiting.shift()?.() }
  }

  const settle = () => new Promise(resolve => setImmediate(resolve))

  it('never spends past the cap however long the answers: max_tokens cut to what is left, the rest wait', async () => {
    // four calls whose reserves (prompt + 8,000 output tokens) fit the cap, each answering with all
    // of its max_tokens (32,000)
    const budget = new Budget(0, 0.65)
    const model = held()
    const runs = [1, 2, 3, 4].map(() => runAgent(deps(model.client, budget), spec()))
    await settle()
    // the first holds its worst case (all 32,000 tokens); the second gets what is left; the others wait
    expect(model.sent).toHaveLength(2)
    expect(model.sent[0]!.maxTokens).toBe(32_000)
    expect(model.sent[1]!.maxTokens).toBeLessThan(32_000)
    expect(model.sent[1]!.maxTokens).toBeGreaterThanOrEqual(8000)
    for (let i = 0; i < 4; i++) {
      model.answerOne()
      await settle()
    }
    const stops = (await Promise.all(runs)).map(r => r.stopReason)
    // each answer at its full 32,000 tokens would have spent $1.92; the cap holds
    expect(budget.spentUsd).toBeLessThanOrEqual(0.65)
    expect(model.sent).toHaveLength(2)
    expect(stops.sort()).toEqual(['budget', 'budget', 'done', 'done'])
  })

  it('ends as budget, not max_tokens, when the answer is cut off at a max_tokens the budget cut', async () => {
    const { client, sent } = scripted([
      async request => ({
        content: [{ type: 'text', text: 'half an ans' }],
        stopReason: 'max_tokens',
        usage: usageOf(request, request.maxTokens)
      })
    ])
    const budget = new Budget(0, 0.3)
    const run = await runAgent(deps(client, budget), spec())
    expect(sent[0]!.maxTokens).toBeLessThan(32_000)
    expect(run).toMatchObject({ stopReason: 'budget', turns: 1 })
    expect(budget.spentUsd).toBeLessThanOrEqual(0.3)
  })

  it('refuses a call whose share would be under its reserve when no call is in flight', async () => {
    const budget = new Budget(0, 0.1)
    const model = held()
    const run = runAgent(deps(model.client, budget), spec({ maxTokens: 32_000 }))
    await settle()
    // $0.1 leaves room for about 6,600 output tokens: under the 8,000 reserved, nothing is in flight
    expect(model.sent).toHaveLength(0)
    expect(await run).toMatchObject({ stopReason: 'budget', turns: 0 })
  })
})

describe('Budget.acquire', () => {
  it('waits while calls in flight hold the room, and is refused once none are and none is left', async () => {
    const budget = new Budget(0, 0.3)
    const want = { maxTokens: 16_000, outputReserve: 8000 }
    const first = await budget.acquire(MODEL, 4000, want)
    expect(first?.maxTokens).toBe(16_000)
    let second: unknown = 'waiting'
    const pending = budget.acquire(MODEL, 4000, want).then(g => (second = g))
    await new Promise(resolve => setImmediate(resolve))
    expect(second).toBe('waiting')
    // the first answers with all of its room: what is left is under the second's reserve
    budget.settle(first!, {
      inputTokens: 1000,
      outputTokens: 16_000,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      costUsd: 0.243
    })
    await pending
    expect(second).toBeUndefined()
  })

  it('gives the whole max_tokens without a cap', async () => {
    const budget = new Budget(0, undefined)
    const grant = await budget.acquire(MODEL, 10_000_000, {
      maxTokens: 64_000,
      outputReserve: 8000
    })
    expect(grant?.maxTokens).toBe(64_000)
  })
})
