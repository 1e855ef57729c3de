import { readFileSync } from 'node:fs'

/**
 * The pull request an event names: the pull_request payload's number, or the workflow_dispatch
 * input `pr-number` (or `pr_number`). Shared by the start-up prefetch and the run context, so both
 * read the same PR. Kept free of other imports: the prefetch loads it before anything else.
 */
export function prNumberFromPayload(payload: unknown): number | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined
  const p = payload as { pull_request?: { number?: unknown }; inputs?: Record<string, unknown> }
  if (typeof p.pull_request?.number === 'number') return p.pull_request.number
  const raw = p.inputs?.['pr-number'] ?? p.inputs?.['pr_number']
  if (typeof raw === 'string' && /^\d+$/.test(raw.trim())) return Number(raw.trim())
  if (typeof raw === 'number') return raw
  return undefined
}

/** The `pr-number` input as the runner passes it (INPUT_PR-NUMBER), when it is a number. */
export function prNumberFromInput(raw: string | undefined): number | undefined {
  const input = (raw ?? '').trim()
  return /^\d+$/.test(input) && Number(input) > 0 ? Number(input) : undefined
}

/** The event payload at GITHUB_EVENT_PATH; throws when it cannot be read. */
export function readPayloadFile(path: string): Record<string, unknown> {
  const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'))
  return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {}
}
