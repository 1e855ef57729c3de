import type { Usage } from '../loop/types.js'

/**
 * Published per-model prices in US dollars per million tokens, from Anthropic's pricing page
 * (platform.claude.com/docs/en/about-claude/pricing) as read in November 2026. The one place to
 * update when prices change. Cache writes are the 5-minute kind (the default of cache_control).
 */
export interface Price {
  input: number
  output: number
  cacheWrite: number
  cacheRead: number
}

const price = (input: number, output: number, cacheReadFactor = 0.1): Price => ({
  input,
  output,
  cacheWrite: input * 1.25,
  cacheRead: input * cacheReadFactor
})

/** Longest matching prefix wins, so dated model ids (claude-sonnet-4-5-20250929) find their family. */
export const PRICES: ReadonlyArray<[prefix: string, price: Price]> = [
  ['claude-fable-5-1', price(10, 50, 0.025)],
  ['claude-mythos-5-1', price(10, 50, 0.025)],
  ['claude-fable-5', price(10, 50)],
  ['claude-mythos-5', price(10, 50)],
  ['claude-opus-5', price(5, 25)],
  ['claude-opus-4-5', price(5, 25)],
  ['claude-opus-4-6', price(5, 25)],
  ['claude-opus-4-7', price(5, 25)],
  ['claude-opus-4-8', price(5, 25)],
  ['claude-opus-4-1', price(15, 75)],
  ['claude-opus-4', price(15, 75)],
  ['claude-sonnet-5', price(2, 10)],
  ['claude-sonnet-4', price(3, 15)],
  ['claude-haiku-4-5', price(1, 5)],
  ['claude-3-5-haiku', price(0.8, 4)]
]

/** The dearest listed price: unknown models are charged high, so a budget errs on the safe side. */
const FALLBACK = price(15, 75)

/**
 * The price of a model id, also in its Bedrock form (`anthropic.claude-sonnet-4-6-v1:0`, with a
 * cross-region prefix such as `us.`, `eu.`, `apac.`, `jp.`, `us-gov.` or `global.`) and its Vertex form
 * (`claude-sonnet-4-5@20250929`): prefixes and the `@version` are dropped, and the `-v1:0` suffix
 * does not disturb the prefix match.
 */
export function priceOf(model: string): { price: Price; known: boolean } {
  const id = model.replace(/^((?:[a-z]{2,6}(?:-[a-z]+)?|anthropic)\.)+/, '').replace(/@.*$/, '')
  let best: [string, Price] | undefined
  for (const entry of PRICES) {
    if (id.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry
  }
  return best ? { price: best[1], known: true } : { price: FALLBACK, known: false }
}

export function costOf(model: string, u: Omit<Usage, 'costUsd'>): number {
  const { price: p } = priceOf(model)
  const usd =
    (u.inputTokens * p.input +
      u.outputTokens * p.output +
      u.cacheWriteTokens * p.cacheWrite +
      u.cacheReadTokens * p.cacheRead) /
    1_000_000
  return Math.round(usd * 1e6) / 1e6
}
