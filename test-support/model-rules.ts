/**
 * What the Messages API accepts per model, as the model pages read in November 2026 say, for the
 * test server (`model-server.ts`) to reject the request shapes the real API rejects.
 *
 * Sources (the platform.claude.com pages; each rule below names the one it rests on):
 * - [ERRORS] https://platform.claude.com/docs/en/api/errors
 * - [MESSAGES] https://platform.claude.com/docs/en/api/messages/create
 * - [OVERVIEW] https://platform.claude.com/docs/en/models/overview
 * - [CONTEXT] https://platform.claude.com/docs/en/build-with-claude/context-windows
 * - [EXTENDED] https://platform.claude.com/docs/en/build-with-claude/extended-thinking
 * - [EFFORT] https://platform.claude.com/docs/en/build-with-claude/effort
 * - [STRUCTURED] https://platform.claude.com/docs/en/build-with-claude/structured-outputs
 * - [STRICT] https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use
 * - [FABLE_5_1] https://platform.claude.com/docs/en/models/fable-5-1/whats-new-fable-5-1
 * - [OPUS_5_5] https://platform.claude.com/docs/en/models/opus-5-5/whats-new-opus-5-5
 * - [OPUS_5_5_MIGRATION] https://platform.claude.com/docs/en/models/opus-5-5/migration-guide
 * - [SONNET_5_5] https://platform.claude.com/docs/en/models/sonnet-5-5/whats-new-sonnet-5-5
 * - [SONNET_5_5_MIGRATION] https://platform.claude.com/docs/en/models/sonnet-5-5/migration-guide
 * - [HAIKU_5_5] https://platform.claude.com/docs/en/models/haiku-5-5/whats-new-haiku-5-5 and
 *   https://platform.claude.com/docs/en/models/haiku-5-5/migration-guide
 * - [SONNET_5_MIGRATION] https://platform.claude.com/docs/en/models/sonnet-5/migration-guide
 * - [OPUS_4_7] https://platform.claude.com/docs/en/models/opus-4-7/overview
 * - [SONNET_4_6] https://platform.claude.com/docs/en/models/sonnet-4-6/overview
 * - [HAIKU_4_5] https://platform.claude.com/docs/en/models/haiku-4-5/overview
 */

/**
 * How `temperature`, `top_p` and `top_k` are checked.
 * - `any`: as the request says.
 * - `one-of`: `temperature` and `top_p` work, but not both in one request.
 * - `default-only`: "Models released after Claude Opus 4.6 do not support setting temperature. A
 *   value of 1.0 will be accepted for backwards compatibility"; top_p: "A value >= 0.99 will be
 *   accepted"; top_k: "any value will be rejected with a 400 error" [MESSAGES].
 * - `haiku-5-5`: "If a request includes `temperature`, it must be `1`. If it includes `top_p`, it
 *   must be `0.99`, its default. Any other `temperature` or `top_p` value returns a 400 error,
 *   including a `top_p` of `1`. So does any `top_k` value, and so does a request that includes both
 *   `temperature` and `top_p`." [HAIKU_5_5]
 */
export type SamplingRule = 'any' | 'one-of' | 'default-only' | 'haiku-5-5'

export interface ModelRules {
  /** the family id the rules are filed under, e.g. `claude-sonnet-5-5` */
  family: string
  /** tool_choice {type:'tool'|'any'} accepted */
  forcedToolChoice: boolean
  /**
   * Thinking is on by default: every answer starts with a thinking block unless the request turns
   * thinking off (`disabled`), forces a tool, or asks for `between_tools` before the first tool call.
   * Models without it think only when the request sends `thinking` `enabled` or `adaptive`.
   */
  emitsThinking: boolean
  /** thinking: {type:'disabled'} accepted */
  thinkingDisabled: boolean
  /**
   * `thinking: {type:'between_tools'}` is the documented way to turn up-front thinking off, and the
   * 400 for `disabled` points to it (Sonnet 5.5 [SONNET_5_5])
   */
  betweenTools: boolean
  /** `disabled` is accepted only at effort `high` or below (not at `xhigh` or `max`) */
  disabledOnlyUpToHighEffort: boolean
  /** thinking: {type:'enabled', budget_tokens} accepted */
  manualThinking: boolean
  /** thinking: {type:'adaptive'} accepted */
  adaptiveThinking: boolean
  /** `display` when the request does not say: the thinking text is '' when 'omitted' */
  defaultDisplay: 'omitted' | 'summarized'
  /**
   * A replayed thinking block of this model must have been produced for the same conversation prefix
   * (system, tools, earlier messages), else 400 "The block is bound to a different conversation".
   */
  thinkingPrefixCheck: boolean
  sampling: SamplingRule
  /** output_config.format (structured outputs) and strict tools accepted on the Anthropic/Vertex routes */
  structuredOutputs: boolean
  /** ... and on the Bedrock route */
  structuredOutputsOnBedrock: boolean
  /** assistant prefill (a final assistant message) accepted */
  prefill: boolean
  /** the synchronous Messages API's `max_tokens` ceiling (thinking included) */
  maxOutputTokens: number
}

