/**
 * A local, scripted stand-in for the Anthropic Messages API.
 *
 * It speaks enough of `POST /v1/messages` (non-streaming) that the real `@anthropic-ai/sdk` client,
 * built with `new Anthropic({ apiKey, baseURL: server.url })`, works against it unchanged: tool use,
 * `usage` (including an honest emulation of prompt caching), error statuses with the SDK's error
 * classes, and `retry-after` handling.
 *
 * Replies are scripted: a FIFO queue (`script`, then `push(...)`) is consumed first, then the first
 * matching reply template (`templates`, never used up: one reply for any number of calls whose
 * request text contains given strings, e.g. every batch of a review split into parallel calls), then
 * the optional `responder`. A call with nothing to answer it gets a non-retryable 500 "script
 * exhausted", so a test sees an unexpected extra model call instead of hanging.
 *
 * With `latencyMs` (or a template's own), a call that gets a reply is answered that long after it
 * arrived; calls wait concurrently, and `maxInFlight` records how many were being answered at once.
 * Prompt-cache entries an answer writes become readable when it is sent, so calls in flight together
 * all write the prefix, as in the API.
 *
 * Requests are validated the way the API does (400 invalid_request_error) before a reply is taken
 * from the script, so an invalid request does not consume a scripted reply. A scripted reply that
 * the real model could not have produced for this request (a tool_use of a tool that was not offered,
 * text when a tool was forced, ...) is a bug in the test script and answers a non-retryable 500
 * api_error whose message starts with "test server script bug".
 *
 * Verifier calls (issue 28: the independent call that checks one blocking finding and answers
 * confirmed, refuted or uncertain) are answered BEFORE all of that, so adding a verifier to the
 * action does not shift a test's script: a call is one when a user message's text has a line that
 * starts with `# Finding to verify` or `# Earlier finding to verify` and the request offers the tool
 * `submit_verification` or asks (`output_config.format`) for a schema with a `verdict` property.
 * The answer comes from the `verifier` option (model-verifier.ts): its FIFO `replies`, then its first
 * matching `rules` entry (text of the question), its `responder`, its `fallback`; with nothing given,
 * `confirmed`, reason "scripted verifier: the cited code shows the problem", citing the finding's
 * `file:` and `line:`. It takes the request's shape: JSON text matching the schema with
 * `output_config.format`, else a `submit_verification` tool_use. Such calls are recorded in `calls`
 * with `verifier: true`. `verifier: false` turns this off: verifier calls then take the script,
 * templates and responder like any other call.
 *
 * Every request, including rejected ones, is recorded in `calls`.
 *
 * For a model in the table of `model-rules.ts` (by family: Bedrock, Vertex and dated ids count as
 * their family; other models get none of this), the request must also suit the model, as the model
 * pages say: forced tool_choice, thinking modes, sampling parameters, the max_tokens ceiling, prefill,
 * structured outputs and strict tools on the route (400 otherwise, before the script is touched). A
 * model that thinks starts its answer with a `thinking` block whose `signature` is an HMAC over the
 * model and the conversation the answer was produced for; replayed blocks are checked against it, and
 * a tool loop must pass the blocks back unchanged. Schemas sent as `output_config.format.schema` or in
 * a `strict` tool must stay within the structured-outputs JSON Schema subset, whatever the model.
 *
 * Besides the Anthropic route it speaks the two cloud routes the provider SDKs rewrite the request to,
 * with the same validation, script and usage accounting:
 * - Amazon Bedrock (`@anthropic-ai/bedrock-sdk`): `POST /model/{modelId}/invoke`. The model is in the
 *   path, not the body; the body carries `anthropic_version`; the request is AWS SigV4-signed
 *   (`authorization: AWS4-HMAC-SHA256 Credential=KEY/DATE/REGION/bedrock/aws4_request, ...`), or
 *   carries a Bedrock API key as `Bearer`. With `aws.secretAccessKey` set, the signature is verified:
 *   the request is re-signed (`@smithy/signature-v4`) with that key over what arrived (method, host,
 *   path, query, the headers named in `SignedHeaders`, body) at its `x-amz-date`, and a mismatch
 *   answers 403 `InvalidSignatureException` in AWS's shape (`{"message": ...}`,
 *   `x-amzn-errortype`), as Bedrock does for a wrong secret key.
 * - Google Vertex AI (`@anthropic-ai/vertex-sdk`):
 *   `POST [/v1]/projects/{project}/locations/{region}/publishers/anthropic/models/{model}:rawPredict`,
 *   body with `anthropic_version` and no `model`, `authorization: Bearer <googleAccessToken>`.
 *   The token comes from the server's own STS stand-in (`POST /v1/token`, the token exchange of
 *   workload identity federation): `writeGoogleCredentials(dir)` writes an `external_account`
 *   credentials file (the kind google-github-actions/auth writes) whose `token_url` points here, so
 *   google-auth-library obtains the token without reaching Google.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { createServer } from 'node:http'
import { setTimeout } from 'node:timers/promises'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { Sha256 } from '@aws-crypto/sha256-js'
import { SignatureV4 } from '@smithy/signature-v4'
import { Ajv, type ValidateFunction } from 'ajv'
import type { FaultSpec } from './fault.js'
import { rulesFor, structuredOutputsOn } from './model-rules.js'
import type { ModelRules } from './model-rules.js'
import { Verifier } from './model-verifier.js'
import type { VerifierOptions } from './model-verifier.js'
export type {
  VerifierAnswer,
  VerifierOptions,
  VerifierQuestion,
  VerifierRule
} from './model-verifier.js'

export interface Usage {
  input_tokens: number
  output_tokens: number
  cache_creation_input_tokens: number
  cache_read_input_tokens: number
}

export type Provider = 'anthropic' | 'bedrock' | 'vertex'

export interface RecordedCall {
  /** which route the request took */
  provider: Provider
  /** the request path (percent-decoded) */
  path: string
  /** from the body (Anthropic) or the path (Bedrock, Vertex) */
  model: string
  system: unknown
  messages: unknown[]
  tools: unknown[]
  toolChoice: unknown
  maxTokens: number
  /** the request's `output_config` (effort, structured-output format) */
  outputConfig: unknown
  /** the request's `thinking` */
  thinking: unknown
  /** request headers, names lower-cased (multi-valued headers joined with ', ') */
  headers: Record<string, string>
  /** the parsed JSON body (or the raw text when it was not valid JSON) */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any
  /** set only for successful (200) replies */
  usage?: Usage
  status: number
  /** Date.now() when the request arrived */
  at: number
  /** the index in `templates` of the reply template that answered the call, if one did */
  template?: number
  /** set when the call was a verifier call answered by the `verifier` option */
  verifier?: true
}

/**
 * What every answer kind may add about its thinking block. A model that thinks (see `ModelRules` in
 * model-rules.ts: by default on the 5.x models, on request on the others) starts its answer with one
 * `thinking` block; the real API counts its tokens toward `max_tokens` ("`max_tokens` remains a hard
 * limit on total output, thinking plus response text").
 */
export interface ThinkingExtras {
  /**
   * output tokens the thinking block takes, default 0; at or above max_tokens the answer is the
   * thinking block alone, stop_reason 'max_tokens'
   */
  thinkingTokens?: number
  /**
   * the thinking text, returned only with `display: 'summarized'` (the 4.x default; default text
   * 'Considering the request.'); '' with `display: 'omitted'` (the 5.x and Opus 4.7+ default)
   */
  thinking?: string
}

export type ScriptedReply =
  /** assistant replies with (an optional text block and) one tool_use block; stop_reason 'tool_use' */
  | ({
      kind: 'tool_use'
      name: string
      input: unknown
      text?: string
      outputTokens?: number
    } & ThinkingExtras)
  /** several tool_use blocks in one turn; stop_reason 'tool_use' */
  | ({
      kind: 'tool_uses'
      calls: Array<{ name: string; input: unknown }>
      text?: string
      outputTokens?: number
    } & ThinkingExtras)
  /**
   * a plain text answer; stop_reason 'end_turn'. With `output_config.format` in the request the text
   * must be JSON valid against the schema (the API guarantees it) unless max_tokens truncates it.
   */
  | ({ kind: 'text'; text: string; outputTokens?: number } & ThinkingExtras)
  /**
   * a structured-output answer: the text block is `JSON.stringify(value)`; the request must carry
   * `output_config.format`, and `value` must match its schema (else a script bug).
   */
  | ({ kind: 'json'; value: unknown; outputTokens?: number } & ThinkingExtras)
  /**
   * the model declines: HTTP 200, stop_reason 'refusal' with `stop_details` (billed; "The output may
   * not match your schema"), a text block if `text` is given
   */
  | ({
      kind: 'refusal'
      text?: string
      category?: 'cyber' | 'bio' | 'frontier_llm' | 'reasoning_extraction' | 'general_harms'
      explanation?: string
      outputTokens?: number
    } & ThinkingExtras)
  /**
   * an API error, e.g. 429 rate_limit_error, 529 overloaded_error, 401 authentication_error,
   * 404 not_found_error. `retryAfter` (seconds) is sent as `retry-after` (and as `retry-after-ms`,
   * at least 1 ms, so that `retryAfter: 0` makes the SDK retry at once instead of using its
   * default back-off). 429 and 529 also carry `x-should-retry: true`.
   */
  | { kind: 'error'; status: number; type: string; message: string; retryAfter?: number }

/** `index` is the call's position in `ModelServer.calls` (every recorded request counts). */
export type Responder = (call: RecordedCall, index: number) => ScriptedReply

/**
 * A reply for any number of calls (templates are never used up), for example one verdict per
 * review batch when a review is split into parallel calls.
 */
