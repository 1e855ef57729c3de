/**
 * Bounded waiting for GitHub requests: a time limit on every request, rate limits waited out only
 * as long as GitHub asks, transient failures of requests that are safe to repeat retried with
 * backoff, all of it drawn from one budget per run (`maxWaitSeconds`), and a route that GitHub left
 * unanswered twice not sent again.
 */
import { setTimeout as sleep } from 'node:timers/promises'

export interface WaitingOptions {
  /**
   * Time a run may spend waiting on GitHub, all requests together: backoffs, rate-limit waits and
   * requests that timed out. A wait that does not fit in what is left is not made: the request
   * fails (a rate limit saying when to re-run).
   */
  maxWaitSeconds: number
  /** The time limit of one request, for the words of NoAnswerError. */
  requestTimeoutMs: number
  /** First backoff after a 5xx, a reset or a timeout; it doubles with each retry. */
  backoffMs: number
  log: { warning(message: string): void; debug(message: string): void }
}

/** Retries of a request that is safe to repeat, after a 5xx, a reset or a timeout. */
const MAX_TRANSIENT_RETRIES = 3
/**
 * Requests to one route (method and URL) that may time out one after another in a run (no answer
 * between them); the next one is not sent.
 */
export const MAX_TIMEOUTS_PER_ROUTE = 2
/** Rate-limit waits for one request before it fails. */
const MAX_RATE_LIMIT_WAITS = 4
/** GitHub: without retry-after or x-ratelimit-reset, wait at least a minute (then longer). */
const SECONDARY_WAIT_SECONDS = 60

/** GitHub asked for a wait longer than the action will wait: the user re-runs later. */
export class RetryLaterError extends Error {
  constructor(
    readonly status: number,
    message: string
  ) {
    super(message)
    this.name = 'RetryLaterError'
  }
}

/**
 * GitHub left a route (method and URL) unanswered MAX_TIMEOUTS_PER_ROUTE times in this run, so the
 * request is not sent: it fails at once. Final: nothing was sent, so there is nothing to look for.
 */
export class NoAnswerError extends Error {
  readonly final = true
  constructor(
    readonly route: string,
    timeoutMs: number
  ) {
    super(
      `GitHub did not answer ${route} twice in a row in this run (no answer within ${seconds(timeoutMs / 1000)} each), so review-loop does not send it again`
    )
    this.name = 'NoAnswerError'
  }
}

/** What the policy needs to see of a failed request (Octokit's RequestError and plain errors). */
interface Failure {
  status?: number
  message?: string
  name?: string
  cause?: unknown
  response?: { headers?: Record<string, string | number | undefined>; data?: unknown }
}

/** Time spent on waits and on timed-out requests, against the run's allowance. */
export class RetryBudget {
  private spentMs = 0
  constructor(readonly totalMs: number) {}
  spend(ms: number): void {
    this.spentMs += Math.max(0, ms)
  }
  leftMs(): number {
    return Math.max(0, this.totalMs - this.spentMs)
  }
}

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304])

/**
 * `fetch` with a time limit covering the answer's body too (a body that stalls is a timeout, not
 * an empty answer). A timeout becomes an error named TimeoutError that says how long it waited.
 */
export function fetchWithTimeout(base: typeof fetch, timeoutMs: number): typeof fetch {
  return async (input, init = {}) => {
    const timeout = AbortSignal.timeout(timeoutMs)
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout
    try {
      const res = await base(input, { ...init, signal })
      const body = NULL_BODY_STATUSES.has(res.status) ? null : await res.arrayBuffer()
      const copy = new Response(body, {
        status: res.status,
        statusText: res.statusText,
        headers: res.headers
      })
      Object.defineProperty(copy, 'url', { value: res.url })
      return copy
    } catch (e) {
      if (!timeout.aborted) throw e
      const error = new Error(`no answer from GitHub within ${seconds(timeoutMs / 1000)}`)
      error.name = 'TimeoutError'
      throw error
    }
  }
}

/** True for requests that may be sent again without changing the outcome. */
export function isIdempotent(
  method: string,
  url: string,
  params: Record<string, unknown> = {}
): boolean {
  const path = url.split('?')[0] ?? ''
  switch (method.toUpperCase()) {
    case 'GET':
    case 'HEAD':
    case 'OPTIONS':
    case 'PUT':
    case 'DELETE':
      return true
    case 'PATCH': {
      // updating a check run appends its annotations: sent twice, they land twice
      const output = params['output'] as { annotations?: unknown[] } | undefined
      return !(/\/check-runs\/[^/]+$/.test(path) && (output?.annotations?.length ?? 0) > 0)
    }
    case 'POST':
      // adding labels and requesting reviewers twice leaves the same labels and reviewers; a
      // commit status sent twice leaves the same latest status for its context
      if (/\/labels$|\/requested_reviewers$|\/statuses\/[^/]+$/.test(path)) return true
      // a GraphQL query reads; resolving a thread twice leaves it resolved
      return /\/graphql$/.test(path) && isRepeatableGraphql(params['query'])
    default:
      return false
  }
}

