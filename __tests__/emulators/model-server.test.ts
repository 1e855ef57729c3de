import Anthropic, { APIError } from '@anthropic-ai/sdk'
import { afterEach, describe, expect, it } from 'vitest'
import { ModelServer, estimateTokens } from '../../test-support/model-server.js'
import type { ModelServerOptions, ScriptedReply } from '../../test-support/model-server.js'
import { modelFamily, rulesFor, structuredOutputsOn } from '../../test-support/model-rules.js'
import { verdictSchema, wireSchema } from '../../src/review/verdict-schema.js'

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

describe('model rules table', () => {
  it('normalises Bedrock, Vertex and dated ids to the family', () => {
    expect(modelFamily('anthropic.claude-sonnet-5-5')).toBe('claude-sonnet-5-5')
    expect(modelFamily('us.anthropic.claude-sonnet-4-6-v1:0')).toBe('claude-sonnet-4-6')
    expect(modelFamily('global.anthropic.claude-haiku-4-5-20251001-v1:0')).toBe('claude-haiku-4-5')
    expect(modelFamily('us-gov.anthropic.claude-opus-5-5-v1:0')).toBe('claude-opus-5-5')
    expect(modelFamily('claude-sonnet-4-5@20250929')).toBe('claude-sonnet-4-5')
    expect(modelFamily('claude-haiku-4-5-20251001')).toBe('claude-haiku-4-5')
    expect(rulesFor('eu.anthropic.claude-fable-5-1-v1:0')?.family).toBe('claude-fable-5-1')
    expect(rulesFor('claude-test-1')).toBeUndefined()
    expect(rulesFor('claude-fable-5-2')).toBeUndefined()
  })

  it('says which models accept forced tool use, thinking modes and structured outputs where', () => {
    const forced = (m: string) => rulesFor(m)?.forcedToolChoice
    for (const m of [
      'claude-sonnet-5-5',
      'claude-opus-5-5',
      'claude-fable-5-1',
      'claude-mythos-5-1'
    ]) {
      expect(forced(m), m).toBe(false)
    }
    for (const m of [
      'claude-haiku-5-5',
      'claude-sonnet-5',
      'claude-opus-5',
      'claude-fable-5',
      'claude-opus-4-8',
      'claude-opus-4-7',
      'claude-opus-4-6',
      'claude-opus-4-5',
      'claude-sonnet-4-6',
      'claude-sonnet-4-5',
      'claude-haiku-4-5'
    ]) {
      expect(forced(m), m).toBe(true)
    }
    expect(rulesFor('claude-haiku-4-5')).toMatchObject({
      emitsThinking: false,
      manualThinking: true,
      maxOutputTokens: 64_000,
      prefill: true
    })
    expect(rulesFor('claude-sonnet-5-5')).toMatchObject({
      emitsThinking: true,
      thinkingDisabled: false,
      manualThinking: false,
      sampling: 'default-only',
      prefill: false,
      maxOutputTokens: 128_000
    })
    expect(rulesFor('claude-haiku-5-5')?.sampling).toBe('haiku-5-5')
    expect(structuredOutputsOn('anthropic', 'claude-sonnet-5-5')).toBe(true)
    expect(structuredOutputsOn('vertex', 'claude-sonnet-5-5')).toBe(true)
    expect(structuredOutputsOn('bedrock', 'us.anthropic.claude-sonnet-5-5')).toBe(false)
    expect(structuredOutputsOn('bedrock', 'us.anthropic.claude-sonnet-4-6-v1:0')).toBe(true)
    expect(structuredOutputsOn('bedrock', 'claude-test-1')).toBeUndefined()
  })
})

/**
 * The SDK's 1.12 request type no longer lists the sampling parameters, which the 5.x models reject;
 * the SDK still sends whatever the params object holds.
 */
type Params = Partial<Anthropic.MessageCreateParamsNonStreaming> & {
  temperature?: number
  top_p?: number
  top_k?: number
}

