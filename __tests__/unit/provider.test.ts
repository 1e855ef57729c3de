import { describe, expect, it } from 'vitest'
import { InputError, parseSettings } from '../../src/inputs.js'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { costOf, priceOf, priceWarning } from '../../src/model/pricing.js'
import type { ProviderConfig } from '../../src/loop/settings.js'
import { resolveProvider, type Env, type ProviderInputs } from '../../src/model/provider.js'

const NONE: ProviderInputs = { modelProvider: 'auto', apiKey: '' }
const AWS_KEYS: Env = {
  AWS_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE',
  AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  AWS_REGION: 'us-east-1'
}
const GOOGLE: Env = {
  GOOGLE_APPLICATION_CREDENTIALS: '/home/runner/work/_temp/gha-creds-1.json',
  ANTHROPIC_VERTEX_PROJECT_ID: 'my-project'
}

function resolve(inputs: Partial<ProviderInputs>, env: Env = {}): ProviderConfig | undefined {
  return resolveProvider({ ...NONE, ...inputs }, env)
}

function errorOf(inputs: Partial<ProviderInputs>, env: Env = {}): InputError {
  try {
    resolve(inputs, env)
  } catch (e) {
    expect(e).toBeInstanceOf(InputError)
    return e as InputError
  }
  throw new Error(`resolveProvider accepted ${JSON.stringify({ inputs, env })}`)
}

describe('resolveProvider: auto', () => {
  it('is no provider without a key (gates-only)', () => {
    expect(resolve({})).toBeUndefined()
  })

  it('never turns a cloud provider on by itself: AWS or Google credentials for other steps cost nothing', () => {
    expect(resolve({}, AWS_KEYS)).toBeUndefined()
    expect(resolve({}, GOOGLE)).toBeUndefined()
    expect(resolve({}, { ...AWS_KEYS, ...GOOGLE })).toBeUndefined()
  })

  it('takes the Anthropic API when the key is set, whatever else is configured', () => {
    expect(
      resolve({ apiKey: 'sk-ant-x', baseUrl: 'http://gw' }, { ...AWS_KEYS, ...GOOGLE })
    ).toEqual({ name: 'anthropic', apiKey: 'sk-ant-x', baseUrl: 'http://gw' })
  })
})

describe('resolveProvider: bedrock and vertex credentials', () => {
  const bedrock = (inputs: Partial<ProviderInputs>, env: Env): ProviderConfig | undefined =>
    resolve({ ...inputs, modelProvider: 'bedrock' }, env)
  const vertex = (inputs: Partial<ProviderInputs>, env: Env): ProviderConfig | undefined =>
    resolve({ ...inputs, modelProvider: 'vertex' }, env)

  it('finds AWS credentials and a region as configure-aws-credentials exports them', () => {
    expect(bedrock({}, AWS_KEYS)).toEqual({ name: 'bedrock', awsRegion: 'us-east-1' })
    const oidc = {
      AWS_WEB_IDENTITY_TOKEN_FILE: '/tmp/token',
      AWS_ROLE_ARN: 'arn:aws:iam::1:role/r',
      AWS_DEFAULT_REGION: 'eu-west-1'
    }
    expect(bedrock({}, oidc)).toEqual({ name: 'bedrock', awsRegion: 'eu-west-1' })
    for (const name of [
      'AWS_PROFILE',
      'AWS_CONTAINER_CREDENTIALS_FULL_URI',
      'AWS_BEARER_TOKEN_BEDROCK'
    ]) {
      expect(bedrock({}, { [name]: 'x', AWS_REGION: 'us-west-2' })?.name).toBe('bedrock')
    }
  })

  it('lets aws-region win over the environment and supply a missing one', () => {
    expect(bedrock({ awsRegion: 'ap-northeast-1' }, AWS_KEYS)).toMatchObject({
      awsRegion: 'ap-northeast-1'
    })
    const { AWS_REGION: _, ...noRegion } = AWS_KEYS
    expect(bedrock({ awsRegion: 'us-east-2' }, noRegion)).toMatchObject({ awsRegion: 'us-east-2' })
  })

  it('needs both static keys', () => {
    expect(
      errorOf({ modelProvider: 'bedrock' }, { AWS_ACCESS_KEY_ID: 'AKIA', AWS_REGION: 'us-east-1' })
        .message
    ).toContain('no AWS credentials')
  })

  it('finds a Vertex project and Google credentials, with the region from input or environment', () => {
    expect(vertex({}, GOOGLE)).toEqual({
      name: 'vertex',
      projectId: 'my-project',
      region: 'us-east5'
    })
    expect(vertex({}, { ...GOOGLE, CLOUD_ML_REGION: 'europe-west1' })).toMatchObject({
      region: 'europe-west1'
    })
    expect(
      vertex(
        { vertexProjectId: 'other', vertexRegion: 'global' },
        { ...GOOGLE, CLOUD_ML_REGION: 'x' }
      )
    ).toMatchObject({ projectId: 'other', region: 'global' })
  })

  it('passes anthropic-base-url to every provider', () => {
    expect(bedrock({ baseUrl: 'http://proxy' }, AWS_KEYS)).toMatchObject({
      baseUrl: 'http://proxy'
    })
    expect(vertex({ baseUrl: 'http://proxy' }, GOOGLE)).toMatchObject({ baseUrl: 'http://proxy' })
  })
})

