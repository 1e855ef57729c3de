import { describe, expect, it } from 'vitest'
import { decodeState, renderStateMarker, STATE_MARKER } from '../../src/loop/state-comment.js'
import { appendReview } from '../../src/loop/record.js'
import { compactState } from '../../src/loop/state-compact.js'
import { newState } from '../../src/loop/state.js'
import type { LoopState } from '../../src/loop/types.js'
import { zeroUsage } from '../../src/loop/usage.js'
import { BASE, finding, iteration, NOW, SHA_A, state } from './builders.js'

const HOSTILE_TITLE = 'Ends the comment --> early, opens <!-- another, closes </details> & "quotes"'

function commentWith(s: LoopState): string {
  return `${renderStateMarker(s)}\n## Review loop: NO_GO — iteration 1 of 3\n\nHuman part.`
}

function jsonOf(body: string): string {
  const start = body.indexOf('{')
  const end = body.indexOf(' -->')
  return body.slice(start, end)
}

describe('the state in the sticky comment', () => {
  it('decodes to exactly the state that was written', () => {
    const s = state({
      status: 'max_iterations',
      reason: 'Still NO_GO after 1 of 1 iterations.',
      lastReviewedSha: SHA_A,
      iterations: [
        iteration({ findings: [{ id: 'RL-1', severity: 'high', status: 'open', since: 1 }] })
      ]
    })
    expect(decodeState(commentWith(s))).toEqual({ kind: 'ok', state: s })
  })

  it('survives finding text that would end the HTML comment, and a 70,000-character description', () => {
    const s = appendReview(newState(7, 3, NOW), {
      n: 1,
      reviewedSha: SHA_A,
      baseSha: BASE,
      runId: '1001',
      runAttempt: 1,
      decision: 'NO_GO',
      summary: 'Reviewer says --> stop <!-- here </details>',
      findings: [
        finding({ title: HOSTILE_TITLE, description: `-->${'x'.repeat(70_000)}</details>` })
      ],
      gates: [],
      usage: zeroUsage(),
      startedAt: NOW,
      durationMs: 10
    })
    const body = commentWith(compactState(s))
    // the only `-->` in the comment is the one closing the state marker
    expect(body.indexOf('-->')).toBe(body.indexOf(' -->\n') + 1)
    expect(body.match(/<!--/g)).toHaveLength(1)
    expect(() => JSON.parse(jsonOf(body))).not.toThrow()
    const decoded = decodeState(body)
    expect(decoded).toEqual({ kind: 'ok', state: s })
    if (decoded.kind === 'ok')
      expect(decoded.state.iterations[0]!.findings[0]!.title).toBe(HOSTILE_TITLE)
  })

  it('keeps a 70,000-character text inside the state intact', () => {
    const reason = `--> ${'y'.repeat(70_000)} <!-- </details>`
    const s = state({
      iterations: [
        iteration({
          fix: {
            outcome: 'pushed',
            commitSha: 'f'.repeat(40),
            filesChanged: ['src/a.ts'],
            commands: [],
            disputes: [{ id: 'RL-1', reason }],
            revertedProtected: [],
            durationMs: 1
          }
        })
      ]
    })
    const body = commentWith(s)
    expect(body.indexOf('-->')).toBe(body.indexOf(' -->\n') + 1)
    expect(decodeState(body)).toEqual({ kind: 'ok', state: s })
  })

  it('stays readable by the next run when the reviewer writes a very long summary and title', () => {
    // a state the next run cannot read makes the loop start afresh every time and never hit its cap
    const s = appendReview(newState(7, 3, NOW), {
      n: 1,
      reviewedSha: SHA_A,
      baseSha: BASE,
      runId: '1001',
      runAttempt: 1,
      decision: 'NO_GO',
      summary: 'word '.repeat(2_000),
      findings: [finding({ title: 'Long title '.repeat(200) })],
      gates: [],
      usage: zeroUsage(),
      startedAt: NOW,
      durationMs: 10
    })
    const decoded = decodeState(commentWith(compactState(s)))
    expect(decoded.kind).toBe('ok')
    if (decoded.kind === 'ok') {
      expect(decoded.state.iterations[0]!.summary.startsWith('word word')).toBe(true)
      expect(decoded.state.iterations[0]!.findings[0]!.title?.startsWith('Long title')).toBe(true)
    }
  })

  it('treats a hand-edited state as invalid', () => {
    const body = commentWith(state({ maxIterations: 3 }))
    const edited = body.replace('"maxIterations":3', '"maxIterations":20')
    expect(edited).not.toBe(body)
    const decoded = decodeState(edited)
    expect(decoded.kind).toBe('invalid')
    if (decoded.kind === 'invalid') expect(decoded.reason).toContain('edited by hand')
  })

  it('treats a state that breaks the schema as invalid, even with a correct digest', () => {
    const bad = { ...state(), status: 'finished', pr: 0 } as unknown as LoopState
    const decoded = decodeState(commentWith(bad))
    expect(decoded.kind).toBe('invalid')
    if (decoded.kind === 'invalid') {
      expect(decoded.reason).toContain('schema')
      expect(decoded.reason).toContain('/status')
      expect(decoded.reason).toContain('/pr')
    }
  })

  it('treats a marker without a readable state as invalid', () => {
    expect(decodeState(`${STATE_MARKER} sha256:zzz not json -->`).kind).toBe('invalid')
  })

  it('reports a comment without the marker as absent', () => {
    expect(decodeState('## Review loop: GO\n\nLooks good to me!')).toEqual({ kind: 'absent' })
  })
})
