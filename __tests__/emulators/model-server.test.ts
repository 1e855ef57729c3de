import Anthropic, { APIError } from '@anthropic-ai/sdk'
import { afterEach, describe, expect, it } from 'vitest'
import { ModelServer, estimateTokens } from '../../test-support/model-server.js'
import type { ModelServerOptions } from '../../test-support/model-server.js'

const MODEL = 'claude-test-1'
const KEY = 'sk-test-key'

const verdictTool: Anthropic.Tool = {
  name: 'submit_verdict',
  description: 'Submit the review verdict',
  input_schema: {
    type: 'object',
    properties: { verdict: { type: 'string', enum: ['GO', 'NO_GO'] } },
    required: ['verdict']
  }
}
const readTool: Anthropic.Tool = {
  name: 'read_file',
  description: 'Read a file',
  input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }
}

let servers: ModelServer[] = []

async function start(
  opts: ModelServerOptions
): Promise<{ server: ModelServer; client: Anthropic }> {
  const server = await ModelServer.start(opts)
  servers.push(server)
  const client = new Anthropic({ apiKey: KEY, baseURL: server.url })
  return { server, client }
}

afterEach(async () => {
  await Promise.all(servers.map(s => s.close()))
  servers = []
})

async function expectApiError(promise: Promise<unknown>): Promise<APIError> {
  try {
    await promise
  } catch (err) {
    expect(err).toBeInstanceOf(APIError)
    return err as APIError
  }
  throw new Error('expected the request to fail')
}

