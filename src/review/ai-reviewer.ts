import type { AiSettings } from '../inputs.js'
import { fingerprint } from '../loop/fingerprint.js'
import { atOrAbove } from '../loop/findings.js'
import { filesChangedCount, roundIterations } from '../loop/state.js'
import type {
  Finding,
  GateResult,
  LoopState,
  PullRequest,
  ReviewerVerdict,
  Severity
} from '../loop/types.js'
import { Budget } from '../model/budget.js'
import { systemPrompt, type SystemBlock } from '../model/prompts.js'
import { sanitizeUntrusted, stripInvisible } from '../model/sanitize.js'
import type { ContentBlock, Git, Message, ModelClient, ToolSpec } from '../ports/index.js'
import { selectDiff } from './diff-budget.js'
import { loadGuidelines } from './guidelines.js'
import { createVerdictValidator, verdictSchema, type VerdictInput } from './verdict-schema.js'

export const REVIEW_TOOL = 'submit_review'
const DIFF_BUDGET = 120_000
const CONTEXT_BUDGET = 40_000
const MAX_TOKENS = 16_384

export interface ReviewerDeps {
  client: ModelClient
  ai: AiSettings
  threshold: Severity
  budget: Budget
  log: { info(m: string): void; warning(m: string): void }
  promptsDir?: string
}

export interface ReviewerInput {
  pull: PullRequest
  state: LoopState
  git: Git
  gates: GateResult[]
}

/** Prose a model wrote or a check printed, bounded elsewhere: cleaned, not cut. */
const prose = (text: string): string => sanitizeUntrusted(text, Infinity)

