import type { ArtifactStore } from './artifacts.js'
import type { RunContext } from './context.js'
import { fixPhase, type AiFixer } from './fix/fix-phase.js'
import type { GateResult } from './gates/run-gates.js'
import type { Git } from './git/git.js'
import type { GitHubPort, PullInfo } from './github/port.js'
import type { Settings } from './inputs.js'
import type { Log } from './log.js'
import { decide, nextAfterFix, nextAfterReview } from './loop/advance.js'
import type { Finding } from './loop/findings.js'
import { planEvent, planPull } from './loop/plan.js'
import { appendReview, updateLast } from './loop/record.js'
import { compactState } from './loop/state-compact.js'
import { addUsage, lastIteration, type Decision, type LoopState } from './loop/state.js'
import { scrubbedEnv, type CommandRunner } from './process/command-runner.js'
import { publish, repoLinks } from './publish.js'
import { renderComment } from './report/comment.js'
import { reviewPhase, type ReviewResult, type ReviewerVerdict } from './review/review-phase.js'
import { loadState, saveComment } from './state-store.js'
import path from 'node:path'

export type { FixerOutcome } from './fix/fix-phase.js'

/** The AI parts, present when an API key is set. */
export interface AiAgents {
  review(input: {
    pull: PullInfo
    state: LoopState
    git: Git
    gates: GateResult[]
  }): Promise<ReviewerVerdict>
  fix: AiFixer
}

export interface IterationDeps {
  settings: Settings
  ctx: RunContext
  github: GitHubPort
  openGit: (dir: string) => Promise<Git>
  runner: CommandRunner
  artifacts: ArtifactStore
  log: Log
  env: Record<string, string | undefined>
  now: () => Date
  ai?: AiAgents
  writeSummary: (markdown: string) => Promise<void>
}

export interface IterationOutcome {
  notice?: string
  state?: LoopState
  decision?: Decision
  findings: Finding[]
  reviewedSha?: string
  headSha?: string
  commentUrl?: string
  checkRunId?: number
  reviewJson?: string
  /** Set when the step should fail: a terminal state listed in fail-on. */
  failure?: string
}