function isRepeatableGraphql(query: unknown): boolean {
  if (typeof query !== 'string') return false
  const text = query.trim()
  return !text.startsWith('mutation') || /^mutation\b[^{]*\{\s*resolveReviewThread\b/.test(text)
}

/** A failure after which GitHub may or may not have acted: a 5xx, a reset, a timeout. */
export function isAmbiguous(e: unknown): boolean {
  if (e instanceof RetryLaterError || (e as { final?: unknown } | undefined)?.final === true)
    return false
  const status = (e as Failure | undefined)?.status
  return status === undefined || status === 0 || status >= 500
}

function isTimeout(e: Failure): boolean {
  const cause = e.cause as Failure | undefined
  return e.name === 'TimeoutError' || cause?.name === 'TimeoutError'
}

function header(e: Failure, name: string): string | undefined {
  const value = e.response?.headers?.[name]
  return value === undefined ? undefined : String(value)
}

/** Seconds from a retry-after header: a number of seconds or an HTTP date. */
function retryAfterSeconds(e: Failure): number | undefined {
  const raw = header(e, 'retry-after')
  if (raw === undefined || raw.trim() === '') return undefined
  const n = Number(raw)
  if (Number.isFinite(n)) return Math.max(0, Math.ceil(n))
  const at = Date.parse(raw)
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000))
}

function messageOf(e: Failure): string {
  const data = e.response?.data as { message?: string } | undefined
  return data?.message ?? e.message ?? String(e)
}

type Verdict =
  | { kind: 'rate-limit'; waitSeconds: number; what: string; resetAt?: number }
  | { kind: 'transient'; waitSeconds?: number; timedOut: boolean }
  | { kind: 'final' }

/**
 * How GitHub asks to be waited for (docs: "Handle rate limit errors appropriately"): retry-after
 * says how long; with x-ratelimit-remaining 0, until x-ratelimit-reset; otherwise at least a
 * minute, doubling for repeated secondary limits. 429 is always a rate limit, 403 only with one
 * of these signs (otherwise it is a permission error).
 */
export function classify(e: unknown, earlierRateLimits = 0): Verdict {
  const f = (e ?? {}) as Failure
  const status = f.status ?? 0
  if (status === 403 || status === 429) {
    const after = retryAfterSeconds(f)
    const exhausted = header(f, 'x-ratelimit-remaining') === '0'
    const said = /rate limit/i.test(messageOf(f))
    if (status === 403 && after === undefined && !exhausted && !said) return { kind: 'final' }
    if (after !== undefined) return { kind: 'rate-limit', waitSeconds: after, what: 'rate limit' }
    const reset = Number(header(f, 'x-ratelimit-reset'))
    if (exhausted && Number.isFinite(reset) && reset > 0) {
      // one second more, to retry after the reset, not at it
      const waitSeconds = Math.max(0, Math.ceil(reset - Date.now() / 1000)) + 1
      return { kind: 'rate-limit', waitSeconds, what: 'rate limit', resetAt: reset * 1000 }
    }
    const waitSeconds = SECONDARY_WAIT_SECONDS * 2 ** earlierRateLimits
    return { kind: 'rate-limit', waitSeconds, what: 'secondary rate limit' }
  }
  if (!isAmbiguous(e) || (status > 0 && status < 500)) return { kind: 'final' }
  return { kind: 'transient', waitSeconds: retryAfterSeconds(f), timedOut: isTimeout(f) }
}

