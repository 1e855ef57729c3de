import * as core from '@actions/core'
import { createArtifactStore } from './artifacts.js'
import { readContext } from './context.js'
import { createGit } from './git/git.js'
import { createGitHubAdapter } from './github/octokit-adapter.js'
import { parseSettings } from './inputs.js'
import { runIteration, type IterationOutcome } from './iteration.js'
import type { Log } from './log.js'
import { roundIterations } from './loop/state.js'
import { tokens } from './report/format.js'
import { createCommandRunner } from './process/command-runner.js'
import path from 'node:path'
import type { Prefetched } from './prefetch.js'

function actionsLog(): Log {
  return {
    info: m => core.info(m),
    notice: m => core.notice(m),
    warning: m => core.warning(m),
    debug: m => core.debug(m),
    async group(name, fn) {
      const started = Date.now()
      core.startGroup(name)
      try {
        return await fn()
      } finally {
        core.info(`${name}: done in ${((Date.now() - started) / 1000).toFixed(1)}s`)
        core.endGroup()
      }
    }
  }
}

/** Sets every output, so later steps can rely on them even after a skip. */
export function setOutputs(outcome: IterationOutcome, maxIterations: number): void {
  const state = outcome.state
  const round = state ? roundIterations(state) : []
  core.setOutput('status', state?.status ?? 'skipped')
  core.setOutput('skipped', outcome.decision ? 'false' : 'true')
  core.setOutput('verdict', outcome.decision ?? round[round.length - 1]?.decision ?? '')
  core.setOutput('iteration', String(round.length))
  core.setOutput('max-iterations', String(state?.maxIterations ?? maxIterations))
  core.setOutput('findings', JSON.stringify(outcome.findings))
  core.setOutput('findings-count', String(outcome.findings.length))
  core.setOutput('reviewed-sha', outcome.reviewedSha ?? state?.lastReviewedSha ?? '')
  core.setOutput('head-sha', outcome.headSha ?? '')
  core.setOutput('converged', String(state?.status === 'go'))
  core.setOutput('comment-url', outcome.commentUrl ?? '')
  core.setOutput('check-run-id', outcome.checkRunId ? String(outcome.checkRunId) : '')
  core.setOutput('review-json', outcome.reviewJson ?? '')
  core.setOutput('iterations-total', String(state?.iterations.length ?? 0))
  core.setOutput('total-tokens', String(state ? tokens(state.totals) : 0))
  core.setOutput('total-cost-usd', (state?.totals.costUsd ?? 0).toFixed(4))
}

/** One iteration; returns the message to fail the step with, if the loop ended in a fail-on state. */
export async function run(prefetched?: Prefetched): Promise<string | undefined> {
  const settings = parseSettings(name => core.getInput(name))
  core.setSecret(settings.githubToken)
  if (settings.ai.apiKey) core.setSecret(settings.ai.apiKey)
  const ctx = readContext(process.env)
  const log = actionsLog()
  const github = createGitHubAdapter({
    token: settings.githubToken,
    owner: ctx.owner,
    repo: ctx.repo,
    baseUrl: ctx.apiUrl,
    stateAuthor: settings.stateAuthor,
    prefetched,
    log
  })
  const runner = createCommandRunner()
  // The model SDK is loaded only when a model provider is configured.
  const ai = settings.ai.provider
    ? (await import('./ai.js')).createAiAgents(settings, log, runner)
    : undefined
  const outcome = await runIteration({
    ai,
    settings,
    ctx,
    github,
    openGit: dir => createGit(dir, { token: settings.githubToken }),
    runner,
    artifacts: createArtifactStore(
      settings.artifactsDir ?? path.join(ctx.tempDir, 'review-loop'),
      process.env,
      log,
      `${ctx.serverUrl}/${ctx.owner}/${ctx.repo}/actions/runs/${ctx.runId}`
    ),
    log,
    env: process.env,
    now: () => new Date(),
    writeSummary: async markdown => {
      if (process.env['GITHUB_STEP_SUMMARY']) await core.summary.addRaw(markdown).write()
    }
  })
  if (outcome.notice) core.notice(outcome.notice)
  setOutputs(outcome, settings.maxIterations)
  return outcome.failure
}