type Rules = Omit<ModelRules, 'family'>

/**
 * Shared by the 5.x models. Sampling: Opus 5.5 [OPUS_5_5_MIGRATION] "Setting `temperature`, `top_p`,
 * or `top_k` to any non-default value on Claude Opus 4.7 and later models, including Claude Opus 5.5,
 * returns a 400 error"; Fable 5.1 [FABLE_5_1] "Non-default `temperature`, `top_p`, or `top_k` values
 * return a 400 error"; Sonnet 5 [SONNET_5_MIGRATION]; Sonnet 5.5 [SONNET_5_5_MIGRATION] lists
 * "sampling parameters" among the settings that return 400.
 * Manual thinking: "Claude 4.7 and later models have removed extended thinking" [ERRORS].
 * Prefill: "Claude 4.6 and later models and Claude Mythos Preview do not support prefilling assistant
 * messages" [ERRORS]; Fable 5.1: "Prefilling the assistant response returns a 400 error" [FABLE_5_1].
 * Output: "can generate up to 128k output tokens (`max_tokens`)" [CONTEXT], [OVERVIEW].
 * Structured outputs: Fable 5/5.1, Mythos 5/5.1, Opus 5/5.5, Sonnet 5 are listed [STRUCTURED]; Sonnet
 * 5.5 and Haiku 5.5 postdate the list and their guides recommend structured outputs. Bedrock: only
 * "Opus 4.6, Sonnet 4.6/4.5, Opus 4.5 and Haiku 4.5" [STRUCTURED]; "On Claude in Amazon Bedrock,
 * which doesn't support structured outputs, use tools" [HAIKU_5_5].
 * Display: "Default `display` is `omitted`" on the 5.x models (thinking text '').
 */
const FIVE: Rules = {
  forcedToolChoice: true,
  emitsThinking: true,
  thinkingDisabled: true,
  betweenTools: false,
  disabledOnlyUpToHighEffort: false,
  manualThinking: false,
  adaptiveThinking: true,
  defaultDisplay: 'omitted',
  thinkingPrefixCheck: false,
  sampling: 'default-only',
  structuredOutputs: true,
  structuredOutputsOnBedrock: false,
  prefill: false,
  maxOutputTokens: 128_000
}

/**
 * Fable 5.1, Mythos 5.1, Opus 5.5: "thinking is always on. Sending `thinking: {"type": "disabled"}`
 * to any of these models returns a 400" [ERRORS]; forced tool use: "Claude Opus 5.5, Claude Fable
 * 5.1, and Claude Mythos 5.1 don't support forced tool use" [ERRORS], [FABLE_5_1], [OPUS_5_5].
 * Prefix check: "Editing earlier turns gives a 400 whose message says `The block is bound to a
 * different conversation`"; "Claude Mythos 5.1 doesn't run this check" [FABLE_5_1], [OPUS_5_5].
 */
const ALWAYS_THINKING_NO_FORCED: Rules = {
  ...FIVE,
  forcedToolChoice: false,
  thinkingDisabled: false,
  thinkingPrefixCheck: true
}

/**
 * The 4.x models think only when asked. "Tool use with thinking only supports `tool_choice:
 * {"type": "auto"}` ... or `none`" [EXTENDED].
 */