export interface ReplyTemplate {
  /**
   * Answers a call whose request text (every text block of every message, joined; a string content
   * and the text of a tool_result count too) contains all of `contains` and none of `notContains`;
   * without `when`, any call.
   */
  when?: { contains?: string | string[]; notContains?: string | string[] }
  reply: ScriptedReply
  /** This template's own latency, instead of latencyMs. */
  latencyMs?: number
}

export interface ModelServerOptions {
  script?: ScriptedReply[]
  /**
   * Consulted when the script is empty, before the responder: the first template that matches the
   * call answers it; its index is recorded as `RecordedCall.template`.
   */
  templates?: ReplyTemplate[]
  responder?: Responder
  /**
   * Answers verifier calls before the script (see the header); default `{}`: every finding
   * confirmed. `false`: verifier calls are answered like any other call.
   */
  verifier?: false | VerifierOptions
  /**
   * How long every call that gets a reply (scripted, template or responder; an error reply too)
   * waits before it is answered; default 0. Invalid requests and injected faults are answered at
   * once. Calls wait concurrently: two calls that arrive together are both answered after
   * ~latencyMs (see `ModelServer.maxInFlight`).
   */
  latencyMs?: number
  /** if set, any other model answers 404 not_found_error "model: X" */
  validModels?: string[]
  /**
   * if set, a request whose key differs answers 401 authentication_error "invalid x-api-key".
   * The key is read from `x-api-key`, or else from `Authorization: Bearer <key>` (which is how the
   * installed SDK v1 sends `apiKey`).
   */
  apiKey?: string
  /** prefixes shorter than this many estimated tokens are never cached; default 1024 */
  minCacheTokens?: number
  /**
   * The AWS credentials the Bedrock route accepts; each field that is set is checked. A request
   * signed with another access key id, for another region, or with another session token
   * (`x-amz-security-token`, which must then be signed) answers 403 (as Bedrock does for unknown
   * credentials). With `secretAccessKey`, the SigV4 signature is recomputed with it and a mismatch
   * (a wrong secret key, or a request changed after signing) answers 403 InvalidSignatureException.
   */
  aws?: { accessKeyId?: string; secretAccessKey?: string; sessionToken?: string; region?: string }
  /** the access token the STS stand-in issues and the Vertex route requires; default GOOGLE_TEST_ACCESS_TOKEN */
  googleAccessToken?: string
}

export const GOOGLE_TEST_ACCESS_TOKEN = 'ya29.test-access-token'

/** One token exchange at the STS stand-in (`POST /v1/token`, form-encoded). */
export interface RecordedTokenExchange {
  params: Record<string, string>
  status: number
}

/**
 * A deterministic token ESTIMATE, not a tokenizer: ceil(characters / 4), where a string counts its
 * own characters and any other value counts the characters of its JSON serialization.
 * `undefined` counts 0.
 */
export function estimateTokens(value: unknown): number {
  if (value === undefined) return 0
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '')
  return Math.ceil(text.length / 4)
}

type Json = Record<string, unknown>

/** The Messages API's documented error type for a status. */
function errorType(status: number): string {
  const types: Record<number, string> = {
    400: 'invalid_request_error',
    401: 'authentication_error',
    403: 'permission_error',
    404: 'not_found_error',
    413: 'request_too_large',
    429: 'rate_limit_error',
    529: 'overloaded_error'
  }
  return types[status] ?? 'api_error'
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly extraHeaders: Record<string, string> = {}
  ) {
    super(message)
  }
}

/** An error AWS's front end answers itself: body `{"message": ...}`, the type in `x-amzn-errortype`. */
class AwsError extends ApiError {
  constructor(status: number, errorType: string, message: string) {
    super(status, errorType, message, { 'x-amzn-errortype': errorType })
  }
}

const SIGNATURE_MISMATCH =
  'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.'

function invalid(message: string): ApiError {
  return new ApiError(400, 'invalid_request_error', message)
}

