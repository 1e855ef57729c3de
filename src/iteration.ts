import path from 'node:path'
import type { ArtifactStore, SavedArtifact } from './artifacts.js'
import type { RunContext } from './context.js'
import { commitAndPush, revertProtected, runFixCommands } from './fix/apply-fix.js'
import type { Git } from './git/git.js'
import { escalate, mentions, needsHuman } from './github/escalation.js'
import type { GitHubPort, PullInfo } from './github/port.js'
import type { Settings } from './inputs.js'
import type { Log } from './log.js'
import { decide, nextAfterFix, nextAfterReview } from './loop/advance.js'
import type { Finding } from './loop/findings.js'
import { planEvent, planPull } from './loop/plan.js'
import { appendReview, updateLast } from './loop/record.js'
import { compactState } from './loop/state-compact.js'
import {
  addUsage,
  zeroUsage,
  type Decision,
  type FixRecord,
  type LoopState,
  type Usage
} from './loop/state.js'
import { scrubbedEnv, type CommandRunner } from './process/command-runner.js'
import { checkConclusion, checkTitle, fit, toAnnotations, unlocatedText } from './report/check.js'
import { renderComment, renderTimeline, statusLine } from './report/comment.js'
import type { RepoLinks } from './report/format.js'
import { renderJobSummary } from './report/summary.js'
import { reviewPhase, type ReviewResult, type ReviewerVerdict } from './review/review-phase.js'
import type { GateResult } from './gates/run-gates.js'
import { loadState, saveComment } from './state-store.js'
import { renderReviewMarkdown } from './report/review-markdown.js'

/** What the AI fixer reports back. */
export interface FixerOutcome {
  disputes: FixRecord['disputes']
  /** Boundaries the fixer tried to cross (paths outside the workspace, protected files). */
  refusals: string[]
  usage: Usage
  transcript: unknown
  stopReason: string
  error?: string
}