/** Earlier iterations as metadata only: ids, titles, locations, statuses, and the fixer's disputes. */
export function earlierRounds(state: LoopState): string {
  const round = roundIterations(state)
  if (round.length === 0) return 'This is the first review of this PR.'
  const lines: string[] = []
  for (const it of round) {
    lines.push(`Iteration ${it.n} reviewed ${it.reviewedSha.slice(0, 7)}: ${it.decision}`)
    for (const f of it.findings) {
      lines.push(
        `  - ${f.id} [${f.severity}] ${prose(f.title ?? '')}${f.file ? ` (${f.file}${f.line ? `:${f.line}` : ''})` : ''}: ${f.status}`
      )
    }
    for (const id of it.resolved) lines.push(`  - ${id}: fixed since the previous iteration`)
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

/** Turns the verdict's findings into findings with ids, dropping those that cite code that does not exist. */
async function locate(
  verdict: VerdictInput,
  git: Git,
  sha: string,
  threshold: Severity
): Promise<{ findings: Finding[]; dropped: number }> {
  const tree = new Set(await git.listFiles(sha))
  const contents = new Map<string, string[]>()
  const findings: Finding[] = []
  let dropped = 0
  for (const f of verdict.findings) {
    const file = f.file?.replace(/^\.?\//, '')
    if (!file || !f.line) {
      if (atOrAbove(f.severity, threshold)) dropped++
      else
        findings.push({
          ...f,
          file: undefined,
          line: undefined,
          endLine: undefined,
          id: fingerprint({ title: f.title }),
          source: 'ai'
        })
      continue
    }
    if (!tree.has(file)) {
      dropped++
      continue
    }
    if (!contents.has(file)) contents.set(file, ((await git.show(sha, file)) ?? '').split('\n'))
    const lines = contents.get(file)!
    if (f.line > lines.length) {
      dropped++
      continue
    }
    findings.push({
      ...f,
      file,
      endLine:
        f.endLine && f.endLine >= f.line && f.endLine <= lines.length ? f.endLine : undefined,
      id: fingerprint({ title: f.title, file, anchor: lines[f.line - 1] }),
      source: 'ai'
    })
  }
  return { findings, dropped }
}

function failClosed(error: string, budget: Budget): ReviewerVerdict {
  return {
    decision: 'NEEDS_DISCUSSION',
    summary: `The AI review failed closed: ${error}`,
    findings: [],
    failedCriteria: [],
    passedCriteria: [],
    requiredRework: [],
    usage: budget.usage,
    dropped: 0,
    error
  }
}

interface ReviewPrompt {
  system: SystemBlock[]
  tools: ToolSpec[]
  messages: Message[]
}

/** The reviewer's prompt: the instructions and guidelines (cached), then the PR, its checks and its diff. */
async function reviewPrompt(deps: ReviewerDeps, input: ReviewerInput): Promise<ReviewPrompt> {
  const { pull, git } = input
  const base = await git.prepareDiff(pull.baseRef, pull.baseSha, pull.headSha)
  const diff = selectDiff(await git.diff(base, pull.headSha), DIFF_BUDGET)
  // modified files get their surrounding code; a new file's diff already holds all of it
  const changed = diff.files.filter(f => f.included && !f.isNew).map(f => f.path)
  const context = await surroundingCode(git, pull.headSha, changed, CONTEXT_BUDGET)
  const guidelines = await loadGuidelines(git, pull.baseSha, deps.ai.guidelines)
  const system = systemPrompt(
    'reviewer',
    { threshold: deps.threshold },
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
  const tools: ToolSpec[] = [
    {
      name: REVIEW_TOOL,
      description: 'Submit the review verdict for the current head of the PR.',
      input_schema: verdictSchema as unknown as Record<string, unknown>,
      cache_control: { type: 'ephemeral' }
    }
  ]
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
  return { system, tools, messages: [{ role: 'user', content: [{ type: 'text', text }] }] }
}

/** Appends the invalid answer and one repair request that quotes the validation errors back. */
function askForRepair(messages: Message[], content: ContentBlock[], errors: string[]): void {
  messages.push({
    role: 'assistant',
    content: content.length ? content : [{ type: 'text', text: '(empty)' }]
  })
  const call = content.find(b => b.type === 'tool_use' && b.name === REVIEW_TOOL)
  const repair = `Your verdict does not match the submit_review schema:\n${errors.map(e => `- ${e}`).join('\n')}\nCall submit_review again with a corrected, complete verdict.`
  messages.push({
    role: 'user',
    content:
      call && call.type === 'tool_use'
        ? [{ type: 'tool_result', tool_use_id: call.id, content: repair, is_error: true }]
        : [{ type: 'text', text: repair }]
  })
}

async function acceptVerdict(
  deps: ReviewerDeps,
  input: ReviewerInput,
  verdict: VerdictInput
): Promise<ReviewerVerdict> {
  const { pull, git } = input
  const { findings, dropped } = await locate(verdict, git, pull.headSha, deps.threshold)
  if (dropped)
    deps.log.info(
      `review: dropped ${dropped} finding(s) citing code that is not in ${pull.headSha.slice(0, 7)}`
    )
  return {
    decision: verdict.decision,
    summary: verdict.summary,
    findings,
    failedCriteria: verdict.failedCriteria,
    passedCriteria: verdict.passedCriteria,
    requiredRework: verdict.requiredRework,
    usage: deps.budget.usage,
    dropped
  }
}

/**
 * The AI review: one forced submit_review call, validated with ajv; an invalid verdict gets one
 * repair request, and then fails closed (NEEDS_DISCUSSION), never GO.
 */
export async function aiReview(deps: ReviewerDeps, input: ReviewerInput): Promise<ReviewerVerdict> {
  const { client, ai, budget } = deps
  const { system, tools, messages } = await reviewPrompt(deps, input)
  const validate = createVerdictValidator()
  const promptChars = JSON.stringify({ system, tools, messages }).length
  let lastErrors: string[] = []
  for (let attempt = 0; attempt < 2; attempt++) {
    const chars = promptChars + (attempt ? JSON.stringify(messages.slice(1)).length : 0)
    if (!budget.allows(ai.reviewModel, chars, MAX_TOKENS)) {
      return {
        ...failClosed('the max-cost-usd budget does not allow another review call', budget),
        budgetExhausted: true
      }
    }
    const response = await client.create({
      model: ai.reviewModel,
      maxTokens: MAX_TOKENS,
      system,
      tools,
      messages,
      toolChoice: { type: 'tool', name: REVIEW_TOOL }
    })
    budget.record(response.usage)
    const call = response.content.find(b => b.type === 'tool_use' && b.name === REVIEW_TOOL)
    const checked =
      call && call.type === 'tool_use'
        ? validate(call.input)
        : { ok: false as const, errors: ['no submit_review tool call in the answer'] }
    if (checked.ok) return acceptVerdict(deps, input, checked.verdict)
    lastErrors = checked.errors
    deps.log.warning(
      `review: the verdict is invalid (${lastErrors.slice(0, 3).join('; ')}); asking once for a repair`
    )
    askForRepair(messages, response.content, lastErrors)
  }
  return failClosed(
    `the verdict was still invalid after one repair: ${lastErrors.slice(0, 5).join('; ')}`,
    budget
  )
}