const FOUR: Rules = {
  forcedToolChoice: true,
  emitsThinking: false,
  thinkingDisabled: true,
  betweenTools: false,
  disabledOnlyUpToHighEffort: false,
  manualThinking: true,
  adaptiveThinking: true,
  defaultDisplay: 'summarized',
  thinkingPrefixCheck: false,
  sampling: 'any',
  structuredOutputs: true,
  structuredOutputsOnBedrock: false,
  prefill: true,
  maxOutputTokens: 64_000
}

const RULES: Record<string, Rules> = {
  // [FABLE_5_1]: always-on adaptive thinking, no forced tool use, prefix check, 128K output
  'claude-fable-5-1': ALWAYS_THINKING_NO_FORCED,
  // [FABLE_5_1]: "claude-mythos-5-1 | Same capabilities as Claude Fable 5.1", but "Claude Mythos 5.1
  // doesn't run this check" (the conversation-prefix check)
  'claude-mythos-5-1': { ...ALWAYS_THINKING_NO_FORCED, thinkingPrefixCheck: false },
  // [FABLE_5_1]: "If you already call Claude Fable 5, three changes are breaking: forced tool use
  // returns an error" (so Fable 5 accepts it); [ERRORS]: disabled returns 400 on Fable 5 / Mythos 5
  'claude-fable-5': { ...FIVE, thinkingDisabled: false },
  'claude-mythos-5': { ...FIVE, thinkingDisabled: false },
  // [OPUS_5_5]: "thinking is always on: a request that sets `thinking: {"type": "disabled"}`, or a
  // manual budget ..., returns a 400"; forced tool_choice 400; prefix check ("accounts created on or
  // after 2026-08-31"; the test server behaves as such an account)
  'claude-opus-5-5': ALWAYS_THINKING_NO_FORCED,
  // [SONNET_5_5]: "Adaptive thinking is on by default"; `disabled` returns 400 "whose message points
  // to `between_tools`"; manual budgets 400; forced tool_choice 400; thinking blocks are tied to the
  // model and the conversation; [SONNET_5_5_MIGRATION]: sampling parameters and prefill return 400
  'claude-sonnet-5-5': {
    ...FIVE,
    forcedToolChoice: false,
    thinkingDisabled: false,
    betweenTools: true,
    thinkingPrefixCheck: true
  },
  // [HAIKU_5_5]: "accepts a forced `tool_choice` ... but the response starts with the tool call and has
  // no `thinking` block"; "you can still turn thinking off with `thinking: {"type": "disabled"}` at
  // `high` effort or below"; manual budgets 400; prefill 400 "even with thinking turned off";
  // sampling as `haiku-5-5`; same prefix check; 128K output
  'claude-haiku-5-5': {
    ...FIVE,
    disabledOnlyUpToHighEffort: true,
    sampling: 'haiku-5-5',
    thinkingPrefixCheck: true
  },
  // [SONNET_5_MIGRATION]: "adaptive thinking is on by default, and manual extended thinking returns
  // a 400 error"; sampling non-default 400; "Prefilling the assistant message works on Claude Haiku
  // 4.5 but returns a 400 error on Claude Sonnet 5". [OPUS_5_5_MIGRATION]: Sonnet 5 "Runs with
  // thinking on by default and accepts `thinking: {"type": "disabled"}`, in its case at any effort
  // level" and "Accepts forced tool choice"
  'claude-sonnet-5': FIVE,
  // [OPUS_5_5]: "On Claude Opus 5, thinking is on by default and `thinking: {"type": "disabled"}` is
  // accepted at effort `high` or below"; Opus 5.5's breaking changes for Opus 5 code include "forced
  // tool use returns an error" (so Opus 5 accepts it)
  'claude-opus-5': { ...FIVE, disabledOnlyUpToHighEffort: true },
  // [OPUS_5_5_MIGRATION]: Opus 4.8, like Opus 5, "Accepts `thinking: {"type": "disabled"}`, forced tool
  // choice"; [ERRORS]: extended thinking removed from 4.7 on; [MESSAGES]: sampling defaults only after
  // Opus 4.6; prefill 400 from 4.6 on; [CONTEXT]: 128K output. Bedrock structured outputs: not listed.
  'claude-opus-4-8': {
    ...FOUR,
    manualThinking: false,
    defaultDisplay: 'omitted',
    sampling: 'default-only',
    prefill: false,
    maxOutputTokens: 128_000
  },
  // [OPUS_4_7]: "Adaptive" thinking, 128K output; thinking content omitted by default; the rest as 4.8
  'claude-opus-4-7': {
    ...FOUR,
    manualThinking: false,
    defaultDisplay: 'omitted',
    sampling: 'default-only',
    prefill: false,
    maxOutputTokens: 128_000
  },
  // [EXTENDED]: "Extended thinking ... is deprecated on the Claude 4.6 models (requests using it still
  // succeed)"; [ERRORS]: no prefill from 4.6 on; [CONTEXT]: 128K output; [STRUCTURED]: on Bedrock too
  'claude-opus-4-6': {
    ...FOUR,
    prefill: false,
    maxOutputTokens: 128_000,
    structuredOutputsOnBedrock: true
  },
  // [ERRORS]: "Models that support only extended thinking (Claude 4.5 and earlier models) reject
  // `thinking: {"type": "adaptive"}`"; prefill accepted ("a change only if you come from Claude Opus
  // 4.5 or earlier" [OPUS_5_5_MIGRATION]); 64K output; structured outputs on Bedrock [STRUCTURED]
  'claude-opus-4-5': { ...FOUR, adaptiveThinking: false, structuredOutputsOnBedrock: true },
  // [SONNET_4_6]: 1M context, "Max output: 128K tokens" (an older overview said 64K); prefill 400
  // "on Claude Sonnet 4.6 and later models" [SONNET_5_MIGRATION]; manual thinking deprecated but works
  'claude-sonnet-4-6': {
    ...FOUR,
    prefill: false,
    maxOutputTokens: 128_000,
    structuredOutputsOnBedrock: true
  },
  // [ERRORS]: 4.5 models reject adaptive; prefill works ("breaking change when migrating from Sonnet
  // 4.5 or earlier" [SONNET_5_MIGRATION]); [CONTEXT]: 200k context, 64K output
  'claude-sonnet-4-5': { ...FOUR, adaptiveThinking: false, structuredOutputsOnBedrock: true },
  // [HAIKU_4_5], [SONNET_5_MIGRATION]: "Claude Haiku 4.5 uses manual extended thinking (off by
  // default), a 200k token context window, and up to 64k output tokens"; "supports manual extended
  // thinking ... and rejects `thinking: {type: "adaptive"}`"; "`temperature` and `top_p` work on
  // Claude Haiku 4.5 (one at a time, not both)"; prefill works; forced tool use works (not with
  // thinking [EXTENDED])
  'claude-haiku-4-5': {
    ...FOUR,
    adaptiveThinking: false,
    sampling: 'one-of',
    structuredOutputsOnBedrock: true
  }
}

