import { createHash } from 'node:crypto'
import { allowed } from '../loop/transitions.js'
import { parseCommand } from '../loop/commands.js'
import { isFork } from '../loop/rules.js'
import {
  dismissedIds,
  lastIteration,
  newState,
  recordedFindings,
  remember,
  wasProcessed
} from '../loop/state.js'
import type {
  Finding,
  HumanReview,
  IterationOutcome,
  LoopState,
  PullRequest,
  RepoRole,
  ReviewComment,
  Severity,
  Usage
} from '../loop/types.js'
import type { GitHubPort } from '../ports/index.js'
import { excerptAround } from '../review/ai-answer.js'
import { stamped } from '../loop/record.js'
import { addUsage, zeroUsage } from '../loop/usage.js'
import { writeState } from './record.js'
import { MAY_COMMAND, said, type FeedbackIntent, type Iterate, type IterationDeps } from './deps.js'
import { planPhase } from './plan.js'
import { loadState, type LoadedState } from './state-store.js'
import { escapeMd, untrustedMarkdown } from '../report/format.js'

/** A finding's title: the comment's first line, short. */
function titleOf(body: string): string {
  const line = body.trim().split(/\r?\n/)[0]?.trim() ?? ''
  return line.length > 120 ? `${line.slice(0, 119)}…` : line || '(empty comment)'
}

/** A stable id for a human's finding: the same comment is the same finding on every run. */
function humanId(kind: 'review' | 'thread', id: number): string {
  return `RL-${createHash('sha256').update(`human:${kind}:${id}`).digest('hex').slice(0, 10)}`
}

/**
 * A question rather than a request for a change: it ends with a question mark and asks nothing to
 * be changed. The loop does not change code on it; a person answers.
 */
export function isQuestion(body: string): boolean {
  const text = body.trim()
  if (!text.endsWith('?')) return false
  return !/\b(please|should|must|need to|needs to|change|fix|rename|remove|add|use|handle)\b/i.test(
    text
  )
}

/** What people with write access said since the loop last looked, as findings and questions. */
export interface Feedback {
  findings: Finding[]
  /** Review comments that start a thread the loop answers once the fix is pushed, by finding id. */
  threads: Map<string, number>
  questions: ReviewComment[]
  /** The keys of every review and review comment looked at (`r<id>`, `t<id>`). */
  keys: string[]
}

/** A finding of the same thread seen twice in one batch: one finding, both comments in it. */
function addFinding(findings: Finding[], f: Finding): void {
  const same = findings.find(x => x.id === f.id)
  if (!same) findings.push(f)
  else same.description = `${same.description}\n\n${f.description}`.slice(0, 8000)
}

/**
 * Turns the reviews and review comments GitHub lists into the feedback not processed yet. A reply
 * in a thread the loop has answered is a reply to the loop, not a new request: a new comment asks
 * for another change.
 */
export async function gatherFeedback(
  github: GitHubPort,
  pr: number,
  state: LoopState | undefined,
  severity: Severity,
  known: ReadonlyMap<string, RepoRole> = new Map()
): Promise<Feedback> {
  const me = await github.whoAmI()
  const roles = new Map([...known].map(([login, role]) => [login, Promise.resolve(role)]))
  const may = async (login: string, type: string): Promise<boolean> => {
    if (!login || login === me || type === 'Bot') return false
    if (!roles.has(login)) roles.set(login, github.roleOf(login))
    return MAY_COMMAND.includes(await roles.get(login)!)
  }
  const allComments = await github.listReviewComments(pr)
  const answered = new Set(allComments.filter(c => c.author === me).map(c => c.inReplyTo ?? c.id))
  const reviews = (await github.listReviews(pr)).filter(r => !wasProcessed(state, `r${r.id}`))
  const comments = allComments.filter(c => !wasProcessed(state, `t${c.id}`))
  const stateOf = new Map(reviews.map(r => [r.id, r.state]))
  const feedback: Feedback = { findings: [], threads: new Map(), questions: [], keys: [] }
  for (const r of reviews) {
    if (r.state === 'PENDING') continue
    feedback.keys.push(`r${r.id}`)
    if (r.state !== 'CHANGES_REQUESTED' || !r.body.trim() || parseCommand(r.body)) continue
    if (await may(r.author, r.authorType)) feedback.findings.push(reviewFinding(r, severity))
  }
  for (const c of comments) {
    feedback.keys.push(`t${c.id}`)
    const thread = c.inReplyTo ?? c.id
    if (!(await may(c.author, c.authorType)) || (c.inReplyTo && answered.has(thread))) continue
    if (isQuestion(c.body)) {
      feedback.questions.push(c)
      continue
    }
    const level = stateOf.get(c.reviewId ?? -1) === 'CHANGES_REQUESTED' ? severity : 'medium'
    const f = commentFinding(c, thread, level)
    addFinding(feedback.findings, f)
    feedback.threads.set(f.id, thread)
  }
  return feedback
}

