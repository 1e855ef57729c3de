import Anthropic from '@anthropic-ai/sdk'
import type { ContentBlock, ModelClient, ModelRequest, ModelResponse } from '../ports/index.js'
import { toUsage } from './client.js'
import type { ProviderName } from './provider.js'

const SERVICE: Record<ProviderName, string> = {
  anthropic: 'The Anthropic API',
  bedrock: 'Amazon Bedrock',
  vertex: 'Vertex AI'
}

/** What to check when the service refuses the credentials (401) or the model (403). */
function credentialsHint(provider: ProviderName, model: string): { 401: string; 403: string } {
  switch (provider) {
    case 'anthropic':
      return {
        401: "The Anthropic API rejected the key (401): check the secret passed as 'anthropic-api-key'.",
        403: `The Anthropic API key may not use ${model} (403): check the key's workspace and model access.`
      }
    case 'bedrock':
      return {
        401: 'Amazon Bedrock rejected the AWS credentials (401): check the aws-actions/configure-aws-credentials step (or AWS_BEARER_TOKEN_BEDROCK).',
        403: `Amazon Bedrock refused ${model} (403): check that the AWS credentials are valid, that the role may call bedrock:InvokeModel on it, and that access to the model is enabled in the region ('aws-region').`
      }
    case 'vertex':
      return {
        401: 'Vertex AI rejected the Google credentials (401): check the google-github-actions/auth step.',
        403: `Vertex AI refused ${model} (403): check that the service account has roles/aiplatform.user in 'vertex-project-id' and that the model is enabled in Model Garden.`
      }
  }
}

const MODEL_IDS: Record<ProviderName, string> = {
  anthropic: '',
  bedrock:
    ' Bedrock model ids look like us.anthropic.claude-sonnet-4-6-v1:0 and must be available in the region.',
  vertex:
    " Vertex model ids look like claude-sonnet-4-6 or claude-sonnet-4-5@20250929 and must be available in 'vertex-region'."
}

/** Turns an SDK error into what the user must do about it. */
export function explainModelError(
  e: unknown,
  model: string,
  provider: ProviderName = 'anthropic'
): Error {
  const service = SERVICE[provider]
  if (e instanceof Anthropic.AuthenticationError) {
    return new Error(credentialsHint(provider, model)[401])
  }
  if (e instanceof Anthropic.PermissionDeniedError) {
    return new Error(credentialsHint(provider, model)[403])
  }
  if (e instanceof Anthropic.NotFoundError) {
    return new Error(
      `The model '${model}' does not exist (404): check 'review-model' and 'fix-model'.${MODEL_IDS[provider]}`
    )
  }
  if (e instanceof Anthropic.RateLimitError) {
    return new Error(
      `${service} kept rate-limiting the requests (429) after retries; re-run later or lower the load.`
    )
  }
  if (e instanceof Anthropic.APIError && (e.status === 529 || e.status === 503)) {
    return new Error(`${service} stayed overloaded (${e.status}) after retries; re-run later.`)
  }
  if (e instanceof Anthropic.APIConnectionTimeoutError) {
    return new Error(
      `${service} did not answer in time; raise review-timeout-minutes or fix-timeout-minutes, or re-run.`
    )
  }
  if (e instanceof Anthropic.APIError) {
    const cause = e.cause instanceof Error ? ` (${e.cause.message})` : ''
    return new Error(`${service} failed (${e.status ?? 'no status'}): ${e.message}${cause}`)
  }
  return e instanceof Error ? e : new Error(String(e))
}

/**
 * The part of an SDK client the adapter uses: `Anthropic`, `AnthropicBedrock` and `AnthropicVertex`
 * all have it.
 */
export interface MessagesApi {
  messages: {
    create(
      body: Anthropic.MessageCreateParamsNonStreaming,
      options?: Anthropic.RequestOptions
    ): PromiseLike<Anthropic.Message>
  }
}

/** Retries and timeout shared by every provider's SDK client. */
export function sdkOptions(timeoutMs: number): { maxRetries: number; timeout: number } {
  // 429, 529 and connection errors are retried with backoff (honouring retry-after)
  return { maxRetries: 4, timeout: timeoutMs }
}

/** The ModelClient port over any SDK client: request and response mapping, errors explained. */
export function messagesClient(
  client: MessagesApi,
  provider: ProviderName = 'anthropic'
): ModelClient {
  return {
    async create(req: ModelRequest): Promise<ModelResponse> {
      try {
        const response = await client.messages.create(
          {
            model: req.model,
            max_tokens: req.maxTokens,
            system: req.system,
            messages: req.messages as Anthropic.MessageParam[],
            ...(req.tools.length ? { tools: req.tools as Anthropic.Tool[] } : {}),
            ...(req.toolChoice ? { tool_choice: req.toolChoice } : {}),
            ...(req.outputSchema
              ? { output_config: { format: { type: 'json_schema', schema: req.outputSchema } } }
              : {})
          },
          { signal: req.signal }
        )
        const content: ContentBlock[] = []
        for (const block of response.content) {
          if (block.type === 'text') content.push({ type: 'text', text: block.text })
          else if (block.type === 'tool_use')
            content.push({ type: 'tool_use', id: block.id, name: block.name, input: block.input })
          // kept exactly as received, to be sent back unchanged
          else if (block.type === 'thinking')
            content.push({ type: 'thinking', thinking: block.thinking, signature: block.signature })
          else if (block.type === 'redacted_thinking')
            content.push({ type: 'redacted_thinking', data: block.data })
        }
        return {
          content,
          stopReason: response.stop_reason ?? 'end_turn',
          usage: toUsage(req.model, response.usage)
        }
      } catch (e) {
        // the caller's deadline (review-timeout-minutes, fix-timeout-minutes) ended the call and its retries
        if (req.signal?.aborted)
          throw new Error(
            `${SERVICE[provider]} did not answer within the time limit, retries included; raise review-timeout-minutes or fix-timeout-minutes, or re-run.`
          )
        throw explainModelError(e, req.model, provider)
      }
    }
  }
}

export function createAnthropicClient(options: {
  apiKey: string
  baseUrl?: string
  timeoutMs: number
}): ModelClient {
  return messagesClient(
    new Anthropic({
      apiKey: options.apiKey,
      baseURL: options.baseUrl,
      ...sdkOptions(options.timeoutMs)
    })
  )
}