/** One iteration: plan, review, decide, fix, record and report. */
export async function runIteration(deps: IterationDeps): Promise<IterationOutcome> {
  const { settings, ctx, github, log } = deps
  const event = planEvent({
    eventName: ctx.eventName,
    action: ctx.action,
    eventPrNumber: ctx.eventPrNumber,
    inputPrNumber: settings.prNumber
  })
  if (event.kind === 'skip') return { notice: event.notice, findings: [] }

  // PLAN
  const pull = await github.getPull(event.pr)
  const loaded = await loadState(github, pull.number, log)
  const started = deps.now()
  const plan = planPull({
    pull,
    state: loaded.state,
    maxIterations: settings.maxIterations,
    reviewDrafts: settings.reviewDrafts,
    allowForks: settings.allowForks,
    runId: ctx.runId,
    runAttempt: ctx.runAttempt,
    now: started,
    stopLabel: settings.stopLabel
  })
  const skipped = { findings: [], headSha: pull.headSha, commentUrl: loaded.comment?.htmlUrl }
  if (plan.kind === 'skip') return { ...skipped, notice: plan.notice, state: loaded.state }
  if (plan.kind === 'stop') {
    if (!plan.state) return { ...skipped, notice: plan.notice, state: loaded.state }
    const body = renderComment(compactState(plan.state), [], repoLinks(ctx, pull.number))
    const comment = await saveComment(github, pull.number, loaded.comment, body)
    return { ...skipped, notice: plan.notice, state: plan.state, commentUrl: comment.htmlUrl }
  }
  const n = (lastIteration(plan.state)?.n ?? 0) + 1
  const tag = `[${plan.iteration}/${settings.maxIterations}]`
  if (plan.newRound)
    log.info(`${tag} a new commit after the loop ended: starting round ${plan.state.round}`)

  const git = await deps.openGit(ctx.workspace)
  await git.checkoutPullHead(pull.headRef, pull.headSha)
  const cwd = path.resolve(git.root, settings.workingDirectory)
  const env = scrubbedEnv(deps.env)

  // REVIEW
  const review = await log.group(`${tag} review ${pull.headSha.slice(0, 7)}`, () =>
    reviewPhase({
      settings,
      runner: deps.runner,
      repoRoot: git.root,
      cwd,
      env,
      reviewer: deps.ai
        ? gates => deps.ai!.review({ pull, state: plan.state, git, gates })
        : undefined
    })
  )
  const decision = decide(
    {
      reviewerDecision: review.verdict?.decision,
      findings: review.findings,
      gatesPassed: review.gates.every(g => g.passed)
    },
    settings.severityThreshold
  )
  log.info(
    `${tag} review: ${decision} (${plural(review.findings.length, 'finding') || 'no findings'})`
  )
  let state = appendReview(plan.state, {
    n,
    reviewedSha: pull.headSha,
    baseSha: pull.baseSha,
    runId: ctx.runId,
    runAttempt: ctx.runAttempt,
    decision,
    summary: review.verdict?.summary ?? gatesSummary(review),
    findings: review.findings,
    gates: review.gates.map(g => ({ name: g.name, passed: g.passed, durationMs: g.durationMs })),
    usage: review.usage,
    startedAt: started,
    durationMs: deps.now().getTime() - started.getTime()
  })

  // DECIDE
  const fork = pull.headRepoFullName !== pull.baseRepoFullName
  const canFix = !fork && (settings.fixCommands.length > 0 || Boolean(deps.ai))
  const next = nextAfterReview(state, decision, settings.severityThreshold, canFix, {
    spentUsd: state.totals.costUsd,
    maxUsd: settings.ai.maxCostUsd,
    exhausted: review.verdict?.budgetExhausted === true
  })
  let headSha = pull.headSha
  let retrigger = false
  let files: Record<string, string> = {}
  const notes: string[] = []
  if (fork && next.kind === 'finish' && next.status === 'stalled') {
    notes.push('Fork PRs are reviewed but not fixed: the action does not push to forks.')
  }
  if (next.kind === 'finish') {
    state = { ...state, status: next.status, reason: next.reason }
  } else {
    // FIX
    const fix = await log.group(`${tag} fix`, () =>
      fixPhase(
        { settings, git, runner: deps.runner, log, now: deps.now, fixer: deps.ai?.fix },
        { pull, state, review, n, cwd, env }
      )
    )
    files = fix.files
    notes.push(...fix.notes)
    const { published } = fix
    // a head reviewed twice in a row has had its one re-review for disputes
    const reweighed = state.iterations[state.iterations.length - 2]?.reviewedSha === pull.headSha
    const disputes = fix.record.disputes.length === 0 ? 'none' : reweighed ? 'repeated' : 'first'
    const after = nextAfterFix(published.outcome, disputes)
    state = updateLast(state, it => ({
      ...it,
      fix: fix.record,
      usage: addUsage(it.usage, fix.usage)
    }))
    state = {
      ...state,
      status: after.status,
      reason: after.reason,
      totals: addUsage(state.totals, fix.usage)
    }
    if (published.outcome === 'pushed') {
      headSha = published.commitSha
      state = { ...state, lastPushedSha: published.commitSha }
    } else if (published.outcome === 'branch_moved' && published.remoteSha) {
      headSha = published.remoteSha
    }
    log.info(
      `${tag} fix: ${published.outcome.replace('_', ' ')}${plural(published.filesChanged.length, 'file', ' (', ')')}`
    )
    retrigger = after.retrigger
  }
  state = { ...state, updatedAt: deps.now().toISOString() }

  // RECORD AND REPORT
  const published = await publish(
    { settings, ctx, github, artifacts: deps.artifacts, log, writeSummary: deps.writeSummary },
    {
      pull,
      state,
      review,
      decision,
      n,
      started,
      existing: loaded.comment,
      files,
      notes,
      retrigger,
      tag
    }
  )
  state = published.state
  const failure =
    state.status !== 'running' && state.status !== 'go' && settings.failOn.includes(state.status)
      ? `review-loop ended as ${state.status}: ${state.reason ?? ''}`.trim()
      : undefined
  return {
    state,
    decision,
    findings: review.findings,
    reviewedSha: pull.headSha,
    headSha,
    commentUrl: published.commentUrl,
    checkRunId: published.checkRunId,
    reviewJson: published.reviewJson,
    failure
  }
}

function gatesSummary(review: ReviewResult): string {
  if (review.gates.length === 0) return 'No checks configured.'
  const failed = review.gates.filter(g => !g.passed).map(g => g.name)
  return failed.length
    ? `Failing checks: ${failed.join(', ')}.`
    : `All ${review.gates.length} checks pass.`
}

function plural(count: number, noun: string, before = '', after = ''): string {
  return count ? `${before}${count} ${noun}${count === 1 ? '' : 's'}${after}` : ''
}
