import type { Usage } from '../loop/state.js'
import { costOf } from './pricing.js'

/** The slice of the Messages API the reviewer and fixer use, as plain data. */
export type ContentBlock =
  | { type: 'text'; text: string; cache_control?: CacheControl }
  | { type: 'tool_use'; id: string; name: string; input: unknown; cache_control?: CacheControl }
  | {
      type: 'tool_result'
      tool_use_id: string
      content: string
      is_error?: boolean
      cache_control?: CacheControl
    }

export interface CacheControl {
  type: 'ephemeral'
}

export interface Message {
  role: 'user' | 'assistant'
  content: ContentBlock[]
}

export interface ToolSpec {
  name: string
  description: string
  input_schema: Record<string, unknown>
  cache_control?: CacheControl
}

export interface ModelRequest {
  model: string
  maxTokens: number
  system: Array<{ type: 'text'; text: string; cache_control?: CacheControl }>
  messages: Message[]
  tools: ToolSpec[]
  toolChoice?: { type: 'auto' } | { type: 'any' } | { type: 'tool'; name: string }
  signal?: AbortSignal
}

export interface ModelResponse {
  content: ContentBlock[]
  stopReason: string
  usage: Usage
}

/** Port: one Messages API call. The adapter is the Anthropic SDK; tests point it at a local server. */
export interface ModelClient {
  create(request: ModelRequest): Promise<ModelResponse>
}

/** Usage of one response, priced. */
export function toUsage(
  model: string,
  u: {
    input_tokens?: number | null
    output_tokens?: number | null
    cache_read_input_tokens?: number | null
    cache_creation_input_tokens?: number | null
  }
): Usage {
  const usage = {
    inputTokens: u.input_tokens ?? 0,
    outputTokens: u.output_tokens ?? 0,
    cacheReadTokens: u.cache_read_input_tokens ?? 0,
    cacheWriteTokens: u.cache_creation_input_tokens ?? 0
  }
  return { ...usage, costUsd: costOf(model, usage) }
}

/** A rough token count of text (4 characters a token), for budgets before a call is made. */
export function roughTokens(chars: number): number {
  return Math.ceil(chars / 4)
}
