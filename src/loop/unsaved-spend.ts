/**
 * Model spend a run could not save: its state write failed after it paid for model calls. The run
 * carries the spend on the PR in a marker (in the failure line of the sticky comment and in the
 * failed check run it leaves), and the next run that finds the marker adds it to the totals once:
 * the state lists the runs whose spend it carried, so a marker seen again is not counted twice.
 */
import type { LoopState, Usage } from './types.js'
import { addUsage } from './usage.js'

/** The spend of one run (`runId:attempt`) that no saved state holds. */
export interface UnsavedSpend {
  run: string
  usage: Usage
}

/** The runs whose carried spend a state remembers (older ones are dropped first). */
export const MAX_CARRIED = 50

const MARKER = /<!-- review-loop:unsaved-spend (\[[^<>]{0,4000}\]) -->/g
const RUN = /^[0-9]{1,20}:[0-9]{1,6}$/
const TOKENS = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens'] as const

/** `runId:attempt`, the key a run's spend is carried under. */
export function runKey(runId: string, attempt: number): string {
  return `${runId}:${attempt}`
}

/** The hidden marker carrying `entries`; empty when there is nothing to carry. */
export function spendMarker(entries: UnsavedSpend[]): string {
  return entries.length ? `<!-- review-loop:unsaved-spend ${JSON.stringify(entries)} -->` : ''
}

function isUsage(u: unknown): u is Usage {
  if (typeof u !== 'object' || u === null) return false
  const r = u as Record<string, unknown>
  const whole = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0
  const cost = r['costUsd']
  return (
    TOKENS.every(k => whole(r[k])) &&
    typeof cost === 'number' &&
    Number.isFinite(cost) &&
    cost >= 0 &&
    cost < 1e6
  )
}

/** The well-formed entries of every marker in `text`; anything else in it is ignored. */
export function readSpendMarkers(text: string): UnsavedSpend[] {
  const out: UnsavedSpend[] = []
  for (const m of text.matchAll(MARKER)) {
    let parsed: unknown
    try {
      parsed = JSON.parse(m[1]!)
    } catch {
      continue
    }
    if (!Array.isArray(parsed)) continue
    for (const e of parsed as Array<Partial<UnsavedSpend>>) {
      if (typeof e?.run === 'string' && RUN.test(e.run) && isUsage(e.usage))
        out.push({ run: e.run, usage: pickUsage(e.usage) })
    }
  }
  return out
}

const pickUsage = (u: Usage): Usage => ({
  inputTokens: u.inputTokens,
  outputTokens: u.outputTokens,
  cacheReadTokens: u.cacheReadTokens,
  cacheWriteTokens: u.cacheWriteTokens,
  costUsd: u.costUsd
})

/**
 * `state` with the spend of the runs in `found` that it does not hold yet (one entry per run; a
 * run already carried, or this very run, is skipped), and the entries it took.
 */
export function carrySpend(
  state: LoopState,
  found: UnsavedSpend[],
  self: string
): { state: LoopState; carried: UnsavedSpend[] } {
  const seen = new Set([...(state.carriedSpend ?? []), self])
  const carried: UnsavedSpend[] = []
  for (const entry of found) {
    if (seen.has(entry.run)) continue
    seen.add(entry.run)
    carried.push(entry)
  }
  if (!carried.length) return { state, carried }
  const totals = carried.reduce((sum, e) => addUsage(sum, e.usage), state.totals)
  const runs = [...(state.carriedSpend ?? []), ...carried.map(e => e.run)].slice(-MAX_CARRIED)
  return { state: { ...state, totals, carriedSpend: runs }, carried }
}
