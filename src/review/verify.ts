import Bottleneck from 'bottleneck/light.js'
import { atOrAbove, locationOf } from '../loop/findings.js'
import { clip } from '../loop/record.js'
import type { Finding, PullRequest, Severity, Verification } from '../loop/types.js'
import { loadPrompt } from '../model/prompts.js'
import { prose, stripInvisible } from '../model/sanitize.js'
import { traitsOf } from '../model/models.js'
import type { Git, Message } from '../ports/index.js'
import {
  askForRepair,
  converse,
  readAnswer,
  type ReviewerDeps,
  type Validator
} from './review-batch.js'
import type { ReviewPrompt, Shape } from './review-prompt.js'
import { createVerdictValidator } from './verdict-schema.js'

/** Room for the verifier's reading and its short verdict. */
const VERIFY_MAX_TOKENS = 16_000

/** What the verifier is asked about: a new blocking finding, or an earlier one said to be gone. */
export type Question = { kind: 'new' | 'earlier'; finding: Finding; why?: string }

/** Where a verification runs: the review part that holds the finding (its prompt is the cached prefix). */
export interface VerifyInput {
  pull: PullRequest
  git: Git
  deadline: number
  shape: Shape
}

/** The verifier's question: the finding as the reviewer stated it (untrusted text), after the template. */
export function questionText(q: Question, promptsDir?: string): string {
  const f = q.finding
  const lines = [
    q.kind === 'new' ? '# Finding to verify' : '# Earlier finding to verify',
    `id: ${f.id}`,
    `file: ${f.file ?? '(none)'}`,
    `line: ${f.line ?? '(none)'}${f.endLine ? `-${f.endLine}` : ''}`,
    `title: ${prose(f.title)}`,
    `severity: ${f.severity}`,
    'evidence:',
    '```',
    stripInvisible(f.evidence ?? '(none quoted)'),
    '```',
    '',
    prose(f.description)
  ]
  if (q.kind === 'earlier')
    lines.push(
      '',
      `This finding was raised in an earlier iteration and ${q.why ?? 'is said to be gone'}, but the code at ${locationOf(f) ?? 'its place'} did not change since. Is the problem still there in the current head? NO_GO: it is still there; GO: it is not (say why); NEEDS_DISCUSSION: you cannot tell.`
    )
  return loadPrompt('verifier', { question: lines.join('\n') }, promptsDir)
}

/**
 * The verifier's conversation: the review part's own first message (the PR and the part's diff, both
 * cached by the review call), then the question as one more text block. Same system, tools and output
 * format as the review call, so its whole prefix is read from the prompt cache.
 */
function verifierPrompt(part: ReviewPrompt, question: string): ReviewPrompt {
  const first = part.messages[0]!
  const messages: Message[] = [
    { role: 'user', content: [...first.content, { type: 'text', text: question }] }
  ]
  return { ...part, messages }
}

/**
 * One independent verifier run on one finding: confirmed (NO_GO), refuted (GO) or uncertain
 * (NEEDS_DISCUSSION), with the verifier's reason and the places it cited. An answer that stays
 * invalid after one repair, a refusal, the budget, the time or an API error leave the finding
 * unverified, and then it still blocks: nothing that was raised as blocking is let through untested.
 */
export async function verifyOne(
  deps: ReviewerDeps,
  input: VerifyInput,
  part: ReviewPrompt,
  q: Question
): Promise<Verification> {
  const prompt = verifierPrompt(part, questionText(q, deps.promptsDir))
  const validate: Validator = createVerdictValidator()
  const maxTokens = Math.min(
    VERIFY_MAX_TOKENS,
    traitsOf(deps.ai.reviewModel, deps.ai.provider?.name).maxOutputTokens
  )
  const notVerified = (why: string): Verification => ({
    status: 'uncertain',
    by: 'verifier',
    why: clip(why, 300),
    blocks: true,
    unverifiable: true
  })
  let problems: string[] = []
  for (let attempt = 0; attempt < 2; attempt++) {
    let response
    try {
      response = await converse(deps, input, prompt, maxTokens)
    } catch (e) {
      return notVerified((e as Error).message)
    }
    if (!('content' in response))
      return notVerified(response.kind === 'failed' ? response.error : 'no answer')
    const answer = readAnswer(response, input.shape, validate)
    const odd = answer.kind === 'verdict' ? contradictory(answer.verdict, deps) : undefined
    if (answer.kind === 'verdict' && !odd)
      return verification(answer.verdict, deps.ai.blockUncertain)
    if (answer.kind === 'refused') return notVerified('the model refused to verify')
    problems = odd ? [odd] : answer.kind === 'invalid' ? answer.errors : ['the answer was cut off']
    if (answer.kind === 'cut_off') prompt.messages.pop()
    else askForRepair(prompt.messages, response.content, problems, input.shape)
  }
  return notVerified(`its answer could not be accepted: ${problems.slice(0, 2).join('; ')}`)
}

/** A refutation (GO) that still lists a blocking finding or a failed criterion says two things. */
function contradictory(
  verdict: { decision: string; findings: Array<{ severity: Severity }>; failedCriteria: string[] },
  deps: Pick<ReviewerDeps, 'threshold'>
): string | undefined {
  if (verdict.decision !== 'GO') return undefined
  if (
    verdict.findings.some(f => atOrAbove(f.severity, deps.threshold)) ||
    verdict.failedCriteria.length
  )
    return 'The decision is GO (refuted) but the answer lists a blocking finding or a failed criterion: answer NO_GO if the problem is real, or GO with no findings and no failed criteria if it is not.'
  return undefined
}

function verification(
  verdict: { decision: string; summary: string; findings: Array<{ file?: string; line?: number }> },
  blockUncertain: boolean
): Verification {
  const why = clip(verdict.summary.trim() || '(no reason given)', 1000)
  const cited = verdict.findings.flatMap(f =>
    f.file ? [{ file: clip(f.file, 500), ...(f.line ? { line: f.line } : {}) }] : []
  )
  const common = { by: 'verifier' as const, why, ...(cited.length ? { cited } : {}) }
  switch (verdict.decision) {
    case 'NO_GO':
      return { status: 'confirmed', ...common, blocks: true }
    case 'GO':
      return { status: 'refuted', ...common, blocks: false }
    default:
      return { status: 'uncertain', ...common, blocks: blockUncertain }
  }
}

/**
 * Verifies each question in the review part that holds it, `review-concurrency` at a time. Returns
 * the verifications in the questions' order.
 */
export async function verifyAll(
  deps: ReviewerDeps,
  input: VerifyInput,
  asks: ReadonlyArray<{ part: ReviewPrompt; question: Question }>
): Promise<Verification[]> {
  const limiter = new Bottleneck({ maxConcurrent: Math.max(1, deps.ai.reviewConcurrency) })
  return Promise.all(
    asks.map(a => limiter.schedule(() => verifyOne(deps, input, a.part, a.question)))
  )
}
