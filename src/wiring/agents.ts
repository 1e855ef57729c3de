import { aiFix } from '../fix/ai-fixer.js'
import type { Settings } from '../loop/settings.js'
import type { Usage } from '../loop/types.js'
import { usageSince, zeroUsage } from '../loop/usage.js'
import type { AiAgents, Log, ModelClient } from '../ports/index.js'
import { aiAnswer } from '../review/ai-answer.js'
import { aiReview } from '../review/ai-reviewer.js'
import { Budget } from '../model/budget.js'
import { priceWarning } from '../model/pricing.js'
import type { ProviderConfig } from '../loop/settings.js'
import { describeProvider } from '../model/provider.js'
import { createModelClient } from '../model/providers.js'

/** The reviewer and fixer of one iteration, sharing one budget and one client. */
export function createAiAgents(
  settings: Settings,
  log: Log,
  client?: ModelClient,
  /** Told every answered call's usage, as it comes: what a caller counts when the run fails. */
  onUsage?: (usage: Usage) => void
): AiAgents {
  const { ai } = settings
  for (const model of new Set([ai.reviewModel, ai.fixModel])) {
    const warning = priceWarning(model)
    if (warning) log.warning(warning)
  }
  const provider: ProviderConfig = ai.provider ?? {
    name: 'anthropic',
    apiKey: ai.apiKey,
    baseUrl: ai.baseUrl
  }
  if (!client) log.info(`Claude is reached through ${describeProvider(provider)}.`)
  if (provider.name === 'bedrock') {
    for (const model of new Set([ai.reviewModel, ai.fixModel])) {
      if (!model.includes('anthropic.') && !model.startsWith('arn:'))
        log.warning(
          `'${model}' does not look like a Bedrock model id (such as us.anthropic.claude-sonnet-4-6-v1:0); set review-model and fix-model to ids enabled in ${provider.awsRegion}.`
        )
    }
  }
  const inner =
    client ??
    createModelClient(provider, Math.max(ai.reviewTimeoutMinutes, ai.fixTimeoutMinutes) * 60_000)
  const model: ModelClient = onUsage
    ? {
        create: async request => {
          const response = await inner.create(request)
          onUsage(response.usage)
          return response
        }
      }
    : inner
  let budget: Budget | undefined
  return {
    spent: () => budget?.usage ?? zeroUsage(),
    async review({ pull, state, git, gates, fresh }) {
      budget = new Budget(state.totals.costUsd, ai.maxCostUsd)
      return aiReview(
        { client: model, ai, threshold: settings.severityThreshold, budget, log },
        { pull, state, git, gates, fresh }
      )
    },
    async answer({ question, spentBefore }) {
      budget ??= new Budget(spentBefore, ai.maxCostUsd)
      return aiAnswer({ client: model, ai, budget }, question)
    },
    async fix({ pull, state, review, workspace }) {
      // a fix a human asked for reviews nothing first: the budget starts from the loop's spend
      budget ??= new Budget(state.totals.costUsd, ai.maxCostUsd)
      const before = budget.usage
      const result = await aiFix(
        {
          client: model,
          ai,
          threshold: settings.severityThreshold,
          budget,
          log,
          now: () => Date.now()
        },
        {
          pull: { title: pull.title, body: pull.body },
          findings: review.findings,
          requiredRework: review.verdict?.requiredRework ?? [],
          tools: {
            root: workspace.git.root,
            protectedPaths: settings.protectedPaths,
            gates: settings.gates,
            matchers: workspace.matchers,
            runner: workspace.runner,
            cwd: workspace.cwd,
            env: workspace.env,
            secrets: workspace.secrets,
            sandboxed: workspace.sandboxed,
            timeoutMs: settings.commandTimeoutMinutes * 60_000,
            findingIds: new Set(review.findings.map(f => f.id))
          }
        }
      )
      log.info(
        `fixer: ${result.stopReason} after ${result.turns} turn(s), ${result.disputes.length} dispute(s)`
      )
      return {
        disputes: result.disputes,
        refusals: result.refusals,
        keptOut: result.keptOut,
        usage: usageSince(budget.usage, before),
        transcript: result.transcript,
        stopReason: result.stopReason,
        error: result.error,
        summary: result.summary
      }
    }
  }
}
