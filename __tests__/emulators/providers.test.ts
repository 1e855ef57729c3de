import { mkdtemp, rm } from 'node:fs/promises'
import Anthropic from '@anthropic-ai/sdk'
import { AnthropicBedrock } from '@anthropic-ai/bedrock-sdk'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ModelRequest } from '../../src/ports/index.js'
import { createModelClient } from '../../src/model/providers.js'
import {
  GOOGLE_TEST_ACCESS_TOKEN,
  ModelServer,
  type ScriptedReply
} from '../../test-support/model-server.js'

const REQUEST: ModelRequest = {
  model: 'us.anthropic.claude-sonnet-4-6-v1:0',
  maxTokens: 100,
  system: [{ type: 'text', text: 'You review code.' }],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Review this.' }] }],
  tools: [
    {
      name: 'submit_review',
      description: 'The verdict',
      input_schema: { type: 'object', properties: { decision: { type: 'string' } } }
    }
  ],
  toolChoice: { type: 'auto' }
}
const VERDICT: ScriptedReply = {
  kind: 'tool_use',
  name: 'submit_review',
  input: { decision: 'GO' }
}

let server: ModelServer
let dir: string

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'providers-'))
})

afterEach(async () => {
  vi.unstubAllEnvs()
  await server?.close()
  await rm(dir, { recursive: true, force: true })
})

describe('Bedrock through @anthropic-ai/bedrock-sdk against the local server', () => {
  beforeEach(() => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIDLOCALTEST')
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'local-test-secret')
    vi.stubEnv('AWS_SESSION_TOKEN', '')
    vi.stubEnv('AWS_BEARER_TOKEN_BEDROCK', '')
  })

  it('signs the request and puts the model in the path, the API version in the body', async () => {
    server = await ModelServer.start({
      script: [VERDICT],
      aws: {
        accessKeyId: 'AKIDLOCALTEST',
        secretAccessKey: 'local-test-secret',
        region: 'eu-central-1'
      }
    })
    const client = createModelClient(
      { name: 'bedrock', awsRegion: 'eu-central-1', baseUrl: server.url },
      10_000
    )
    const response = await client.create(REQUEST)
    expect(response.content).toEqual([
      { type: 'tool_use', id: 'toolu_1', name: 'submit_review', input: { decision: 'GO' } }
    ])
    expect(response.usage.costUsd).toBeGreaterThan(0)
    const call = server.calls[0]!
    expect(call).toMatchObject({
      provider: 'bedrock',
      path: '/model/us.anthropic.claude-sonnet-4-6-v1:0/invoke',
      model: 'us.anthropic.claude-sonnet-4-6-v1:0',
      status: 200
    })
    expect(call.body.model).toBeUndefined()
    expect(call.body.anthropic_version).toMatch(/^(bedrock-)?\d{4}-\d{2}-\d{2}$/)
    expect(call.headers['authorization']).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDLOCALTEST\/\d{8}\/eu-central-1\/bedrock\/aws4_request, SignedHeaders=.*, Signature=[0-9a-f]{64}$/
    )
    expect(call.headers['x-api-key']).toBeUndefined()
  })

  it('explains refused credentials in AWS terms', async () => {
    server = await ModelServer.start({ script: [VERDICT], aws: { accessKeyId: 'AKIDOTHER' } })
    const client = createModelClient(
      { name: 'bedrock', awsRegion: 'us-east-1', baseUrl: server.url },
      10_000
    )
    await expect(client.create(REQUEST)).rejects.toThrow(
      /Amazon Bedrock refused us\.anthropic\.claude-sonnet-4-6-v1:0 \(403\).*bedrock:InvokeModel/
    )
  })

  it('rejects a request signed with the wrong secret key, and explains it', async () => {
    server = await ModelServer.start({
      script: [VERDICT, VERDICT],
      aws: { accessKeyId: 'AKIDLOCALTEST', secretAccessKey: 'the-real-secret', region: 'us-east-1' }
    })
    const client = createModelClient(
      { name: 'bedrock', awsRegion: 'us-east-1', baseUrl: server.url },
      10_000
    )
    await expect(client.create(REQUEST)).rejects.toThrow(
      "Amazon Bedrock refused us.anthropic.claude-sonnet-4-6-v1:0 (403): check that the AWS credentials are valid, that the role may call bedrock:InvokeModel on it, and that access to the model is enabled in the region ('aws-region')."
    )
    // well-formed, right key id and region: only the signature gives the wrong secret away
    expect(server.calls).toHaveLength(1)
    expect(server.calls[0]!.status).toBe(403)
    expect(server.calls[0]!.headers['authorization']).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDLOCALTEST\/\d{8}\/us-east-1\/bedrock\/aws4_request, /
    )

    // what the SDK got: AWS's own answer, untouched by the scripted replies
    const bedrock = new AnthropicBedrock({
      awsRegion: 'us-east-1',
      awsAccessKey: 'AKIDLOCALTEST',
      awsSecretKey: 'local-test-secret',
      baseURL: server.url,
      maxRetries: 0
    })
    const refused = await bedrock.messages
      .create({
        model: REQUEST.model,
        max_tokens: 10,
        messages: [{ role: 'user', content: 'hi' }]
      })
      .catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(Anthropic.PermissionDeniedError)
    const error = refused as InstanceType<typeof Anthropic.PermissionDeniedError>
    expect(error.status).toBe(403)
    expect(error.headers.get('x-amzn-errortype')).toBe('InvalidSignatureException')
    expect(error.error).toEqual({
      message: expect.stringMatching(
        /^The request signature we calculated does not match the signature you provided\. Check your AWS Secret Access Key/
      )
    })
    expect(server.calls).toHaveLength(2)

    // the right secret passes
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'the-real-secret')
    const right = createModelClient(
      { name: 'bedrock', awsRegion: 'us-east-1', baseUrl: server.url },
      10_000
    )
    expect((await right.create(REQUEST)).stopReason).toBe('tool_use')
    expect(server.calls.map(c => c.status)).toEqual([403, 403, 200])
  })
})

