import type { Usage } from './types.js'

export function zeroUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 }
}

function combine(a: Usage, b: Usage, sign: 1 | -1): Usage {
  return {
    inputTokens: a.inputTokens + sign * b.inputTokens,
    outputTokens: a.outputTokens + sign * b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + sign * b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + sign * b.cacheWriteTokens,
    costUsd: Math.round((a.costUsd + sign * b.costUsd) * 1e6) / 1e6
  }
}

export function addUsage(a: Usage, b: Usage): Usage {
  return combine(a, b, 1)
}

/** What was used between two readings of a running total. */
export function usageSince(after: Usage, before: Usage): Usage {
  return combine(after, before, -1)
}