/**
 * The family id of a model id in any of its forms: Bedrock (`anthropic.claude-sonnet-5-5`, with a
 * cross-region prefix such as `us.`, `eu.`, `apac.`, `us-gov.` or `global.` and a suffix such as
 * `-v1:0`), Vertex (`claude-sonnet-4-5@20250929`), dated (`claude-haiku-4-5-20251001`).
 */
export function modelFamily(model: string): string {
  return model
    .replace(/^((?:[a-z]{2,6}(?:-[a-z]+)?|anthropic)\.)+/, '')
    .replace(/@.*$/, '')
    .replace(/-v\d+(?::\d+)?$/, '')
    .replace(/-\d{8}$/, '')
}

/** The rules of a model, or undefined for a model not in the table (no model rules apply). */
export function rulesFor(model: string): ModelRules | undefined {
  const family = modelFamily(model)
  const rules = RULES[family]
  return rules ? { family, ...rules } : undefined
}

/** The families the table covers. */
export const KNOWN_FAMILIES: readonly string[] = Object.keys(RULES)

/**
 * Whether `output_config.format` and strict tools are accepted for a model on a route; undefined
 * for a model not in the table. Vertex behaves like the Anthropic API [STRUCTURED].
 */
export function structuredOutputsOn(
  provider: 'anthropic' | 'bedrock' | 'vertex',
  model: string
): boolean | undefined {
  const rules = rulesFor(model)
  if (!rules) return undefined
  return provider === 'bedrock' ? rules.structuredOutputsOnBedrock : rules.structuredOutputs
}
