// Which reviews the eval leaves unscored as cut short: the budget's, the time's and the API's cuts,
// never the model's own failures (those are its result, and are scored).
import { describe, expect, it } from 'vitest'
import { cutShort } from '../../src/eval/run-case.js'
import type { Finding, Verification } from '../../src/loop/types.js'
import type { IterationOutcome } from '../../src/loop/types.js'
import { finding, iteration, state } from './builders.js'

const BUDGET = 'the review: the max-cost-usd budget does not allow another review call'
const TIME = 'the review: review-timeout-minutes (10) ran out'
const API = 'part 2 of 3 (a.js): The Anthropic API failed (500): Internal server error'
const TURNS =
  'the review: the reviewer used its 6 turns (review-max-turns) reading the code without answering'
const REFUSED = 'the review: the model refused to review (no reason given)'
const INVALID = 'the review: the verdict could not be accepted after one repair: findings: required'
const TOO_LONG =
  "dist/app.js: a line of it is longer than a review part (120000 characters); if it is a bundle or generated, add it to 'ignore'"

function reviewedWith(failures: string[], findings: Finding[] = []): IterationOutcome {
  const coverage = {
    files: 3,
    reviewed: 3 - failures.length,
    ignored: 0,
    batches: 3,
    unreviewed: failures.map((_, i) => `f${i}.js`),
    failures
  }
  return {
    decision: 'NEEDS_DISCUSSION',
    findings,
    state: state({ iterations: [iteration({ coverage })] })
  }
}

const verified = (v: Partial<Verification>): Finding =>
  finding({ verification: { status: 'uncertain', by: 'verifier', why: '', blocks: true, ...v } })

describe('a review cut short', () => {
  it('is a part the budget, the time or the API left unreviewed', () => {
    for (const failure of [BUDGET, TIME, API])
      expect(cutShort(reviewedWith([failure]))).toBe(`the review was cut short: ${failure}`)
  })

  it("is not the model's own failure, nor a file too long for a part: those are scored", () => {
    for (const failure of [TURNS, REFUSED, INVALID, TOO_LONG])
      expect(cutShort(reviewedWith([failure]))).toBeUndefined()
    // the model's failure beside a cut: cut short, for the cut
    expect(cutShort(reviewedWith([TURNS, BUDGET]))).toContain('max-cost-usd')
  })

  it('is a verification, or a second look, the budget or the API kept from being made', () => {
    const unverified = verified({ unverifiable: true, why: 'The Anthropic API failed (400): bad' })
    expect(cutShort(reviewedWith([], [unverified]))).toBe(
      "the review was cut short: a finding's verification could not be made (The Anthropic API failed (400): bad)"
    )
    const unasked = verified({
      status: 'refuted',
      reconsidered: {
        kept: true,
        why: 'it could not be asked: the max-cost-usd budget does not allow another review call'
      }
    })
    expect(cutShort(reviewedWith([], [unasked]))).toContain(
      'the reviewer could not be asked again about a finding (it could not be asked: the max-cost-usd budget'
    )
  })

  it("is not a verifier's or a second look's own failure", () => {
    const refused = verified({ unverifiable: true, why: 'the model refused to answer' })
    const invalid = verified({ unverifiable: true, why: 'its answer could not be accepted: x' })
    const noPart = verified({
      status: 'refuted',
      reconsidered: { kept: true, why: 'it could not be asked: no review part holds it' }
    })
    const kept = verified({ status: 'refuted', reconsidered: { kept: true, why: 'It is real.' } })
    for (const f of [refused, invalid, noPart, kept])
      expect(cutShort(reviewedWith([], [f]))).toBeUndefined()
  })
})
