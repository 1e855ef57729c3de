/**
 * Words that say why a review part, a verifier call or a reconsider call has no answer because of
 * the model's own answer (its turns used up, a refusal, an answer not accepted after a repair) or of
 * the diff (a line too long for a part): not because the budget, the time or the API cut it short.
 * The messages that give these reasons are built from these words, and the eval tells the two kinds
 * apart by them (src/eval/run-case.ts): the first is the reviewer's result, the second a run cut short.
 */
export const OWN_FAILURES = {
  turns: 'reading the code without answering',
  refused: 'the model refused to',
  rejected: 'could not be accepted',
  tooLong: 'is longer than a review part',
  noPart: 'no review part holds it'
} as const

/** Whether `why` is one of the model's own failures (or the diff's), as OWN_FAILURES words them. */
export const ownFailure = (why: string): boolean =>
  Object.values(OWN_FAILURES).some(words => why.includes(words))

/** How a reconsider call that gave no answer says so, before why (verify.ts, judgment.ts). */
export const NOT_ASKED = 'it could not be asked'