/** a 500 for a script that the real model could not have produced; never retried by the SDK */
function scriptBug(message: string): ApiError {
  return new ApiError(500, 'api_error', `test server script bug: ${message}`, {
    'x-should-retry': 'false'
  })
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function withoutCacheControl(value: unknown): unknown {
  if (!isObject(value) || !('cache_control' in value)) return value
  const { cache_control: _ignored, ...rest } = value
  return rest
}

type Ttl = '5m' | '1h'

function breakpointTtl(value: unknown): Ttl | undefined {
  if (!isObject(value)) return undefined
  const cc = value.cache_control
  if (cc === undefined || cc === null) return undefined
  return isObject(cc) && cc.ttl === '1h' ? '1h' : '5m'
}

/** one cacheable unit of the prompt: a tool definition, a system block or a message content block */
interface PromptPart {
  serialized: string
  tokens: number
  ttl?: Ttl
}

function partTokens(block: unknown): number {
  if (typeof block === 'string') return estimateTokens(block)
  if (isObject(block) && block.type === 'text' && typeof block.text === 'string') {
    return estimateTokens(block.text)
  }
  return estimateTokens(withoutCacheControl(block))
}

function part(where: string, block: unknown): PromptPart {
  return {
    serialized: JSON.stringify([where, withoutCacheControl(block)]),
    tokens: partTokens(block),
    ttl: breakpointTtl(block)
  }
}

/** the prompt in API order: tools, then system, then messages */
function promptParts(body: Json): PromptPart[] {
  const parts: PromptPart[] = []
  const tools = Array.isArray(body.tools) ? body.tools : []
  tools.forEach((tool, i) => parts.push(part(`tools.${i}`, tool)))
  if (typeof body.system === 'string') {
    if (body.system !== '') parts.push(part('system', body.system))
  } else if (Array.isArray(body.system)) {
    body.system.forEach((block, i) => parts.push(part(`system.${i}`, block)))
  }
  // a different tool_choice invalidates the cached messages (not tools or system), as in the API
  const toolChoice = JSON.stringify(body.tool_choice ?? null)
  const messages = Array.isArray(body.messages) ? (body.messages as unknown[]) : []
  messages.forEach((message, m) => {
    if (!isObject(message)) return
    const where = `messages.${m}.${String(message.role)}.tool_choice=${toolChoice}`
    if (typeof message.content === 'string') {
      parts.push(part(where, message.content))
    } else if (Array.isArray(message.content)) {
      message.content.forEach((block, i) => parts.push(part(`${where}.${i}`, block)))
    }
  })
  // top-level cache_control marks the last cacheable block
  const last = parts[parts.length - 1]
  if (last && body.cache_control !== undefined && body.cache_control !== null) {
    last.ttl ??= isObject(body.cache_control) && body.cache_control.ttl === '1h' ? '1h' : '5m'
  }
  return parts
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

function headerRecord(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value
  }
  return out
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/**
 * The API key a request presents: `x-api-key`, or else an `Authorization: Bearer` token (the
 * installed SDK v1 sends `apiKey` as `Authorization: Bearer <key>`, not as `x-api-key`).
 */
function presentedKey(headers: Record<string, string>): string | undefined {
  const direct = headers['x-api-key']
  if (direct !== undefined) return direct
  const match = /^Bearer\s+(.+)$/i.exec(headers['authorization'] ?? '')
  return match?.[1]
}

interface Route {
  provider: Provider
  /** the model named by the path (Bedrock, Vertex) */
  model?: string
}

const BEDROCK_PATH = /^\/model\/([^/]+)\/invoke$/
const VERTEX_PATH =
  /^(?:\/v1)?\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/anthropic\/models\/([^/]+):rawPredict$/

function routeOf(rawPath: string): Route | undefined {
  if (rawPath === '/v1/messages') return { provider: 'anthropic' }
  const bedrock = BEDROCK_PATH.exec(rawPath)
  if (bedrock) return { provider: 'bedrock', model: safeDecode(bedrock[1] ?? '') }
  const vertex = VERTEX_PATH.exec(rawPath)
  if (vertex) return { provider: 'vertex', model: safeDecode(vertex[3] ?? '') }
  return undefined
}

/** What the cloud routes' authentication looks at. */
interface SignedRequest {
  method: string
  /** the request target as received (path still percent-encoded, and query) */
  url: string
  headers: Record<string, string>
  body: Buffer
}

/** Bedrock's and Vertex's authentication. */
async function checkCloudAuth(
  provider: Provider,
  request: SignedRequest,
  opts: { aws?: ModelServerOptions['aws']; googleAccessToken: string }
): Promise<void> {
  const { headers } = request
  const authorization = headers['authorization'] ?? ''
  if (provider === 'bedrock') {
    if (/^Bearer\s+\S/i.test(authorization)) return
    const sigv4 =
      /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
        authorization
      )
    if (!sigv4) {
      throw new ApiError(403, 'permission_error', 'Missing Authentication Token')
    }
    if (headers['x-amz-date'] === undefined) {
      throw new ApiError(403, 'permission_error', 'Missing x-amz-date')
    }
    const [, keyId = '', , region = '', service = '', signedList = '', signature = ''] = sigv4
    if (service !== 'bedrock') {
      throw new ApiError(
        403,
        'permission_error',
        `Credential should be scoped to 'bedrock', not '${service}'`
      )
    }
    if (opts.aws?.region !== undefined && region !== opts.aws.region) {
      throw new ApiError(
        403,
        'permission_error',
        `Credential should be scoped to a valid region, not '${region}'`
      )
    }
    const signedHeaders = signedList.split(';')
    if (
      (opts.aws?.accessKeyId !== undefined && keyId !== opts.aws.accessKeyId) ||
      (opts.aws?.sessionToken !== undefined &&
        (headers['x-amz-security-token'] !== opts.aws.sessionToken ||
          !signedHeaders.includes('x-amz-security-token')))
    ) {
      throw new ApiError(
        403,
        'permission_error',
        'The security token included in the request is invalid.'
      )
    }
    if (opts.aws?.secretAccessKey !== undefined) {
      await verifySignature(request, {
        accessKeyId: keyId,
        secretAccessKey: opts.aws.secretAccessKey,
        region,
        service,
        signedHeaders,
        signature
      })
    }
  } else if (provider === 'vertex') {
    const token = /^Bearer\s+(.+)$/i.exec(authorization)?.[1]
    if (token !== opts.googleAccessToken) {
      throw new ApiError(
        401,
        'authentication_error',
        'Request had invalid authentication credentials. Expected OAuth 2 access token.'
      )
    }
  }
}

/**
 * Re-signs the request as received with the configured secret key, at its own `x-amz-date`, over
 * exactly the headers it says it signed, and compares the signatures (as AWS does).
 */
async function verifySignature(
  request: SignedRequest,
  expected: {
    accessKeyId: string
    secretAccessKey: string
    region: string
    service: string
    signedHeaders: string[]
    signature: string
  }
): Promise<void> {
  const { headers, body } = request
  if (!expected.signedHeaders.includes('host')) {
    throw new AwsError(
      403,
      'InvalidSignatureException',
      "'Host' must be a 'SignedHeader' in the AWS Authorization."
    )
  }
  const amzDate = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(headers['x-amz-date'] ?? '')
  if (!amzDate) {
    throw new AwsError(
      403,
      'IncompleteSignatureException',
      `Date must be in ISO-8601 'basic format'. Got '${headers['x-amz-date']}'.`
    )
  }
  const [, year, month, day, hour, minute, second] = amzDate.map(Number)
  const signingDate = new Date(Date.UTC(year!, month! - 1, day, hour, minute, second))
  // The signer takes a declared payload hash on trust; AWS hashes the body it received.
  const declaredHash = headers['x-amz-content-sha256']
  if (
    declaredHash !== undefined &&
    declaredHash !== createHash('sha256').update(body).digest('hex')
  ) {
    throw new AwsError(403, 'InvalidSignatureException', SIGNATURE_MISMATCH)
  }
  const target = new URL(request.url, 'http://placeholder')
  const query: Record<string, string | string[]> = {}
  for (const key of new Set(target.searchParams.keys())) {
    const values = target.searchParams.getAll(key)
    query[key] = values.length === 1 ? values[0]! : values
  }
  const signed: Record<string, string> = {}
  for (const name of expected.signedHeaders) {
    const value = headers[name]
    if (value !== undefined) signed[name] = value
  }
  const signer = new SignatureV4({
    service: expected.service,
    region: expected.region,
    credentials: { accessKeyId: expected.accessKeyId, secretAccessKey: expected.secretAccessKey },
    sha256: Sha256,
    // the payload hash header is signed only if the client sent it
    applyChecksum: false
  })
  const resigned = await signer.sign(
    {
      method: request.method,
      protocol: 'http:',
      hostname: headers['host'] ?? '',
      path: target.pathname,
      query,
      headers: signed,
      body
    },
    { signingDate, signableHeaders: new Set(expected.signedHeaders) }
  )
  const ours = /Signature=([0-9a-f]{64})$/.exec(resigned.headers['authorization'] ?? '')?.[1] ?? ''
  if (
    ours.length !== expected.signature.length ||
    !timingSafeEqual(Buffer.from(ours), Buffer.from(expected.signature))
  ) {
    throw new AwsError(403, 'InvalidSignatureException', SIGNATURE_MISMATCH)
  }
}

/** The cloud routes take the model from the path and the API version from the body. */
function checkCloudBody(provider: Provider, body: Json): void {
  if (provider === 'anthropic') return
  if ('model' in body)
    throw invalid('model: Extra inputs are not permitted (the model is in the path)')
  const version = body.anthropic_version
  if (version === undefined) throw invalid('anthropic_version: Field required')
  const shape =
    provider === 'bedrock' ? /^(bedrock-)?\d{4}-\d{2}-\d{2}$/ : /^(vertex-)?\d{4}-\d{2}-\d{2}$/
  if (typeof version !== 'string' || !shape.test(version)) {
    throw invalid(`anthropic_version: '${String(version)}' is not a supported version`)
  }
}

function toolNames(body: Json): string[] {
  const tools = Array.isArray(body.tools) ? body.tools : []
  return tools.filter(isObject).map(t => String(t.name))
}

function contentBlocks(message: unknown): unknown[] {
  if (!isObject(message)) return []
  return Array.isArray(message.content) ? message.content : []
}

/**
 * JSON Schema keywords that structured outputs and strict tools reject: "Numerical constraints (such
 * as `minimum`, `maximum`, `multipleOf`)", "String constraints (`minLength`, `maxLength`)", "Array
 * constraints beyond `minItems` of 0 or 1"
 * (https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations).
 */
const UNSUPPORTED_SCHEMA_KEYWORDS = [
  'minLength',
  'maxLength',
  'maxItems',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf'
]

/** subschemas to walk into: keyword -> how its value holds schemas */
const SUBSCHEMA_MAPS = ['properties', '$defs', 'definitions', 'patternProperties']
const SUBSCHEMA_LISTS = ['anyOf', 'allOf', 'oneOf', 'prefixItems']
const SUBSCHEMA_SINGLES = ['items', 'not', 'if', 'then', 'else', 'contains']

function pointerPart(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1')
}

/**
 * The first part of `schema` outside the JSON Schema subset that structured outputs and strict tools
 * support ("Both JSON outputs and strict tool use share these limitations"), as "'keyword' ... (at
 * #/json/pointer)"; undefined when the schema is within it. Checked: the numeric, string and array
 * constraints above; `minItems` other than 0 or 1; objects whose `additionalProperties` is not
 * `false` ("must be set to `false` for objects"); external `$ref` (only internal references are
 * supported); non-primitive `enum` values ("complex types in enums").
 */
export function unsupportedSchemaFeature(schema: unknown, at = '#'): string | undefined {
  if (!isObject(schema)) return undefined
  for (const keyword of UNSUPPORTED_SCHEMA_KEYWORDS) {
    if (keyword in schema) return `property '${keyword}' is not supported (at ${at})`
  }
  if ('minItems' in schema && schema.minItems !== 0 && schema.minItems !== 1) {
    return `property 'minItems' is supported only with the values 0 and 1, not ${JSON.stringify(schema.minItems)} (at ${at})`
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type]
  if (
    (types.includes('object') || isObject(schema.properties)) &&
    schema.additionalProperties !== false
  ) {
    return `objects must set 'additionalProperties' to false (at ${at})`
  }
  if (typeof schema.$ref === 'string' && !schema.$ref.startsWith('#')) {
    return `external '$ref' is not supported, only references within the schema ('${schema.$ref}' at ${at})`
  }
  if (Array.isArray(schema.enum) && schema.enum.some(v => typeof v === 'object' && v !== null)) {
    return `'enum' supports primitive values only (at ${at})`
  }
  for (const keyword of SUBSCHEMA_MAPS) {
    const map = schema[keyword]
    if (!isObject(map)) continue
    for (const [key, sub] of Object.entries(map)) {
      const found = unsupportedSchemaFeature(sub, `${at}/${keyword}/${pointerPart(key)}`)
      if (found) return found
    }
  }
  for (const keyword of SUBSCHEMA_LISTS) {
    const list = schema[keyword]
    if (!Array.isArray(list)) continue
    for (let i = 0; i < list.length; i++) {
      const found = unsupportedSchemaFeature(list[i], `${at}/${keyword}/${i}`)
      if (found) return found
    }
  }
  for (const keyword of SUBSCHEMA_SINGLES) {
    const found = Array.isArray(schema[keyword])
      ? (schema[keyword] as unknown[])
          .map((sub, i) => unsupportedSchemaFeature(sub, `${at}/${keyword}/${i}`))
          .find(f => f !== undefined)
      : unsupportedSchemaFeature(schema[keyword], `${at}/${keyword}`)
    if (found) return found
  }
  return undefined
}

/** "A maximum of 20 strict tools" (structured outputs' complexity limits) */
const MAX_STRICT_TOOLS = 20

function outputFormat(body: Json): Json | undefined {
  const config = body.output_config
  return isObject(config) && isObject(config.format) ? config.format : undefined
}

function thinkingType(body: Json): string | undefined {
  return isObject(body.thinking) ? String(body.thinking.type) : undefined
}

function validate(body: Json): void {
  if (body.model === undefined) throw invalid('model: Field required')
  if (typeof body.model !== 'string' || body.model === '') {
    throw invalid('model: Input should be a valid string')
  }
  if (body.max_tokens === undefined) throw invalid('max_tokens: Field required')
  if (
    typeof body.max_tokens !== 'number' ||
    !Number.isInteger(body.max_tokens) ||
    body.max_tokens < 1
  ) {
    throw invalid('max_tokens: Input should be a valid integer greater than or equal to 1')
  }
  if (body.messages === undefined) throw invalid('messages: Field required')
  if (!Array.isArray(body.messages)) throw invalid('messages: Input should be a valid list')
  if (body.stream === true) {
    throw invalid('streaming not supported by the test server')
  }

  // tools
  if (body.tools !== undefined && !Array.isArray(body.tools)) {
    throw invalid('tools: Input should be a valid list')
  }
  const tools = Array.isArray(body.tools) ? body.tools : []
  const seen = new Set<string>()
  tools.forEach((tool, i) => {
    if (!isObject(tool) || typeof tool.name !== 'string' || tool.name === '') {
      throw invalid(`tools.${i}.name: Field required`)
    }
    if (tool.type === undefined && !isObject(tool.input_schema)) {
      throw invalid(`tools.${i}.custom.input_schema: Field required`)
    }
    if (seen.has(tool.name)) throw invalid('tools: Tool names must be unique.')
    seen.add(tool.name)
    if (tool.strict === true) {
      const problem = unsupportedSchemaFeature(tool.input_schema)
      if (problem) throw invalid(`tools.${i}.custom.input_schema: ${problem}`)
    }
  })
  const strictTools = tools.filter(t => isObject(t) && t.strict === true).length
  if (strictTools > MAX_STRICT_TOOLS) {
    throw invalid(
      `tools: Schema is too complex for compilation: ${strictTools} strict tools, at most ${MAX_STRICT_TOOLS} are supported`
    )
  }

  // tool_choice
  if (body.tool_choice !== undefined) {
    const tc = body.tool_choice
    if (!isObject(tc) || !['auto', 'any', 'tool', 'none'].includes(String(tc.type))) {
      throw invalid("tool_choice.type: Input should be 'auto', 'any', 'tool' or 'none'")
    }
    if (tc.type !== 'auto' && tc.type !== 'none' && tools.length === 0) {
      throw invalid('tool_choice may only be specified while providing tools.')
    }
    if (tc.type === 'tool' && !seen.has(String(tc.name))) {
      throw invalid(`tool_choice: Tool '${String(tc.name)}' not found in 'tools'`)
    }
  }

  // system
  if (body.system !== undefined && typeof body.system !== 'string') {
    if (!Array.isArray(body.system)) {
      throw invalid('system: Input should be a valid string or a list of text blocks')
    }
    body.system.forEach((block, i) => {
      if (!isObject(block) || block.type !== 'text' || typeof block.text !== 'string') {
        throw invalid(`system.${i}: Input should be a text block`)
      }
    })
  }

  // messages
  const messages = body.messages as unknown[]
  if (messages.length === 0) throw invalid('messages: at least one message is required')
  messages.forEach((message, i) => {
    if (!isObject(message)) throw invalid(`messages.${i}: Input should be a valid dictionary`)
    if (message.role !== 'user' && message.role !== 'assistant') {
      throw invalid(`messages.${i}.role: Input should be 'user' or 'assistant'`)
    }
    const content = message.content
    if (typeof content !== 'string' && !Array.isArray(content)) {
      throw invalid(`messages.${i}.content: Field required`)
    }
    const isFinalAssistant = i === messages.length - 1 && message.role === 'assistant'
    if (content.length === 0 && !isFinalAssistant) {
      throw invalid(
        `messages.${i}: all messages must have non-empty content except for the optional final assistant message`
      )
    }
    if (Array.isArray(content)) {
      content.forEach((block, j) => {
        if (!isObject(block) || typeof block.type !== 'string') {
          throw invalid(`messages.${i}.content.${j}.type: Field required`)
        }
      })
    }
  })
  const first = messages[0] as Json
  if (first.role !== 'user') throw invalid('messages: first message must use the "user" role')
  for (let i = 1; i < messages.length; i++) {
    const role = (messages[i] as Json).role
    if (role === (messages[i - 1] as Json).role) {
      throw invalid(
        `messages: roles must alternate between "user" and "assistant", but found multiple "${String(role)}" roles in a row`
      )
    }
  }

  // tool_use / tool_result pairing: unexpected tool_result ids first, then unanswered tool_use ids
  for (let pass = 0; pass < 2; pass++)
    for (let i = 0; i < messages.length; i++) {
      const blocks = contentBlocks(messages[i]).filter(isObject)
      const role = (messages[i] as Json).role
      if (role === 'user' && pass === 0) {
        const results = blocks.filter(b => b.type === 'tool_result')
        if (results.length === 0) continue
        const previousIds = new Set(
          contentBlocks(messages[i - 1])
            .filter(isObject)
            .filter(b => b.type === 'tool_use')
            .map(b => String(b.id))
        )
        const unexpected = results
          .map(b => String(b.tool_use_id))
          .filter(id => !previousIds.has(id))
        if (unexpected.length > 0) {
          const j = blocks.findIndex(
            b => b.type === 'tool_result' && !previousIds.has(String(b.tool_use_id))
          )
          throw invalid(
            `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${unexpected.join(', ')}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`
          )
        }
      } else if (role === 'assistant' && pass === 1) {
        const uses = blocks.filter(b => b.type === 'tool_use').map(b => String(b.id))
        const next = messages[i + 1]
        if (uses.length === 0 || next === undefined) continue
        const answered = new Set(
          contentBlocks(next)
            .filter(isObject)
            .filter(b => b.type === 'tool_result')
            .map(b => String(b.tool_use_id))
        )
        const missing = uses.filter(id => !answered.has(id))
        if (missing.length > 0) {
          throw invalid(
            `messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`
          )
        }
      }
    }

  // thinking: the shape every model checks; what a model accepts is in checkModelRules
  if (body.thinking !== undefined) {
    const thinking = body.thinking
    const type = isObject(thinking) ? thinking.type : undefined
    if (
      !isObject(thinking) ||
      !['adaptive', 'between_tools', 'disabled', 'enabled'].includes(String(type))
    ) {
      throw invalid(
        "thinking.type: Input should be 'adaptive', 'between_tools', 'disabled' or 'enabled'"
      )
    }
    if (type === 'enabled') {
      const budget = thinking.budget_tokens
      if (typeof budget !== 'number' || !Number.isInteger(budget)) {
        throw invalid('thinking.enabled.budget_tokens: Field required')
      }
      if (budget < 1024) {
        throw invalid(
          'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024'
        )
      }
      if (budget >= (body.max_tokens as number)) {
        throw invalid('`max_tokens` must be greater than `thinking.budget_tokens`.')
      }
    }
    if (type === 'between_tools') {
      // "`between_tools` takes no other field: `display`, `budget_tokens`, or `block_binding` sent
      // with it returns a 400 error." (https://platform.claude.com/docs/en/models/sonnet-5-5/whats-new-sonnet-5-5)
      const extra = Object.keys(thinking).find(k => k !== 'type')
      if (extra !== undefined) {
        throw invalid(`thinking.between_tools.${extra}: Extra inputs are not permitted`)
      }
    }
  }

  // output_config: effort and the structured-output format
  if (body.output_config !== undefined) {
    const config = body.output_config
    if (!isObject(config)) throw invalid('output_config: Input should be a valid dictionary')
    if (
      config.effort !== undefined &&
      config.effort !== null &&
      !['low', 'medium', 'high', 'xhigh', 'max'].includes(String(config.effort))
    ) {
      throw invalid(
        "output_config.effort: Input should be 'low', 'medium', 'high', 'xhigh' or 'max'"
      )
    }
    if (config.format !== undefined && config.format !== null) {
      const format = config.format
      if (!isObject(format) || format.type !== 'json_schema') {
        throw invalid("output_config.format.type: Input should be 'json_schema'")
      }
      if (!isObject(format.schema)) throw invalid('output_config.format.schema: Field required')
      const problem = unsupportedSchemaFeature(format.schema)
      if (problem) throw invalid(`output_config.format.schema: ${problem}`)
      // structured outputs are "Incompatible with ... prefill"
      if ((messages[messages.length - 1] as Json).role === 'assistant') {
        throw invalid(
          'output_config.format: structured outputs cannot be used with a prefilled assistant message; the conversation must end with a user message.'
        )
      }
    }
  }

  // cache_control breakpoints
  const breakpoints = promptParts(body).filter(p => p.ttl !== undefined).length
  if (breakpoints > 4) {
    throw invalid(`A maximum of 4 blocks with cache_control may be provided. Found ${breakpoints}.`)
  }
}

const FORCED_TOOL_CHOICE = 'tool_choice: type "tool" and "any" are not supported for this model.'
const PREFILL =
  'This model does not support assistant message prefill. The conversation must end with a user message.'

function thinkingNotSupported(type: 'disabled' | 'enabled'): string {
  return `"thinking.type.${type}" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.`
}

/**
 * What the request's model accepts (model-rules.ts, which cites the model pages), checked as the API
 * does: 400 invalid_request_error before any answer. Models missing from the table get none of these
 * checks.
 */
function checkModelParams(rules: ModelRules, provider: Provider, body: Json): void {
  const model = String(body.model)
  const tc = isObject(body.tool_choice) ? body.tool_choice.type : undefined
  const forced = tc === 'tool' || tc === 'any'
  const effort = isObject(body.output_config) ? body.output_config.effort : undefined

  // Forced tool use: "`tool_choice` set to `{"type": "any"}` or `{"type": "tool", "name": "..."}`
  // returns a 400 `invalid_request_error`" with this message (Sonnet 5.5, Opus 5.5, Fable 5.1, Mythos 5.1;
  // https://platform.claude.com/docs/en/api/errors)
  if (forced && !rules.forcedToolChoice) throw invalid(FORCED_TOOL_CHOICE)

  // thinking modes (https://platform.claude.com/docs/en/api/errors,
  // https://platform.claude.com/docs/en/models/sonnet-5-5/whats-new-sonnet-5-5)
  const type = thinkingType(body)
  if (type === 'disabled' && !rules.thinkingDisabled) {
    // Sonnet 5.5: "returns a 400 `invalid_request_error` whose message points to `between_tools`"
    throw invalid(
      rules.betweenTools
        ? '"thinking.type.disabled" is not supported for this model. Use "thinking.type.between_tools" to turn off thinking before the first tool call, or "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.'
        : thinkingNotSupported('disabled')
    )
  }
  if (
    type === 'disabled' &&
    rules.disabledOnlyUpToHighEffort &&
    (effort === 'xhigh' || effort === 'max')
  ) {
    // Opus 5, Haiku 5.5: disabled "is accepted at effort `high` or below"
    throw invalid(
      `"thinking.type.disabled" is not supported at effort "${String(effort)}" for this model. Use effort "high" or below, or omit "thinking".`
    )
  }
  if (type === 'between_tools' && (effort === 'xhigh' || effort === 'max')) {
    // "At `xhigh` or `max` effort, a request with `between_tools` returns a 400 error."
    throw invalid(
      `"thinking.type.between_tools" is not supported at effort "${String(effort)}". Omit "thinking" or use "thinking.type.adaptive" at this effort.`
    )
  }
  if (type === 'enabled' && !rules.manualThinking) throw invalid(thinkingNotSupported('enabled'))
  if (type === 'adaptive' && !rules.adaptiveThinking) {
    throw invalid('adaptive thinking is not supported on this model')
  }
  // "Tool use with thinking only supports `tool_choice: {"type": "auto"}` ... or `none`"
  // (https://platform.claude.com/docs/en/build-with-claude/extended-thinking#extended-thinking-with-tool-use);
  // the 5.x models that accept a forced tool answer it without thinking instead
  if (forced && !rules.emitsThinking && (type === 'enabled' || type === 'adaptive')) {
    throw invalid('Thinking may not be enabled when tool_choice forces tool use.')
  }

  // sampling parameters
  checkSampling(rules, body)

  // "max_tokens: 16000 > 8192, which is the maximum allowed number of output tokens for <model>"
  const maxTokens = body.max_tokens as number
  if (maxTokens > rules.maxOutputTokens) {
    throw invalid(
      `max_tokens: ${maxTokens} > ${rules.maxOutputTokens}, which is the maximum allowed number of output tokens for ${model}`
    )
  }

  // prefill (https://platform.claude.com/docs/en/api/errors: "Claude 4.6 and later models ... do not
  // support prefilling assistant messages")
  const messages = body.messages as Json[]
  if (!rules.prefill && messages[messages.length - 1]?.role === 'assistant') throw invalid(PREFILL)

  // structured outputs and strict tools where the route offers them
  if (!structuredOutputsOn(provider, model)) {
    const where = provider === 'bedrock' ? ' on Amazon Bedrock' : ''
    if (outputFormat(body)) {
      throw invalid(
        `output_config.format: structured outputs are not supported for ${model}${where}. Use a tool instead.`
      )
    }
    const tools = Array.isArray(body.tools) ? body.tools : []
    const strict = tools.findIndex(t => isObject(t) && t.strict === true)
    if (strict >= 0) {
      throw invalid(
        `tools.${strict}.strict: strict tool use is not supported for ${model}${where}.`
      )
    }
  }
}

/** `temperature`, `top_p`, `top_k` per `ModelRules.sampling` (see model-rules.ts for the sources). */
function checkSampling(rules: ModelRules, body: Json): void {
  const { temperature, top_p: topP, top_k: topK } = body
  const has = (value: unknown): boolean => value !== undefined && value !== null
  switch (rules.sampling) {
    case 'any':
      return
    case 'one-of':
      if (has(temperature) && has(topP)) {
        throw invalid(
          '`temperature` and `top_p` cannot both be specified for this model. Please use only one.'
        )
      }
      return
    case 'default-only':
      // "A value of 1.0 will be accepted for backwards compatibility"; top_p "A value >= 0.99 will be
      // accepted"; top_k: "any value will be rejected" (https://platform.claude.com/docs/en/api/messages/create)
      if (has(temperature) && temperature !== 1) {
        throw invalid(
          '`temperature` is deprecated for this model: only the default value 1.0 is accepted. Omit `temperature`.'
        )
      }
      if (has(topP) && !(typeof topP === 'number' && topP >= 0.99)) {
        throw invalid(
          '`top_p` is deprecated for this model: only values >= 0.99 are accepted. Omit `top_p`.'
        )
      }
      if (has(topK)) throw invalid('`top_k` is not supported for this model. Omit `top_k`.')
      return
    case 'haiku-5-5':
      // "If a request includes `temperature`, it must be `1`. If it includes `top_p`, it must be
      // `0.99` ... So does any `top_k` value, and so does a request that includes both"
      if (has(temperature) && has(topP)) {
        throw invalid('`temperature` and `top_p` cannot both be specified for this model.')
      }
      if (has(temperature) && temperature !== 1) {
        throw invalid('`temperature` must be 1 for this model. Omit `temperature`.')
      }
      if (has(topP) && topP !== 0.99) {
        throw invalid('`top_p` must be 0.99 (its default) for this model. Omit `top_p`.')
      }
      if (has(topK)) throw invalid('`top_k` is not supported for this model. Omit `top_k`.')
      return
  }
}

/** `thinking` and `redacted_thinking` blocks as compared in tool loops */
function thinkingKey(block: Json): string {
  return block.type === 'redacted_thinking'
    ? JSON.stringify(['redacted_thinking', block.data])
    : JSON.stringify(['thinking', block.thinking, block.signature])
}

function isThinkingBlock(block: unknown): block is Json {
  return isObject(block) && (block.type === 'thinking' || block.type === 'redacted_thinking')
}

function withoutCacheControlDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCacheControlDeep)
  if (!isObject(value)) return value
  const out: Json = {}
  for (const [key, v] of Object.entries(value)) {
    if (key !== 'cache_control') out[key] = withoutCacheControlDeep(v)
  }
  return out
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

