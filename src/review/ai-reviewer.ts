import type { AiSettings } from '../inputs.js'
import { fingerprint } from '../loop/fingerprint.js'
import { atOrAbove } from '../loop/findings.js'
import { filesChangedCount, latestRecords, roundIterations } from '../loop/state.js'
import type {
  Decision,
  DroppedFinding,
  Finding,
  FindingRecord,
  GateResult,
  LoopState,
  PullRequest,
  ReviewerVerdict,
  Severity
} from '../loop/types.js'
import { Budget } from '../model/budget.js'
import { systemPrompt, type SystemBlock } from '../model/prompts.js'
import { sanitizeUntrusted, stripInvisible } from '../model/sanitize.js'
import { traitsOf } from '../model/models.js'
import type {
  ContentBlock,
  Git,
  Message,
  ModelClient,
  ModelResponse,
  ToolSpec
} from '../ports/index.js'
import { contradictions, settleContradiction, type StillOpen } from './contradictions.js'
import { selectDiff } from './diff-budget.js'
import { loadGuidelines } from './guidelines.js'
import {
  createVerdictValidator,
  verdictSchema,
  wireSchema,
  type VerdictInput
} from './verdict-schema.js'

export const REVIEW_TOOL = 'submit_review'
const DIFF_BUDGET = 120_000
const CONTEXT_BUDGET = 40_000
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

export interface ReviewerInput {
  pull: PullRequest
  state: LoopState
  git: Git
  gates: GateResult[]
}

/** Prose a model wrote or a check printed, bounded elsewhere: cleaned, not cut. */
const prose = (text: string): string => sanitizeUntrusted(text, Infinity)

/**
 * Earlier iterations as metadata only: ids, titles, locations, statuses (re-raised, fixed, no longer
 * raised), the fixer's disputes and the reviewer's own answers. The reviewer answers each in
 * `earlierFindings` and reuses an id as `previousId` when it raises the problem again.
 */
export function earlierRounds(state: LoopState): string {
  const round = roundIterations(state)
  if (round.length === 0) return 'This is the first review of this PR.'
  const lines: string[] = []
  for (const it of round) {
    lines.push(`Iteration ${it.n} reviewed ${it.reviewedSha.slice(0, 7)}: ${it.decision}`)
    for (const f of it.findings) {
      const status = f.reraised ? `${f.status}, re-raised after a fix attempt` : f.status
      lines.push(
        `  - ${f.id} [${f.severity}] ${prose(f.title ?? '')}${f.file ? ` (${f.file}${f.line ? `:${f.line}` : ''})` : ''}: ${status}`
      )
    }
    for (const id of it.resolved) lines.push(`  - ${id}: fixed since the previous iteration`)
    for (const id of it.gone ?? []) lines.push(`  - ${id}: no longer raised (not confirmed fixed)`)
    for (const a of it.answers ?? [])
      lines.push(`  - your answer on ${a.id}: ${a.status}${a.note ? ` (${prose(a.note)})` : ''}`)
    for (const d of it.fix?.disputes ?? [])
      lines.push(`  - fixer disputed ${d.id}: ${prose(d.reason)}`)
    if (it.fix) lines.push(`  fix: ${it.fix.outcome}, ${filesChangedCount(it.fix)} file(s) changed`)
  }
  return lines.join('\n')
}

function gatesText(gates: GateResult[]): string {
  if (gates.length === 0) return 'No repository checks are configured.'
  return gates
    .map(g => {
      const head = `- ${g.name} (\`${g.command}\`): ${g.passed ? 'pass' : `FAIL (exit ${g.exitCode})`}`
      const found = g.findings
        .slice(0, 20)
        .map(f => `    - ${f.id} ${f.file ? `${f.file}:${f.line ?? ''} ` : ''}${prose(f.title)}`)
      return [head, ...found].join('\n')
    })
    .join('\n')
}

