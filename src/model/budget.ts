import type { Usage } from '../loop/types.js'
import { addUsage, zeroUsage } from '../loop/usage.js'
import { roughTokens } from './client.js'
import { priceOf } from './pricing.js'

/**
 * The loop's cumulative budget (max-cost-usd). Checked before every call with the dearest the call
 * could cost, so the loop stops before the budget is exceeded, not after.
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

  /** Worst-case cost of a call: all input uncached, all max_tokens of output. */
  static worstCase(model: string, promptChars: number, maxTokens: number): number {
    const { price } = priceOf(model)
    return (roughTokens(promptChars) * price.cacheWrite + maxTokens * price.output) / 1_000_000
  }

  allows(model: string, promptChars: number, maxTokens: number): boolean {
    if (this.maxUsd === undefined) return true
    return this.spentUsd + Budget.worstCase(model, promptChars, maxTokens) <= this.maxUsd
  }

  record(usage: Usage): void {
    this.used = addUsage(this.used, usage)
  }
}
