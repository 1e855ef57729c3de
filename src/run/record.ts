import path from 'node:path'
import { runUrl, type RunContext } from '../action/context.js'
import type { Settings } from '../loop/settings.js'
import { moveTo, stamped } from '../loop/record.js'
import { checkConclusion, needsHuman } from '../loop/rules.js'
import { compactState } from '../loop/state-compact.js'
import { recordedFindings } from '../loop/state.js'
import { plainField } from '../loop/untrusted.js'
import type {
  Decision,
  Finding,
  LoopState,
  PrComment,
  PullRequest,
  ReviewResult
} from '../loop/types.js'
import type {
  AiAgents,
  ArtifactStore,
  Clock,
  GitHubPort,
  Log,
  SavedArtifact,
  WriteSummary
} from '../ports/index.js'
import { renderComment } from '../report/comment.js'
import { escapeMd, htmlText, type RepoLinks } from '../report/format.js'
import { renderReviewMarkdown } from '../report/review-markdown.js'
import { escalate, mentions } from './escalate.js'
import type { Plan } from './plan.js'
import { publishCheck } from './publish-check.js'
import { recordsName } from './records-name.js'
import { writeWithheld, WritesWithheld } from './withheld.js'
import { markSaved, type SpendLedger } from './spend.js'
import { saveComment, UNTRUSTED_MARKER, type UntrustedState } from './state-store.js'

export interface RecordDeps {
  settings: Settings
  ctx: RunContext
  github: GitHubPort
  artifacts: ArtifactStore
  log: Log
  clock: Clock
  /** What the run spent: a saved state holds it all (see spend.ts). */
  ai?: AiAgents
  ledger?: SpendLedger
}

export interface Recorded {
  state: LoopState
  comment: PrComment
  /** The artifact's name when uploaded, else the folder holding the records. */
  artifact?: string
  artifactUrl?: string
  /** The records went to the workflow run's artifacts (not only to a folder on the runner). */
  uploaded: boolean
  reviewJson?: string
  notes: string[]
  /** What the comment shows besides the state. */
  findings: Finding[]
  /** The review's findings it did not act on, shown with their reasons. */
  setAside?: readonly Finding[]
  warnings?: string[]
}

export function repoLinks(ctx: RunContext, pr: number): RepoLinks {
  return {
    serverUrl: ctx.serverUrl,
    owner: ctx.owner,
    repo: ctx.repo,
    pr,
    runUrl: ctx.serverUrl ? runUrl(ctx) : undefined
  }
}

/**
 * The state comment written outside a review (the stop label, a human's command), with the latest
 * iteration's findings as the state remembers them.
 */
export async function writeState(
  deps: Pick<RecordDeps, 'settings' | 'ctx' | 'github' | 'ai' | 'ledger'>,
  pull: PullRequest,
  state: LoopState,
  existing: PrComment | undefined
): Promise<PrComment> {
  const body = renderComment(
    compactState(state),
    recordedFindings(state),
    repoLinks(deps.ctx, pull.number),
    { stateKey: deps.settings.stateKey, author: pull.author }
  )
  const saved = await saveComment(deps.github, pull.number, existing, body)
  markSaved(deps)
  return saved
}

/**
 * A human's approval: the check run on the head turns green saying who approved and why, then the
 * state (GO, with the override, the command processed) is saved, and the escalation label comes
 * off. A failure before the save leaves the command unprocessed, so a re-run does it again. The
 * override never submits an approving review: that would be the bot approving on a person's word.
 */
