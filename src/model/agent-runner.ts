import type { ContentBlock, Message, ModelClient, ModelResponse, ToolSpec } from '../ports/index.js'
import { Budget } from './budget.js'

export type ToolUse = Extract<ContentBlock, { type: 'tool_use' }>

/** Why a run of the agent loop ended. */
export type AgentStop =
  /** the model answered without a tool call */
  | 'done'
  /** the model called one of the `finalTools` (its answer is in that call) */
  | 'final_tool'
  | 'max_turns'
  | 'timeout'
  | 'budget'
  | 'max_tokens'
  | 'refusal'
  /** the API failed after the SDK's retries */
  | 'error'

export interface AgentDeps {
  client: ModelClient
  budget: Budget
  now: () => number
}

/** One agent's conversation and its limits. */
export interface AgentSpec {
  model: string
  system: Array<{ type: 'text'; text: string; cache_control?: { type: 'ephemeral' } }>
  tools: ToolSpec[]
  /** The conversation so far; the run appends to it in place (it is the transcript). */
  messages: Message[]
  /** Turns (model calls) this run may make. */
  maxTurns: number
  /** Epoch ms by which the run must end; each call is aborted then. */
  deadline: number
  maxTokens: number
  /** Output tokens reserved in the budget for each turn (thinking included). */
  outputReserve: number
  /** Structured outputs: the final answer's text is JSON matching this schema. */
  outputSchema?: Record<string, unknown>
  /** Tools whose call ends the run, not run: the agent's answer (submit_review, submit_verification). */
  finalTools?: ReadonlySet<string>
  /** Said after the tool results of the turn before the last: the next answer must be the final one. */
  lastTurnNote?: string
  /** Runs one turn's tool calls; returns one tool_result block per call, in order. */
  runTools(calls: ToolUse[]): Promise<ContentBlock[]>
  /** Told each answered turn's response (after its usage is recorded in the budget). */
  onTurn?(response: ModelResponse, turn: number): void
}

export interface AgentRun {
  stopReason: AgentStop
  turns: number
  /** The last answer, when there was one. */
  response?: ModelResponse
  /** Set when stopReason is 'error': what the API (or the SDK) threw. */
  error?: unknown
}

type Marked = { cache_control?: unknown }

/** The API allows at most four cache breakpoints in one request. */
const MAX_BREAKPOINTS = 4

/**
 * The conversation as sent: a cache breakpoint on its last block, so each turn reads the previous
 * ones from the cache. The caller's own breakpoints (system, tools, a shared prefix) stay; the
 * moving one is added only to the copy sent, and only within the API's four.
 */
export function withMovingBreakpoint(
  messages: readonly Message[],
  others: ReadonlyArray<{ cache_control?: unknown }> = []
): Message[] {
  const marks =
    others.filter(b => b.cache_control).length +
    messages.reduce((n, m) => n + m.content.filter(b => (b as Marked).cache_control).length, 0)
  const last = messages.at(-1)
  const block = last?.content.at(-1) as Marked | undefined
  if (!last || !block || block.cache_control || marks >= MAX_BREAKPOINTS) return [...messages]
  const marked = { ...block, cache_control: { type: 'ephemeral' } } as ContentBlock
  return [...messages.slice(0, -1), { ...last, content: [...last.content.slice(0, -1), marked] }]
}

/**
 * The tool loop every agent runs (the fixer, the reviewer and the verifier with read-only tools):
 * one call per turn within `maxTurns`, the deadline and the budget, every answer appended to
 * `messages` as received (thinking blocks unchanged, as the tool loops of the 5.x models require),
 * its tool calls run and their results sent back, until the model answers without a tool call, calls
 * a final tool, or a limit stops it. Each call holds its worst case in the budget while it runs, its
 * max_tokens cut to what max-cost-usd has left (`Budget.acquire`), so calls in parallel cannot pass
 * the cap; an answer cut off at such a cut max_tokens ends the run as 'budget'. An API error ends the
 * run with stopReason 'error'; it never throws.
 */
export async function runAgent(deps: AgentDeps, spec: AgentSpec): Promise<AgentRun> {
  let response: ModelResponse | undefined
  for (let turn = 1; turn <= spec.maxTurns; turn++) {
    const answer = await ask(deps, spec)
    if ('stopReason' in answer) return { ...answer, turns: turn - 1, response }
    response = answer.response
    spec.onTurn?.(response, turn)
    spec.messages.push({
      role: 'assistant',
      content: response.content.length ? response.content : [{ type: 'text', text: '(empty)' }]
    })
    if (response.stopReason === 'refusal') return { stopReason: 'refusal', turns: turn, response }
    const calls = response.content.filter((b): b is ToolUse => b.type === 'tool_use')
    if (calls.some(c => spec.finalTools?.has(c.name)))
      return { stopReason: 'final_tool', turns: turn, response }
    if (calls.length === 0)
      return { stopReason: ended(response, answer.cut), turns: turn, response }
    const results = await spec.runTools(calls)
    const note = turn === spec.maxTurns - 1 ? spec.lastTurnNote : undefined
    spec.messages.push({
      role: 'user',
      content: note ? [...results, { type: 'text', text: note }] : results
    })
  }
  return { stopReason: 'max_turns', turns: spec.maxTurns, response }
}

/** Why a turn without tool calls ended the run: done, or cut off (by the budget when it cut max_tokens). */
function ended(response: ModelResponse, cut: boolean): AgentStop {
  if (response.stopReason !== 'max_tokens') return 'done'
  return cut ? 'budget' : 'max_tokens'
}

/**
 * One turn's call within the deadline and the budget: its answer (and whether the budget cut its
 * max_tokens), or why there is none.
 */
async function ask(
  deps: AgentDeps,
  spec: AgentSpec
): Promise<{ response: ModelResponse; cut: boolean } | Pick<AgentRun, 'stopReason' | 'error'>> {
  const remaining = spec.deadline - deps.now()
  if (remaining <= 0) return { stopReason: 'timeout' }
  const request = {
    system: spec.system,
    tools: spec.tools,
    messages: withMovingBreakpoint(spec.messages, [...spec.system, ...spec.tools])
  }
  const signal = AbortSignal.timeout(remaining)
  const grant = await deps.budget.acquire(
    spec.model,
    JSON.stringify(request).length,
    { maxTokens: spec.maxTokens, outputReserve: Math.min(spec.outputReserve, spec.maxTokens) },
    signal
  )
  const timedOut = () => signal.aborted || deps.now() >= spec.deadline
  if (!grant) return { stopReason: timedOut() ? 'timeout' : 'budget' }
  let response: ModelResponse | undefined
  try {
    response = await deps.client.create({
      model: spec.model,
      maxTokens: grant.maxTokens,
      ...request,
      ...(spec.tools.length ? { toolChoice: { type: 'auto' as const } } : {}),
      ...(spec.outputSchema ? { outputSchema: spec.outputSchema } : {}),
      signal
    })
    return { response, cut: grant.maxTokens < spec.maxTokens }
  } catch (error) {
    return { stopReason: timedOut() ? 'timeout' : 'error', error }
  } finally {
    deps.budget.settle(grant, response?.usage)
  }
}
