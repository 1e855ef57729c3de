import type { AiSettings } from '../loop/settings.js'
import { fingerprint } from '../loop/fingerprint.js'
import { atOrAbove, holdsGo } from '../loop/findings.js'
import type {
  Decision,
  DroppedFinding,
  Finding,
  FindingRecord,
  LoopState,
  PullRequest,
  ReviewerVerdict,
  Severity
} from '../loop/types.js'
import { runAgent } from '../model/agent-runner.js'
import { Budget } from '../model/budget.js'
import { traitsOf } from '../model/models.js'
import type { ContentBlock, Git, Message, ModelClient, ModelResponse } from '../ports/index.js'
import { contradictions, settleContradiction, type StillOpen } from './contradictions.js'
import { evidenceProblem, removedLines } from './evidence.js'
import { readDiff } from './batches.js'
import { readTools } from './read-tools.js'
import { REVIEW_TOOL, type ReviewPrompt, type Shape } from './review-prompt.js'
import { createVerdictValidator, type VerdictInput } from './verdict-schema.js'
import { OWN_FAILURES } from './own-failures.js'

/** Room for thinking and the verdict; the cut-off retry doubles it up to the model's maximum. */
const REVIEW_MAX_TOKENS = 32_000

export interface ReviewerDeps {
  client: ModelClient
  ai: AiSettings
  threshold: Severity
  budget: Budget
  log: { info(m: string): void; warning(m: string): void }
  promptsDir?: string
  now?: () => number
}

/** What one batch's review needs besides its prompt. */
export interface BatchInput {
  pull: PullRequest
  state: LoopState
  git: Git
  /** The latest record of every earlier finding: a finding raised again may name one as previousId. */
  earlier: ReadonlyMap<string, FindingRecord>
  /** The earlier findings this batch answers on: in its files, or without a file for the first batch. */
  owned: ReadonlySet<string>
  /** Epoch ms by which the whole review must be done. */
  deadline: number
  /** Prefix for log lines: which part this is. */
  label: string
  /** The part's diff: a finding's evidence may quote the lines it removes. */
  diff?: string
}

/** One batch's outcome: the reviewer's verdict on it, or why there is none (its files are unreviewed). */
export type BatchOutcome =
  | {
      kind: 'verdict'
      verdict: ReviewerVerdict
      /** Not sent again (incremental-review): the iterations that reviewed its files. */
      reused?: number[]
    }
  | { kind: 'failed'; error: string; budgetExhausted?: boolean }

/** The earlier findings the verdict says are still open, or whose dispute it rejects. */
function stillOpen(
  verdict: VerdictInput,
  earlier: ReadonlyMap<string, FindingRecord>
): StillOpen[] {
  return verdict.earlierFindings.flatMap(a => {
    const record = earlier.get(a.id)
    return record && (a.status === 'still_open' || a.status === 'dispute_rejected')
      ? [
          {
            id: a.id,
            severity: record.severity,
            title: record.title ?? a.id,
            status: a.status.replace('_', ' ')
          }
        ]
      : []
  })
}

/** The verdict's findings placed in the head: kept, dropped (not placeable), or set aside (evidence). */
export interface Located {
  findings: Finding[]
  dropped: DroppedFinding[]
  /** Blocking findings whose quoted evidence is not in the file at their lines: shown, not acted on. */
  setAside: Finding[]
}

/**
 * Turns the verdict's findings into findings with ids. A finding that names an earlier finding as its
 * `previousId` keeps that id; one that cites code not in the tree (or no code, when it blocks) is
 * dropped and listed, never silently; a blocking one whose `evidence` is not in the file at its lines
 * is set aside as unverified (`evidenceProblem`).
 */