/**
 * The schema validators of structured outputs and strict tools (one Ajv per schema, so `$id`s never
 * clash).
 */
const validators = new Map<string, ValidateFunction>()

function schemaErrors(schema: Json, value: unknown): string | undefined {
  const key = JSON.stringify(schema)
  let check = validators.get(key)
  if (!check) {
    check = new Ajv({ strict: false, validateFormats: false, allErrors: true }).compile(schema)
    validators.set(key, check)
  }
  return check(value) ? undefined : new Ajv().errorsText(check.errors)
}

/** Every text of the request's messages, joined with newlines (what `ReplyTemplate.when` looks at). */
function requestText(messages: unknown[]): string {
  const texts: string[] = []
  const collect = (content: unknown): void => {
    if (typeof content === 'string') texts.push(content)
    if (!Array.isArray(content)) return
    for (const block of content) {
      if (!isObject(block)) continue
      if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text)
      if (block.type === 'tool_result') collect(block.content)
    }
  }
  for (const message of messages) if (isObject(message)) collect(message.content)
  return texts.join('\n')
}

function asList(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value]
}

function templateMatches(template: ReplyTemplate, text: string): boolean {
  const { contains, notContains } = template.when ?? {}
  return (
    asList(contains).every(s => text.includes(s)) &&
    !asList(notContains).some(s => text.includes(s))
  )
}

