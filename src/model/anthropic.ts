import Anthropic from '@anthropic-ai/sdk'
import type { ModelClient, ModelRequest, ModelResponse, ContentBlock } from './client.js'
import { toUsage } from './client.js'

/** Turns an SDK error into what the user must do about it. */
export function explainModelError(e: unknown, model: string): Error {
  if (e instanceof Anthropic.AuthenticationError) {
    return new Error(
      "The Anthropic API rejected the key (401): check the secret passed as 'anthropic-api-key'."
    )
  }
  if (e instanceof Anthropic.PermissionDeniedError) {
    return new Error(
      `The Anthropic API key may not use ${model} (403): check the key's workspace and model access.`
    )
  }
  if (e instanceof Anthropic.NotFoundError) {
    return new Error(
      `The model '${model}' does not exist (404): check 'review-model' and 'fix-model'.`
    )
  }
  if (e instanceof Anthropic.RateLimitError) {
    return new Error(
      'The Anthropic API kept rate-limiting the requests (429) after retries; re-run the workflow later or lower the load.'
    )
  }
  if (e instanceof Anthropic.APIError && (e.status === 529 || e.status === 503)) {
    return new Error(
      `The Anthropic API stayed overloaded (${e.status}) after retries; re-run the workflow later.`
    )
  }
  if (e instanceof Anthropic.APIConnectionTimeoutError) {
    return new Error(
      'The Anthropic API did not answer in time; raise review-timeout-minutes or fix-timeout-minutes, or re-run.'
    )
  }
  if (e instanceof Anthropic.APIError) {
    return new Error(`The Anthropic API failed (${e.status ?? 'no status'}): ${e.message}`)
  }
  return e instanceof Error ? e : new Error(String(e))
}

export function createAnthropicClient(options: {
  apiKey: string
  baseUrl?: string
  timeoutMs: number
}): ModelClient {
  const client = new Anthropic({
    apiKey: options.apiKey,
    baseURL: options.baseUrl,
    // 429, 529 and connection errors are retried with backoff (honouring retry-after)
    maxRetries: 4,
    timeout: options.timeoutMs
  })
  return {
    async create(req: ModelRequest): Promise<ModelResponse> {
      try {
        const response = await client.messages.create(
          {
            model: req.model,
            max_tokens: req.maxTokens,
            system: req.system,
            messages: req.messages as Anthropic.MessageParam[],
            tools: req.tools as Anthropic.Tool[],
            ...(req.toolChoice ? { tool_choice: req.toolChoice } : {})
          },
          { signal: req.signal }
        )
        const content: ContentBlock[] = []
        for (const block of response.content) {
          if (block.type === 'text') content.push({ type: 'text', text: block.text })
          else if (block.type === 'tool_use')
            content.push({ type: 'tool_use', id: block.id, name: block.name, input: block.input })
        }
        return {
          content,
          stopReason: response.stop_reason ?? 'end_turn',
          usage: toUsage(req.model, response.usage)
        }
      } catch (e) {
        throw explainModelError(e, req.model)
      }
    }
  }
}
