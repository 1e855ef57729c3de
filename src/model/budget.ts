import type { Usage } from '../loop/types.js'
import { addUsage, zeroUsage } from '../loop/usage.js'
import { roughTokens } from './client.js'
import { priceOf, tierOf } from './pricing.js'

/** A call's share of the budget while it runs (`Budget.acquire`): give it back with `release`. */
export interface Grant {
  /** What the call holds: its prompt as a cache write and `maxTokens` of output. */
  usd: number
  /** The call's max_tokens: what it asked for, or less when the budget has less left for it. */
  maxTokens: number
}

/**
 * The loop's cumulative budget (max-cost-usd). Before a call, the budget checks that the call's
 * likely cost fits: its whole prompt as a cache write (the dearest way to send it) and a realistic
 * output (`outputReserve`, not the whole `max_tokens`, which would stop loops at a fraction of the
 * cap). A call made through `acquire` then holds its worst case while it runs: its max_tokens is cut
 * to what the cap has left after the calls in flight hold theirs, so no answer, however long, and no
 * number of calls in parallel, can pass the cap. When what is left is less than a call's reserve, it
 * waits for the calls in flight to answer (they may leave room), and is refused when none are.
 */
export class Budget {
  private used: Usage = zeroUsage()
  private held = 0
  private inFlight = 0
  private waiters: Array<() => void> = []

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

  /**
   * A call's grant: its max_tokens (at most `maxTokens`, at least `outputReserve`) and the worst case
   * it holds until `settle`. When the cap leaves less than the reserve, it waits for a call in flight
   * to settle, and tries again; undefined when no call is in flight (the budget refuses it) or when
   * `signal` aborts the wait.
   */
  async acquire(
    model: string,
    promptChars: number,
    want: { maxTokens: number; outputReserve: number },
    signal?: AbortSignal
  ): Promise<Grant | undefined> {
    for (;;) {
      const grant = this.grant(model, promptChars, want)
      if (grant) return grant
      if (this.inFlight === 0 || signal?.aborted) return undefined
      await this.settled(signal)
    }
  }

  /**
   * Gives a grant back, recording the call's `usage` when it answered (in the same step, so a call
   * waiting for room never sees the grant gone and the spend not yet there); calls waiting try again.
   */
  settle(grant: Grant, usage?: Usage): void {
    if (usage) this.record(usage)
    this.held = Math.max(0, this.held - grant.usd)
    this.inFlight = Math.max(0, this.inFlight - 1)
    for (const wake of this.waiters.splice(0)) wake()
  }

  private grant(
    model: string,
    promptChars: number,
    want: { maxTokens: number; outputReserve: number }
  ): Grant | undefined {
    const tokens = roughTokens(promptChars)
    const price = tierOf(priceOf(model).price, tokens)
    const promptUsd = (tokens * price.cacheWrite) / 1_000_000
    const left = this.leftUsd
    const room = left === undefined ? Infinity : ((left - promptUsd) * 1_000_000) / price.output
    const maxTokens = Math.floor(Math.min(want.maxTokens, room))
    if (maxTokens < Math.min(want.outputReserve, want.maxTokens)) return undefined
    const usd = promptUsd + (maxTokens * price.output) / 1_000_000
    this.held += usd
    this.inFlight++
    return { usd, maxTokens }
  }

  /** Resolves when a call in flight settles, or `signal` aborts. */
  private settled(signal?: AbortSignal): Promise<void> {
    return new Promise(resolve => {
      const wake = () => {
        signal?.removeEventListener('abort', wake)
        resolve()
      }
      this.waiters.push(wake)
      signal?.addEventListener('abort', wake, { once: true })
    })
  }

  record(usage: Usage): void {
    this.used = addUsage(this.used, usage)
  }
}