function checkLatency(where: string, value: unknown): void {
  if (value !== undefined && (typeof value !== 'number' || !(value >= 0) || value === Infinity)) {
    throw new Error(`${where}: must be a number of milliseconds >= 0, not ${JSON.stringify(value)}`)
  }
}

/** Rejects a malformed template (from a scenario file, say) instead of letting it match every call. */
function checkTemplates(templates: unknown[]): void {
  templates.forEach((template, i) => {
    const where = `ModelServer templates[${i}]`
    if (
      !isObject(template) ||
      !isObject(template.reply) ||
      typeof template.reply.kind !== 'string'
    ) {
      throw new Error(`${where}: a template needs a \`reply\` with a \`kind\``)
    }
    const unknownKeys = Object.keys(template).filter(
      k => !['when', 'reply', 'latencyMs'].includes(k)
    )
    if (unknownKeys.length) throw new Error(`${where}: unknown key ${unknownKeys.join(', ')}`)
    checkLatency(`${where}.latencyMs`, template.latencyMs)
    if (template.when === undefined) return
    if (!isObject(template.when)) throw new Error(`${where}.when: must be an object`)
    for (const [key, value] of Object.entries(template.when)) {
      const list = Array.isArray(value) ? value : [value]
      if (!['contains', 'notContains'].includes(key)) {
        throw new Error(`${where}.when: unknown key ${key} (contains, notContains)`)
      }
      if (list.some(v => typeof v !== 'string')) {
        throw new Error(`${where}.when.${key}: must be a string or a list of strings`)
      }
    }
  })
}

function recordedCall(
  req: IncomingMessage,
  rawPath: string,
  route: Route | undefined,
  body: unknown,
  at: number
): RecordedCall {
  const json: Json = isObject(body) ? body : {}
  return {
    provider: route?.provider ?? 'anthropic',
    path: safeDecode(rawPath),
    model: route?.model ?? (typeof json.model === 'string' ? json.model : ''),
    system: json.system,
    messages: Array.isArray(json.messages) ? json.messages : [],
    tools: Array.isArray(json.tools) ? json.tools : [],
    toolChoice: json.tool_choice,
    maxTokens: typeof json.max_tokens === 'number' ? json.max_tokens : 0,
    outputConfig: json.output_config,
    thinking: json.thinking,
    headers: headerRecord(req),
    body,
    status: 0,
    at
  }
}

/** The API error a scripted `kind: 'error'` reply answers. */
function replyError(reply: Extract<ScriptedReply, { kind: 'error' }>): ApiError {
  const headers: Record<string, string> = {}
  if (reply.status === 429 || reply.status === 529) headers['x-should-retry'] = 'true'
  if (reply.retryAfter !== undefined) {
    headers['retry-after'] = String(reply.retryAfter)
    headers['retry-after-ms'] = String(Math.max(1, Math.round(reply.retryAfter * 1000)))
  }
  return new ApiError(reply.status, reply.type, reply.message, headers)
}

function sendError(res: ServerResponse, err: ApiError, requestId: string): void {
  res.writeHead(err.status, {
    'content-type': 'application/json',
    'request-id': requestId,
    ...err.extraHeaders
  })
  res.end(
    JSON.stringify(
      err instanceof AwsError
        ? { message: err.message }
        : { type: 'error', error: { type: err.type, message: err.message }, request_id: requestId }
    )
  )
}

