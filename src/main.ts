import * as core from '@actions/core'
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { createArtifactStore } from './action/artifacts.js'
import { readContext, runUrl } from './action/context.js'
import { prNumberFromInput } from './action/event.js'
import { createActionsLog } from './action/log.js'
import { setOutputs, writeStepSummary } from './action/outputs.js'
import type { Prefetched } from './action/prefetch.js'
import { createGit } from './git/git.js'
import { createGitHubAdapter, type AdapterOptions } from './github/octokit-adapter.js'
import { parseConnection, parseMode } from './inputs.js'
import { statsReport } from './run/stats.js'
import type { GitHubPort, Log } from './ports/index.js'
import type { RunContext } from './action/context.js'
import { readRepoConfig, settingsAt, settingsFrom, settingsRef } from './wiring/repo-config.js'
import { createConfinement } from './process/sandbox.js'
import { sandboxFromStart, type Startup } from './action/startup.js'
import { runIteration } from './run/iteration.js'

/**
 * Wires the inputs, the run's context and one adapter per port into one iteration; returns the
 * message to fail the step with, if the loop ended in a fail-on state.
 */
export async function run(prefetched?: Prefetched, startup?: Startup): Promise<string | undefined> {
  const given = (name: string): string => core.getInput(name)
  const connection = parseConnection(given)
  core.setSecret(connection.githubToken)
  const ctx = readContext(process.env)
  const log = createActionsLog()
  const github = createGitHubAdapter({ ...adapterOptions(connection, ctx), prefetched, log })
  const mode = parseMode(given)
  if (mode.mode === 'stats') return reportStats(github, ctx, mode.pullRequests, log)
  // the repository's settings file, from the PR's base: the workflow's inputs override it
  const prNumber = prNumberFromInput(given('pr-number'))
  const ref = await settingsRef(ctx, github, { prefetched, prNumber })
  const config = await readRepoConfig(github, ref)
  const settings = settingsFrom(given, config, process.env, settingsAt(ref))
  // the settings file turned the sandbox found at the start off: PR code must not find the secrets
  if (startup?.sandbox && !sandboxFromStart(startup, settings)) await startup.restart()
  if (settings.ai.apiKey) core.setSecret(settings.ai.apiKey)
  if (settings.stateKey) core.setSecret(settings.stateKey)
  if (settings.checkRunButtons && !settings.stateAuthor)
    log.warning(
      "check-run-buttons is on, but a click starts no workflow on a check run made with the workflow token (GitHub's rule): pass a GitHub App's token as github-token and its bot as state-author, or use the /review-loop commands."
    )
  const scratch = path.join(ctx.tempDir, 'review-loop-private')
  // The model SDK is loaded only when a model provider is configured.
  const ai = settings.ai.provider
    ? (await import('./wiring/agents.js')).createAiAgents(settings, log)
    : undefined
  const artifactsDir = settings.artifactsDir ?? path.join(ctx.tempDir, 'review-loop')
  const outcome = await runIteration({
    ai,
    settings,
    ctx,
    github,
    openGit: async dir => {
      await mkdir(scratch, { recursive: true })
      return createGit(dir, {
        token: settings.githubToken,
        // a transfer that stalls for as long as a GitHub request may take is given up and retried
        lowSpeed: { bytesPerSecond: 1000, seconds: settings.requestTimeoutSeconds },
        scratch,
        warn: message => log.warning(message)
      })
    },
    confine: createConfinement({
      mode: settings.sandbox,
      network: settings.sandboxNetwork,
      passthrough: settings.envPassthrough,
      tempDir: scratch,
      env: process.env,
      log,
      choice: sandboxFromStart(startup, settings),
      setUp: !startup?.sandboxTried,
      secretsAtRisk: secretsAtRisk(settings)
    }),
    artifacts: createArtifactStore(artifactsDir, process.env, log, runUrl(ctx)),
    log,
    env: process.env,
    clock: { now: () => new Date() },
    writeSummary: writeStepSummary
  })
  if (outcome.notice) core.notice(outcome.notice)
  setOutputs(outcome, settings.maxIterations)
  return outcome.failure
}

/**
 * What PR code could take where it ran as the action's own user: the write token, and the model's
 * credentials (`sandbox: auto` then refuses to run it). Nothing where no PR code runs.
 */
function secretsAtRisk(settings: ReturnType<typeof settingsFrom>): string[] {
  if (settings.gates.length === 0 && settings.fixCommands.length === 0) return []
  const model = {
    anthropic: 'anthropic-api-key',
    bedrock: 'the AWS credentials (model-provider: bedrock)',
    vertex: 'the Google Cloud credentials (model-provider: vertex)'
  }
  const provider = settings.ai.provider?.name
  return ['github-token', ...(provider ? [model[provider]] : [])]
}

/** The GitHub adapter's settings: the connection inputs and the run it works for. */
function adapterOptions(
  connection: ReturnType<typeof parseConnection>,
  ctx: RunContext
): Omit<AdapterOptions, 'log'> {
  return {
    token: connection.githubToken,
    owner: ctx.owner,
    repo: ctx.repo,
    baseUrl: ctx.apiUrl,
    stateAuthor: connection.stateAuthor,
    requestTimeoutMs: connection.requestTimeoutSeconds * 1000,
    maxWaitSeconds: connection.maxWaitSeconds,
    // a dispatched run is never taken for the run its own dispatch started
    selfRunId: ctx.runId
  }
}

/**
 * mode: stats: the loop analytics of the newest pull requests in the job summary (with Mermaid
 * charts) and the log; the states counted are those the token's identity wrote.
 */
async function reportStats(
  github: GitHubPort,
  ctx: RunContext,
  pullRequests: number,
  log: Log
): Promise<undefined> {
  const report = await statsReport(github, {
    last: pullRequests,
    author: await github.whoAmI(),
    key: stateKey(),
    repository: `${ctx.owner}/${ctx.repo}`
  })
  for (const line of report.lines) log.info(line)
  await writeStepSummary(report.markdown)
  return undefined
}

/** The state-key input, masked in the log (stats reads signed states with it). */
function stateKey(): string | undefined {
  const key = core.getInput('state-key').trim()
  if (key) core.setSecret(key)
  return key || undefined
}
