import { modelFamilyId } from './pricing.js'
import type { ProviderName } from './provider.js'

/**
 * What a model accepts, where it matters to the reviewer and the fixer. From the model pages as read in
 * November 2026:
 * - Structured outputs (`output_config.format`): "Fable 5 and 5.1; Mythos 5, 5.1, and Preview; Opus
 *   4.5, 4.6, 4.7, 4.8, 5, and 5.5; Sonnet 4.5, 4.6, and 5; Haiku 4.5", and Sonnet 5.5 and Haiku 5.5,
 *   whose guides recommend them (https://platform.claude.com/docs/en/build-with-claude/structured-outputs,
 *   https://platform.claude.com/docs/en/models/haiku-5-5/migration-guide). Not on Amazon Bedrock for
 *   the 5.x models ("On Claude in Amazon Bedrock, which doesn't support structured outputs, use tools").
 * - Forced tool use (`tool_choice` any or tool) returns 400 on Sonnet 5.5, Opus 5.5 and Fable 5.1
 *   (https://platform.claude.com/docs/en/models/sonnet-5-5/whats-new-sonnet-5-5#forced-tool-use-is-not-supported),
 *   so the reviewer never forces a tool: it uses structured outputs, or its tool with `auto`.
 * - Maximum output (thinking included): 128K on the 5.x models, 64K on Haiku 4.5 and Sonnet 4.5/4.6
 *   (https://platform.claude.com/docs/en/models/overview).
 */
export interface ModelTraits {
  structuredOutputs: boolean
  maxOutputTokens: number
}

const OLD = /^claude-(3-|instant|2)|^claude-(opus|sonnet)-4-0$|^claude-opus-4-1$/

/** Output limits of the models before the 5.x ones, longest prefix first; later ones have 64K or 128K. */
const OLDER_LIMITS: ReadonlyArray<[prefix: string, tokens: number]> = [
  ['claude-3-7-sonnet', 64_000],
  ['claude-3-5-sonnet', 8192],
  ['claude-3-5-haiku', 8192],
  ['claude-3-opus', 4096],
  ['claude-3-haiku', 4096],
  ['claude-3-sonnet', 4096],
  ['claude-opus-4-0', 32_000],
  ['claude-opus-4-1', 32_000],
  ['claude-sonnet-4-0', 64_000],
  ['claude-opus-4-6', 128_000],
  ['claude-opus-4-7', 128_000],
  ['claude-opus-4-8', 128_000]
]

export function traitsOf(model: string, provider: ProviderName = 'anthropic'): ModelTraits {
  const id = modelFamilyId(model)
  const old = OLD.test(id)
  const fiveX = /^claude-[a-z]+-5(-|$)/.test(id)
  const older = OLDER_LIMITS.find(([prefix]) => id.startsWith(prefix))?.[1]
  const maxOutputTokens = fiveX ? 128_000 : (older ?? (old ? 4096 : 64_000))
  // Bedrock offers structured outputs for a few 4.x models only; its tools work everywhere
  const bedrockStructured = /^claude-(opus-4-[56]|sonnet-4-[56]|haiku-4-5)$/.test(id)
  const structuredOutputs = !old && (provider !== 'bedrock' || bedrockStructured)
  return { structuredOutputs, maxOutputTokens }
}