/** What the server remembers of a thinking block's signature. */
interface SignatureClaims {
  /** the model family that produced the block */
  family: string
  /** the hash of the conversation prefix the answer was produced for */
  prefix: string
}

export class ModelServer {
  readonly url: string
  readonly calls: RecordedCall[] = []
  /** token exchanges at the STS stand-in (Vertex credentials), in order */
  readonly tokenExchanges: RecordedTokenExchange[] = []
  readonly googleAccessToken: string

  private readonly queue: ScriptedReply[]
  private readonly templates: ReplyTemplate[]
  private readonly responder: Responder | undefined
  private readonly verifier: Verifier | undefined
  private readonly latencyMs: number
  /** calls being answered now (a reply taken, the answer not yet sent), and the peak of it */
  private inFlight = 0
  private peakInFlight = 0
  /** aborted by close(), which ends the latency waits */
  private readonly closing = new AbortController()
  private readonly validModels: Set<string> | undefined
  private readonly apiKey: string | undefined
  private readonly minCacheTokens: number
  private readonly aws: ModelServerOptions['aws']
  /** cache key (hash chain over model + prompt parts) -> prefix tokens, for written prefixes */
  private readonly cache = new Map<string, number>()
  private requestCounter = 0
  private messageCounter = 0
  private toolUseCounter = 0
  private thinkingCounter = 0
  /** the key thinking-block signatures are MACed with; never leaves the server */
  private readonly signingKey = randomBytes(32)
  /** tool_use id -> the thinking blocks of the answer that made the call, for the tool-loop check */
  private readonly thinkingByToolUse = new Map<string, { family: string; blocks: Json[] }>()

  private constructor(
    private readonly server: Server,
    port: number,
    opts: ModelServerOptions
  ) {
    this.url = `http://127.0.0.1:${port}`
    this.queue = [...(opts.script ?? [])]
    this.templates = [...(opts.templates ?? [])]
    this.responder = opts.responder
    this.verifier = opts.verifier === false ? undefined : new Verifier(opts.verifier ?? {})
    this.latencyMs = opts.latencyMs ?? 0
    this.validModels = opts.validModels ? new Set(opts.validModels) : undefined
    this.apiKey = opts.apiKey
    this.minCacheTokens = opts.minCacheTokens ?? 1024
    this.aws = opts.aws
    this.googleAccessToken = opts.googleAccessToken ?? GOOGLE_TEST_ACCESS_TOKEN
  }