describe('ModelServer with the real Anthropic SDK', () => {
  it('returns the forced tool call input, with usage and request headers recorded', async () => {
    const { server, client } = await start({
      apiKey: KEY,
      script: [{ kind: 'tool_use', name: 'submit_verdict', input: { verdict: 'GO' } }]
    })
    const msg = await client.messages.create({
      model: MODEL,
      max_tokens: 1024,
      system: 'You review pull requests.',
      tools: [verdictTool],
      tool_choice: { type: 'tool', name: 'submit_verdict' },
      messages: [{ role: 'user', content: 'Review this diff' }]
    })
    expect(msg.stop_reason).toBe('tool_use')
    expect(msg.id).toMatch(/^msg_/)
    const block = msg.content.find(b => b.type === 'tool_use')
    expect(block?.type === 'tool_use' && block.name).toBe('submit_verdict')
    expect(block?.type === 'tool_use' && block.input).toEqual({ verdict: 'GO' })
    expect(block?.type === 'tool_use' && block.id).toMatch(/^toolu_\d+$/)
    expect(msg._request_id).toMatch(/^req_/)

    expect(server.calls).toHaveLength(1)
    const call = server.calls[0]!
    expect(call.status).toBe(200)
    expect(call.model).toBe(MODEL)
    expect(call.maxTokens).toBe(1024)
    expect(call.toolChoice).toEqual({ type: 'tool', name: 'submit_verdict' })
    // SDK v1 sends apiKey as a bearer token
    expect(call.headers['authorization']).toBe(`Bearer ${KEY}`)
    expect(call.headers['anthropic-version']).toBeTruthy()
    expect(call.usage).toEqual({
      input_tokens: msg.usage.input_tokens,
      output_tokens: msg.usage.output_tokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0
    })
    const expectedInput =
      estimateTokens(verdictTool) +
      estimateTokens('You review pull requests.') +
      estimateTokens('Review this diff')
    expect(msg.usage.input_tokens).toBe(expectedInput)
  })

  it('runs a two-turn tool conversation and validates tool_result ids', async () => {
    const { server, client } = await start({
      script: [
        {
          kind: 'tool_uses',
          text: 'Let me look.',
          calls: [
            { name: 'read_file', input: { path: 'a.ts' } },
            { name: 'read_file', input: { path: 'b.ts' } }
          ]
        },
        { kind: 'text', text: 'Looks fine.', outputTokens: 7 }
      ]
    })
    const tools = [readTool]
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Review a.ts and b.ts' }]
    const first = await client.messages.create({ model: MODEL, max_tokens: 512, tools, messages })
    expect(first.stop_reason).toBe('tool_use')
    expect(first.content[0]).toMatchObject({ type: 'text', text: 'Let me look.' })
    const uses = first.content.filter(b => b.type === 'tool_use')
    expect(uses).toHaveLength(2)
    expect(new Set(uses.map(u => u.id)).size).toBe(2)

    // a wrong tool_use_id is rejected like the API does, and does not consume the script
    const bad = await expectApiError(
      client.messages.create({
        model: MODEL,
        max_tokens: 512,
        tools,
        messages: [
          ...messages,
          { role: 'assistant', content: first.content },
          {
            role: 'user',
            content: uses.map(u => ({
              type: 'tool_result' as const,
              tool_use_id: `${u.id}_wrong`,
              content: 'x'
            }))
          }
        ]
      })
    )
    expect(bad).toBeInstanceOf(Anthropic.BadRequestError)
    expect(bad.status).toBe(400)
    expect(bad.type).toBe('invalid_request_error')
    expect(bad.apiMessage).toContain('tool_use_id')

    messages.push({ role: 'assistant', content: first.content })
    messages.push({
      role: 'user',
      content: uses.map(u => ({ type: 'tool_result' as const, tool_use_id: u.id, content: 'ok' }))
    })
    const second = await client.messages.create({ model: MODEL, max_tokens: 512, tools, messages })
    expect(second.stop_reason).toBe('end_turn')
    expect(second.content).toMatchObject([{ type: 'text', text: 'Looks fine.' }])
    expect(second.usage.output_tokens).toBe(7)
    expect(server.calls.map(c => c.status)).toEqual([200, 400, 200])
    expect(server.calls[2]!.messages).toHaveLength(3)
  })

  it('rejects invalid requests with 400 invalid_request_error', async () => {
    const { server, client } = await start({})
    const cases: Array<[Anthropic.MessageCreateParamsNonStreaming, string]> = [
      [
        { model: MODEL, max_tokens: 10, messages: [{ role: 'assistant', content: 'hi' }] },
        'first message must use the "user" role'
      ],
      [
        {
          model: MODEL,
          max_tokens: 10,
          messages: [
            { role: 'user', content: 'a' },
            { role: 'user', content: 'b' }
          ]
        },
        'roles must alternate'
      ],
      [
        {
          model: MODEL,
          max_tokens: 10,
          tools: [readTool],
          tool_choice: { type: 'tool', name: 'nope' },
          messages: [{ role: 'user', content: 'a' }]
        },
        "Tool 'nope' not found"
      ],
      [
        {
          model: MODEL,
          max_tokens: 10,
          system: [1, 2, 3, 4, 5].map(i => ({
            type: 'text' as const,
            text: `s${i}`,
            cache_control: { type: 'ephemeral' as const }
          })),
          messages: [{ role: 'user', content: 'a' }]
        },
        'A maximum of 4 blocks with cache_control'
      ],
      [
        { model: MODEL, messages: [{ role: 'user', content: 'a' }] } as never,
        'max_tokens: Field required'
      ]
    ]
    for (const [params, message] of cases) {
      const err = await expectApiError(client.messages.create(params))
      expect(err).toBeInstanceOf(Anthropic.BadRequestError)
      expect(err.apiMessage).toContain(message)
    }
    expect(server.calls.every(c => c.status === 400)).toBe(true)
  })

  it('answers a script bug and an exhausted script with a non-retried 500', async () => {
    const { server, client } = await start({
      script: [{ kind: 'tool_use', name: 'not_offered', input: {} }]
    })
    const params = {
      model: MODEL,
      max_tokens: 10,
      tools: [readTool],
      messages: [{ role: 'user' as const, content: 'a' }]
    }
    const bug = await expectApiError(client.messages.create(params))
    expect(bug).toBeInstanceOf(Anthropic.InternalServerError)
    expect(bug.apiMessage).toContain(
      "scripted tool_use 'not_offered' is not among the request's tools"
    )
    const exhausted = await expectApiError(client.messages.create(params))
    expect(exhausted.status).toBe(500)
    expect(exhausted.apiMessage).toContain('script exhausted')
    expect(server.calls).toHaveLength(2)
  })

  it('retries a 429 with retry-after 0 and succeeds', async () => {
    const { server, client } = await start({
      script: [
        {
          kind: 'error',
          status: 429,
          type: 'rate_limit_error',
          message: 'Number of requests has exceeded your rate limit',
          retryAfter: 0
        },
        { kind: 'text', text: 'hello' }
      ]
    })
    const msg = await client.messages.create({
      model: MODEL,
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }]
    })
    expect(msg.content).toMatchObject([{ type: 'text', text: 'hello' }])
    expect(server.calls.map(c => c.status)).toEqual([429, 200])
    expect(server.calls[1]!.headers['x-stainless-retry-count']).toBe('1')
  })

  it('surfaces a bad API key as AuthenticationError without retrying', async () => {
    const server = await ModelServer.start({ apiKey: KEY, script: [{ kind: 'text', text: 'x' }] })
    servers.push(server)
    const client = new Anthropic({ apiKey: 'sk-wrong', baseURL: server.url })
    const err = await expectApiError(
      client.messages.create({
        model: MODEL,
        max_tokens: 10,
        messages: [{ role: 'user', content: 'hi' }]
      })
    )
    expect(err).toBeInstanceOf(Anthropic.AuthenticationError)
    expect(err.status).toBe(401)
    expect(err.apiMessage).toBe('invalid x-api-key')
    expect(server.calls).toHaveLength(1)
    expect(server.calls[0]!.headers['authorization']).toBe('Bearer sk-wrong')
  })

  it('answers an unknown model with NotFoundError', async () => {
    const { server, client } = await start({
      validModels: [MODEL],
      script: [{ kind: 'text', text: 'x' }]
    })
    const err = await expectApiError(
      client.messages.create({
        model: 'claude-nonexistent',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'hi' }]
      })
    )
    expect(err).toBeInstanceOf(Anthropic.NotFoundError)
    expect(err.type).toBe('not_found_error')
    expect(err.apiMessage).toBe('model: claude-nonexistent')
    expect(server.calls).toHaveLength(1)
  })

  it('emulates prompt caching: first call writes, second reads the same prefix', async () => {
    const { server, client } = await start({
      script: [
        { kind: 'text', text: 'one' },
        { kind: 'text', text: 'two' },
        { kind: 'text', text: 'three' }
      ]
    })
    const longSystem = 'You are a meticulous code reviewer. '.repeat(200) // ~1800 tokens
    const system: Anthropic.TextBlockParam[] = [
      { type: 'text', text: longSystem, cache_control: { type: 'ephemeral' } }
    ]
    const ask = (question: string) =>
      client.messages.create({
        model: MODEL,
        max_tokens: 100,
        system,
        messages: [{ role: 'user', content: question }]
      })

    const first = await ask('Review file a.ts')
    const systemTokens = estimateTokens(longSystem)
    expect(systemTokens).toBeGreaterThanOrEqual(1024)
    expect(first.usage.cache_creation_input_tokens).toBe(systemTokens)
    expect(first.usage.cache_read_input_tokens).toBe(0)
    expect(first.usage.input_tokens).toBe(estimateTokens('Review file a.ts'))

    const second = await ask('Review file b.ts')
    expect(second.usage.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens)
    expect(second.usage.cache_creation_input_tokens).toBe(0)
    expect(second.usage.input_tokens).toBe(estimateTokens('Review file b.ts'))
    expect(server.calls[1]!.usage?.cache_read_input_tokens).toBe(systemTokens)

    // a different model does not share the cache
    const other = await client.messages.create({
      model: 'claude-test-2',
      max_tokens: 100,
      system,
      messages: [{ role: 'user', content: 'Review file c.ts' }]
    })
    expect(other.usage.cache_read_input_tokens).toBe(0)
    expect(other.usage.cache_creation_input_tokens).toBe(systemTokens)
  })

  it('reads the longest earlier prefix when the breakpoint moves forward, and skips short prefixes', async () => {
    const { client } = await start({
      minCacheTokens: 100,
      responder: () => ({ kind: 'text', text: 'ok' })
    })
    const big = 'x'.repeat(800) // 200 tokens
    const turn1: Anthropic.MessageParam[] = [
      { role: 'user', content: [{ type: 'text', text: big, cache_control: { type: 'ephemeral' } }] }
    ]
    const a = await client.messages.create({ model: MODEL, max_tokens: 10, messages: turn1 })
    expect(a.usage).toMatchObject({ cache_creation_input_tokens: 200, cache_read_input_tokens: 0 })

    const turn2: Anthropic.MessageParam[] = [
      { role: 'user', content: [{ type: 'text', text: big }] },
      { role: 'assistant', content: 'y'.repeat(400) },
      {
        role: 'user',
        content: [{ type: 'text', text: 'z'.repeat(40), cache_control: { type: 'ephemeral' } }]
      }
    ]
    const b = await client.messages.create({ model: MODEL, max_tokens: 10, messages: turn2 })
    expect(b.usage).toMatchObject({
      cache_read_input_tokens: 200,
      cache_creation_input_tokens: 110,
      input_tokens: 0
    })

    const short = await client.messages.create({
      model: MODEL,
      max_tokens: 10,
      system: [{ type: 'text', text: 'short', cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: 'hi' }]
    })
    expect(short.usage).toMatchObject({
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0
    })
  })

  it('handles overload retries, push, betas, streaming, unknown paths and max_tokens', async () => {
    const overloaded = {
      kind: 'error' as const,
      status: 529,
      type: 'overloaded_error',
      message: 'Overloaded',
      retryAfter: 0
    }
    const { server, client } = await start({ script: [overloaded, overloaded] })
    const params = {
      model: MODEL,
      max_tokens: 10,
      messages: [{ role: 'user' as const, content: 'hi' }]
    }
    const err = await expectApiError(client.messages.create(params, { maxRetries: 1 }))
    expect(err).toBeInstanceOf(Anthropic.OverloadedError)
    expect(server.calls.map(c => c.status)).toEqual([529, 529])

    server.push({ kind: 'text', text: 'a'.repeat(400) })
    const truncated = await client.beta.messages.create({ ...params, betas: ['test-beta-2099'] })
    expect(truncated.stop_reason).toBe('max_tokens')
    expect(truncated.usage.output_tokens).toBe(10)
    expect(truncated.content).toMatchObject([{ type: 'text', text: 'a'.repeat(40) }])
    expect(server.calls[2]!.headers['anthropic-beta']).toBe('test-beta-2099')

    server.push({ kind: 'text', text: 'unused' })
    const streaming = await expectApiError(client.messages.create({ ...params, stream: true }))
    expect(streaming.status).toBe(400)
    expect(streaming.apiMessage).toBe('streaming not supported by the test server')

    const res = await fetch(`${server.url}/v1/models`)
    expect(res.status).toBe(404)
    expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } })

    // the pushed reply was not consumed by the rejected calls
    const last = await client.messages.create(params)
    expect(last.content).toMatchObject([{ type: 'text', text: 'unused' }])
  })
})