/** '300 ms', '45 s', '12 min', '1 h 5 min'. */
export function seconds(s: number): string {
  if (s < 1) return `${Math.max(0, Math.round(s * 1000))} ms`
  const whole = Math.round(s)
  if (whole < 90) return `${whole} s`
  const minutes = Math.round(whole / 60)
  if (minutes < 90) return `${minutes} min`
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`
}

/** The error for a wait the action will not make: when GitHub will answer again, and why not wait. */
function retryLater(
  e: unknown,
  verdict: { waitSeconds: number; resetAt?: number },
  why: string
): RetryLaterError {
  const f = (e ?? {}) as Failure
  const until = verdict.resetAt ?? Date.now() + verdict.waitSeconds * 1000
  const at = new Date(until).toISOString().replace(/\.\d+Z$/, 'Z')
  const said = messageOf(f).replace(/\s*$/, '')
  const left = seconds((until - Date.now()) / 1000)
  return new RetryLaterError(
    f.status ?? 0,
    `${said} GitHub asks to wait until ${at} (UTC), ${left} from now; ${why}. ` +
      `Re-run the workflow after ${at}.`
  )
}

function transientWhy(e: Failure, timedOut: boolean): string {
  if (timedOut) return 'no answer'
  if (e.response === undefined) return `connection failed (${e.message ?? 'unknown error'})`
  return `HTTP ${e.status ?? 0}`
}

export interface RetryPolicy {
  readonly budget: RetryBudget
  /**
   * Sends a request to `route` (its method and URL), waiting out rate limits and retrying
   * transient failures when safe; fails at once with NoAnswerError when the route timed out
   * MAX_TIMEOUTS_PER_ROUTE times in this run already.
   */
  send<T>(route: string, idempotent: boolean, request: () => Promise<T>): Promise<T>
  /**
   * Backs off before attempt `attempt + 1` at a write, as long as the failure's retry-after says
   * when there is one; false when the budget or max-wait-seconds does not allow it.
   */
  pause(attempt: number, what: string, failure?: unknown): Promise<boolean>
}

export function createRetryPolicy(options: WaitingOptions): RetryPolicy {
  const budget = new RetryBudget(options.maxWaitSeconds * 1000)
  const { log } = options
  /** Timed-out requests per route in this run. */
  const timeouts = new Map<string, number>()

  const wait = async (ms: number): Promise<void> => {
    budget.spend(ms)
    await sleep(ms)
  }

  /** How long to wait before the next attempt, or the error to fail with. */
  const next = (
    e: unknown,
    verdict: Verdict,
    counts: { attempt: number; rateLimits: number; closed: boolean },
    idempotent: boolean
  ): { ms: number; why: string } | { fail: unknown } => {
    if (verdict.kind === 'final') return { fail: e }
    if (verdict.kind === 'rate-limit') {
      const ms = verdict.waitSeconds * 1000
      if (verdict.waitSeconds > options.maxWaitSeconds)
        return {
          fail: retryLater(
            e,
            verdict,
            `review-loop waits at most ${seconds(options.maxWaitSeconds)} in a run (max-wait-seconds)`
          )
        }
      if (counts.rateLimits > MAX_RATE_LIMIT_WAITS)
        return {
          fail: retryLater(
            e,
            verdict,
            `review-loop waited for it ${MAX_RATE_LIMIT_WAITS} times already`
          )
        }
      if (ms > budget.leftMs())
        return {
          fail: retryLater(
            e,
            verdict,
            `this run's waits (max-wait-seconds: ${seconds(options.maxWaitSeconds)}, all waits together) have ${seconds(budget.leftMs() / 1000)} left`
          )
        }
      return { ms, why: verdict.what }
    }
    // a 5xx, a reset or a timeout: GitHub may have acted, so only a repeatable request is re-sent
    if (!idempotent || counts.attempt > MAX_TRANSIENT_RETRIES || counts.closed) return { fail: e }
    const ms = (verdict.waitSeconds ?? 0) * 1000 || options.backoffMs * 2 ** (counts.attempt - 1)
    if (ms > options.maxWaitSeconds * 1000 || ms > budget.leftMs()) return { fail: e }
    return { ms, why: transientWhy(e as Failure, verdict.timedOut) }
  }

  return {
    budget,
    async send(route, idempotent, request) {
      const counts = { attempt: 0, rateLimits: 0, closed: false }
      for (;;) {
        counts.attempt++
        if ((timeouts.get(route) ?? 0) >= MAX_TIMEOUTS_PER_ROUTE)
          throw new NoAnswerError(route, options.requestTimeoutMs)
        const started = Date.now()
        try {
          const answer = await request()
          // an answer: the route's earlier timeouts were a blip, not a hang
          timeouts.delete(route)
          return answer
        } catch (e) {
          const verdict = classify(e, counts.rateLimits)
          if (verdict.kind === 'transient' && verdict.timedOut) {
            budget.spend(Date.now() - started)
            timeouts.set(route, (timeouts.get(route) ?? 0) + 1)
            // the request that timed out the route's last time fails as it is: a caller that
            // creates something looks for what it may have made before it gives up
            counts.closed = (timeouts.get(route) ?? 0) >= MAX_TIMEOUTS_PER_ROUTE
          }
          if (verdict.kind === 'rate-limit') counts.rateLimits++
          const step = next(e, verdict, counts, idempotent)
          if ('fail' in step) throw step.fail
          log.warning(`GitHub: ${step.why} on ${route}; retrying in ${seconds(step.ms / 1000)}.`)
          await wait(step.ms)
        }
      }
    },
    async pause(attempt, what, failure) {
      const asked = failure === undefined ? undefined : retryAfterSeconds(failure as Failure)
      const ms = asked !== undefined ? asked * 1000 : options.backoffMs * 2 ** (attempt - 1)
      if (attempt > MAX_TRANSIENT_RETRIES || ms > budget.leftMs()) return false
      if (ms > options.maxWaitSeconds * 1000) return false
      log.warning(`Trying ${what} again in ${seconds(ms / 1000)}.`)
      await wait(ms)
      return true
    }
  }
}