  static async start(opts: ModelServerOptions = {}): Promise<ModelServer> {
    checkTemplates(opts.templates ?? [])
    checkLatency('ModelServer latencyMs', opts.latencyMs)
    const holder: { instance?: ModelServer } = {}
    const server = createServer((req, res) => {
      const instance = holder.instance
      if (!instance) {
        res.writeHead(503).end()
        return
      }
      instance.handle(req, res).catch((err: unknown) => {
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'application/json' })
          res.end(
            JSON.stringify({
              type: 'error',
              error: { type: 'api_error', message: `test server crashed: ${String(err)}` }
            })
          )
        }
      })
    })
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject)
        resolve()
      })
    })
    const { port } = server.address() as AddressInfo
    holder.instance = new ModelServer(server, port, opts)
    return holder.instance
  }

  /**
   * Writes Google credentials that lead to this server: an `external_account` (workload identity
   * federation) file, as google-github-actions/auth writes, whose STS `token_url` is this server and
   * whose subject token is a file next to it. Returns the path for GOOGLE_APPLICATION_CREDENTIALS.
   */
  async writeGoogleCredentials(dir: string): Promise<string> {
    await mkdir(dir, { recursive: true })
    const subjectToken = path.join(dir, 'oidc-token')
    await writeFile(subjectToken, 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJyZXBvOmFjbWUvd2lkZ2V0cyJ9.c2ln')
    const file = path.join(dir, 'gha-creds.json')
    await writeFile(
      file,
      JSON.stringify({
        type: 'external_account',
        audience:
          '//iam.googleapis.com/projects/123456789/locations/global/workloadIdentityPools/github/providers/github',
        subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
        token_url: `${this.url}/v1/token`,
        credential_source: { file: subjectToken, format: { type: 'text' } }
      })
    )
    return file
  }

  /** Faults armed on the Messages API route (see "Faults" in the README). */
  private faults: Array<FaultSpec & { remaining: number }> = []
  /** Faults injected so far, with when. */
  readonly faultsApplied: Array<{ at: number; route: string; fault: string }> = []

  addFault(fault: FaultSpec): void {
    this.faults.push({ ...fault, remaining: fault.times ?? 1 })
  }

  clearFaults(): void {
    this.faults = []
  }

  /** The armed fault for a request on `route`, used up by one. */
  private takeFault(route: string): FaultSpec | undefined {
    const fault = this.faults.find(f => f.route === route && f.remaining > 0)
    if (!fault) return undefined
    fault.remaining--
    const kind = fault.hang
      ? 'hang'
      : fault.lost
        ? 'lost'
        : fault.reset
          ? 'reset'
          : String(fault.status ?? 500)
    this.faultsApplied.push({ at: Date.now(), route, fault: kind })
    return fault
  }

  /**
   * The most calls being answered at once so far: a call counts from the moment its reply is taken
   * (after validation) until its answer is sent (after `latencyMs`). 0 before the first reply.
   */
  get maxInFlight(): number {
    return this.peakInFlight
  }

  /** append replies to the script queue */
  push(...replies: ScriptedReply[]): void {
    this.queue.push(...replies)
  }

  async close(): Promise<void> {
    this.closing.abort()
    await new Promise<void>((resolve, reject) => {
      this.server.close(err => (err ? reject(err) : resolve()))
      this.server.closeAllConnections()
    })
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const at = Date.now()
    const rawBody = await readBody(req)
    const raw = rawBody.toString('utf8')
    let body: unknown = raw
    try {
      body = raw === '' ? undefined : JSON.parse(raw)
    } catch {
      // keep the raw text
    }
    const rawPath = new URL(req.url ?? '/', 'http://127.0.0.1').pathname
    if (req.method === 'POST' && rawPath === '/v1/token') {
      this.exchangeToken(raw, res)
      return
    }
    const route = req.method === 'POST' ? routeOf(rawPath) : undefined
    const call = recordedCall(req, rawPath, route, body, at)
    const index = this.calls.length
    this.calls.push(call)
    const requestId = `req_test_${String(++this.requestCounter).padStart(6, '0')}`

    try {
      const json = await this.admit(req, rawBody, route, body, call)
      const fault = this.takeFault(`POST ${rawPath}`)
      if (fault?.hang) return // never answered: the client's timeout ends it
      if (fault && !fault.lost) {
        if (fault.reset || fault.status === undefined) {
          res.destroy()
          return
        }
        throw new ApiError(fault.status, errorType(fault.status), 'injected fault', {
          ...(fault.status === 429 || fault.status >= 500 ? { 'x-should-retry': 'true' } : {}),
          ...fault.headers
        })
      }
      await this.answer(res, { json, call, index, requestId, lost: fault?.lost === true })
    } catch (err) {
      if (!(err instanceof ApiError)) throw err
      call.status = err.status
      sendError(res, err, requestId)
    }
  }

  /**
   * Authentication and request validation (400 and the like, answered at once): throws the
   * ApiError to answer, or returns the request body.
   */
  private async admit(
    req: IncomingMessage,
    rawBody: Buffer,
    route: Route | undefined,
    body: unknown,
    call: RecordedCall
  ): Promise<Json> {
    if (!route) {
      throw new ApiError(404, 'not_found_error', 'Not Found')
    }
    if (route.provider === 'anthropic') {
      if (this.apiKey !== undefined && presentedKey(call.headers) !== this.apiKey) {
        throw new ApiError(401, 'authentication_error', 'invalid x-api-key')
      }
    } else {
      await checkCloudAuth(
        route.provider,
        { method: req.method ?? 'POST', url: req.url ?? '/', headers: call.headers, body: rawBody },
        { aws: this.aws, googleAccessToken: this.googleAccessToken }
      )
    }
    if (!isObject(body)) {
      throw invalid(
        typeof body === 'string' ? 'There was an error parsing the body' : 'body: Field required'
      )
    }
    checkCloudBody(route.provider, body)
    const request = route.model === undefined ? body : { ...body, model: route.model }
    validate(request)
    this.checkModelRules(route.provider, request)
    if (this.validModels && !this.validModels.has(call.model)) {
      throw new ApiError(404, 'not_found_error', `model: ${call.model}`)
    }
    return body
  }

  /**
   * The reply for a valid call: a verifier call's from the `verifier` option, then the scripted
   * queue, then the first template whose `when` matches (recorded as `call.template`), then the
   * responder; else a non-retryable 500.
   */
  private takeReply(
    call: RecordedCall,
    index: number
  ): { reply: ScriptedReply; latencyMs: number } {
    const verified = this.verifier?.reply(call, index)
    if (verified) {
      call.verifier = true
      return { reply: verified as ScriptedReply, latencyMs: this.latencyMs }
    }
    const scripted = this.queue.shift()
    if (scripted) return { reply: scripted, latencyMs: this.latencyMs }
    const text = this.templates.length > 0 ? requestText(call.messages) : ''
    const t = this.templates.findIndex(template => templateMatches(template, text))
    const template = this.templates[t]
    if (template) {
      call.template = t
      return { reply: template.reply, latencyMs: template.latencyMs ?? this.latencyMs }
    }
    const reply = this.responder?.(call, index)
    if (reply === undefined) {
      throw new ApiError(
        500,
        'api_error',
        `script exhausted: no scripted reply left for call #${index} (model ${call.model})`,
        { 'x-should-retry': 'false' }
      )
    }
    return { reply, latencyMs: this.latencyMs }
  }

  /**
   * Answers a valid call with its reply after the reply's latency. The answer is settled when the
   * call arrives (usage reads the cache as it is then); the prefixes it writes become readable when
   * it is answered, as in the API ("a cache entry only becomes available after the first response
   * begins"), so calls in flight together do not read each other's writes.
   */
  private async answer(
    res: ServerResponse,
    c: { json: Json; call: RecordedCall; index: number; requestId: string; lost: boolean }
  ): Promise<void> {
    const { reply, latencyMs } = this.takeReply(c.call, c.index)
    this.inFlight++
    this.peakInFlight = Math.max(this.peakInFlight, this.inFlight)
    try {
      let outcome: { message: Json; cacheWrites: Array<[string, number]> } | ApiError
      try {
        outcome =
          reply.kind === 'error' ? replyError(reply) : this.buildMessage(c.json, c.call, reply)
      } catch (err) {
        if (!(err instanceof ApiError)) throw err
        outcome = err
      }
      if (latencyMs > 0) {
        await setTimeout(latencyMs, undefined, { signal: this.closing.signal }).catch(() => {})
        if (this.closing.signal.aborted) return // the server closed meanwhile
      }
      if (outcome instanceof ApiError) throw outcome
      for (const [key, tokens] of outcome.cacheWrites) this.cache.set(key, tokens)
      if (c.lost) {
        // the model answered (and charged) but the answer never arrives
        c.call.status = 0
        res.destroy()
        return
      }
      c.call.status = 200
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': c.requestId })
      res.end(JSON.stringify(outcome.message))
    } finally {
      this.inFlight--
    }
  }

  /** The STS token exchange of workload identity federation, answered with `googleAccessToken`. */
  private exchangeToken(raw: string, res: ServerResponse): void {
    const params = Object.fromEntries(new URLSearchParams(raw))
    const ok =
      params['grant_type'] === 'urn:ietf:params:oauth:grant-type:token-exchange' &&
      (params['subject_token'] ?? '') !== '' &&
      (params['audience'] ?? '') !== ''
    this.tokenExchanges.push({ params, status: ok ? 200 : 400 })
    res.writeHead(ok ? 200 : 400, { 'content-type': 'application/json' })
    res.end(
      JSON.stringify(
        ok
          ? {
              access_token: this.googleAccessToken,
              issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
              token_type: 'Bearer',
              expires_in: 3600
            }
          : { error: 'invalid_request', error_description: 'not a token exchange' }
      )
    )
  }

  /**
   * The per-model rules (model-rules.ts) and the thinking-block rules, for a model in the table:
   * - request parameters the model does not accept (`checkModelParams`);
   * - every `thinking` block replayed in an assistant message must carry a signature this server
   *   issued. A block produced by another model is dropped before the model sees it, so the request
   *   succeeds ("Unreadable blocks are dropped, not rejected"). A block of this model whose
   *   conversation prefix (system, tools, the messages before its assistant message) changed since it
   *   was produced is a 400 on the models that run the check: "If the `system` prompt, the `tools`,
   *   or an earlier message changed since a block was produced, a request that replays that block
   *   returns 400", whose message says "The block is bound to a different conversation"
   *   (https://platform.claude.com/docs/en/models/sonnet-5-5/whats-new-sonnet-5-5,
   *   https://platform.claude.com/docs/en/models/fable-5-1/whats-new-fable-5-1);
   * - tool loops: the assistant message that carries a tool_use must carry the thinking blocks of the
   *   answer that made the call "complete and unmodified ... the API rejects edited, reordered, or
   *   partially dropped thinking blocks with a 400 error"
   *   (https://platform.claude.com/docs/en/models/opus-5-5/migration-guide).
   */
  private checkModelRules(provider: Provider, body: Json): void {
    const rules = rulesFor(String(body.model))
    if (!rules) return
    checkModelParams(rules, provider, body)
    const { family } = rules
    const messages = body.messages as Json[]
    const prefixes = this.conversationPrefixes(body, family)
    messages.forEach((message, i) => {
      if (message.role !== 'assistant') return
      const blocks = contentBlocks(message).filter(isObject)
      blocks.forEach((block, j) => {
        if (block.type !== 'thinking') return
        const claims = this.readSignature(block.signature)
        if (!claims) {
          throw invalid(
            `messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block. The block is bound to a different conversation, or it was modified after it was returned.`
          )
        }
        if (claims.family !== family) return // another model's block: dropped, not rejected
        if (rules.thinkingPrefixCheck && claims.prefix !== prefixes[i]) {
          throw invalid(
            `messages.${i}.content.${j}: The block is bound to a different conversation: the system prompt, the tools or a message before it changed since the block was produced. Keep the history append-only, or strip the thinking blocks from the edited turn on.`
          )
        }
      })
      const uses = blocks.filter(b => b.type === 'tool_use').map(b => String(b.id))
      const expected = uses
        .map(id => ({ id, entry: this.thinkingByToolUse.get(id) }))
        .find(u => u.entry !== undefined && u.entry.family === family && u.entry.blocks.length > 0)
      if (!expected?.entry) return
      const firstUse = blocks.findIndex(b => b.type === 'tool_use')
      const carried = blocks.filter(isThinkingBlock)
      const allBefore = blocks.every((b, k) => !isThinkingBlock(b) || k < firstUse)
      const same =
        JSON.stringify(carried.map(thinkingKey)) ===
        JSON.stringify(expected.entry.blocks.map(thinkingKey))
      if (!allBefore || !same) {
        const n = expected.entry.blocks.length
        throw invalid(
          `messages.${i}: thinking blocks must be passed back unchanged in tool loops: the assistant message with tool_use ${expected.id} must carry the ${n} thinking block${n === 1 ? '' : 's'} of the response that made the call, complete and unmodified, in the same order and before its tool_use blocks (the API rejects edited, reordered, or partially dropped thinking blocks).`
        )
      }
    })
  }

  /**
   * Hashes of the conversation prefixes: element i identifies the model family, the system prompt,
   * the tools and messages[0..i-1] (cache_control stripped, string content as one text block); the
   * last element is the prefix a new answer is produced for. A replayed thinking block counts by its
   * signature alone (its text is ignored, as the API ignores the text of an omitted block); another
   * model's block does not count (the API drops it).
   */
  private conversationPrefixes(body: Json, family: string): string[] {
    const asBlocks = (content: unknown): unknown =>
      typeof content === 'string'
        ? content === ''
          ? []
          : [{ type: 'text', text: content }]
        : content
    let hash = sha256(
      JSON.stringify({
        family,
        system: withoutCacheControlDeep(asBlocks(body.system ?? '')),
        tools: withoutCacheControlDeep(Array.isArray(body.tools) ? body.tools : [])
      })
    )
    const hashes = [hash]
    for (const message of body.messages as Json[]) {
      const content = asBlocks(message.content)
      const blocks = (Array.isArray(content) ? content : [])
        .filter(
          b =>
            !(
              isObject(b) &&
              b.type === 'thinking' &&
              this.readSignature(b.signature)?.family !== family
            )
        )
        .map(b =>
          isObject(b) && b.type === 'thinking'
            ? { type: 'thinking', signature: b.signature }
            : withoutCacheControlDeep(b)
        )
      hash = sha256(hash + JSON.stringify([message.role, blocks]))
      hashes.push(hash)
    }
    return hashes
  }

  /** An opaque signature binding a thinking block to the model family and the conversation prefix. */
  private sign(family: string, prefix: string): string {
    const claims = JSON.stringify({ f: family, p: prefix, n: ++this.thinkingCounter })
    const mac = createHmac('sha256', this.signingKey).update(claims).digest('base64url')
    return Buffer.from(`${claims}.${mac}`).toString('base64')
  }

  /** The claims of a signature this server issued, unchanged; undefined for anything else. */
  private readSignature(signature: unknown): SignatureClaims | undefined {
    if (typeof signature !== 'string' || signature === '') return undefined
    const decoded = Buffer.from(signature, 'base64')
    if (decoded.toString('base64') !== signature) return undefined
    const text = decoded.toString('utf8')
    const dot = text.lastIndexOf('.')
    if (dot < 0) return undefined
    const claims = text.slice(0, dot)
    const mac = Buffer.from(text.slice(dot + 1))
    const expected = Buffer.from(
      createHmac('sha256', this.signingKey).update(claims).digest('base64url')
    )
    if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) return undefined
    const parsed = JSON.parse(claims) as { f: string; p: string }
    return { family: parsed.f, prefix: parsed.p }
  }

  /**
   * The answer to a valid request. A model that thinks (`thinkingWanted`) starts with one `thinking`
   * block whose signature binds it to the model and to this request's conversation; its
   * `thinkingTokens` count toward max_tokens first, the text and tool calls get what is left.
   * `cacheWrites` are the prompt-cache entries the answer writes, for the caller to store when the
   * answer is sent.
   */
  private buildMessage(
    body: Json,
    call: RecordedCall,
    reply: Exclude<ScriptedReply, { kind: 'error' }>
  ): { message: Json; cacheWrites: Array<[string, number]> } {
    const offered = toolNames(body)
    const tc = isObject(body.tool_choice) ? body.tool_choice : undefined
    const format = outputFormat(body)
    const uses =
      reply.kind === 'tool_use'
        ? [{ name: reply.name, input: reply.input }]
        : reply.kind === 'tool_uses'
          ? reply.calls
          : []
    if (reply.kind === 'tool_uses' && uses.length === 0) {
      throw scriptBug("a 'tool_uses' reply needs at least one call")
    }
    if (reply.kind === 'json' && !format) {
      throw scriptBug("a 'json' reply needs output_config.format in the request")
    }
    for (const use of uses) {
      if (!offered.includes(use.name)) {
        throw scriptBug(
          `scripted tool_use '${use.name}' is not among the request's tools [${offered.join(', ')}]`
        )
      }
      // strict tools: "Tool `input` strictly follows the `input_schema`"
      const tool = (body.tools as unknown[]).find(t => isObject(t) && t.name === use.name) as Json
      if (tool.strict === true && isObject(tool.input_schema)) {
        const errors = schemaErrors(tool.input_schema, use.input)
        if (errors) {
          throw scriptBug(
            `scripted tool_use '${use.name}' does not match the strict tool's input_schema: ${errors}`
          )
        }
      }
    }
    if (reply.kind !== 'refusal') {
      if (tc?.type === 'tool' && (uses.length === 0 || uses.some(u => u.name !== tc.name))) {
        throw scriptBug(
          `the request forces tool '${String(tc.name)}' (tool_choice) but the scripted reply is ${describe(reply)}`
        )
      }
      if (tc?.type === 'any' && uses.length === 0) {
        throw scriptBug(
          `the request forces a tool call (tool_choice any) but the scripted reply is ${describe(reply)}`
        )
      }
    }
    if (tc?.type === 'none' && uses.length > 0) {
      throw scriptBug(
        `the request forbids tools (tool_choice none) but the scripted reply is ${describe(reply)}`
      )
    }
    if (tc?.disable_parallel_tool_use === true && uses.length > 1) {
      throw scriptBug(
        `the request disables parallel tool use but the scripted reply has ${uses.length} tool_use blocks`
      )
    }

    // the thinking block, if the model thinks for this request
    const rules = rulesFor(call.model)
    let thinkingBlock: Json | undefined
    if (rules && thinkingWanted(rules, body)) {
      const display =
        isObject(body.thinking) && typeof body.thinking.display === 'string'
          ? body.thinking.display
          : rules.defaultDisplay
      const prefixes = this.conversationPrefixes(body, rules.family)
      thinkingBlock = {
        type: 'thinking',
        thinking: display === 'summarized' ? (reply.thinking ?? 'Considering the request.') : '',
        signature: this.sign(rules.family, prefixes[prefixes.length - 1] ?? '')
      }
    }
    const thinkingTokens = thinkingBlock ? Math.max(0, reply.thinkingTokens ?? 0) : 0

    let text: string | undefined = reply.kind === 'json' ? JSON.stringify(reply.value) : reply.text
    const estimatedOutput =
      (text !== undefined ? estimateTokens(text) : 0) +
      uses.reduce((sum, u) => sum + estimateTokens({ name: u.name, input: u.input }), 0)
    let outputTokens = reply.outputTokens ?? Math.max(1, estimatedOutput)
    let stopReason =
      reply.kind === 'refusal' ? 'refusal' : uses.length > 0 ? 'tool_use' : 'end_turn'
    let toolUses = uses
    const budget = call.maxTokens - thinkingTokens
    if (thinkingBlock && budget <= 0) {
      // "a request with a small `max_tokens` can stop with `stop_reason: "max_tokens"` after a
      // `thinking` block and before any text" (https://platform.claude.com/docs/en/models/haiku-5-5/whats-new-haiku-5-5)
      stopReason = 'max_tokens'
      outputTokens = 0
      text = undefined
      toolUses = []
    } else if (outputTokens > budget) {
      // the model ran out of max_tokens: truncated text, no (incomplete) tool calls
      stopReason = 'max_tokens'
      outputTokens = budget
      text = text?.slice(0, budget * 4)
      toolUses = []
    }
    // structured outputs: "Valid JSON matching your schema in the response's text content block",
    // unless max_tokens cut it ("output may be incomplete and not match your schema") or it is a refusal
    if (format && stopReason !== 'max_tokens' && (reply.kind === 'text' || reply.kind === 'json')) {
      let value: unknown
      try {
        value = JSON.parse(text ?? '')
      } catch {
        throw scriptBug(
          `the request asks for structured output (output_config.format) but the scripted text is not JSON: ${JSON.stringify((text ?? '').slice(0, 80))}`
        )
      }
      const errors = schemaErrors(format.schema as Json, value)
      if (errors) {
        throw scriptBug(
          `the scripted ${reply.kind} reply does not match output_config.format.schema: ${errors}`
        )
      }
    }

    const content: Json[] = []
    if (thinkingBlock) content.push(thinkingBlock)
    if (text !== undefined && text !== '') content.push({ type: 'text', text, citations: null })
    for (const use of toolUses) {
      const id = `toolu_${++this.toolUseCounter}`
      content.push({
        type: 'tool_use',
        id,
        name: use.name,
        input: use.input,
        caller: { type: 'direct' }
      })
      if (thinkingBlock && rules) {
        this.thinkingByToolUse.set(id, { family: rules.family, blocks: [thinkingBlock] })
      }
    }

    const { usage, cacheCreation, cacheWrites } = this.accountInput(body, call.model)
    usage.output_tokens = Math.min(call.maxTokens, thinkingTokens + outputTokens)
    call.usage = usage
    const message = {
      id: `msg_test_${String(++this.messageCounter).padStart(6, '0')}`,
      type: 'message',
      role: 'assistant',
      model: call.model,
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      stop_details:
        reply.kind === 'refusal'
          ? {
              type: 'refusal',
              category: reply.category ?? null,
              explanation: reply.explanation ?? null
            }
          : null,
      usage: { ...usage, cache_creation: cacheCreation, service_tier: 'standard' }
    }
    return { message, cacheWrites }
  }

  /**
   * Prompt-caching emulation. The prompt is split into parts in API order (tool definitions,
   * system blocks, message content blocks); each part's tokens are `estimateTokens` of it. A part
   * carrying `cache_control` is a breakpoint; the prefix up to and including a part is identified by
   * a hash chain over the model and the parts' exact content (cache_control itself excluded).
   *
   * - read: the longest prefix ending at or before the last breakpoint that an earlier successful
   *   call wrote (for the same model) -> cache_read_input_tokens.
   * - creation: the prefix up to the last breakpoint, beyond what was read -> cache_creation.
   *   Every breakpoint prefix of at least `minCacheTokens` tokens is written for later calls
   *   (returned as `cacheWrites`; the caller stores them once the answer is sent).
   * - input_tokens: everything else (after the last breakpoint).
   * A request whose last-breakpoint prefix is below `minCacheTokens` neither reads nor writes.
   * Entries never expire (tests are shorter than the 5-minute TTL).
   */
  private accountInput(
    body: Json,
    model: string
  ): {
    usage: Usage
    cacheCreation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number }
    cacheWrites: Array<[string, number]>
  } {
    const parts = promptParts(body)
    const keys: string[] = []
    const prefixTokens: number[] = []
    let key = createHash('sha256')
      .update(JSON.stringify(['model', model]))
      .digest('hex')
    let running = 0
    for (const p of parts) {
      key = createHash('sha256').update(key).update(p.serialized).digest('hex')
      running += p.tokens
      keys.push(key)
      prefixTokens.push(running)
    }
    const total = running
    const cacheCreation = { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 }
    let lastBreakpoint = -1
    parts.forEach((p, i) => {
      if (p.ttl !== undefined) lastBreakpoint = i
    })
    const usage: Usage = {
      input_tokens: total,
      output_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0
    }
    if (lastBreakpoint < 0 || (prefixTokens[lastBreakpoint] ?? 0) < this.minCacheTokens) {
      return { usage, cacheCreation, cacheWrites: [] }
    }

    let readEnd = -1
    let read = 0
    for (let i = lastBreakpoint; i >= 0; i--) {
      const hit = this.cache.get(keys[i] ?? '')
      if (hit !== undefined) {
        readEnd = i
        read = hit
        break
      }
    }

    let creation = 0
    let segmentStart = read
    const cacheWrites: Array<[string, number]> = []
    parts.forEach((p, i) => {
      if (p.ttl === undefined || i <= readEnd) return
      const end = prefixTokens[i] ?? 0
      const segment = end - segmentStart
      creation += segment
      if (p.ttl === '1h') cacheCreation.ephemeral_1h_input_tokens += segment
      else cacheCreation.ephemeral_5m_input_tokens += segment
      segmentStart = end
      if (end >= this.minCacheTokens) cacheWrites.push([keys[i] ?? '', end])
    })

    usage.cache_read_input_tokens = read
    usage.cache_creation_input_tokens = creation
    usage.input_tokens = total - read - creation
    return { usage, cacheCreation, cacheWrites }
  }
}