async function surroundingCode(
  git: Git,
  sha: string,
  files: string[],
  budget: number
): Promise<string> {
  const parts: string[] = []
  let used = 0
  for (const file of files) {
    const text = await git.show(sha, file)
    if (text === undefined || text.includes('\0')) continue
    const numbered = stripInvisible(text, { mark: true })
      .split('\n')
      .map((l, i) => `${String(i + 1).padStart(5)}  ${l}`)
      .join('\n')
    if (used + numbered.length > budget) continue
    used += numbered.length
    parts.push(`=== ${file} (head, with line numbers) ===\n${numbered}`)
  }
  return parts.join('\n\n')
}

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

/**
 * Turns the verdict's findings into findings with ids. A finding that names an earlier finding as its
 * `previousId` keeps that id; one that cites code not in the tree (or no code, when it blocks) is
 * dropped and listed, never silently.
 */
async function locate(
  verdict: VerdictInput,
  git: Git,
  sha: string,
  threshold: Severity,
  earlier: ReadonlyMap<string, FindingRecord>
): Promise<{ findings: Finding[]; dropped: DroppedFinding[] }> {
  const tree = new Set(await git.listFiles(sha))
  const contents = new Map<string, string[]>()
  const findings: Finding[] = []
  const dropped: DroppedFinding[] = []
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
    findings.push({
      ...f,
      file,
      endLine:
        f.endLine && f.endLine >= f.line && f.endLine <= lines.length ? f.endLine : undefined,
      id: keep ?? fingerprint({ title: f.title, file, anchor: lines[f.line - 1] }),
      source: 'ai'
    })
  }
  return { findings, dropped }
}

function failClosed(
  error: string,
  budget: Budget,
  extra: Partial<ReviewerVerdict> = {}
): ReviewerVerdict {
  return {
    decision: 'NEEDS_DISCUSSION',
    summary: `The AI review failed closed: ${error}`,
    findings: [],
    failedCriteria: [],
    passedCriteria: [],
    requiredRework: [],
    usage: budget.usage,
    dropped: 0,
    droppedFindings: [],
    error,
    ...extra
  }
}

/** How the verdict comes back: structured outputs (JSON text), or the submit_review tool with `auto`. */
type Shape = 'json' | 'tool'

interface ReviewPrompt {
  system: SystemBlock[]
  tools: ToolSpec[]
  outputSchema?: Record<string, unknown>
  messages: Message[]
}

/**
 * The verdict as a tool, for models and routes without structured outputs (Amazon Bedrock, older
 * models): offered with tool_choice auto, never forced, and not strict (strict tool use needs the same
 * support as structured outputs); ajv checks its input.
 */
function reviewTool(): ToolSpec {
  return {
    name: REVIEW_TOOL,
    description:
      'Submit the review verdict for the current head of the PR. Call it exactly once, as your whole answer.',
    input_schema: wireSchema(verdictSchema) as Record<string, unknown>
  }
}
/** The reviewer's prompt: the instructions and guidelines (cached), then the PR, its checks and its diff. */
async function reviewPrompt(
  deps: ReviewerDeps,
  input: ReviewerInput,
  shape: Shape
): Promise<ReviewPrompt> {
  const { pull, git } = input
  const base = await git.prepareDiff(pull.baseRef, pull.baseSha, pull.headSha)
  const diff = selectDiff(await git.diff(base, pull.headSha), DIFF_BUDGET)
  // modified files get their surrounding code; a new file's diff already holds all of it
  const changed = diff.files.filter(f => f.included && !f.isNew).map(f => f.path)
  const context = await surroundingCode(git, pull.headSha, changed, CONTEXT_BUDGET)
  const guidelines = await loadGuidelines(git, pull.baseSha, deps.ai.guidelines)
  const system = systemPrompt(
    'reviewer',
    { threshold: deps.threshold, answer: ANSWER[shape] },
    {
      sections: [
        guidelines
          ? `## Review guidelines (from ${guidelines.source})\n\n${stripInvisible(guidelines.text)}`
          : '## Review guidelines\n\nNone given: use general good practice.'
      ],
      instructions: deps.ai.instructions,
      dir: deps.promptsDir
    }
  )
  const user = [
    `# Pull request #${pull.number}: ${sanitizeUntrusted(pull.title, 500)}`,
    '',
    '## Description (untrusted text from the PR)',
    '',
    sanitizeUntrusted(pull.body) || '(empty)',
    '',
    `## Earlier iterations (metadata only)`,
    '',
    earlierRounds(input.state),
    '',
    '## Repository checks on this head',
    '',
    gatesText(input.gates),
    '',
    `## Diff against the merge base ${base.slice(0, 7)} → head ${pull.headSha.slice(0, 7)}${diff.text.length < diff.totalChars ? ` (budgeted: ${diff.text.length} of ${diff.totalChars} characters)` : ''}`,
    '',
    '```diff',
    stripInvisible(diff.text, { mark: true }),
    '```',
    context ? `\n## Changed files at head\n\n${context}` : ''
  ].join('\n')
  // whatever is left (paths, names) loses its invisible characters too; the markers stay visible
  const text = stripInvisible(user)
  const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text }] }]
  if (shape === 'json')
    return {
      system,
      tools: [],
      outputSchema: wireSchema(verdictSchema) as Record<string, unknown>,
      messages
    }
  return { system, tools: [reviewTool()], messages }
}