function reviewFinding(r: HumanReview, severity: Severity): Finding {
  return {
    id: humanId('review', r.id),
    severity,
    category: 'logic',
    title: titleOf(r.body),
    description: r.body.slice(0, 4000),
    source: 'human'
  }
}

function commentFinding(c: ReviewComment, thread: number, severity: Severity): Finding {
  return {
    id: humanId('thread', thread),
    severity,
    category: 'logic',
    file: c.path,
    ...(c.line ? { line: c.line } : {}),
    title: titleOf(c.body),
    description: `@${c.author} on ${c.path}${c.line ? `:${c.line}` : ''}: ${c.body.slice(0, 4000)}`,
    source: 'human'
  }
}

/**
 * A human review or review comment: what people with write access asked since the loop last looked
 * becomes findings (`source: human`), fixed in one iteration with the latest review's open findings;
 * once the fix is pushed, each thread is answered and resolved. Marks of what was seen go into the
 * state with the iteration, so nothing is processed twice, re-runs included.
 */
export async function takeFeedback(
  deps: IterationDeps,
  intent: FeedbackIntent & { role: RepoRole },
  iterate: Iterate
): Promise<IterationOutcome> {
  const { github, settings, log } = deps
  const pull = await github.getPull(intent.pr)
  if (isFork(pull))
    return said(`PR #${pull.number} comes from a fork: review-loop does not push fixes to forks.`)
  const loaded = await loadState(github, pull.number, log, settings.stateKey)
  const state = loaded.state
  if (loaded.untrusted)
    return said(`The loop state cannot be trusted (${loaded.untrusted.reason}); feedback waits.`)
  if (state && !allowed(state.status, 'human_feedback'))
    return said(`The PR is ${state.status}: review feedback is not fixed.`, state)
  const feedback = await gatherFeedback(
    github,
    pull.number,
    state,
    settings.humanReviewSeverity,
    new Map([[intent.from.login, intent.role]])
  )
  if (feedback.findings.length === 0 && feedback.questions.length === 0)
    return said('No new review feedback from people with write access to fix.', state)
  if (feedback.findings.length === 0) return answerOnly(deps, pull, loaded, feedback)
  // planned before anything is answered: feedback that cannot be fixed now waits, unprocessed
  const plan = await planPhase(deps, pull.number, { event: 'human_feedback', loaded, pull })
  if (plan.kind !== 'review') return said(plan.notice, state)
  const spent = await answerQuestions(deps, pull, state, feedback.questions)
  const dismissed = state ? dismissedIds(state, pull.author) : new Set<string>()
  const carried = state ? recordedFindings(state).filter(f => !dismissed.has(f.id)) : []
  const ids = new Set(feedback.findings.map(f => f.id))
  const outcome = await iterate(plan, {
    trigger: {
      by: intent.from.login,
      command: 'feedback',
      ...(state && lastIteration(state) ? { carried: lastIteration(state)!.n } : {})
    },
    findings: [...feedback.findings, ...carried.filter(f => !ids.has(f.id))],
    remember: s => ({ ...remember(s, feedback.keys), totals: addUsage(s.totals, spent) })
  })
  // another run holds the iteration: the feedback stays unprocessed, for the run that follows
  if (!outcome.claimTaken) await answerThreads(deps, pull.number, outcome, feedback.threads)
  return outcome
}