/** The AI parts, present when an API key is set. */
export interface AiAgents {
  review(input: {
    pull: PullInfo
    state: LoopState
    git: Git
    gates: GateResult[]
  }): Promise<ReviewerVerdict>
  fix(input: {
    pull: PullInfo
    state: LoopState
    review: ReviewResult
    git: Git
    cwd: string
    env: Record<string, string>
  }): Promise<FixerOutcome>
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

export async function runIteration(deps: IterationDeps): Promise<IterationOutcome> {
  const { settings, ctx, github, log } = deps
  const event = planEvent({
    eventName: ctx.eventName,
    action: ctx.action,
    eventPrNumber: ctx.eventPrNumber,
    inputPrNumber: settings.prNumber
  })
  if (event.kind === 'skip') return { notice: event.notice, findings: [] }

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
  if (plan.kind === 'stop') {
    let commentUrl = loaded.comment?.htmlUrl
    if (plan.state) {
      const links = repoLinks(ctx, pull.number)
      const body = renderComment(compactState(plan.state), [], links)
      commentUrl = (await saveComment(github, pull.number, loaded.comment, body)).htmlUrl
    }
    return {
      notice: plan.notice,
      state: plan.state ?? loaded.state,
      findings: [],
      headSha: pull.headSha,
      commentUrl
    }
  }
  if (plan.kind === 'skip') {
    return {
      notice: plan.notice,
      state: loaded.state,
      findings: [],
      headSha: pull.headSha,
      commentUrl: loaded.comment?.htmlUrl
    }
  }
  const n = plan.state.iterations.length + 1
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
    `${tag} review: ${decision} (${review.findings.length} finding${review.findings.length === 1 ? '' : 's'})`
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

  const canFix = settings.fixCommands.length > 0 || Boolean(deps.ai)
  const next = nextAfterReview(state, decision, settings.severityThreshold, canFix, {
    spentUsd: state.totals.costUsd,
    maxUsd: settings.ai.maxCostUsd,
    exhausted: review.verdict?.budgetExhausted === true
  })
  let headSha = pull.headSha
  let retrigger = false
  const files: Record<string, string> = {}
  const notes: string[] = []
  if (next.kind === 'finish') {
    state = { ...state, status: next.status, reason: next.reason }
  } else {
    const fixStarted = deps.now()
    const fix = await log.group(`${tag} fix`, async () => {
      const fixCtx = {
        git,
        runner: deps.runner,
        cwd,
        env,
        timeoutMs: settings.commandTimeoutMinutes * 60_000,
        protectedPaths: settings.protectedPaths,
        log: (line: string) => log.info(line)
      }
      const commands = await runFixCommands(settings.fixCommands, fixCtx)
      const agent = deps.ai ? await deps.ai.fix({ pull, state, review, git, cwd, env }) : undefined
      const reverted = await revertProtected(git, settings.protectedPaths)
      if (reverted.length)
        log.warning(`Reverted changes to protected paths: ${reverted.join(', ')}`)
      const published = await commitAndPush(
        git,
        pull.headRef,
        pull.headSha,
        `review-loop: address review (iteration ${n})`,
        settings.commitAuthor
      )
      return { commands, agent, reverted, published }
    })
    const { published } = fix
    const record: FixRecord = {
      outcome: published.outcome,
      commitSha: published.outcome === 'no_changes' ? undefined : published.commitSha,
      filesChanged: published.filesChanged,
      commands: fix.commands,
      disputes: fix.agent?.disputes ?? [],
      revertedProtected: fix.reverted,
      durationMs: deps.now().getTime() - fixStarted.getTime()
    }
    if ('patch' in published) {
      files[`fix-${n}.patch`] = published.patch
      record.patch = `fix-${n}.patch`
      notes.push(
        `The fix commit was not pushed (${published.message}); it is kept as fix-${n}.patch in the artifact.`
      )
      log.warning(notes[notes.length - 1]!)
    }
    if (fix.agent) {
      files[`fix-${n}-transcript.json`] = JSON.stringify(fix.agent.transcript, null, 2)
      for (const refusal of fix.agent.refusals) notes.push(`The fixer was refused: ${refusal}`)
      if (fix.agent.error)
        notes.push(`The fixer stopped early (${fix.agent.error}); its changes so far were kept.`)
    }
    files[`fix-${n}.json`] = JSON.stringify(record, null, 2)
    const after = nextAfterFix(published.outcome)
    state = updateLast(state, it => ({
      ...it,
      fix: record,
      usage: addUsage(it.usage, fix.agent?.usage ?? zeroUsage())
    }))
    state = {
      ...state,
      status: after.status,
      reason: after.reason,
      totals: addUsage(state.totals, fix.agent?.usage ?? zeroUsage())
    }
    if (published.outcome === 'pushed') {
      headSha = published.commitSha
      state = { ...state, lastPushedSha: published.commitSha }
    }
    log.info(
      `${tag} fix: ${published.outcome.replace('_', ' ')}${plural(published.filesChanged.length, 'file', ' (', ')')}`
    )
    retrigger = after.retrigger
  }
  state = { ...state, updatedAt: deps.now().toISOString() }

  // RE-TRIGGER
  if (retrigger && settings.retrigger === 'dispatch') {
    if (!ctx.workflowFile) {
      notes.push(
        'Cannot re-trigger: GITHUB_WORKFLOW_REF names no workflow file. Re-run the workflow by hand.'
      )
    } else {
      try {
        await github.dispatchWorkflow(ctx.workflowFile, pull.headRef, {
          'pr-number': String(pull.number)
        })
        log.info(`${tag} re-trigger: dispatched ${ctx.workflowFile} on ${pull.headRef}`)
      } catch (e) {
        notes.push(
          `Could not dispatch the next iteration: ${(e as Error).message}. Run the workflow by hand with pr-number ${pull.number}.`
        )
      }
    }
  } else if (retrigger && settings.retrigger === 'push') {
    log.info(`${tag} re-trigger: the push starts the next run (retrigger: push)`)
  }
  for (const note of notes) log.warning(note)

  // RECORD AND REPORT
  const links = repoLinks(ctx, pull.number)
  const artifactName = `review-loop-pr-${pull.number}-iteration-${n}${ctx.runAttempt > 1 ? `-attempt-${ctx.runAttempt}` : ''}`
  const reviewRecord = {
    iteration: n,
    reviewedSha: pull.headSha,
    decision,
    verdict: review.verdict,
    findings: review.findings,
    gates: review.gates
  }
  files[`review-${n}.json`] = JSON.stringify(reviewRecord, null, 2)
  files[`review-${n}.md`] = renderReviewMarkdown(state, review, links)
  let saved: SavedArtifact | undefined
  try {
    saved = await deps.artifacts.save(artifactName, files)
    if (saved.note) notes.push(saved.note)
  } catch (e) {
    notes.push(`Could not write the iteration records: ${(e as Error).message}`)
  }

  const escalating = needsHuman(state.status)
  const compact = compactState(state)
  const body = renderComment(compact, review.findings, links, {
    mention: escalating ? mentions(settings, ctx.owner) : undefined,
    artifact: saved?.uploaded ? artifactName : saved?.directory,
    artifactUrl: saved?.url
  })
  const comment = await saveComment(github, pull.number, loaded.comment, body)
  const check = await github.createCheckRun({
    name: settings.checkName,
    headSha: pull.headSha,
    conclusion: checkConclusion(decision, state.status, settings.failOn),
    title: checkTitle(decision, review.findings),
    summary: fit(
      [
        statusLine(state, links),
        state.reason ? `\n> ${state.reason}` : '',
        '',
        renderTimeline(state, links)
      ].join('\n')
    ),
    text: unlocatedText(review.findings),
    annotations: toAnnotations(review.findings),
    externalId: `${pull.number}:${n}:${ctx.runId}:${ctx.runAttempt}`,
    detailsUrl: comment.htmlUrl,
    startedAt: started.toISOString()
  })
  notes.push(
    ...(await escalate(
      github,
      pull,
      state.status,
      pull.headSha,
      `review-loop: ${state.status} — ${state.reason ?? decision}`,
      settings,
      log
    ))
  )
  await deps.writeSummary(
    renderJobSummary({
      state,
      findings: review.findings,
      gates: review.gates,
      links,
      reviewSummary: review.verdict?.summary,
      artifact: saved?.uploaded ? artifactName : saved?.directory,
      notes
    })
  )
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
    commentUrl: comment.htmlUrl,
    checkRunId: check.id,
    reviewJson: saved ? path.join(saved.directory, `review-${n}.json`) : undefined,
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

function repoLinks(ctx: RunContext, pr: number): RepoLinks {
  return {
    serverUrl: ctx.serverUrl,
    owner: ctx.owner,
    repo: ctx.repo,
    pr,
    runUrl: `${ctx.serverUrl}/${ctx.owner}/${ctx.repo}/actions/runs/${ctx.runId}`
  }
}