const ANSWER: Record<Shape, string> = {
  json: 'Answer with one JSON object that matches the response schema, and nothing else.',
  tool: 'Answer only by calling the `submit_review` tool, once, with input that matches its schema.'
}

/** What one answer holds. */
type Answer =
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
function readAnswer(response: ModelResponse, shape: Shape, validate: Validator): Answer {
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
 * Appends the answer as received (thinking blocks included, unchanged) and one repair request. Every
 * tool call of the answer gets its tool_result, as the API requires; the repair text rides on them
 * or, without calls, on a text block.
 */
function askForRepair(
  messages: Message[],
  content: ContentBlock[],
  problems: string[],
  shape: Shape
): void {
  messages.push({
    role: 'assistant',
    content: content.length ? content : [{ type: 'text', text: '(empty)' }]
  })
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

type Validator = ReturnType<typeof createVerdictValidator>

/** The verdict as the loop takes it: located findings, dropped ones listed, the decision settled. */
async function accepted(
  deps: ReviewerDeps,
  input: ReviewerInput,
  verdict: VerdictInput,
  located: { findings: Finding[]; dropped: DroppedFinding[] },
  decision: Decision,
  why?: string
): Promise<ReviewerVerdict> {
  const { dropped } = located
  if (dropped.length)
    deps.log.warning(
      `review: dropped ${dropped.length} finding(s) the action could not place in ${input.pull.headSha.slice(0, 7)}: ${dropped
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
    earlier: verdict.earlierFindings,
    usage: deps.budget.usage,
    dropped: dropped.length,
    droppedFindings: dropped,
    ...(why ? { error: why } : {})
  }
}

/**
 * A schema-valid verdict checked for contradictions: it stands, it goes back for its repair (the
 * problems), or after the repair it is settled as NO_GO or NEEDS_DISCUSSION, never GO.
 */
async function judge(
  deps: ReviewerDeps,
  input: ReviewerInput,
  answer: Extract<Answer, { kind: 'verdict' }>,
  repaired: boolean,
  earlier: ReadonlyMap<string, FindingRecord>
): Promise<ReviewerVerdict | { problems: string[] }> {
  const { verdict } = answer
  const located = await locate(verdict, input.git, input.pull.headSha, deps.threshold, earlier)
  const problems = contradictions(
    verdict,
    located.findings,
    located.dropped,
    deps.threshold,
    answer.others,
    stillOpen(verdict, earlier)
  )
  if (problems.length === 0) return accepted(deps, input, verdict, located, verdict.decision)
  if (repaired) {
    const decision = settleContradiction(located.findings, deps.threshold)
    const why = `the verdict still contradicted itself after one repair (${problems.slice(0, 3).join(' ')}), so it is ${decision}, not GO`
    deps.log.warning(`review: ${why}`)
    return accepted(deps, input, verdict, located, decision, why)
  }
  deps.log.warning(
    `review: the verdict contradicts itself (${problems.slice(0, 3).join(' ')}); asking once for a repair`
  )
  return { problems }
}

/** One review call within the budget and the time left; a verdict that fails closed when neither allows it. */
async function ask(
  deps: ReviewerDeps,
  prompt: ReviewPrompt,
  maxTokens: number,
  remaining: number
): Promise<ModelResponse | ReviewerVerdict> {
  const { ai, budget } = deps
  const chars = JSON.stringify(prompt).length
  if (!budget.allows(ai.reviewModel, chars, Math.min(maxTokens, REVIEW_OUTPUT_RESERVE)))
    return failClosed('the max-cost-usd budget does not allow another review call', budget, {
      budgetExhausted: true
    })
  if (remaining <= 0)
    return failClosed(`review-timeout-minutes (${ai.reviewTimeoutMinutes}) ran out`, budget)
  return deps.client.create({
    model: ai.reviewModel,
    maxTokens,
    system: prompt.system,
    tools: prompt.tools,
    ...(prompt.tools.length ? { toolChoice: { type: 'auto' as const } } : {}),
    ...(prompt.outputSchema ? { outputSchema: prompt.outputSchema } : {}),
    messages: prompt.messages,
    signal: AbortSignal.timeout(remaining)
  })
}

/** Output tokens reserved in the budget for one review call (thinking included). */
const REVIEW_OUTPUT_RESERVE = 8000

/**
 * The AI review: one call, its answer validated with ajv and checked for contradictions. An invalid
 * or contradictory answer gets one repair request naming what is wrong; a cut-off answer is asked
 * again with twice the room. What still cannot stand fails closed (NEEDS_DISCUSSION), or NO_GO when
 * it names blocking findings: never GO. `review-timeout-minutes` bounds the whole of it, the SDK's
 * retries included.
 */
export async function aiReview(deps: ReviewerDeps, input: ReviewerInput): Promise<ReviewerVerdict> {
  const { ai, budget } = deps
  const now = deps.now ?? (() => Date.now())
  const deadline = now() + ai.reviewTimeoutMinutes * 60_000
  const traits = traitsOf(ai.reviewModel, ai.provider?.name)
  const shape: Shape = traits.structuredOutputs ? 'json' : 'tool'
  const prompt = await reviewPrompt(deps, input, shape)
  const { messages } = prompt
  const validate = createVerdictValidator()
  // a re-raised finding may name one of these as its previousId
  const earlier = latestRecords(input.state)
  let maxTokens = Math.min(REVIEW_MAX_TOKENS, traits.maxOutputTokens)
  let problems: string[] = []
  for (let attempt = 0; attempt < 2; attempt++) {
    const response = await ask(deps, prompt, maxTokens, deadline - now())
    if (!('content' in response)) return response
    budget.record(response.usage)
    const answer = readAnswer(response, shape, validate)
    if (answer.kind === 'refused')
      return failClosed(
        `the model refused to review (${answer.text.slice(0, 300) || 'no reason given'})`,
        budget
      )
    if (answer.kind === 'cut_off') {
      problems = [`the answer was cut off at max_tokens (${maxTokens})`]
      deps.log.warning(`review: ${problems[0]}; asking again with twice the room`)
      maxTokens = Math.min(maxTokens * 2, traits.maxOutputTokens)
      continue
    }
    if (answer.kind === 'invalid') {
      problems = answer.errors
      deps.log.warning(
        `review: the verdict is invalid (${problems.slice(0, 3).join('; ')}); asking once for a repair`
      )
      askForRepair(messages, response.content, problems, shape)
      continue
    }
    const judged = await judge(deps, input, answer, attempt === 1, earlier)
    if ('decision' in judged) return judged
    problems = judged.problems
    askForRepair(messages, response.content, problems, shape)
  }
  return failClosed(
    `the verdict could not be accepted after one repair: ${problems.slice(0, 5).join('; ')}`,
    budget
  )
}