/** Questions and nothing to change: answered, then remembered with what the answers cost. */
async function answerOnly(
  deps: IterationDeps,
  pull: PullRequest,
  loaded: LoadedState,
  feedback: Feedback
): Promise<IterationOutcome> {
  const spent = await answerQuestions(deps, pull, loaded.state, feedback.questions)
  const now = deps.clock.now()
  const base = loaded.state ?? newState(pull.number, deps.settings.maxIterations, now)
  const saved = stamped(
    { ...remember(base, feedback.keys), totals: addUsage(base.totals, spent) },
    now
  )
  await writeState(deps, pull, saved, loaded.comment)
  return said(`Took ${feedback.questions.length} question(s); no change was asked for.`, saved)
}

/**
 * Questions in review threads: the reviewer model answers each in its thread when there is one
 * (the answer says it is the model's); otherwise the log lists them for a person. Returns what the
 * answers cost.
 */
async function answerQuestions(
  deps: IterationDeps,
  pull: PullRequest,
  state: LoopState | undefined,
  questions: readonly ReviewComment[]
): Promise<Usage> {
  const { ai, log, github } = deps
  if (!questions.length) return zeroUsage()
  const git = ai ? await deps.openGit(deps.ctx.workspace).catch(() => undefined) : undefined
  for (const q of questions) {
    const thread = q.inReplyTo ?? q.id
    const content = await git?.show(pull.headSha, q.path).catch(() => undefined)
    const question = {
      ...q,
      ...(content === undefined ? {} : { excerpt: excerptAround(content, q.line) })
    }
    const answer = await ai
      ?.answer({ question, spentBefore: state?.totals.costUsd ?? 0 })
      .catch((e: unknown) => {
        log.warning(`The reviewer model could not answer @${q.author}: ${(e as Error).message}`)
        return undefined
      })
    if (!answer) {
      log.notice(`A question for a person from @${q.author} on ${q.path}: ${titleOf(q.body)}`)
      continue
    }
    await github
      .replyToReviewComment(
        pull.number,
        thread,
        `${untrustedMarkdown(answer.slice(0, 20_000))}\n\n<sub>Answered by review-loop's reviewer model (${deps.settings.ai.reviewModel}); a person may know better.</sub>`
      )
      .catch((e: unknown) =>
        log.warning(`Could not answer in review thread ${thread}: ${(e as Error).message}`)
      )
  }
  return ai?.spent?.() ?? zeroUsage()
}

/**
 * Once the fix is pushed: "Addressed in <sha>: <one line>" in each thread, which is then resolved;
 * a finding the fixer disputed gets its reason instead and stays open. Best effort: a reply that
 * fails is a warning, never a failed run (the fix is pushed and counted).
 */
async function answerThreads(
  deps: IterationDeps,
  pr: number,
  outcome: IterationOutcome,
  threads: ReadonlyMap<string, number>
): Promise<void> {
  const fix = outcome.state && lastIteration(outcome.state)?.fix
  const sha = fix?.commitSha
  if (!fix || !sha || outcome.headSha !== sha || threads.size === 0) return
  const line =
    fix.summary?.trim().split(/\r?\n/)[0]?.slice(0, 200) ||
    (fix.commands.length ? `ran ${fix.commands.map(c => c.command).join('; ')}` : 'fixed')
  const resolve: number[] = []
  for (const [id, thread] of threads) {
    const dispute = fix.disputes.find(d => d.id === id)
    const body = dispute
      ? `Not changed in ${sha.slice(0, 7)}: the fixer disputes it: ${escapeMd(dispute.reason.slice(0, 500))}`
      : `Addressed in ${sha}: ${escapeMd(line)}`
    try {
      await deps.github.replyToReviewComment(pr, thread, body)
      if (!dispute) resolve.push(thread)
    } catch (e) {
      deps.log.warning(`Could not reply in review thread ${thread}: ${(e as Error).message}`)
    }
  }
  try {
    await deps.github.resolveThreads(pr, resolve)
  } catch (e) {
    deps.log.warning(
      `Could not resolve the review threads (${(e as Error).message}); GitHub lets the workflow token resolve them with contents: write and pull-requests: write.`
    )
  }
}
