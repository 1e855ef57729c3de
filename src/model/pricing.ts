import type { Usage } from '../loop/types.js'

/**
 * Published per-model prices in US dollars per million tokens, as read in November 2026 on
 * Anthropic's pricing page (https://platform.claude.com/docs/en/about-claude/pricing) and the model
 * pages (https://platform.claude.com/docs/en/models/overview, .../sonnet-5-5/whats-new-sonnet-5-5,
 * .../opus-5-5/whats-new-opus-5-5, .../haiku-5-5/overview, .../fable-5-1/whats-new-fable-5-1). The
 * one place to update when prices change. Cache writes are the 5-minute kind (the default of
 * cache_control).
 */
export interface Price {
  input: number
  output: number
  cacheWrite: number
  cacheRead: number
}

/** A model's price; `above` holds a dearer price for prompts longer than `tokens` (Haiku 5.5). */
export interface ModelPrice extends Price {
  above?: { tokens: number; price: Price }
}

const price = (input: number, output: number, cacheRead = input * 0.1): Price => ({
  input,
  output,
  cacheWrite: input * 1.25,
  cacheRead
})

/** Exact model ids (their aliases; dated ids and cloud ids are reduced to these by `modelFamilyId`). */
export const PRICES: Readonly<Record<string, ModelPrice>> = {
  // cache reads: 2.5 % of input on Fable 5.1 and Mythos 5.1, 5 % on Opus 5.5 and Sonnet 5.5
  'claude-fable-5-1': price(10, 50, 0.25),
  'claude-mythos-5-1': price(10, 50, 0.25),
  'claude-fable-5': price(10, 50),
  'claude-mythos-5': price(10, 50),
  'claude-opus-5-5': price(4, 20, 0.2),
  'claude-sonnet-5-5': price(2, 10, 0.1),
  // up to 100K prompt tokens, then the dearer tier for the whole request
  'claude-haiku-5-5': {
    ...price(0.1, 0.5, 0.01),
    above: { tokens: 100_000, price: price(0.5, 2.5, 0.05) }
  },
  'claude-sonnet-5': price(2, 10),
  'claude-opus-5': price(5, 25),
  'claude-opus-4-8': price(5, 25),
  'claude-opus-4-7': price(5, 25),
  'claude-opus-4-6': price(5, 25),
  'claude-opus-4-5': price(5, 25),
  'claude-opus-4-1': price(15, 75),
  'claude-opus-4-0': price(15, 75),
  'claude-sonnet-4-6': price(3, 15),
  'claude-sonnet-4-5': price(3, 15),
  'claude-sonnet-4-0': price(3, 15),
  'claude-haiku-4-5': price(1, 5),
  'claude-3-7-sonnet': price(3, 15),
  'claude-3-5-sonnet': price(3, 15),
  'claude-3-5-haiku': price(0.8, 4),
  'claude-3-opus': price(15, 75),
  'claude-3-sonnet': price(3, 15),
  'claude-3-haiku': price(0.25, 1.25)
}

const FAMILIES = ['fable', 'mythos', 'opus', 'sonnet', 'haiku'] as const

/** The listed id of `ids` with the dearest output, then input, then cache read. */
function dearest(ids: readonly string[]): string {
  const rank = (id: string) => {
    const p = PRICES[id]!
    return [p.output, p.input, p.cacheRead]
  }
  return [...ids].sort((a, b) => {
    const [x, y] = [rank(a), rank(b)]
    return y[0]! - x[0]! || y[1]! - x[1]! || y[2]! - x[2]! || a.localeCompare(b)
  })[0]!
}

/**
 * For an id the table does not list: the dearest listed model of its family. A new Haiku is priced
 * as a Haiku, not as the dearest model, so a modest max-cost-usd still buys a review; an old one is
 * never priced below what it may cost.
 */
const FAMILY: ReadonlyArray<[family: string, id: string]> = FAMILIES.map(name => [
  name,
  dearest(Object.keys(PRICES).filter(id => id.includes(`-${name}`)))
])

/** With no family either, the dearest current model: the budget errs on the safe side. */
const DEAREST = dearest([
  'claude-fable-5-1',
  'claude-opus-5-5',
  'claude-sonnet-5-5',
  'claude-haiku-5-5'
])

/**
 * The id a model is priced and known by: the Bedrock form (`anthropic.claude-sonnet-4-6-v1:0`, with a
 * cross-region prefix such as `us.`, `eu.`, `apac.`, `jp.`, `us-gov.` or `global.`), the Vertex form
 * (`claude-sonnet-4-5@20250929`) and dated ids (`claude-haiku-4-5-20251001`) lose what is not the
 * model's alias; `claude-opus-4` and `claude-sonnet-4` become their `-0` ids.
 */
export function modelFamilyId(model: string): string {
  return model
    .toLowerCase()
    .replace(/^arn:.*\//, '')
    .replace(/^((?:[a-z]{2,6}(?:-[a-z]+)?|anthropic)\.)+/, '')
    .replace(/@.*$/, '')
    .replace(/-v\d+(:\d+)?$/, '')
    .replace(/-\d{8}$/, '')
    .replace(/^claude-(opus|sonnet)-4$/, 'claude-$1-4-0')
}

export type PriceSource =
  { kind: 'exact'; id: string } | { kind: 'family'; id: string } | { kind: 'unknown'; id: string }

/** The price of a model id, and where it came from: its own entry, its family's newest, or the dearest. */
export function priceOf(model: string): { price: ModelPrice; source: PriceSource } {
  const id = modelFamilyId(model)
  const exact = PRICES[id]
  if (exact) return { price: exact, source: { kind: 'exact', id } }
  const family = FAMILY.find(([name]) => id.includes(name))
  if (family) return { price: PRICES[family[1]]!, source: { kind: 'family', id: family[1] } }
  return { price: PRICES[DEAREST]!, source: { kind: 'unknown', id: DEAREST } }
}

/** What the log says about a model priced by its family or at the dearest price; undefined when listed. */
export function priceWarning(model: string): string | undefined {
  const { price: p, source } = priceOf(model)
  if (source.kind === 'exact') return undefined
  const at = `$${p.input}/$${p.output} per million input/output tokens`
  return source.kind === 'family'
    ? `No published price is listed for '${model}'; its cost is counted at the price of ${source.id} (${at}), the dearest listed model of its family.`
    : `No published price is listed for '${model}' and its family is unknown; its cost is counted at the dearest current price (${source.id}, ${at}).`
}

/** The price that applies to a request of `promptTokens` (tiered prices switch for the whole request). */
export function tierOf(p: ModelPrice, promptTokens: number): Price {
  return p.above && promptTokens > p.above.tokens ? p.above.price : p
}

export function costOf(model: string, u: Omit<Usage, 'costUsd'>): number {
  const prompt = u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens
  const p = tierOf(priceOf(model).price, prompt)
  const usd =
    (u.inputTokens * p.input +
      u.outputTokens * p.output +
      u.cacheWriteTokens * p.cacheWrite +
      u.cacheReadTokens * p.cacheRead) /
    1_000_000
  return Math.round(usd * 1e6) / 1e6
}
