import { createHash } from 'node:crypto'
import { checkState } from './state-schema.js'
import type { LoopState } from './types.js'

/**
 * The sticky comment starts with a machine part and continues with the human part:
 *
 *   <!-- review-loop:state sha256:0123456789abcdef {"schema":1,...} -->
 *   ## Review loop: NO_GO — iteration 2 of 5
 *
 * `<`, `>` and `&` inside the JSON are written as \u escapes, so no finding text can close the HTML
 * comment early (`-->`), and JSON.parse restores them. The digest lets us notice a state that someone
 * edited by hand: such a state is ignored, never trusted.
 */
export const STATE_MARKER = '<!-- review-loop:state'
const STATE_RE = /<!-- review-loop:state sha256:([0-9a-f]{16}) (\{.*?\}) -->/s

function digest(json: string): string {
  return createHash('sha256').update(json).digest('hex').slice(0, 16)
}

export function encodeStateJson(state: LoopState): string {
  return JSON.stringify(state)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
}

export function renderStateMarker(state: LoopState): string {
  const json = encodeStateJson(state)
  return `${STATE_MARKER} sha256:${digest(json)} ${json} -->`
}

export function hasStateMarker(body: string): boolean {
  return body.includes(STATE_MARKER)
}

export type DecodedState =
  { kind: 'ok'; state: LoopState } | { kind: 'invalid'; reason: string } | { kind: 'absent' }

/** Reads the state out of a comment body. Corrupt, edited or invalid states are reported, never returned. */
export function decodeState(body: string): DecodedState {
  if (!hasStateMarker(body)) return { kind: 'absent' }
  const match = STATE_RE.exec(body)
  if (!match) return { kind: 'invalid', reason: 'the state marker is malformed' }
  const [, sum, json] = match as unknown as [string, string, string]
  if (digest(json) !== sum) {
    return { kind: 'invalid', reason: 'the state was edited by hand (its digest does not match)' }
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(json)
  } catch (e) {
    return { kind: 'invalid', reason: `the state is not valid JSON (${(e as Error).message})` }
  }
  const checked = checkState(parsed)
  if ('error' in checked)
    return { kind: 'invalid', reason: `the state fails its schema: ${checked.error}` }
  return { kind: 'ok', state: checked.state }
}