describe('resolveProvider: explicit', () => {
  it('anthropic needs the key', () => {
    const error = errorOf({ modelProvider: 'anthropic' }, AWS_KEYS)
    expect(error.message).toContain("Input 'anthropic-api-key'")
    expect(error.message).toContain("model-provider is 'anthropic'")
    expect(resolve({ modelProvider: 'anthropic', apiKey: 'k' })?.name).toBe('anthropic')
  })

  it('bedrock ignores an Anthropic key and uses the AWS credentials', () => {
    expect(resolve({ modelProvider: 'bedrock', apiKey: 'sk-ant-x' }, AWS_KEYS)).toEqual({
      name: 'bedrock',
      awsRegion: 'us-east-1'
    })
  })

  it('bedrock without AWS credentials says to add configure-aws-credentials', () => {
    const error = errorOf({ modelProvider: 'bedrock', apiKey: 'sk-ant-x' }, { AWS_REGION: 'x' })
    expect(error.message).toContain("Input 'model-provider'")
    expect(error.message).toContain('no AWS credentials')
    expect(error.message).toContain('aws-actions/configure-aws-credentials')
    expect(error.message).toContain('id-token: write')
  })

  it('bedrock without a region names aws-region', () => {
    const { AWS_REGION: _, ...noRegion } = AWS_KEYS
    const error = errorOf({ modelProvider: 'bedrock' }, noRegion)
    expect(error.message).toContain("Input 'aws-region'")
    expect(error.message).toContain('AWS_REGION')
  })

  it('vertex also takes the project google-github-actions/auth exports', () => {
    expect(
      resolve(
        { modelProvider: 'vertex' },
        { GOOGLE_APPLICATION_CREDENTIALS: '/c.json', GOOGLE_CLOUD_PROJECT: 'gha-project' }
      )
    ).toEqual({ name: 'vertex', projectId: 'gha-project', region: 'us-east5' })
  })

  it('vertex without a project names vertex-project-id', () => {
    const error = errorOf(
      { modelProvider: 'vertex' },
      { GOOGLE_APPLICATION_CREDENTIALS: '/c.json' }
    )
    expect(error.message).toContain("Input 'vertex-project-id'")
    expect(error.message).toContain('ANTHROPIC_VERTEX_PROJECT_ID')
  })

  it('vertex without Google credentials says to add google-github-actions/auth', () => {
    const error = errorOf({ modelProvider: 'vertex', vertexProjectId: 'p' }, AWS_KEYS)
    expect(error.message).toContain("Input 'model-provider'")
    expect(error.message).toContain('GOOGLE_APPLICATION_CREDENTIALS')
    expect(error.message).toContain('google-github-actions/auth')
  })
})

describe('parseSettings with a model provider', () => {
  const REQUIRED: Record<string, string> = { 'github-token': 'ghs_token', checks: '' }
  const parse = (inputs: Record<string, string>, env: Env) =>
    parseSettings(name => ({ ...REQUIRED, ...inputs })[name] ?? '', env)

  it('puts the resolved provider in settings.ai and needs no checks with it', () => {
    expect(parse({ 'model-provider': 'bedrock' }, AWS_KEYS).ai.provider).toEqual({
      name: 'bedrock',
      awsRegion: 'us-east-1'
    })
    expect(
      parse(
        { 'model-provider': 'Vertex', 'vertex-project-id': 'p', 'vertex-region': 'global' },
        GOOGLE
      ).ai.provider
    ).toEqual({ name: 'vertex', projectId: 'p', region: 'global' })
    expect(parse({ checks: 'a: true' }, {}).ai.provider).toBeUndefined()
  })

  it('rejects an unknown provider and an empty configuration', () => {
    expect(() => parse({ 'model-provider': 'openai' }, {})).toThrow(
      "Input 'model-provider': 'openai' is not one of: auto, anthropic, bedrock, vertex."
    )
    expect(() => parse({}, {})).toThrow(/no model provider is configured/)
  })
})