export async function approvePhase(
  deps: Pick<RecordDeps, 'settings' | 'ctx' | 'github' | 'log' | 'clock'>,
  pull: PullRequest,
  state: LoopState,
  existing: PrComment | undefined
): Promise<{ state: LoopState; findings: []; commentUrl: string; checkRunId?: number }> {
  const { settings, ctx, github } = deps
  const by = state.override
  // the reason is the approver's words: plain in the title, Markdown-escaped in the summary
  const approved = `Approved by @${by?.by ?? '?'}: `
  const title = `${approved}${plainField(by?.reason ?? '')}`
  const checkRunId = await publishCheck(deps, {
    name: settings.checkName,
    headSha: pull.headSha,
    conclusion: 'success',
    title: title.length > 200 ? `${title.slice(0, 199)}…` : title,
    summary: `${approved}${escapeMd(by?.reason ?? '')}\n\nA human approved this head as it is, without another review (\`/review-loop approve\`). ${escapeMd(state.reason ?? '')}`,
    annotations: [],
    externalId: `${pull.number}:approve:${ctx.runId}:${ctx.runAttempt}`,
    detailsUrl: existing?.htmlUrl,
    startedAt: deps.clock.now().toISOString()
  })
  const comment = await writeState(deps, pull, state, existing)
  const noApproval = settings.submitReview === 'approve' ? 'comment' : settings.submitReview
  await escalate(
    github,
    pull,
    'go',
    pull.headSha,
    `review-loop: ${title}`,
    { ...settings, submitReview: noApproval },
    deps.log
  )
  return { state, findings: [], commentUrl: comment.htmlUrl, checkRunId }
}

/** How a maintainer resets the loop deliberately, for each way a state can be untrusted. */
function resetAdvice(problem: UntrustedState['problem']): string {
  const reset = 'the next run then starts a fresh loop (iteration 1, nothing spent).'
  switch (problem) {
    case 'newer_schema':
      return `Upgrade the action to the version that wrote the state, or delete the state comment; ${reset}`
    case 'key_missing':
      return `Set state-key to the secret that signed the state, or delete the state comment; ${reset}`
    case 'key_unexpected':
      return `Unset state-key if it was set by mistake, or delete the state comment; ${reset}`
    default:
      return `Delete the state comment; ${reset}`
  }
}

/** The plain comment (it holds no state) that reports an untrusted state and how to reset. */
export function renderUntrustedNotice(
  untrusted: UntrustedState,
  links: { runUrl?: string },
  mention: string[] = []
): string {
  const parts = [
    UNTRUSTED_MARKER,
    '## Review loop: halted — the loop state cannot be trusted',
    '',
    `**Status:** \`needs_discussion\` · **State comment:** ${untrusted.comment.htmlUrl}`,
    '',
    `> ${htmlText(untrusted.reason)}.`,
    '',
    'review-loop does not start afresh on a state it cannot trust, since that would reset the iteration cap (`max-iterations`) and the budget (`max-cost-usd`). It leaves the state comment as it is, as evidence, and ends every run as `needs_discussion` until a human decides.',
    '',
    `**To reset the loop deliberately:** ${resetAdvice(untrusted.problem)}`
  ]
  if (mention.length)
    parts.push(
      '',
      `**A human is needed:** ${mention.map(m => `@${m}`).join(' ')} — please take a look.`
    )
  const footer = [links.runUrl ? `[workflow run](${links.runUrl})` : '', 'updated by review-loop']
  parts.push('', `<sub>${footer.filter(Boolean).join(' · ')}</sub>`)
  return parts.join('\n')
}

/**
 * An untrusted state: the suspicious comment stays as it is; one plain notice (updated, never
 * repeated) says what was found and how to reset; the check run and the escalation are those of
 * needs_discussion.
 */
export async function recordHalt(
  deps: Pick<RecordDeps, 'settings' | 'ctx' | 'github' | 'log' | 'clock'> & {
    writeSummary: WriteSummary
  },
  plan: Extract<Plan, { kind: 'halt' }>
): Promise<{ comment: PrComment; checkRunId?: number }> {
  const { settings, ctx, github } = deps
  const { pull, state } = plan
  const links = repoLinks(ctx, pull.number)
  const body = renderUntrustedNotice(plan.untrusted, links, mentions(settings, ctx.owner))
  const existing = plan.existingNotice
  const comment =
    existing?.body === body ? existing : await saveComment(github, pull.number, existing, body)
  const checkRunId = await publishCheck(deps, {
    name: settings.checkName,
    headSha: pull.headSha,
    conclusion: checkConclusion('NEEDS_DISCUSSION', state.status, settings.failOn),
    title: 'The loop state cannot be trusted',
    summary: body.slice(UNTRUSTED_MARKER.length).trim(),
    annotations: [],
    externalId: `${pull.number}:untrusted:${ctx.runId}:${ctx.runAttempt}`,
    detailsUrl: comment.htmlUrl,
    startedAt: deps.clock.now().toISOString()
  })
  const reviewBody = `review-loop: ${state.status} — ${escapeMd(state.reason ?? '')}`
  await escalate(github, pull, state.status, pull.headSha, reviewBody, settings, deps.log)
  await deps.writeSummary(body.slice(UNTRUSTED_MARKER.length).trim())
  return { comment, checkRunId }
}

