import { locationOf } from '../loop/findings.js'
import { roundIterations, filesChangedCount } from '../loop/state.js'
import type { GateResult, LoopState, PullRequest, Severity } from '../loop/types.js'
import { repositoryInstructions, systemPrompt, type SystemBlock } from '../model/prompts.js'
import { prose, sanitizeUntrusted, stripInvisible } from '../model/sanitize.js'
import type { Git, Message, ToolSpec } from '../ports/index.js'
import type { Batch, ReviewPlan } from './batches.js'
import { loadGuidelines } from './guidelines.js'
import { verdictSchema, wireSchema } from './verdict-schema.js'

export const REVIEW_TOOL = 'submit_review'
/** Surrounding code (whole changed files at head) one batch may carry at most. */
const CONTEXT_BUDGET = 40_000
/** …and at least, when its files are that small; beyond it, 15 % of the batch's diff. */
const CONTEXT_FLOOR = 8_000
const CONTEXT_SHARE = 0.15

/** How the verdict comes back: structured outputs (JSON text), or the submit_review tool with `auto`. */
export type Shape = 'json' | 'tool'

export interface ReviewPrompt {
  system: SystemBlock[]
  tools: ToolSpec[]
  outputSchema?: Record<string, unknown>
  messages: Message[]
}

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
        `  - ${f.id} [${f.severity}] ${prose(f.title ?? '')}${f.file ? ` (${locationOf(f)})` : ''}: ${status}`
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
      const head = `- ${g.name} (\`${g.command}\`): ${g.passed ? 'pass' : `FAIL (exit ${g.exitCode})`}${g.problems > Math.min(20, g.findings.length) ? `, ${g.problems} located problems printed, ${Math.min(20, g.findings.length)} shown` : ''}`
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

const ANSWER: Record<Shape, string> = {
  json: 'Answer with one JSON object that matches the response schema, and nothing else.',
  tool: 'Answer only by calling the `submit_review` tool, once, with input that matches its schema.'
}

export interface PromptDeps {
  threshold: Severity
  guidelines?: string
  instructions?: string
  /** `path-instructions`: given for the glob's files among those reviewed. */
  pathInstructions?: ReadonlyArray<{ path: string; instructions: string }>
  promptsDir?: string
  /** review-max-turns: the turns one review (or verifier) call may take, its answer included. */
  reviewMaxTurns?: number
}

/** What every batch's prompt starts with: the system prompt and the PR's text, both cached. */
export interface SharedPrompt {
  system: SystemBlock[]
  shared: string
  shape: Shape
}

function scopeText(plan: ReviewPlan): string {
  const ignored = plan.files.filter(f => f.ignored)
  const lines = [
    `The PR changes ${plan.files.length} file(s). ${plan.batches.length > 1 ? `They are reviewed in ${plan.batches.length} parts, each by its own reviewer; you review one part, shown below, and only it.` : 'You review all of them, shown below.'}`
  ]
  if (ignored.length)
    lines.push(
      `${ignored.length} file(s) are not reviewed by the repository's choice (lockfiles, generated, vendored or binary files): ${ignored
        .slice(0, 50)
        .map(f => f.path)
        .join(', ')}${ignored.length > 50 ? ', …' : ''}.`
    )
  return lines.join('\n')
}

export async function sharedPrompt(
  deps: PromptDeps,
  input: { pull: PullRequest; state: LoopState; git: Git; gates: GateResult[] },
  shape: Shape,
  plan: ReviewPlan
): Promise<SharedPrompt> {
  const { pull, git } = input
  const guidelines = await loadGuidelines(git, pull.baseSha, deps.guidelines)
  const system = systemPrompt(
    'reviewer',
    {
      threshold: deps.threshold,
      answer: ANSWER[shape],
      turns:
        (deps.reviewMaxTurns ?? 1) > 1
          ? `You may take at most ${deps.reviewMaxTurns} model turns, your answer included; when you are told it is your last turn, answer.`
          : 'You have one turn: answer directly.'
    },
    {
      sections: [
        guidelines
          ? `## Review guidelines (from ${guidelines.source})\n\n${stripInvisible(guidelines.text)}`
          : '## Review guidelines\n\nNone given: use general good practice.'
      ],
      instructions: repositoryInstructions(
        deps.instructions,
        deps.pathInstructions ?? [],
        plan.files.filter(f => !f.ignored).map(f => f.path)
      ),
      dir: deps.promptsDir
    }
  )
  const shared = [
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
    '## What this review covers',
    '',
    scopeText(plan)
  ].join('\n')
  // whatever is left (paths, names) loses its invisible characters too; the markers stay visible
  return { system, shared: stripInvisible(shared), shape }
}

/**
 * One batch's prompt: the shared, cached prefix (system prompt and the PR's text), then this batch's
 * diff and the changed files it modifies, whole and numbered, within a context budget that grows
 * with the batch (15 % of its diff, 8k to 40k characters).
 */
export async function batchPrompt(
  shared: SharedPrompt,
  git: Git,
  range: { base: string; head: string },
  batch: Batch,
  scope: { plan: ReviewPlan; answerOn: string[]; cachePart?: boolean }
): Promise<ReviewPrompt> {
  const { plan, answerOn } = scope
  const modified = new Set(plan.files.filter(f => !f.isNew).map(f => f.path))
  const whole = batch.files.filter(f => modified.has(f) && !batch.partial.includes(f))
  const budget = Math.min(
    CONTEXT_BUDGET,
    Math.max(CONTEXT_FLOOR, batch.text.length * CONTEXT_SHARE)
  )
  const context = await surroundingCode(git, range.head, whole, budget)
  const part = plan.batches.length > 1 ? `, part ${batch.index} of ${plan.batches.length}` : ''
  const partial = batch.partial.length
    ? `\n\nThis part holds only some hunks of ${batch.partial.join(', ')}; other parts review the rest of it.`
    : ''
  const answer = answerOn.length
    ? `In \`earlierFindings\` answer on these earlier findings, which are in your part: ${answerOn.join(', ')}.`
    : 'No earlier finding is in your part: leave `earlierFindings` empty.'
  const text = [
    `## Diff against the merge base ${range.base.slice(0, 7)} → head ${range.head.slice(0, 7)}${part}: ${batch.files.length} file(s)${partial}`,
    '',
    answer,
    '',
    '```diff',
    stripInvisible(batch.text, { mark: true }),
    '```',
    context ? `\n## Changed files at head\n\n${context}` : ''
  ].join('\n')
  const messages: Message[] = [
    {
      role: 'user',
      content: [
        { type: 'text', text: shared.shared, cache_control: { type: 'ephemeral' } },
        // cached too when verifier calls will read the part again (verify-findings)
        {
          type: 'text',
          text: stripInvisible(text),
          ...(scope.cachePart ? { cache_control: { type: 'ephemeral' as const } } : {})
        }
      ]
    }
  ]
  if (shared.shape === 'json')
    return {
      system: shared.system,
      tools: [],
      outputSchema: wireSchema(verdictSchema) as Record<string, unknown>,
      messages
    }
  return { system: shared.system, tools: [reviewTool()], messages }
}
