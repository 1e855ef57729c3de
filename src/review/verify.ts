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
import { NOT_ASKED, OWN_FAILURES } from './own-failures.js'

/** Room for the verifier's reading and its short verdict. */
const VERIFY_MAX_TOKENS = 16_000

/**
 * What a second call is asked about: a new blocking finding (`why`: its quote did not match the file),
 * an earlier one said to be gone (`why`: who says so), or a finding set aside that the reviewer is
 * asked to reconsider (`why`: the objection — the verifier's refutation, the votes, the quote).
 */
export type Question = { kind: 'new' | 'earlier' | 'reconsider'; finding: Finding; why?: string }

/** The reviewer's answer when shown why its finding was set aside. */
export type Reconsidered = { kept: boolean; why: string }

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
  const header = {
    new: '# Finding to verify',
    earlier: '# Earlier finding to verify',
    reconsider: '# Finding to reconsider'
  }[q.kind]
  const lines = [
    header,
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
  if (q.kind === 'new' && q.why)
    lines.push(
      '',
      `Note: the quoted evidence does not match the file as quoted (${q.why}). Read the code at ${locationOf(f) ?? 'its place'} and decide from what is there.`
    )
  if (q.kind === 'reconsider')
    lines.push('', '## Why it was not acted on', '', prose(q.why ?? '(no reason given)'))
  return loadPrompt(
    q.kind === 'reconsider' ? 'reconsider' : 'verifier',
    {
      question: lines.join('\n')
    },
    promptsDir
  )
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

/** A verdict-shaped answer of a second call, or why there is none. */
type Said =
  | {
      kind: 'said'
      verdict: {
        decision: string
        summary: string
        findings: Array<{ file?: string; line?: number }>
      }
    }
  | { kind: 'none'; why: string }

/**
 * One second call on one finding, on the review part's cached prompt: its verdict-shaped answer, or
 * why there is none (an answer that stays invalid after one repair, a refusal, the budget, the time
 * or an API error).
 */
async function ask(
  deps: ReviewerDeps,
  input: VerifyInput,
  part: ReviewPrompt,
  q: Question
): Promise<Said> {
  const prompt = verifierPrompt(part, questionText(q, deps.promptsDir))
  const validate: Validator = createVerdictValidator()
  const maxTokens = Math.min(
    VERIFY_MAX_TOKENS,
    traitsOf(deps.ai.reviewModel, deps.ai.provider?.name).maxOutputTokens
  )
  const none = (why: string): Said => ({ kind: 'none', why })
  let problems: string[] = []
  for (let attempt = 0; attempt < 2; attempt++) {
    let response
    try {
      response = await converse(deps, input, prompt, maxTokens)
    } catch (e) {
      return none((e as Error).message)
    }
    if (!('content' in response))
      return none(response.kind === 'failed' ? response.error : 'no answer')
    const answer = readAnswer(response, input.shape, validate)
    const odd = answer.kind === 'verdict' ? contradictory(answer.verdict, deps) : undefined
    if (answer.kind === 'verdict' && !odd) return { kind: 'said', verdict: answer.verdict }
    if (answer.kind === 'refused') return none(`${OWN_FAILURES.refused} answer`)
    problems = odd ? [odd] : answer.kind === 'invalid' ? answer.errors : ['the answer was cut off']
    if (answer.kind === 'cut_off') prompt.messages.pop()
    else askForRepair(prompt.messages, response.content, problems, input.shape)
  }
  return none(`its answer ${OWN_FAILURES.rejected}: ${problems.slice(0, 2).join('; ')}`)
}

/**
 * One independent verifier run on one finding: confirmed (NO_GO), refuted (GO) or uncertain
 * (NEEDS_DISCUSSION), with the verifier's reason and the places it cited. When no answer can be
 * had, the finding is unverified, and then it still blocks: nothing that was raised as blocking is
 * let through untested.
 */
export async function verifyOne(
  deps: ReviewerDeps,
  input: VerifyInput,
  part: ReviewPrompt,
  q: Question
): Promise<Verification> {
  const said = await ask(deps, input, part, q)
  if (said.kind === 'said') return verification(said.verdict, deps.ai.blockUncertain)
  return {
    status: 'uncertain',
    by: 'verifier',
    why: clip(said.why, 300),
    blocks: true,
    unverifiable: true
  }
}

/**
 * The reviewer shown why its finding was set aside (the refutation, the votes, the quote): GO
 * withdraws it; NO_GO or NEEDS_DISCUSSION keeps it; no answer keeps it too (it could not be asked).
 */
export async function reconsiderOne(
  deps: ReviewerDeps,
  input: VerifyInput,
  part: ReviewPrompt,
  q: Question
): Promise<Reconsidered> {
  const said = await ask(deps, input, part, { ...q, kind: 'reconsider' })
  if (said.kind === 'none') return { kept: true, why: clip(`${NOT_ASKED}: ${said.why}`, 300) }
  const why = clip(said.verdict.summary.trim() || '(no reason given)', 1000)
  return { kept: said.verdict.decision !== 'GO', why }
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

/** One question and the review part whose prompt it is asked on. */
export interface Ask {
  part: ReviewPrompt
  question: Question
}

/**
 * Asks each question in the review part that holds it, `review-concurrency` at a time: `verifyOne`
 * (the verifier) or `reconsiderOne` (the reviewer again). Returns the answers in the questions' order.
 */
export function askAll<T>(
  deps: ReviewerDeps,
  input: VerifyInput,
  asks: readonly Ask[],
  one: (deps: ReviewerDeps, input: VerifyInput, part: ReviewPrompt, q: Question) => Promise<T>
): Promise<T[]> {
  const limiter = new Bottleneck({ maxConcurrent: Math.max(1, deps.ai.reviewConcurrency) })
  return Promise.all(asks.map(a => limiter.schedule(() => one(deps, input, a.part, a.question))))
}