/** review-N.json, review-N.md and the fix's files, saved as the iteration's artifact. */
async function saveRecords(
  deps: RecordDeps,
  input: {
    pull: PullRequest
    n: number
    state: LoopState
    review: ReviewResult
    decision: Decision
  },
  files: Record<string, string>,
  notes: string[]
): Promise<SavedArtifact | undefined> {
  const { ctx } = deps
  const { pull, n, review } = input
  const name = recordsName(deps.settings, pull.number, n, ctx.runAttempt)
  const record = {
    iteration: n,
    reviewedSha: pull.headSha,
    decision: input.decision,
    verdict: review.verdict,
    findings: review.findings,
    gates: review.gates
  }
  const all = {
    ...files,
    [`review-${n}.json`]: JSON.stringify(record, null, 2),
    [`review-${n}.md`]: renderReviewMarkdown(input.state, review, repoLinks(ctx, pull.number))
  }
  try {
    const saved = await deps.artifacts.save(name, all)
    if (saved.note) notes.push(saved.note)
    return saved
  } catch (e) {
    notes.push(`Could not write the iteration records: ${(e as Error).message}`)
    return undefined
  }
}

/** Dispatches this workflow on the PR branch; returns what went wrong, for the user. */
async function dispatchNext(
  github: GitHubPort,
  ctx: RunContext,
  pull: PullRequest
): Promise<string | undefined> {
  const rerun = `Re-run this job, or run the workflow by hand with pr-number ${pull.number}, to go on.`
  if (!ctx.workflowFile) {
    const why = ctx.workflowMissing ?? 'GITHUB_WORKFLOW_REF names no workflow file.'
    return `Cannot start the next iteration: ${why} Re-run this job to go on.`
  }
  try {
    await github.dispatchWorkflow(ctx.workflowFile, pull.headRef, {
      'pr-number': String(pull.number)
    })
    return undefined
  } catch (e) {
    return dispatchFailure(e, ctx, pull.number, rerun)
  }
}

/**
 * What to say about a dispatch that failed. Only a dispatch known not to have been made says
 * "re-run": one whose answer was lost and whose run could not be looked for may have started the
 * next run, and a re-run would review the same head twice.
 */
export function dispatchFailure(
  e: unknown,
  ctx: Pick<RunContext, 'serverUrl' | 'owner' | 'repo' | 'workflowFile'>,
  pr: number,
  rerun: string
): string {
  const error = e as {
    said?: string
    outcomeUnknown?: boolean
    status?: number
    scope?: string
    final?: boolean
  }
  // the adapter's error without its generic remedy: this message says how to go on
  const said = error.said ?? (e as Error).message
  if (error.outcomeUnknown) {
    const runs = `${ctx.serverUrl}/${ctx.owner}/${ctx.repo}/actions/workflows/${ctx.workflowFile ?? ''}`
    return `The answer to the dispatch of the next iteration was lost (${said}) and looking for the run it would start failed, so its outcome is unknown: the next run may have started; check the Actions tab for a run on PR ${pr} before re-running: ${runs}`
  }
  // a 403 or a 404 names the permission the dispatch needs (actions: write)
  const permission =
    (error.status === 403 || error.status === 404) && error.scope
      ? ` Grant the workflow '${error.scope}' under permissions: (see the README).`
      : // GitHub left the dispatch unanswered twice: it may just be slow
        error.status === 0 && error.final
        ? ' If GitHub is just slow, raise request-timeout-seconds.'
        : ''
  return `Could not dispatch the next iteration: ${said}.${permission} ${rerun}`
}

