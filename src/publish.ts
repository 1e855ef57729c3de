import path from 'node:path'
import type { ArtifactStore, SavedArtifact } from './artifacts.js'
import type { RunContext } from './context.js'
import { escalate, mentions, needsHuman } from './github/escalation.js'
import type { CommentInfo, GitHubPort, PullInfo } from './github/port.js'
import type { Settings } from './inputs.js'
import type { Log } from './log.js'
import type { Decision, LoopState } from './loop/state.js'
import { compactState } from './loop/state-compact.js'
import { checkConclusion, checkTitle, fit, toAnnotations, unlocatedText } from './report/check.js'
import { renderComment, renderFindings, renderTimeline, statusLine } from './report/comment.js'
import { renderMermaid } from './report/mermaid.js'
import type { RepoLinks } from './report/format.js'
import { renderReviewMarkdown } from './report/review-markdown.js'
import { renderJobSummary } from './report/summary.js'
import type { ReviewResult } from './review/review-phase.js'
import { saveComment } from './state-store.js'

export interface PublishDeps {
  settings: Settings
  ctx: RunContext
  github: GitHubPort
  artifacts: ArtifactStore
  log: Log
  writeSummary: (markdown: string) => Promise<void>
}

export interface PublishInput {
  pull: PullInfo
  state: LoopState
  review: ReviewResult
  decision: Decision
  n: number
  started: Date
  existing?: CommentInfo
  files: Record<string, string>
  notes: string[]
  /** Dispatch the next iteration once the state is saved. */
  retrigger: boolean
  tag: string
}

export function repoLinks(ctx: RunContext, pr: number): RepoLinks {
  return {
    serverUrl: ctx.serverUrl,
    owner: ctx.owner,
    repo: ctx.repo,
    pr,
    runUrl: `${ctx.serverUrl}/${ctx.owner}/${ctx.repo}/actions/runs/${ctx.runId}`
  }
}

/**
 * RECORD AND REPORT. The order matters: the records, then the state comment, and only once the
 * state is saved the dispatch of the next iteration — a loop whose state was not saved must not go
 * on, or it would run without its cap and budget. Then the check run, escalation, the job summary.
 */
export async function publish(
  deps: PublishDeps,
  input: PublishInput
): Promise<{ state: LoopState; commentUrl: string; checkRunId: number; reviewJson?: string }> {
  const { settings, ctx, github, log } = deps
  const { pull, review, decision, n, notes } = input
  let state = input.state
  const links = repoLinks(ctx, pull.number)
  const artifactName = `review-loop-pr-${pull.number}-iteration-${n}${ctx.runAttempt > 1 ? `-attempt-${ctx.runAttempt}` : ''}`
  const files = {
    ...input.files,
    [`review-${n}.json`]: JSON.stringify(
      {
        iteration: n,
        reviewedSha: pull.headSha,
        decision,
        verdict: review.verdict,
        findings: review.findings,
        gates: review.gates
      },
      null,
      2
    ),
    [`review-${n}.md`]: renderReviewMarkdown(state, review, links)
  }
  let saved: SavedArtifact | undefined
  try {
    saved = await deps.artifacts.save(artifactName, files)
    if (saved.note) notes.push(saved.note)
  } catch (e) {
    notes.push(`Could not write the iteration records: ${(e as Error).message}`)
  }
  const artifact = saved?.uploaded ? artifactName : saved?.directory
  const writeComment = (existing: CommentInfo | undefined): Promise<CommentInfo> =>
    saveComment(
      github,
      pull.number,
      existing,
      renderComment(compactState(state), review.findings, links, {
        mention: needsHuman(state.status) ? mentions(settings, ctx.owner) : undefined,
        artifact,
        artifactUrl: saved?.url
      })
    )
  let comment = await writeComment(input.existing)
  if (!input.existing) {
    const me = await github.whoAmI()
    if (comment.author !== me) {
      throw new Error(
        `review-loop posted its comment as ${comment.author} but trusts only states written by ${me}, so the next run would not find its state. Set the input state-author to '${comment.author}'.`
      )
    }
  }

  if (input.retrigger && settings.retrigger === 'dispatch') {
    const failed = await dispatchNext(github, ctx, pull)
    if (failed) {
      notes.push(failed)
      state = { ...state, reason: failed }
      comment = await writeComment(comment)
    } else {
      log.info(`${input.tag} re-trigger: dispatched ${ctx.workflowFile} on ${pull.headRef}`)
    }
  } else if (input.retrigger && settings.retrigger === 'push') {
    log.info(`${input.tag} re-trigger: the push starts the next run (retrigger: push)`)
  }
  for (const note of notes) log.warning(note)

  const check = await github.createCheckRun({
    name: settings.checkName,
    headSha: pull.headSha,
    conclusion: checkConclusion(decision, state.status, settings.failOn),
    title: checkTitle(decision, review.findings),
    summary: fit(
      // mirrors the comment: where the loop stands, its path, the timeline, the open findings
      [
        statusLine(state, links),
        state.reason ? `\n> ${state.reason}` : '',
        '',
        renderMermaid(state),
        '',
        renderTimeline(state, links),
        '',
        renderFindings(state, review.findings, links, {
          maxFindings: 100,
          details: false,
          descriptionChars: 0
        })
      ].join('\n')
    ),
    text: unlocatedText(review.findings),
    annotations: toAnnotations(review.findings),
    externalId: `${pull.number}:${n}:${ctx.runId}:${ctx.runAttempt}`,
    detailsUrl: comment.htmlUrl,
    startedAt: input.started.toISOString()
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
      artifact,
      notes
    })
  )
  return {
    state,
    commentUrl: comment.htmlUrl,
    checkRunId: check.id,
    reviewJson: saved ? path.join(saved.directory, `review-${n}.json`) : undefined
  }
}

/** Dispatches this workflow on the PR branch; returns what went wrong, for the user. */
async function dispatchNext(
  github: GitHubPort,
  ctx: RunContext,
  pull: PullInfo
): Promise<string | undefined> {
  if (!ctx.workflowFile) {
    return `Cannot start the next iteration: GITHUB_WORKFLOW_REF names no workflow file. Run the workflow by hand with pr-number ${pull.number}.`
  }
  try {
    await github.dispatchWorkflow(ctx.workflowFile, pull.headRef, {
      'pr-number': String(pull.number)
    })
    return undefined
  } catch (e) {
    return `Could not dispatch the next iteration: ${(e as Error).message}. Run the workflow by hand with pr-number ${pull.number}.`
  }
}
