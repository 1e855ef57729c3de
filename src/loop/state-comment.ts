import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { checkState, STATE_SCHEMA } from './state-schema.js'
import type { LoopState } from './types.js'
import { INVISIBLE, plainText } from './untrusted.js'

/**
 * The sticky comment starts with a machine part and continues with the human part:
 *
 *   <!-- review-loop:state sha256:0123456789abcdef {"schema":2,...} -->
 *   ## Review loop: NO_GO — iteration 2 of 5
 *
 * `<`, `>` and `&` inside the JSON are written as \u escapes, so no finding text can close the HTML
 * comment early (`-->`), and JSON.parse restores them. The digest lets us notice a state that someone
 * edited: such a state is reported, never trusted. Without a key it is a plain SHA-256 (`sha256:`),
 * which anyone can recompute, so it catches accidental or naive edits only. With the `state-key`
 * secret it is an HMAC-SHA256 (`hmac-sha256:`), which only holders of the key can produce.
 */
export const STATE_MARKER = '<!-- review-loop:state'
const STATE_RE = /<!-- review-loop:state ([a-z0-9-]+):([0-9a-f]+) (\{.*?\}) -->/s

const PLAIN = 'sha256'
const KEYED = 'hmac-sha256'

/** The marker's algorithm and digest: a keyed HMAC with a key, else a plain, shortened SHA-256. */
function digest(json: string, key: string | undefined): { algorithm: string; sum: string } {
  if (key) return { algorithm: KEYED, sum: createHmac('sha256', key).update(json).digest('hex') }
  return { algorithm: PLAIN, sum: createHash('sha256').update(json).digest('hex').slice(0, 16) }
}

function sameDigest(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))
}

/** Each UTF-16 unit of `text` as a JSON `\u` escape. */
function jsonEscaped(text: string): string {
  let out = ''
  for (let i = 0; i < text.length; i++)
    out += `\\u${text.charCodeAt(i).toString(16).padStart(4, '0')}`
  return out
}

/**
 * The state as stored: every text in it plain (`plainText`), nothing in it that ends the comment,
 * and, though GitHub renders no HTML comment, nothing a reference or mention reads (`#`, `@`) nor
 * a hidden or direction character as itself: they are `\u` escapes, which JSON reads back as they
 * were.
 */
export function encodeStateJson(state: LoopState): string {
  return JSON.stringify(state, (_key, value: unknown) =>
    typeof value === 'string' ? plainText(value) : value
  )
    .replace(/[<>&#@]/g, jsonEscaped)
    .replace(INVISIBLE, jsonEscaped)
}

/** `key`: the state-key secret; empty or undefined for the plain digest. */
export function renderStateMarker(state: LoopState, key?: string): string {
  const json = encodeStateJson(state)
  const { algorithm, sum } = digest(json, key || undefined)
  return `${STATE_MARKER} ${algorithm}:${sum} ${json} -->`
}

export function hasStateMarker(body: string): boolean {
  return body.includes(STATE_MARKER)
}

/** Why a state is not trusted; each has its own remedy. */
export type StateProblem =
  'malformed' | 'edited' | 'key_missing' | 'key_unexpected' | 'not_json' | 'newer_schema' | 'schema'

export type DecodedState =
  | { kind: 'ok'; state: LoopState }
  | { kind: 'invalid'; problem: StateProblem; reason: string }
  | { kind: 'absent' }

function invalid(problem: StateProblem, reason: string): DecodedState {
  return { kind: 'invalid', problem, reason }
}

/** Whether the marker's algorithm is the one this run checks with; the reason when not. */
function algorithmProblem(algorithm: string, key: string | undefined): DecodedState | undefined {
  if (algorithm === (key ? KEYED : PLAIN)) return undefined
  if (algorithm === KEYED)
    return invalid(
      'key_missing',
      'the state is signed with a state-key (hmac-sha256) but this run has no state-key, so it cannot check it: set the input state-key to the same secret (secrets are not passed to runs for forks or Dependabot)'
    )
  if (algorithm === PLAIN)
    return invalid(
      'key_unexpected',
      'the state carries a plain sha256 digest, which anyone can recompute, but state-key is set: unset state-key if it was set by mistake; if it was just added, delete the state comment to start afresh under the key'
    )
  return invalid('malformed', `the state marker names an unknown digest '${algorithm}'`)
}

/** A state of a schema above the one this version reads. */
function newerSchema(parsed: unknown): number | undefined {
  const schema = (parsed as { schema?: unknown } | null)?.schema
  return typeof schema === 'number' && schema > STATE_SCHEMA ? schema : undefined
}

/**
 * Reads the state out of a comment body, checking its digest with `key` (the state-key secret, if
 * set). Corrupt, edited, differently keyed, newer or invalid states are reported, never returned.
 */
export function decodeState(body: string, stateKey?: string): DecodedState {
  const key = stateKey || undefined
  if (!hasStateMarker(body)) return { kind: 'absent' }
  const match = STATE_RE.exec(body)
  if (!match) return invalid('malformed', 'the state marker is malformed')
  const [, algorithm, sum, json] = match as unknown as [string, string, string, string]
  const wrongAlgorithm = algorithmProblem(algorithm, key)
  if (wrongAlgorithm) return wrongAlgorithm
  if (!sameDigest(digest(json, key).sum, sum)) {
    return key
      ? invalid(
          'edited',
          'the state was edited, or signed with another state-key (its hmac-sha256 does not match)'
        )
      : invalid('edited', 'the state was edited by hand (its sha256 digest does not match)')
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(json)
  } catch (e) {
    return invalid('not_json', `the state is not valid JSON (${(e as Error).message})`)
  }
  const newer = newerSchema(parsed)
  if (newer !== undefined)
    return invalid(
      'newer_schema',
      `the state has schema ${newer}, newer than the schema ${STATE_SCHEMA} this version reads: it was written by a newer review-loop; upgrade the action`
    )
  const checked = checkState(parsed)
  if ('error' in checked) return invalid('schema', `the state fails its schema: ${checked.error}`)
  return { kind: 'ok', state: { ...checked.state, schema: STATE_SCHEMA } }
}
