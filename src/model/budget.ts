import type { Usage } from '../loop/types.js'
import { addUsage, zeroUsage } from '../loop/usage.js'
import { roughTokens } from './client.js'
import { priceOf, tierOf } from './pricing.js'

/**
 * The loop's cumulative budget (max-cost-usd). Before every call the budget reserves what the call
 * is likely to cost: its whole prompt as a cache write (the dearest way to send it) and a realistic
 * output (`outputReserve`, not the whole `max_tokens`, which would stop loops at a fraction of the
 * cap). A call that outgrows its reserve can pass the cap, but only that one call: the next is
 * refused. Calls made in parallel (the batches of a review) hold their reserve until they answer, so
 * together they stay within the cap as one call would.
 */
export class Budget {
  private used: Usage = zeroUsage()
  private held = 0

  constructor(
    private readonly spentBefore: number,
    private readonly maxUsd: number | undefined
  ) {}

  get usage(): Usage {
    return this.used
  }

  get spentUsd(): number {
    return this.spentBefore + this.used.costUsd
  }

  /** What a call is reserved at: the prompt as a cache write, plus `outputReserve` output tokens. */
  static reserve(model: string, promptChars: number, outputReserve: number): number {
    const tokens = roughTokens(promptChars)
    const price = tierOf(priceOf(model).price, tokens)
    return (tokens * price.cacheWrite + outputReserve * price.output) / 1_000_000
  }

  allows(model: string, promptChars: number, outputReserve: number): boolean {
    return this.allowsUsd(Budget.reserve(model, promptChars, outputReserve))
  }

  /** Whether `usd` more fits the cap, besides what calls under way hold. */
  allowsUsd(usd: number): boolean {
    if (this.maxUsd === undefined) return true
    return this.spentUsd + this.held + usd <= this.maxUsd
  }

  /** What is left of the cap (undefined without one), calls under way aside. */
  get leftUsd(): number | undefined {
    return this.maxUsd === undefined ? undefined : this.maxUsd - this.spentUsd - this.held
  }

  /** Holds a call's reserve until `release`; undefined when the cap does not allow the call. */
  hold(model: string, promptChars: number, outputReserve: number): number | undefined {
    const usd = Budget.reserve(model, promptChars, outputReserve)
    if (!this.allowsUsd(usd)) return undefined
    this.held += usd
    return usd
  }

  release(usd: number): void {
    this.held = Math.max(0, this.held - usd)
  }

  record(usage: Usage): void {
    this.used = addUsage(this.used, usage)
  }
}
