import { createHash } from 'node:crypto'
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

  it('reads a state of schema 1 (before pushing/interrupted, closed/merged) and writes it as 9', () => {
    const old = state({ schema: 1, iterations: [iteration()] })
    const decoded = decodeState(commentWith(old))
    expect(decoded).toEqual({ kind: 'ok', state: { ...old, schema: 9 } })
  })

  it('keeps the count of findings a review set aside, by why, and refuses a count that is not one', () => {
    const s = state({
      iterations: [iteration({ setAside: { unverified: 1, refuted: 2, outvoted: 1 } })]
    })
    expect(decodeState(commentWith(s))).toEqual({ kind: 'ok', state: s })
    const bad = state({
      iterations: [iteration({ setAside: { refuted: -1 } as { refuted: number } })]
    })
    expect(decodeState(commentWith(bad))).toMatchObject({ kind: 'invalid', problem: 'schema' })
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

  it('holds no reference, mention or hidden character as itself, and reads each back', () => {
    const title = 'closes #12 and acme/w#3 for @octocat \u202Eevil\u202C zero\u200Bwidth \u{E0041}'
    const s = state({ reason: title, iterations: [iteration()] })
    const body = commentWith(s)
    expect(body.split('-->')[0]).not.toMatch(/[#@\u200B\u202C\u202E]|\u{E0041}/u)
    const decoded = decodeState(body)
    expect(decoded).toEqual({ kind: 'ok', state: s })
    if (decoded.kind === 'ok') expect(decoded.state.reason).toBe(title)
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

describe('the digest: plain without state-key, keyed with it', () => {
  const KEY = 'correct horse battery staple'

  /** What someone without the key can do: change the JSON and recompute a plain digest. */
  function recomputed(body: string, edit: (json: string) => string): string {
    const json = edit(jsonOf(body))
    const sum = createHash('sha256').update(json).digest('hex').slice(0, 16)
    return `${STATE_MARKER} sha256:${sum} ${json} -->`
  }

  function problem(body: string, key?: string): string {
    const decoded = decodeState(body, key)
    return decoded.kind === 'invalid' ? `${decoded.problem}: ${decoded.reason}` : decoded.kind
  }

  it('marks the algorithm: sha256 without a key, hmac-sha256 with one, and reads each back', () => {
    const s = state({ maxIterations: 2 })
    expect(renderStateMarker(s)).toMatch(/^<!-- review-loop:state sha256:[0-9a-f]{16} \{/)
    expect(renderStateMarker(s, KEY)).toMatch(/^<!-- review-loop:state hmac-sha256:[0-9a-f]{64} \{/)
    expect(decodeState(commentWith(s))).toEqual({ kind: 'ok', state: s })
    expect(decodeState(renderStateMarker(s, KEY), KEY)).toEqual({ kind: 'ok', state: s })
  })

  it('reports an edited state as edited', () => {
    const body = commentWith(state({ maxIterations: 2 }))
    expect(problem(body.replace('"maxIterations":2', '"maxIterations":20'))).toMatch(
      /^edited: .*edited by hand/
    )
    const keyed = renderStateMarker(state({ maxIterations: 2 }), KEY)
    expect(problem(keyed.replace('"maxIterations":2', '"maxIterations":20'), KEY)).toMatch(
      /^edited: .*hmac-sha256 does not match/
    )
  })

  it('cannot see a recomputed plain digest without a key: that is what state-key is for', () => {
    const body = recomputed(commentWith(state({ maxIterations: 2 })), j =>
      j.replace('"maxIterations":2', '"maxIterations":20')
    )
    const decoded = decodeState(body)
    expect(decoded.kind === 'ok' && decoded.state.maxIterations).toBe(20)
  })

  it('with state-key, rejects a state recomputed by someone without the key', () => {
    const keyed = renderStateMarker(state({ maxIterations: 2 }), KEY)
    // relabelled as a plain digest and recomputed
    expect(
      problem(
        recomputed(keyed, j => j.replace('"maxIterations":2', '"maxIterations":20')),
        KEY
      )
    ).toMatch(/^key_unexpected: .*plain sha256 digest.*state-key is set/)
    // or kept as hmac-sha256 with a plain SHA-256 (or an HMAC under a guessed key) in its place
    const json = jsonOf(keyed).replace('"maxIterations":2', '"maxIterations":20')
    const sum = createHash('sha256').update(json).digest('hex')
    expect(problem(`${STATE_MARKER} hmac-sha256:${sum} ${json} -->`, KEY)).toMatch(/^edited: /)
    expect(problem(renderStateMarker(state({ maxIterations: 20 }), 'another key'), KEY)).toMatch(
      /^edited: .*another state-key/
    )
  })

  it('says to set or unset state-key when the state and the run disagree on the key', () => {
    const keyed = renderStateMarker(state(), KEY)
    expect(problem(keyed)).toMatch(
      /^key_missing: .*signed with a state-key.*set the input state-key/
    )
    expect(problem(commentWith(state()), KEY)).toMatch(/^key_unexpected: .*unset state-key/)
    // an empty key is no key
    expect(decodeState(commentWith(state()), '').kind).toBe('ok')
  })

  it('tells a newer schema apart from a broken state: upgrade the action', () => {
    const newer = { ...state(), schema: 10, somethingNew: true } as unknown as LoopState
    expect(problem(commentWith(newer))).toMatch(
      /^newer_schema: .*schema 10.*newer review-loop; upgrade the action/
    )
    expect(problem(renderStateMarker(newer, KEY), KEY)).toMatch(/^newer_schema: /)
    const broken = { ...state(), schema: 0 } as unknown as LoopState
    expect(problem(commentWith(broken))).toMatch(/^schema: /)
  })

  it('names an unknown digest and a broken marker as malformed', () => {
    const json = jsonOf(commentWith(state()))
    expect(problem(`${STATE_MARKER} sha512:00ff ${json} -->`)).toMatch(
      /^malformed: .*unknown digest 'sha512'/
    )
    expect(problem(`${STATE_MARKER} sha256:zzz not json -->`)).toMatch(/^malformed: /)
  })
})