async function locate(
  verdict: VerdictInput,
  git: Git,
  sha: string,
  threshold: Severity,
  earlier: ReadonlyMap<string, FindingRecord>,
  diff?: string
): Promise<Located> {
  const tree = new Set(await git.listFiles(sha))
  const diffs = new Map((diff ? readDiff(diff) : []).map(d => [d.path, d.text]))
  const contents = new Map<string, string[]>()
  const findings: Finding[] = []
  const dropped: DroppedFinding[] = []
  const setAside: Finding[] = []
  for (const { previousId, ...f } of verdict.findings) {
    const keep = previousId && earlier.has(previousId) ? previousId : undefined
    const file = f.file?.replace(/^\.?\//, '')
    const drop = (why: string) =>
      dropped.push({ severity: f.severity, title: f.title, file, line: f.line, why })
    if (!file || !f.line) {
      if (atOrAbove(f.severity, threshold)) drop('cites no file and line')
      else
        findings.push({
          ...f,
          file: undefined,
          line: undefined,
          endLine: undefined,
          id: keep ?? fingerprint({ title: f.title }),
          source: 'ai'
        })
      continue
    }
    if (!tree.has(file)) {
      drop(`cites ${file}, which is not in ${sha.slice(0, 7)}`)
      continue
    }
    if (!contents.has(file)) contents.set(file, ((await git.show(sha, file)) ?? '').split('\n'))
    const lines = contents.get(file)!
    if (f.line > lines.length) {
      drop(`cites ${file}:${f.line}, but the file has ${lines.length} lines`)
      continue
    }
    const placed: Finding = {
      ...f,
      file,
      endLine:
        f.endLine && f.endLine >= f.line && f.endLine <= lines.length ? f.endLine : undefined,
      id: keep ?? fingerprint({ title: f.title, file, anchor: lines[f.line - 1] }),
      source: 'ai'
    }
    const problem = atOrAbove(f.severity, threshold)
      ? evidenceProblem(placed, lines, removedLines(diffs.get(file)))
      : undefined
    if (problem) setAside.push(unmatched(placed, problem))
    else findings.push(placed)
  }
  return { findings, dropped, setAside }
}

/** A blocking finding whose quote is not in the file: set aside, unverified, with why. */
const unmatched = (f: Finding, why: string): Finding => ({
  ...f,
  verification: { status: 'unverified', by: 'evidence', why, blocks: false }
})

function failed(error: string, budgetExhausted = false): BatchOutcome {
  return { kind: 'failed', error, ...(budgetExhausted ? { budgetExhausted } : {}) }
}

/** What one answer holds. */
export type Answer =
  | { kind: 'verdict'; verdict: VerdictInput; others: Decision[] }
  | { kind: 'invalid'; errors: string[] }
  | { kind: 'cut_off' }
  | { kind: 'refused'; text: string }

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch (e) {
    return { ok: false, error: `the answer is not JSON (${(e as Error).message})` }
  }
}

/** Reads the verdict out of an answer: the JSON text (structured outputs) or the submit_review calls. */
export function readAnswer(response: ModelResponse, shape: Shape, validate: Validator): Answer {
  const texts = response.content.flatMap(b => (b.type === 'text' ? [b.text] : []))
  if (response.stopReason === 'refusal') return { kind: 'refused', text: texts.join('\n') }
  if (response.stopReason === 'max_tokens') return { kind: 'cut_off' }
  if (shape === 'json') {
    const parsed = parseJson(texts.join('').trim())
    if (!parsed.ok) return { kind: 'invalid', errors: [parsed.error] }
    const checked = validate(parsed.value)
    return checked.ok
      ? { kind: 'verdict', verdict: checked.verdict, others: [] }
      : { kind: 'invalid', errors: checked.errors }
  }
  const calls = response.content.filter(b => b.type === 'tool_use')
  const reviews = calls.filter(b => b.name === REVIEW_TOOL)
  const wrong = calls.filter(b => b.name !== REVIEW_TOOL).map(b => b.name)
  if (reviews.length === 0)
    return {
      kind: 'invalid',
      errors: [
        wrong.length
          ? `the answer calls ${wrong.join(', ')} instead of submit_review`
          : 'no submit_review tool call in the answer'
      ]
    }
  const checks = reviews.map(b => validate(b.input))
  const first = checks[0]!
  if (!first.ok) return { kind: 'invalid', errors: first.errors }
  const others = checks.slice(1).map(c => (c.ok ? c.verdict.decision : 'NEEDS_DISCUSSION'))
  return { kind: 'verdict', verdict: first.verdict, others }
}