/** Writes the state comment with this iteration's findings, warnings and artifact links. */
export async function saveState(
  deps: Pick<RecordDeps, 'settings' | 'ctx' | 'github' | 'ai' | 'ledger'>,
  plan: Extract<Plan, { kind: 'review' }>,
  recorded: Omit<Recorded, 'comment'> & { comment?: PrComment },
  state: LoopState
): Promise<Recorded> {
  const { settings, ctx } = deps
  const body = renderComment(
    compactState(state),
    recorded.findings,
    repoLinks(ctx, plan.pull.number),
    {
      mention: needsHuman(state.status) ? mentions(settings, ctx.owner) : undefined,
      stateKey: settings.stateKey,
      warnings: recorded.warnings,
      artifact: recorded.artifact,
      artifactUrl: recorded.artifactUrl,
      author: plan.pull.author,
      setAside: recorded.setAside
    }
  )
  const comment = await saveComment(deps.github, plan.pull.number, recorded.comment, body)
  markSaved(deps)
  return { ...recorded, state, comment }
}

/**
 * RECORD. The order matters: the records (with the fix's patch), then the state comment. The
 * caller pushes a fix only after this, and dispatches the next iteration only after the state
 * that counts it is saved — a loop whose state was not saved must not go on, or it would run
 * without its cap and budget.
 */
export async function recordPhase(
  deps: RecordDeps,
  plan: Extract<Plan, { kind: 'review' }>,
  input: {
    state: LoopState
    review: ReviewResult
    decision: Decision
    files: Record<string, string>
    notes: string[]
    /** Shown in the PR comment as well (PR code ran unsandboxed). */
    warnings?: string[]
  }
): Promise<Recorded> {
  const { pull, n } = plan
  const notes = [...input.notes]
  const state = stamped(input.state, deps.clock.now())
  const saved = await saveRecords(deps, { ...input, pull, n, state }, input.files, notes)
  const recorded = await saveState(
    deps,
    plan,
    {
      state,
      comment: plan.comment,
      findings: input.review.findings,
      setAside: input.review.verdict?.setAside,
      warnings: input.warnings,
      artifact: saved?.uploaded ? saved.name : saved?.directory,
      artifactUrl: saved?.url,
      uploaded: saved?.uploaded ?? false,
      reviewJson: saved ? path.join(saved.directory, `review-${n}.json`) : undefined,
      notes
    },
    state
  ).catch((e: unknown) => {
    // a read-only token: the run reports where it still can (readOnlyReport)
    if (writeWithheld(e))
      throw new WritesWithheld(
        (e as Error).message,
        saved?.uploaded ? saved.name : saved?.directory
      )
    throw e
  })
  if (!plan.comment) await checkAuthor(deps.github, recorded.comment)
  return recorded
}

/**
 * RETRIGGER, once the state is saved: dispatch the next iteration (retrigger: dispatch), or leave it
 * to the push. A dispatch that fails (after the adapter's retries) is saved in the state's reason
 * and fails the step, saying how to go on: the loop never stops silently.
 */
export async function retriggerPhase(
  deps: RecordDeps,
  plan: Extract<Plan, { kind: 'review' }>,
  recorded: Recorded,
  retrigger: boolean
): Promise<Recorded & { failure?: string }> {
  const { settings, ctx, log } = deps
  for (const note of recorded.notes) log.warning(note)
  if (!retrigger) return recorded
  if (settings.retrigger === 'push') {
    log.info(`${plan.tag} re-trigger: the push starts the next run (retrigger: push)`)
    return recorded
  }
  if (settings.retrigger !== 'dispatch') return recorded
  const failed = await dispatchNext(deps.github, ctx, plan.pull)
  if (!failed) {
    // on a laptop the next iteration follows in the same process: nothing is dispatched
    if (settings.surface !== 'cli')
      log.info(`${plan.tag} re-trigger: dispatched ${ctx.workflowFile} on ${plan.pull.headRef}`)
    return recorded
  }
  const state = stamped(moveTo(recorded.state, recorded.state.status, failed), deps.clock.now())
  const saved = await saveState(deps, plan, recorded, state)
  return { ...saved, notes: [...saved.notes, failed], failure: failed }
}

/** The next run reads only states written by the identity it posts as: check that they agree. */
async function checkAuthor(github: GitHubPort, comment: PrComment): Promise<void> {
  const me = await github.whoAmI()
  if (comment.author !== me) {
    throw new Error(
      `review-loop posted its comment as ${comment.author} but trusts only states written by ${me}, so the next run would not find its state. Set the input state-author to '${comment.author}'.`
    )
  }
}