/**
 * Whether the answer starts with a thinking block: not with a forced tool ("the response starts with
 * the tool call and has no `thinking` block", Haiku 5.5) or `disabled`; with `enabled` or `adaptive`;
 * with `between_tools` only after a tool result ("Turn off up-front thinking"); else as the model's
 * default.
 */
function thinkingWanted(rules: ModelRules, body: Json): boolean {
  const tc = isObject(body.tool_choice) ? body.tool_choice.type : undefined
  if (tc === 'tool' || tc === 'any') return false
  const type = thinkingType(body)
  if (type === 'disabled') return false
  if (type === 'enabled' || type === 'adaptive') return true
  if (type === 'between_tools') {
    const messages = body.messages as Json[]
    const last = messages[messages.length - 1]
    return contentBlocks(last).some(b => isObject(b) && b.type === 'tool_result')
  }
  return rules.emitsThinking
}

function describe(reply: ScriptedReply): string {
  switch (reply.kind) {
    case 'tool_use':
      return `tool_use '${reply.name}'`
    case 'tool_uses':
      return `tool_uses [${reply.calls.map(c => c.name).join(', ')}]`
    case 'text':
      return 'text'
    case 'json':
      return 'json'
    case 'refusal':
      return 'refusal'
    case 'error':
      return `error ${reply.status}`
  }
}