/**
 * Appends one repair request after the answer (which the agent runner appended as received, thinking
 * blocks unchanged). Every tool call of the answer gets its tool_result, as the API requires; the
 * repair text rides on them or, without calls, on a text block.
 */
export function askForRepair(
  messages: Message[],
  content: ContentBlock[],
  problems: string[],
  shape: Shape
): void {
  const how =
    shape === 'json'
      ? 'Answer again with one corrected, complete JSON verdict.'
      : 'Call submit_review again, once, with a corrected, complete verdict.'
  const repair = `Your verdict cannot be accepted:\n${problems.map(e => `- ${e}`).join('\n')}\n${how}`
  const calls = content.filter(b => b.type === 'tool_use')
  messages.push({
    role: 'user',
    content: calls.length
      ? calls.map((call, i) => ({
          type: 'tool_result' as const,
          tool_use_id: call.id,
          content: i === 0 ? repair : 'Not accepted: see the first result.',
          is_error: true
        }))
      : [{ type: 'text', text: repair }]
  })
}

export type Validator = ReturnType<typeof createVerdictValidator>

/** The verdict as the loop takes it: located findings, dropped ones listed, the decision settled. */
async function accepted(
  deps: ReviewerDeps,
  input: BatchInput,
  verdict: VerdictInput,
  located: Located,
  decision: Decision,
  why?: string
): Promise<ReviewerVerdict> {
  const { dropped } = located
  if (dropped.length)
    deps.log.warning(
      `${input.label}: dropped ${dropped.length} finding(s) the action could not place in ${input.pull.headSha.slice(0, 7)}: ${dropped
        .slice(0, 3)
        .map(d => `"${d.title}" ${d.why}`)
        .join('; ')}`
    )
  return {
    decision,
    summary: verdict.summary,
    findings: located.findings,
    failedCriteria: verdict.failedCriteria,
    passedCriteria: verdict.passedCriteria,
    requiredRework: verdict.requiredRework,
    earlier: verdict.earlierFindings.filter(a => input.owned.has(a.id)),
    usage: deps.budget.usage,
    dropped: dropped.length,
    droppedFindings: dropped,
    ...(located.setAside.length ? { setAside: located.setAside } : {}),
    ...(why ? { error: why } : {})
  }
}

/**
 * A schema-valid verdict checked for contradictions: it stands, it goes back for its repair (the
 * problems), or after the repair it is settled as NO_GO or NEEDS_DISCUSSION, never GO.
 */
async function judge(
  deps: ReviewerDeps,
  input: BatchInput,
  answer: Extract<Answer, { kind: 'verdict' }>,
  repaired: boolean
): Promise<ReviewerVerdict | { problems: string[] }> {
  const { verdict } = answer
  const { earlier } = input
  const located = await locate(
    verdict,
    input.git,
    input.pull.headSha,
    deps.threshold,
    earlier,
    input.diff
  )
  // a finding set aside for its quote at or above hold-go-at is still one the verdict raised: a GO
  // with it contradicts itself (below, or with hold-go-at none, it is set aside as before)
  const holding = located.setAside.filter(f => holdsGo(f.severity, deps.ai.holdGoAt))
  const problems = contradictions(
    verdict,
    [...located.findings, ...holding],
    located.dropped,
    deps.threshold,
    answer.others,
    stillOpen(verdict, earlier).filter(e => input.owned.has(e.id))
  )
  if (problems.length === 0) return accepted(deps, input, verdict, located, verdict.decision)
  if (repaired) {
    const decision = settleContradiction(verdict.decision, located.findings, deps.threshold)
    const why = `the verdict still contradicted itself after one repair (${problems.slice(0, 3).join(' ')}), so it is ${decision}, not GO`
    deps.log.warning(`${input.label}: ${why}`)
    return accepted(deps, input, verdict, located, decision, why)
  }
  deps.log.warning(
    `${input.label}: the verdict contradicts itself (${problems.slice(0, 3).join(' ')}); asking once for a repair`
  )
  return { problems }
}

/**
 * One answer of the reviewer: an agent run that may read the PR head with read-only tools for up to
 * `review-max-turns` turns before it answers, within the budget and the time left; why there is none
 * when neither allows it. An API error after the SDK's retries is thrown.
 */