describe('Vertex through @anthropic-ai/vertex-sdk against the local server', () => {
  it('gets a token by workload identity federation and calls rawPredict of the model', async () => {
    server = await ModelServer.start({ script: [VERDICT] })
    vi.stubEnv('GOOGLE_APPLICATION_CREDENTIALS', await server.writeGoogleCredentials(dir))
    const client = createModelClient(
      { name: 'vertex', projectId: 'my-project', region: 'europe-west1', baseUrl: server.url },
      10_000
    )
    const response = await client.create({ ...REQUEST, model: 'claude-sonnet-4-6' })
    expect(response.stopReason).toBe('tool_use')
    expect(server.tokenExchanges).toHaveLength(1)
    expect(server.tokenExchanges[0]!.params['scope']).toBe(
      'https://www.googleapis.com/auth/cloud-platform'
    )
    const call = server.calls[0]!
    expect(call).toMatchObject({
      provider: 'vertex',
      path: '/projects/my-project/locations/europe-west1/publishers/anthropic/models/claude-sonnet-4-6:rawPredict',
      status: 200
    })
    expect(call.body.model).toBeUndefined()
    expect(call.body.anthropic_version).toMatch(/^(vertex-)?\d{4}-\d{2}-\d{2}$/)
    expect(call.headers['authorization']).toBe(`Bearer ${GOOGLE_TEST_ACCESS_TOKEN}`)
  })

  it('explains a rejected token in Google terms', async () => {
    // the token comes from one server's STS; the other expects a different one
    const issuer = await ModelServer.start({})
    try {
      vi.stubEnv('GOOGLE_APPLICATION_CREDENTIALS', await issuer.writeGoogleCredentials(dir))
      server = await ModelServer.start({ script: [VERDICT], googleAccessToken: 'ya29.other' })
      const client = createModelClient(
        { name: 'vertex', projectId: 'p', region: 'us-east5', baseUrl: server.url },
        10_000
      )
      await expect(client.create(REQUEST)).rejects.toThrow(
        'Vertex AI rejected the Google credentials (401): check the google-github-actions/auth step.'
      )
      expect(server.calls[0]!.headers['authorization']).toBe(`Bearer ${GOOGLE_TEST_ACCESS_TOKEN}`)
    } finally {
      await issuer.close()
    }
  })
})
