import type { Usage } from '../loop/types.js'
import { costOf } from './pricing.js'

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