describe('priceOf with Bedrock and Vertex model ids', () => {
  it.each([
    ['anthropic.claude-sonnet-4-6-v1:0', 'claude-sonnet-4-6'],
    ['us.anthropic.claude-sonnet-4-6-v1:0', 'claude-sonnet-4-6'],
    ['global.anthropic.claude-haiku-4-5-20251001-v1:0', 'claude-haiku-4-5'],
    ['apac.anthropic.claude-sonnet-4-5-20250929-v1:0', 'claude-sonnet-4-5'],
    ['us-gov.anthropic.claude-3-5-haiku-20241022-v1:0', 'claude-3-5-haiku'],
    ['anthropic.claude-opus-4-1-20250805-v1:0', 'claude-opus-4-1'],
    ['claude-sonnet-4-5@20250929', 'claude-sonnet-4-5'],
    ['claude-opus-4-6', 'claude-opus-4-6']
  ])('%s costs what %s costs', (cloudId, anthropicId) => {
    const cloud = priceOf(cloudId)
    expect(cloud.source.kind).toBe('exact')
    expect(cloud.price).toEqual(priceOf(anthropicId).price)
  })

  it('keeps unknown ids unknown, priced at the dearest current model', () => {
    const profile = priceOf('arn:aws:bedrock:us-east-1:1:application-inference-profile/x')
    expect(profile.source).toEqual({ kind: 'unknown', id: 'claude-fable-5-1' })
    expect(priceOf('us.meta.llama3-70b-instruct-v1:0').source.kind).toBe('unknown')
    expect(priceWarning('us.meta.llama3-70b-instruct-v1:0')).toMatch(
      /dearest current price \(claude-fable-5-1, \$10\/\$50/
    )
  })
})

describe('the price table', () => {
  it.each([
    ['claude-sonnet-5-5', 2, 10, 0.1],
    ['claude-opus-5-5', 4, 20, 0.2],
    ['claude-fable-5-1', 10, 50, 0.25],
    ['claude-sonnet-5', 2, 10, 0.2],
    ['claude-opus-4-8', 5, 25, 0.5],
    ['claude-sonnet-4-6', 3, 15, 0.3],
    ['claude-haiku-4-5-20251001', 1, 5, 0.1],
    ['claude-haiku-5-5', 0.1, 0.5, 0.01]
  ])('lists %s at its published price', (model, input, output, cacheRead) => {
    const { price, source } = priceOf(model)
    expect(source.kind).toBe('exact')
    expect([price.input, price.output]).toEqual([input, output])
    expect(price.cacheRead).toBeCloseTo(cacheRead, 9)
    expect(priceWarning(model)).toBeUndefined()
  })

  it('has an exact entry for every current Claude id in the installed SDK except restricted previews', () => {
    const sdk = readFileSync(
      path.join('node_modules', '@anthropic-ai', 'sdk', 'resources', 'messages', 'messages.d.ts'),
      'utf8'
    )
    const ids = [
      ...(/export type Model = ([^;]+);/.exec(sdk)?.[1] ?? '').matchAll(/'([^']+)'/g)
    ].map(m => m[1]!)
    expect(ids.length).toBeGreaterThan(10)
    const unlisted = ids.filter(id => priceOf(id).source.kind !== 'exact')
    // ids the pricing pages did not list when this table was written: priced by their family
    expect(unlisted).toEqual(['claude-fable-5-2', 'claude-mythos-5-2', 'claude-mythos-preview'])
    for (const id of unlisted) expect(priceOf(id).source.kind).toBe('family')
  })

  it('prices an unlisted Haiku as the dearest listed Haiku, with a warning naming the price used', () => {
    const { price, source } = priceOf('claude-haiku-6')
    expect(source).toEqual({ kind: 'family', id: 'claude-haiku-4-5' })
    expect(price.output).toBe(5)
    expect(priceWarning('claude-haiku-6')).toContain('claude-haiku-4-5 ($1/$5')
    // an unlisted Opus is never priced below the dearest Opus
    expect(priceOf('claude-opus-3-9').price.output).toBe(75)
    expect(priceOf('anthropic.claude-3-opus-20240229-v1:0').price.output).toBe(75)
  })

  it('charges Haiku 5.5 prompts over 100K tokens at the dearer tier for the whole request', () => {
    const small = costOf('claude-haiku-5-5', {
      inputTokens: 100_000,
      outputTokens: 1000,
      cacheReadTokens: 0,
      cacheWriteTokens: 0
    })
    const large = costOf('claude-haiku-5-5', {
      inputTokens: 100_001,
      outputTokens: 1000,
      cacheReadTokens: 0,
      cacheWriteTokens: 0
    })
    expect(small).toBeCloseTo(0.01 + 0.0005, 5)
    expect(large).toBeCloseTo(100_001 * 0.5e-6 + 0.0025, 5)
  })
})