export async function converse(
  deps: ReviewerDeps,
  input: Pick<BatchInput, 'git' | 'pull' | 'deadline'>,
  prompt: ReviewPrompt,
  maxTokens: number
): Promise<ModelResponse | BatchOutcome> {
  const { ai, budget } = deps
  const now = deps.now ?? (() => Date.now())
  const reader = ai.reviewMaxTurns > 1 ? readTools(input.git, input.pull.headSha) : undefined
  const run = await runAgent(
    { client: deps.client, budget, now },
    {
      model: ai.reviewModel,
      system: prompt.system,
      tools: [...(reader?.specs ?? []), ...prompt.tools],
      messages: prompt.messages,
      maxTurns: ai.reviewMaxTurns,
      deadline: input.deadline,
      maxTokens,
      outputReserve: Math.min(maxTokens, REVIEW_OUTPUT_RESERVE),
      outputSchema: prompt.outputSchema,
      finalTools: new Set([REVIEW_TOOL]),
      lastTurnNote: 'That was your last turn with tools: answer now, with what you have read.',
      runTools: calls => reader!.run(calls)
    }
  )
  switch (run.stopReason) {
    case 'budget':
      return failed('the max-cost-usd budget does not allow another review call', true)
    case 'timeout':
      // a call cut off at the deadline is the API's error (it says what to raise); else no time was left
      if (run.error) throw run.error
      return failed(`review-timeout-minutes (${ai.reviewTimeoutMinutes}) ran out`)
    case 'error':
      throw run.error
    case 'max_turns':
      return failed(
        `the reviewer used its ${ai.reviewMaxTurns} turns (review-max-turns) ${OWN_FAILURES.turns}`
      )
    default:
      return run.response!
  }
}

/** Output tokens reserved in the budget for one review call (thinking included). */
export const REVIEW_OUTPUT_RESERVE = 8000

/**
 * The review of one batch: one call, its answer validated with ajv and checked for contradictions.
 * An invalid or contradictory answer gets one repair request naming what is wrong; a cut-off answer
 * is asked again with twice the room. What still cannot stand is not a verdict (the batch failed),
 * or NO_GO when it names blocking findings: never GO. The review's deadline bounds all of it, the
 * SDK's retries included; an API error after those retries is thrown.
 */
export async function reviewBatch(
  deps: ReviewerDeps,
  input: BatchInput,
  prompt: ReviewPrompt,
  shape: Shape
): Promise<BatchOutcome> {
  const { ai } = deps
  const traits = traitsOf(ai.reviewModel, ai.provider?.name)
  const { messages } = prompt
  const validate = createVerdictValidator()
  let maxTokens = Math.min(REVIEW_MAX_TOKENS, traits.maxOutputTokens)
  let problems: string[] = []
  for (let attempt = 0; attempt < 2; attempt++) {
    const response = await converse(deps, input, prompt, maxTokens)
    if (!('content' in response)) return response
    const answer = readAnswer(response, shape, validate)
    if (answer.kind === 'refused')
      return failed(
        `${OWN_FAILURES.refused} review (${answer.text.slice(0, 300) || 'no reason given'})`
      )
    if (answer.kind === 'cut_off') {
      // asked again as it was, with more room: the cut-off answer is not part of the conversation
      messages.pop()
      problems = [`the answer was cut off at max_tokens (${maxTokens})`]
      deps.log.warning(`${input.label}: ${problems[0]}; asking again with twice the room`)
      maxTokens = Math.min(maxTokens * 2, traits.maxOutputTokens)
      continue
    }
    if (answer.kind === 'invalid') {
      problems = answer.errors
      deps.log.warning(
        `${input.label}: the verdict is invalid (${problems.slice(0, 3).join('; ')}); asking once for a repair`
      )
      askForRepair(messages, response.content, problems, shape)
      continue
    }
    const judged = await judge(deps, input, answer, attempt === 1)
    if ('decision' in judged) return { kind: 'verdict', verdict: judged }
    problems = judged.problems
    askForRepair(messages, response.content, problems, shape)
  }
  return failed(
    `the verdict ${OWN_FAILURES.rejected} after one repair: ${problems.slice(0, 5).join('; ')}`
  )
}
