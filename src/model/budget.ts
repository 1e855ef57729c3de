import type { Usage } from '../loop/types.js'
import { addUsage, zeroUsage } from '../loop/usage.js'
import { roughTokens } from './client.js'
import { priceOf, tierOf } from './pricing.js'

/**
 * The loop's cumulative budget (max-cost-usd). Before every call the budget reserves what the call
 * is likely to cost: its whole prompt as a cache write (the dearest way to send it) and a realistic
 * output (`outputReserve`, not the whole `max_tokens`, which would stop loops at a fraction of the
 * cap). A call that outgrows its reserve can pass the cap, but only that one call: the next is
 * refused.
 */
export class Budget {
  private used: Usage = zeroUsage()

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
    if (this.maxUsd === undefined) return true
    return this.spentUsd + Budget.reserve(model, promptChars, outputReserve) <= this.maxUsd
  }

  record(usage: Usage): void {
    this.used = addUsage(this.used, usage)
  }
}