describe('ModelServer per-model rules', () => {
  const FORCED = 'tool_choice: type "tool" and "any" are not supported for this model.'
  const ask = (model: string, extra: Params = {}) =>
    ({
      model,
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'Review this diff' }],
      ...extra
    }) as Anthropic.MessageCreateParamsNonStreaming

  it('rejects forced tool_choice on Sonnet 5.5, Opus 5.5 and Fable 5.1 without using the script', async () => {
    const { server, client } = await start({
      script: [{ kind: 'tool_use', name: 'submit_verdict', input: { verdict: 'GO' } }]
    })
    for (const model of ['claude-sonnet-5-5', 'claude-opus-5-5', 'claude-fable-5-1']) {
      for (const tool_choice of [
        { type: 'any' as const },
        { type: 'tool' as const, name: 'submit_verdict' }
      ]) {
        const err = await expectApiError(
          client.messages.create(ask(model, { tools: [verdictTool], tool_choice }))
        )
        expect(err).toBeInstanceOf(Anthropic.BadRequestError)
        expect(err.type).toBe('invalid_request_error')
        expect(err.apiMessage).toBe(FORCED)
      }
    }
    // auto is fine, and the scripted reply was not consumed by the rejected calls
    const ok = await client.messages.create(
      ask('claude-sonnet-5-5', { tools: [verdictTool], tool_choice: { type: 'auto' } })
    )
    expect(ok.stop_reason).toBe('tool_use')
    expect(server.calls.map(c => c.status)).toEqual([400, 400, 400, 400, 400, 400, 200])
  })

  it('accepts forced tool_choice on Haiku 4.5, Sonnet 4.6 and Haiku 5.5 (answered without thinking)', async () => {
    const { client } = await start({
      responder: () => ({ kind: 'tool_use', name: 'submit_verdict', input: { verdict: 'GO' } })
    })
    for (const model of ['claude-haiku-4-5', 'claude-sonnet-4-6', 'claude-haiku-5-5']) {
      const msg = await client.messages.create(
        ask(model, { tools: [verdictTool], tool_choice: { type: 'tool', name: 'submit_verdict' } })
      )
      expect(
        msg.content.map(b => b.type),
        model
      ).toEqual(['tool_use'])
    }
  })

  it('checks the thinking modes each model accepts', async () => {
    const { client } = await start({ responder: () => ({ kind: 'text', text: 'ok' }) })
    const alwaysOn =
      '"thinking.type.disabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.'
    const noManual =
      '"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.'
    const disabled = { thinking: { type: 'disabled' as const } }
    const enabled = {
      thinking: { type: 'enabled' as const, budget_tokens: 2048 },
      max_tokens: 4096
    }

    for (const model of ['claude-opus-5-5', 'claude-fable-5-1']) {
      const err = await expectApiError(client.messages.create(ask(model, disabled)))
      expect(err.apiMessage, model).toBe(alwaysOn)
    }
    const sonnet = await expectApiError(client.messages.create(ask('claude-sonnet-5-5', disabled)))
    expect(sonnet.status).toBe(400)
    expect(sonnet.apiMessage).toContain('"thinking.type.disabled" is not supported for this model')
    expect(sonnet.apiMessage).toContain('between_tools')
    for (const model of [
      'claude-sonnet-5-5',
      'claude-opus-5-5',
      'claude-sonnet-5',
      'claude-opus-4-7'
    ]) {
      const err = await expectApiError(client.messages.create(ask(model, enabled)))
      expect(err.apiMessage, model).toBe(noManual)
    }
    // disabled is accepted on Sonnet 5 and Haiku 5.5 (not at xhigh on Haiku 5.5): no thinking block
    for (const model of ['claude-sonnet-5', 'claude-haiku-5-5']) {
      const msg = await client.messages.create(ask(model, disabled))
      expect(
        msg.content.map(b => b.type),
        model
      ).toEqual(['text'])
    }
    const xhigh = await expectApiError(
      client.messages.create(
        ask('claude-haiku-5-5', { ...disabled, output_config: { effort: 'xhigh' } })
      )
    )
    expect(xhigh.apiMessage).toContain('effort "xhigh"')
    // the 5.x models think by default; display "omitted" leaves the text empty
    const thinking = await client.messages.create(ask('claude-sonnet-5-5'))
    expect(thinking.content.map(b => b.type)).toEqual(['thinking', 'text'])
    expect(thinking.content[0]).toMatchObject({ type: 'thinking', thinking: '' })
    // Haiku 4.5: manual thinking only, off by default, not with a forced tool
    const plain = await client.messages.create(ask('claude-haiku-4-5'))
    expect(plain.content.map(b => b.type)).toEqual(['text'])
    const manual = await client.messages.create(ask('claude-haiku-4-5', enabled))
    expect(manual.content.map(b => b.type)).toEqual(['thinking', 'text'])
    expect(manual.content[0]).toMatchObject({ thinking: 'Considering the request.' })
    const adaptive = await expectApiError(
      client.messages.create(ask('claude-haiku-4-5', { thinking: { type: 'adaptive' } }))
    )
    expect(adaptive.apiMessage).toBe('adaptive thinking is not supported on this model')
    const forcedThinking = await expectApiError(
      client.messages.create(
        ask('claude-haiku-4-5', {
          ...enabled,
          tools: [verdictTool],
          tool_choice: { type: 'any' }
        })
      )
    )
    expect(forcedThinking.apiMessage).toBe(
      'Thinking may not be enabled when tool_choice forces tool use.'
    )
  })

  it('checks sampling parameters per model', async () => {
    const { client } = await start({ responder: () => ({ kind: 'text', text: 'ok' }) })
    const rejected: Array<[string, Params, string]> = [
      ['claude-sonnet-5-5', { temperature: 0 }, '`temperature` is deprecated for this model'],
      ['claude-opus-4-7', { top_p: 0.9 }, '`top_p` is deprecated for this model'],
      ['claude-opus-5-5', { top_k: 40 }, '`top_k` is not supported for this model'],
      ['claude-haiku-5-5', { top_p: 1 }, '`top_p` must be 0.99'],
      ['claude-haiku-5-5', { temperature: 0.5 }, '`temperature` must be 1'],
      ['claude-haiku-5-5', { temperature: 1, top_p: 0.99 }, 'cannot both be specified'],
      ['claude-haiku-4-5', { temperature: 0.2, top_p: 0.9 }, 'cannot both be specified']
    ]
    for (const [model, extra, message] of rejected) {
      const err = await expectApiError(client.messages.create(ask(model, extra)))
      expect(err.status, model).toBe(400)
      expect(err.apiMessage, model).toContain(message)
    }
    const accepted: Array<[string, Params]> = [
      ['claude-sonnet-5-5', { temperature: 1 }],
      ['claude-opus-5-5', { top_p: 0.99 }],
      ['claude-haiku-5-5', { top_p: 0.99 }],
      ['claude-haiku-4-5', { temperature: 0 }],
      ['claude-sonnet-4-6', { temperature: 0, top_k: 5 }],
      ['claude-test-1', { temperature: 0, top_p: 0.5, top_k: 5 }]
    ]
    for (const [model, extra] of accepted) {
      const msg = await client.messages.create(ask(model, extra))
      expect(msg.stop_reason, model).toBe('end_turn')
    }
  })

  it('rejects max_tokens above the model maximum and a prefill where it is not accepted', async () => {
    const { client } = await start({ responder: () => ({ kind: 'text', text: 'ok' }) })
    // the SDK refuses a large non-streaming max_tokens unless the request sets its own timeout
    const long = { timeout: 60_000 }
    const over = await expectApiError(
      client.messages.create(ask('claude-sonnet-5-5', { max_tokens: 200_000 }), long)
    )
    expect(over.apiMessage).toBe(
      'max_tokens: 200000 > 128000, which is the maximum allowed number of output tokens for claude-sonnet-5-5'
    )
    const haiku = await expectApiError(
      client.messages.create(ask('claude-haiku-4-5-20251001', { max_tokens: 64_001 }), long)
    )
    expect(haiku.apiMessage).toBe(
      'max_tokens: 64001 > 64000, which is the maximum allowed number of output tokens for claude-haiku-4-5-20251001'
    )
    expect(
      (await client.messages.create(ask('claude-haiku-4-5', { max_tokens: 64_000 }), long))
        .stop_reason
    ).toBe('end_turn')

    const prefilled: Anthropic.MessageParam[] = [
      { role: 'user', content: 'Answer in JSON' },
      { role: 'assistant', content: '{' }
    ]
    for (const model of ['claude-sonnet-5-5', 'claude-sonnet-4-6', 'claude-opus-4-6']) {
      const err = await expectApiError(client.messages.create(ask(model, { messages: prefilled })))
      expect(err.apiMessage, model).toBe(
        'This model does not support assistant message prefill. The conversation must end with a user message.'
      )
    }
    const ok = await client.messages.create(ask('claude-haiku-4-5', { messages: prefilled }))
    expect(ok.content).toMatchObject([{ type: 'text', text: 'ok' }])
  })

  const verdictSchema = {
    type: 'object',
    properties: {
      verdict: { type: 'string', enum: ['GO', 'NO_GO'] },
      summary: { type: 'string' }
    },
    required: ['verdict', 'summary'],
    additionalProperties: false
  }
  const structured = (schema: Record<string, unknown> = verdictSchema) => ({
    output_config: { format: { type: 'json_schema' as const, schema } }
  })

  it('answers structured outputs as a text block after the thinking block', async () => {
    const { server, client } = await start({
      script: [{ kind: 'json', value: { verdict: 'GO', summary: 'fine' }, thinkingTokens: 30 }]
    })
    const msg = await client.messages.create(ask('claude-sonnet-5-5', structured()))
    expect(msg.stop_reason).toBe('end_turn')
    expect(msg.content.map(b => b.type)).toEqual(['thinking', 'text'])
    const text = msg.content.find(b => b.type === 'text')
    expect(JSON.parse(text?.type === 'text' ? text.text : '')).toEqual({
      verdict: 'GO',
      summary: 'fine'
    })
    expect(msg.usage.output_tokens).toBe(
      30 + estimateTokens(JSON.stringify({ verdict: 'GO', summary: 'fine' }))
    )
    expect(server.calls[0]!.outputConfig).toEqual(structured().output_config)
    expect(server.calls[0]!.thinking).toBeUndefined()
  })

  it('rejects schemas outside the supported subset, naming the keyword and where', async () => {
    const { server, client } = await start({ responder: () => ({ kind: 'text', text: '{}' }) })
    const withMaxLength = {
      ...verdictSchema,
      properties: { ...verdictSchema.properties, summary: { type: 'string', maxLength: 200 } }
    }
    const err = await expectApiError(
      client.messages.create(ask('claude-test-1', structured(withMaxLength)))
    )
    expect(err.status).toBe(400)
    expect(err.apiMessage).toBe(
      "output_config.format.schema: property 'maxLength' is not supported (at #/properties/summary)"
    )
    const cases: Array<[Record<string, unknown>, string]> = [
      [
        { type: 'object', properties: {} },
        "objects must set 'additionalProperties' to false (at #)"
      ],
      [
        { ...verdictSchema, properties: { n: { type: 'integer', minimum: 0 } } },
        "'minimum' is not supported (at #/properties/n)"
      ],
      [
        {
          ...verdictSchema,
          properties: { list: { type: 'array', items: { type: 'string' }, minItems: 2 } }
        },
        "'minItems' is supported only with the values 0 and 1"
      ],
      [
        { ...verdictSchema, properties: { a: { type: 'array', maxItems: 3, items: {} } } },
        "'maxItems' is not supported (at #/properties/a)"
      ],
      [
        { ...verdictSchema, properties: { r: { $ref: 'https://example.com/s.json' } } },
        "external '$ref' is not supported"
      ]
    ]
    for (const [schema, message] of cases) {
      const bad = await expectApiError(
        client.messages.create(ask('claude-sonnet-5-5', structured(schema)))
      )
      expect(bad.apiMessage).toContain('output_config.format.schema: ')
      expect(bad.apiMessage).toContain(message)
    }
    // strict tools share the limits
    const strictTool: Anthropic.Tool = {
      ...verdictTool,
      strict: true,
      input_schema: {
        type: 'object',
        properties: { n: { type: 'number', maximum: 3 } },
        additionalProperties: false
      }
    }
    const strictErr = await expectApiError(
      client.messages.create(ask('claude-sonnet-5-5', { tools: [strictTool] }))
    )
    expect(strictErr.apiMessage).toBe(
      "tools.0.custom.input_schema: property 'maximum' is not supported (at #/properties/n)"
    )
    expect(server.calls.every(c => c.status === 400)).toBe(true)
  })

  it('treats a scripted answer that breaks the schema as a script bug, and truncates at max_tokens', async () => {
    const { client, server } = await start({
      script: [
        { kind: 'json', value: { verdict: 'MAYBE', summary: 'x' } },
        { kind: 'text', text: 'not json' },
        { kind: 'json', value: { verdict: 'GO', summary: 'a'.repeat(400) } },
        { kind: 'json', value: { verdict: 'GO' } }
      ]
    })
    const bug = await expectApiError(client.messages.create(ask('claude-sonnet-5-5', structured())))
    expect(bug).toBeInstanceOf(Anthropic.InternalServerError)
    expect(bug.apiMessage).toContain(
      'test server script bug: the scripted json reply does not match'
    )
    const notJson = await expectApiError(
      client.messages.create(ask('claude-sonnet-5-5', structured()))
    )
    expect(notJson.apiMessage).toContain('is not JSON')

    const truncated = await client.messages.create(
      ask('claude-sonnet-5-5', { ...structured(), max_tokens: 20 })
    )
    expect(truncated.stop_reason).toBe('max_tokens')
    const text = truncated.content.find(b => b.type === 'text')
    expect(text?.type === 'text' && text.text).toBe(
      JSON.stringify({ verdict: 'GO', summary: 'a'.repeat(400) }).slice(0, 80)
    )
    expect(truncated.usage.output_tokens).toBe(20)

    const noFormat = await expectApiError(client.messages.create(ask('claude-sonnet-5-5')))
    expect(noFormat.apiMessage).toContain("a 'json' reply needs output_config.format")
    expect(server.calls.map(c => c.status)).toEqual([500, 500, 200, 500])
  })

  it('checks a strict tool call against its input_schema', async () => {
    const strictTool: Anthropic.Tool = {
      ...verdictTool,
      strict: true,
      input_schema: {
        type: 'object',
        properties: { verdict: { type: 'string', enum: ['GO', 'NO_GO'] } },
        required: ['verdict'],
        additionalProperties: false
      }
    }
    const { client } = await start({
      script: [
        { kind: 'tool_use', name: 'submit_verdict', input: { verdict: 'YES' } },
        { kind: 'tool_use', name: 'submit_verdict', input: { verdict: 'GO' } }
      ]
    })
    const bug = await expectApiError(
      client.messages.create(ask('claude-sonnet-5-5', { tools: [strictTool] }))
    )
    expect(bug.apiMessage).toContain("does not match the strict tool's input_schema")
    const ok = await client.messages.create(ask('claude-sonnet-5-5', { tools: [strictTool] }))
    expect(ok.content.map(b => b.type)).toEqual(['thinking', 'tool_use'])
  })

  it('refuses structured outputs and strict tools on Bedrock for the 5.x models', async () => {
    const { server } = await start({
      responder: () => ({ kind: 'text', text: '{"verdict":"GO","summary":"x"}' })
    })
    const invoke = (model: string, body: Record<string, unknown>) =>
      fetch(`${server.url}/model/${encodeURIComponent(model)}/invoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer bedrock-api-key' },
        body: JSON.stringify({
          anthropic_version: 'bedrock-2023-05-31',
          max_tokens: 100,
          messages: [{ role: 'user', content: 'hi' }],
          ...body
        })
      })
    const refused = await invoke('us.anthropic.claude-sonnet-5-5', structured())
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({
      error: {
        type: 'invalid_request_error',
        message:
          'output_config.format: structured outputs are not supported for us.anthropic.claude-sonnet-5-5 on Amazon Bedrock. Use a tool instead.'
      }
    })
    const strict = await invoke('us.anthropic.claude-opus-5-5-v1:0', {
      tools: [
        {
          ...verdictTool,
          strict: true,
          input_schema: { ...verdictTool.input_schema, additionalProperties: false }
        }
      ]
    })
    expect(strict.status).toBe(400)
    expect(((await strict.json()) as { error: { message: string } }).error.message).toContain(
      'tools.0.strict: strict tool use is not supported'
    )
    const forced = await invoke('global.anthropic.claude-fable-5-1-v1:0', {
      tools: [verdictTool],
      tool_choice: { type: 'any' }
    })
    expect(forced.status).toBe(400)
    expect(((await forced.json()) as { error: { message: string } }).error.message).toBe(FORCED)
    const ok = await invoke('us.anthropic.claude-sonnet-4-6-v1:0', structured())
    expect(ok.status).toBe(200)
  })

  it('answers with thinking tokens counted toward max_tokens', async () => {
    const { client } = await start({
      script: [
        { kind: 'text', text: 'never shown', thinkingTokens: 100 },
        { kind: 'text', text: 'b'.repeat(200), thinkingTokens: 60 }
      ]
    })
    const onlyThinking = await client.messages.create(ask('claude-haiku-5-5', { max_tokens: 100 }))
    expect(onlyThinking.stop_reason).toBe('max_tokens')
    expect(onlyThinking.content.map(b => b.type)).toEqual(['thinking'])
    expect(onlyThinking.usage.output_tokens).toBe(100)
    const cut = await client.messages.create(ask('claude-haiku-5-5', { max_tokens: 100 }))
    expect(cut.stop_reason).toBe('max_tokens')
    expect(cut.content).toMatchObject([
      { type: 'thinking' },
      { type: 'text', text: 'b'.repeat(160) }
    ])
    expect(cut.usage.output_tokens).toBe(100)
  })

  it('answers a refusal with stop_reason refusal and HTTP 200', async () => {
    const { server, client } = await start({
      script: [{ kind: 'refusal', text: 'I cannot help with that.', category: 'cyber' }]
    })
    const msg = await client.messages.create(ask('claude-sonnet-5-5', structured()))
    expect(msg.stop_reason).toBe('refusal')
    expect(msg.stop_details).toEqual({ type: 'refusal', category: 'cyber', explanation: null })
    expect(msg.content).toMatchObject([
      { type: 'thinking' },
      { type: 'text', text: 'I cannot help with that.' }
    ])
    expect(server.calls[0]!.status).toBe(200)
  })
})

describe('ModelServer thinking blocks in tool loops', () => {
  const system = 'You review pull requests.'
  const tools = [readTool]
  const firstUser: Anthropic.MessageParam = { role: 'user', content: 'Review a.ts' }

  /** turn 1 of a tool loop: the model reads a file; returns the history to send back */
  async function firstTurn(model = 'claude-sonnet-5-5') {
    const { server, client } = await start({
      responder: (call): ScriptedReply =>
        call.messages.length === 1
          ? { kind: 'tool_use', name: 'read_file', input: { path: 'a.ts' } }
          : { kind: 'text', text: 'Looks fine.' }
    })
    const first = await client.messages.create({
      model,
      max_tokens: 1024,
      system,
      tools,
      messages: [firstUser]
    })
    expect(first.content.map(b => b.type)).toEqual(['thinking', 'tool_use'])
    const use = first.content.find(b => b.type === 'tool_use')!
    const result: Anthropic.MessageParam = {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: use.type === 'tool_use' ? use.id : '', content: 'ok' }
      ]
    }
    const send = (
      messages: Anthropic.MessageParam[],
      extra: Partial<Anthropic.MessageCreateParamsNonStreaming> = {}
    ) => client.messages.create({ model, max_tokens: 1024, system, tools, messages, ...extra })
    return { server, client, first, result, send }
  }

  it('continues when the thinking blocks are passed back as received', async () => {
    const { first, result, send } = await firstTurn()
    const second = await send([firstUser, { role: 'assistant', content: first.content }, result])
    expect(second.content.map(b => b.type)).toEqual(['thinking', 'text'])
    const signature = (m: Anthropic.Message) =>
      m.content[0]?.type === 'thinking' ? m.content[0].signature : ''
    expect(signature(second)).not.toBe(signature(first))
  })

  it('rejects a tool loop that drops, edits or reorders the thinking block', async () => {
    const { server, first, result, send } = await firstTurn()
    const thinking = first.content[0]!
    const toolUse = first.content[1]!
    const variants: Anthropic.ContentBlockParam[][] = [
      [toolUse],
      [{ ...thinking, thinking: 'I edited this.' } as Anthropic.ThinkingBlockParam, toolUse],
      [toolUse, thinking]
    ]
    for (const content of variants) {
      const err = await expectApiError(send([firstUser, { role: 'assistant', content }, result]))
      expect(err.status).toBe(400)
      expect(err.apiMessage).toContain(
        'messages.1: thinking blocks must be passed back unchanged in tool loops'
      )
      expect(err.apiMessage).toContain(
        'the API rejects edited, reordered, or partially dropped thinking blocks'
      )
    }
    // an edited signature is not one the server issued
    const forged = { ...thinking, signature: `x${(thinking as Anthropic.ThinkingBlock).signature}` }
    const err = await expectApiError(
      send([
        firstUser,
        { role: 'assistant', content: [forged as Anthropic.ThinkingBlockParam, toolUse] },
        result
      ])
    )
    expect(err.apiMessage).toContain(
      'messages.1.content.0: Invalid `signature` in `thinking` block'
    )
    expect(err.apiMessage).toContain('The block is bound to a different conversation')
    expect(server.calls.map(c => c.status)).toEqual([200, 400, 400, 400, 400])
  })

  it('rejects replaying a block after an earlier message, the system prompt or the tools changed', async () => {
    const { first, result, send } = await firstTurn()
    const edited: Anthropic.MessageParam = { role: 'user', content: 'Review b.ts' }
    const history = (user: Anthropic.MessageParam) => [
      user,
      { role: 'assistant' as const, content: first.content },
      result
    ]
    const changes: Array<[Anthropic.MessageParam[], Params]> = [
      [history(edited), {}],
      [history(firstUser), { system: 'You are terse.' }],
      [history(firstUser), { tools: [readTool, verdictTool] }]
    ]
    for (const [messages, extra] of changes) {
      const err = await expectApiError(send(messages, extra))
      expect(err.status).toBe(400)
      expect(err.apiMessage).toContain(
        'messages.1.content.0: The block is bound to a different conversation'
      )
    }
    // cache_control does not change the prefix
    const cached = await send([
      {
        role: 'user',
        content: [{ type: 'text', text: 'Review a.ts', cache_control: { type: 'ephemeral' } }]
      },
      { role: 'assistant', content: first.content },
      result
    ])
    expect(cached.stop_reason).toBe('end_turn')
  })

  it("drops another model's thinking blocks instead of rejecting them, and Mythos 5.1 runs no prefix check", async () => {
    const { first, result, send } = await firstTurn('claude-haiku-5-5')
    // the Haiku 5.5 block replayed to Sonnet 5.5 in an edited conversation: dropped, not checked
    const other = await send(
      [
        { role: 'user', content: 'Review b.ts' },
        { role: 'assistant', content: first.content },
        result
      ],
      { model: 'claude-sonnet-5-5' }
    )
    expect(other.stop_reason).toBe('end_turn')

    const mythos = await firstTurn('claude-mythos-5-1')
    const edited = await mythos.send([
      { role: 'user', content: 'Review b.ts' },
      { role: 'assistant', content: mythos.first.content },
      mythos.result
    ])
    expect(edited.stop_reason).toBe('end_turn')
  })
})

describe('ModelServer reply templates and latency', () => {
  const ask = (client: Anthropic, content: string | Anthropic.TextBlockParam[]) =>
    client.messages.create({ model: MODEL, max_tokens: 100, messages: [{ role: 'user', content }] })
  const textOf = (msg: Anthropic.Message): string =>
    msg.content.map(b => (b.type === 'text' ? b.text : '')).join('')

  it('answers from the script first, then the first matching template, any number of times', async () => {
    const { server, client } = await start({
      script: [{ kind: 'text', text: 'scripted' }],
      templates: [
        {
          when: { contains: ['batch', 'src/core/eval.js'], notContains: 'skip-me' },
          reply: { kind: 'text', text: 'NO_GO' }
        },
        { reply: { kind: 'text', text: 'GO' } }
      ]
    })
    const eval2: Anthropic.TextBlockParam[] = [
      { type: 'text', text: 'Review batch 2 of 3.' },
      { type: 'text', text: 'diff --git a/src/core/eval.js b/src/core/eval.js' }
    ]
    const answers = [
      await ask(client, 'Review batch 1 of 3: src/core/eval.js'), // the script goes first
      await ask(client, 'Review batch 1 of 3: src/util.js'),
      await ask(client, eval2), // text blocks are joined: both strings found
      await ask(client, eval2),
      await ask(client, 'src/core/eval.js without the other word'),
      await ask(client, 'Review batch 3: src/core/eval.js skip-me')
    ]
    expect(answers.map(textOf)).toEqual(['scripted', 'GO', 'NO_GO', 'NO_GO', 'GO', 'GO'])
    expect(server.calls.map(c => c.status)).toEqual([200, 200, 200, 200, 200, 200])
    expect(server.calls.map(c => c.template)).toEqual([undefined, 1, 0, 0, 1, 1])
    // usage is accounted as for a scripted reply
    expect(server.calls[2]!.usage?.output_tokens).toBe(estimateTokens('NO_GO'))

    // the script still goes first when replies are pushed later
    server.push({ kind: 'text', text: 'pushed' })
    expect(textOf(await ask(client, 'src/util.js'))).toBe('pushed')
    expect(server.calls[6]!.template).toBeUndefined()
  })

  it('falls back to the responder when no template matches, and rejects a malformed template', async () => {
    const { server, client } = await start({
      templates: [{ when: { contains: 'eval.js' }, reply: { kind: 'text', text: 'NO_GO' } }],
      responder: () => ({ kind: 'text', text: 'responder' })
    })
    expect(textOf(await ask(client, 'a.js'))).toBe('responder')
    expect(textOf(await ask(client, 'eval.js'))).toBe('NO_GO')
    expect(server.calls.map(c => c.template)).toEqual([undefined, 0])

    const typo = { when: { contain: 'x' }, reply: { kind: 'text', text: 'x' } } as never
    await expect(ModelServer.start({ templates: [typo] })).rejects.toThrow(
      'templates[0].when: unknown key contain'
    )
    await expect(ModelServer.start({ latencyMs: -1 })).rejects.toThrow('latencyMs')
  })

  it('answers concurrent calls after latencyMs each, in parallel, and records maxInFlight', async () => {
    const { server, client } = await start({
      latencyMs: 300,
      templates: [{ reply: { kind: 'text', text: 'GO' } }]
    })
    expect(server.maxInFlight).toBe(0)
    const started = Date.now()
    const durations = await Promise.all(
      [1, 2, 3, 4].map(async i => {
        const t0 = Date.now()
        const msg = await ask(client, `Review batch ${i} of 4`)
        expect(textOf(msg)).toBe('GO')
        return Date.now() - t0
      })
    )
    const total = Date.now() - started
    expect(server.maxInFlight).toBe(4)
    for (const d of durations) expect(d).toBeGreaterThanOrEqual(280)
    expect(total).toBeLessThan(1000) // not 4 x 300 ms: the calls did not wait for each other
    expect(server.calls.map(c => c.status)).toEqual([200, 200, 200, 200])
  })

  it('answers invalid requests and a template with latencyMs 0 at once', async () => {
    const { server, client } = await start({
      latencyMs: 5000,
      templates: [{ when: { contains: 'fast' }, reply: { kind: 'text', text: 'GO' }, latencyMs: 0 }]
    })
    const t0 = Date.now()
    const invalid = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages: [] })
    })
    expect(invalid.status).toBe(400)
    expect(textOf(await ask(client, 'fast please'))).toBe('GO')
    expect(Date.now() - t0).toBeLessThan(2500)
    expect(server.maxInFlight).toBe(1)
  })

  it('lets calls in flight together all write the cache; a later call reads it', async () => {
    const { server, client } = await start({
      latencyMs: 100,
      templates: [{ reply: { kind: 'text', text: 'GO' } }]
    })
    const longSystem = 'You are a meticulous code reviewer. '.repeat(200) // ~1800 tokens
    const systemTokens = estimateTokens(longSystem)
    const review = (batch: string) =>
      client.messages.create({
        model: MODEL,
        max_tokens: 100,
        system: [{ type: 'text', text: longSystem, cache_control: { type: 'ephemeral' } }],
        messages: [{ role: 'user', content: batch }]
      })
    const together = await Promise.all([review('batch 1'), review('batch 2')])
    for (const msg of together) {
      expect(msg.usage).toMatchObject({
        cache_creation_input_tokens: systemTokens,
        cache_read_input_tokens: 0
      })
    }
    const later = await review('batch 3')
    expect(later.usage).toMatchObject({
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: systemTokens
    })
    expect(server.maxInFlight).toBe(2)
  })

  it('makes every call an error template matches fail with its status, retries included', async () => {
    const { server, client } = await start({
      latencyMs: 20,
      templates: [
        {
          when: { contains: 'src/core/eval.js' },
          reply: {
            kind: 'error',
            status: 529,
            type: 'overloaded_error',
            message: 'Overloaded',
            retryAfter: 0
          }
        },
        { reply: { kind: 'text', text: 'GO' } }
      ]
    })
    const err = await expectApiError(ask(client, 'diff of src/core/eval.js'))
    expect(err).toBeInstanceOf(Anthropic.OverloadedError)
    expect(err.status).toBe(529)
    expect(err.apiMessage).toBe('Overloaded')
    // the SDK retried (maxRetries 2): the template answered every attempt
    expect(server.calls.map(c => [c.status, c.template])).toEqual([
      [529, 0],
      [529, 0],
      [529, 0]
    ])
    expect(textOf(await ask(client, 'diff of src/util.js'))).toBe('GO')
    expect(server.calls[3]).toMatchObject({ status: 200, template: 1 })
    // errors leave the in-flight count: the calls came one after another
    expect(server.maxInFlight).toBe(1)
  })
})

describe('ModelServer verifier calls', () => {
  // the verifier asks with the review's own request shape (issue 28): the verdict schema as the
  // structured output, or the submit_review tool; its answer is a verdict
  const VERDICT_SCHEMA = wireSchema(verdictSchema) as Record<string, unknown>
  const submitReview: Anthropic.Tool = {
    name: 'submit_review',
    description: 'Submit the review verdict',
    input_schema: VERDICT_SCHEMA as Anthropic.Tool.InputSchema
  }
  type Verdict = {
    decision: string
    summary: string
    findings: Array<{ file?: string; line?: number }>
  }
  /** The verdict read back as the verifier's word: NO_GO confirmed, GO refuted, else uncertain. */
  const word = (v: unknown) => {
    const { decision, summary, findings } = v as Verdict
    const verdict = decision === 'NO_GO' ? 'confirmed' : decision === 'GO' ? 'refuted' : 'uncertain'
    return { verdict, reason: summary, cited: findings.map(f => ({ file: f.file, line: f.line })) }
  }
  const question = (title: string, header = '# Finding to verify') =>
    [
      header,
      'id: RL-1a2b3c4d',
      'file: src/greet.js',
      'line: 2',
      `title: ${title}`,
      'severity: high',
      'evidence:',
      '```',
      "  return 'Hello, ' + name",
      '```',
      '',
      'Calling greet() without a name yields "Hello, undefined".'
    ].join('\n')
  /** A verifier request as the action sends it: the review's diff message, then the question. */
  const verify = (
    client: Anthropic,
    text: string,
    shape: 'json' | 'tool',
    more: Anthropic.MessageParam[] = []
  ) =>
    client.messages.create({
      model: MODEL,
      max_tokens: 1024,
      tools: shape === 'tool' ? [readTool, submitReview] : [readTool],
      ...(shape === 'json'
        ? {
            output_config: { format: { type: 'json_schema' as const, schema: VERDICT_SCHEMA } }
          }
        : {}),
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'diff --git a/src/greet.js' },
            { type: 'text', text }
          ]
        },
        ...more
      ]
    })
  const review = (client: Anthropic, text = 'Review this diff') =>
    client.messages.create({
      model: MODEL,
      max_tokens: 1024,
      tools: [verdictTool],
      messages: [{ role: 'user', content: text }]
    })
  const raw = (msg: Anthropic.Message): unknown => {
    const block = msg.content.find(b => b.type === 'text')
    return JSON.parse(block?.type === 'text' ? block.text : '')
  }
  const jsonOf = (msg: Anthropic.Message) => word(raw(msg))
  const toolInput = (msg: Anthropic.Message): unknown => {
    const block = msg.content.find(b => b.type === 'tool_use')
    return block?.type === 'tool_use' ? [block.name, block.input] : undefined
  }

  it('confirms a finding by default, before the script, citing its file and line', async () => {
    const { server, client } = await start({
      script: [{ kind: 'tool_use', name: 'submit_verdict', input: { verdict: 'GO' } }]
    })
    const answer = raw(await verify(client, question('greet prints undefined'), 'json'))
    expect(word(answer)).toEqual({
      verdict: 'confirmed',
      reason: 'scripted verifier: the cited code shows the problem',
      cited: [{ file: 'src/greet.js', line: 2 }]
    })
    // the finding restated, quoting the question's evidence
    expect((answer as { findings: unknown[] }).findings).toEqual([
      {
        severity: 'high',
        category: 'logic',
        file: 'src/greet.js',
        line: 2,
        title: 'greet prints undefined',
        description: 'scripted verifier: the cited code shows the problem',
        evidence: "  return 'Hello, ' + name"
      }
    ])
    // the scripted review reply was left for the review call
    expect(toolInput(await review(client))).toEqual(['submit_verdict', { verdict: 'GO' }])
    expect(server.calls.map(c => [c.status, c.verifier])).toEqual([
      [200, true],
      [200, undefined]
    ])
  })

  it('answers with a submit_review call when the request offers that tool', async () => {
    const { client } = await start({})
    const [name, input] = toolInput(
      await verify(client, question('greet prints undefined'), 'tool')
    ) as [string, unknown]
    expect(name).toBe('submit_review')
    expect(word(input)).toEqual({
      verdict: 'confirmed',
      reason: 'scripted verifier: the cited code shows the problem',
      cited: [{ file: 'src/greet.js', line: 2 }]
    })
  })

  it('takes its FIFO replies, then the first rule whose text the question contains, then the fallback', async () => {
    const { server, client } = await start({
      verifier: {
        replies: [
          { kind: 'tool_use', name: 'read_file', input: { path: 'src/app.js' } },
          { verdict: 'uncertain', reason: 'no caller found', cited: [] }
        ],
        rules: [
          {
            when: '# Earlier finding to verify',
            answer: { verdict: 'confirmed', reason: 'still there' }
          },
          {
            when: ['Not a real problem'],
            answer: { verdict: 'refuted', reason: 'name is always set' }
          }
        ],
        fallback: { verdict: 'uncertain', reason: 'cannot tell' }
      }
    })
    // a verifier that reads a file first: its next turn (a tool result) is still a verifier call
    const first = await verify(client, question('A'), 'json')
    expect(toolInput(first)).toEqual(['read_file', { path: 'src/app.js' }])
    const use = first.content.find(b => b.type === 'tool_use')
    const turn: Anthropic.MessageParam[] = [
      { role: 'assistant', content: first.content },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: use?.type === 'tool_use' ? use.id : '', content: 'x' }
        ]
      }
    ]
    expect(jsonOf(await verify(client, question('A'), 'json', turn))).toEqual({
      verdict: 'uncertain',
      reason: 'no caller found',
      cited: []
    })
    expect(jsonOf(await verify(client, question('Not a real problem'), 'json'))).toMatchObject({
      verdict: 'refuted',
      reason: 'name is always set'
    })
    const earlier = question('Not a real problem', '# Earlier finding to verify')
    expect(jsonOf(await verify(client, earlier, 'json'))).toMatchObject({
      verdict: 'confirmed',
      reason: 'still there'
    })
    // only a confirmed verdict restates the finding: an uncertain one cites nothing
    expect(jsonOf(await verify(client, question('B'), 'json'))).toEqual({
      verdict: 'uncertain',
      reason: 'cannot tell',
      cited: []
    })
    expect(server.calls.every(c => c.verifier)).toBe(true)
  })

  it('asks a responder with the question it read', async () => {
    const { client } = await start({
      verifier: {
        responder: q => ({
          verdict: q.title?.startsWith('real') ? 'confirmed' : 'refuted',
          reason: `${q.id} ${q.file}:${q.line} ${q.severity} earlier=${q.earlier}`
        })
      }
    })
    expect(jsonOf(await verify(client, question('real bug'), 'json'))).toMatchObject({
      verdict: 'confirmed',
      reason: 'RL-1a2b3c4d src/greet.js:2 high earlier=false'
    })
    expect(jsonOf(await verify(client, question('noise'), 'json'))).toMatchObject({
      verdict: 'refuted'
    })
  })

  it('leaves a call that does not ask for a verification, and every call with verifier: false, to the script', async () => {
    const { server, client } = await start({
      script: [
        { kind: 'tool_use', name: 'submit_verdict', input: { verdict: 'NO_GO' } },
        {
          kind: 'json',
          value: {
            decision: 'GO',
            summary: 'scripted in the FIFO',
            findings: [],
            failedCriteria: [],
            passedCriteria: [],
            requiredRework: [],
            earlierFindings: []
          }
        }
      ],
      verifier: false
    })
    // a review whose diff happens to hold the header line is no verifier call
    expect(toolInput(await review(client, question('x')))).toEqual([
      'submit_verdict',
      { verdict: 'NO_GO' }
    ])
    expect(jsonOf(await verify(client, question('x'), 'json'))).toMatchObject({
      reason: 'scripted in the FIFO'
    })
    expect(server.calls.map(c => c.verifier)).toEqual([undefined, undefined])
    await expect(
      ModelServer.start({ verifier: { rules: [{ answer: { verdict: 'yes' } }] } } as never)
    ).rejects.toThrow(
      'ModelServer verifier.rules[0].answer: needs `verdict`: confirmed, refuted, uncertain'
    )
  })
})
