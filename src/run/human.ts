import { allowed, CONTINUABLE, transition } from '../loop/transitions.js'
import { helpText, type Command } from '../loop/commands.js'
import { stopReason } from '../loop/reasons.js'
import { fixBlocker } from '../loop/rules.js'
import { loopMade, madeBy, unchecked, untiedCoAuthors } from '../loop/participants.js'
import { moveTo, stamped } from '../loop/record.js'
import {
  dismissedIds,
  lastIteration,
  newState,
  recordedFindings,
  remember,
  wasProcessed
} from '../loop/state.js'
import type {
  HumanTrigger,
  IterationOutcome,
  LoopState,
  PullRequest,
  RepoRole
} from '../loop/types.js'
import { BIDI } from '../loop/untrusted.js'
import { statusText } from '../report/comment.js'
import { approvePhase, writeState } from './record.js'
import {
  MAY_COMMAND,
  said,
  type CommandIntent,
  type FeedbackIntent,
  type HumanAsk,
  type Iterate,
  type IterationDeps
} from './deps.js'
import { planPhase } from './plan.js'
import { loadState, type LoadedState } from './state-store.js'
import { takeFeedback } from './feedback.js'

/** How the loop answers one command: reactions on a comment, and words only when needed. */
interface Speaker {
  /** 👀 on the comment: taken. */
  take(): Promise<unknown>
  /** 🚀, and the words when there are any. */
  done(words?: string, state?: LoopState): Promise<IterationOutcome>
  /** 😕 and the words. */
  refuse(words: string, state?: LoopState): Promise<IterationOutcome>
}

function speaker(deps: IterationDeps, intent: CommandIntent): Speaker {
  const { github } = deps
  const target = intent.commentId ? { kind: 'comment' as const, id: intent.commentId } : undefined
  const react = async (content: 'eyes' | 'rocket' | 'confused'): Promise<boolean> => {
    if (!target) return true
    try {
      return await github.react(target, content)
    } catch (e) {
      deps.log.warning(`Could not react to the comment: ${(e as Error).message}`)
      return true
    }
  }
  // the words are ours, with untrusted parts escaped where they are made; no direction control
  // of those parts reorders them
  const reply = async (words: string): Promise<void> => {
    await github.createComment(intent.pr, `@${intent.from.login} ${words.replace(BIDI, '')}`)
  }
  return {
    take: () => react('eyes'),
    // the reaction goes first: a re-run that finds it there answered already, and says nothing
    async done(words, state) {
      if ((await react('rocket')) && words) await reply(words)
      return said(words?.split('\n')[0] ?? `Done: /review-loop ${intent.command.name}.`, state)
    },
    async refuse(words, state) {
      if (await react('confused')) await reply(words)
      return said(words.split('\n')[0]!, state)
    }
  }
}

/** The command's key added to the state's processed list. */
const processed = (state: LoopState, key: string): LoopState => remember(state, [key])

/**
 * A human spoke to the loop. Bots and the loop itself are never heard; people without write access
 * get one short reply at most (a comment) and nothing happens; a command already processed (its
 * key is in the state) is not processed again.
 */
export async function answerHuman(
  deps: IterationDeps,
  intent: CommandIntent | FeedbackIntent,
  iterate: Iterate
): Promise<IterationOutcome> {
  const { github } = deps
  const login = intent.from.login
  if (!login || login === (await github.whoAmI())) return said('The loop does not answer itself.')
  const role = await github.roleOf(login)
  if (!MAY_COMMAND.includes(role)) return outsider(deps, intent, role)
  if (intent.kind === 'feedback') return takeFeedback(deps, { ...intent, role }, iterate)
  if (intent.via === 'button' && intent.checkName !== deps.settings.checkName)
    return said(
      `The button is on the check run '${intent.checkName ?? ''}', not on review-loop's '${deps.settings.checkName}'.`
    )
  const speak = speaker(deps, intent)
  await speak.take()
  const pull = await github.getPull(intent.pr)
  const loaded = await loadState(github, pull.number, deps.log, deps.settings.stateKey)
  if (loaded.untrusted)
    return speak.refuse(
      `the review-loop state on this PR cannot be trusted (${loaded.untrusted.reason}), so commands wait until a maintainer resets it: ${loaded.untrusted.comment.htmlUrl}`
    )
  const state = loaded.state
  // what changes nothing (status, help, refusals) is guarded by its reaction instead (Speaker)
  if (wasProcessed(state, intent.key))
    return said(
      `This ${intent.via}'s /review-loop ${intent.command.name} was processed already.`,
      state
    )
  return runCommand({ deps, intent, pull, loaded, speak, iterate })
}

/** Someone without write access: at most one short reply (on a comment), and nothing happens. */
async function outsider(
  deps: IterationDeps,
  intent: CommandIntent | FeedbackIntent,
  role: RepoRole
): Promise<IterationOutcome> {
  const who = `@${intent.from.login} (${role})`
  if (intent.kind === 'feedback')
    return said(`${who} has no write access: review-loop does not fix from their review.`)
  const commentId = intent.commentId
  const first =
    commentId !== undefined &&
    (await deps.github.react({ kind: 'comment', id: commentId }, 'confused').catch(() => false))
  if (first)
    await deps.github.createComment(
      intent.pr,
      `@${intent.from.login} review-loop takes commands from people with write access to this repository only.`
    )
  return said(`${who} has no write access: /review-loop ${intent.command.name} was ignored.`)
}

interface CommandRun {
  deps: IterationDeps
  intent: CommandIntent
  pull: PullRequest
  loaded: LoadedState
  speak: Speaker
  iterate: Iterate
}

function runCommand(run: CommandRun): Promise<IterationOutcome> {
  const { command } = run.intent
  const state = run.loaded.state
  switch (command.name) {
    case 'help':
      return run.speak.done(helpText(), state)
    case 'status':
      return run.speak.done(statusText(state), state)
    case 'invalid':
      return run.speak.refuse(`${command.error} \`/review-loop help\` lists the commands.`, state)
    case 'stop':
      return stop(run)
    case 'approve':
      return approve(run, command.reason)
    case 'dismiss':
      return dismiss(run, command.id, command.reason)
    case 'retry':
    case 'continue':
      return again(run, command)
    case 'fix':
      return fixNow(run, command.instructions)
  }
}

/** `stop`: the stop label goes on (so later runs stop too) and the loop is stopped. */
async function stop(run: CommandRun): Promise<IterationOutcome> {
  const { deps, pull, intent } = run
  const label = deps.settings.stopLabel
  if (label && !pull.labels.includes(label)) await deps.github.addLabels(pull.number, [label])
  const state = run.loaded.state
  const next = state && transition(state.status, 'stop_label')
  if (!state || !next || next.then === 'skip')
    return run.speak.done(
      state ? `the loop is ${state.status} already.` : undefined,
      state && processed(state, intent.key)
    )
  const stopped = moveTo(state, next.to, `Stopped by @${intent.from.login} (/review-loop stop).`)
  const saved = processed(stamped(stopped, deps.clock.now()), intent.key)
  await writeState(deps, pull, saved, run.loaded.comment)
  return run.speak.done(undefined, saved)
}

/** GitHub's own rule, which review-loop's mirrors (and widens to everyone who made the PR). */
const GITHUB_RULE = "GitHub's rule: the most recent push cannot be approved by whoever pushed it"

/**
 * Whether the person commanding made the PR (see madeBy): `part` says how; `unknown`, when the
 * loop could not check everyone who made it (see unchecked), is the refusal's words: then neither a
 * dismissal nor an approval counts. `note` is what a reply that lets them settle it adds: a fork's
 * pushers could not be read (its owner stood in), or co-authors are named by addresses GitHub ties
 * to no account.
 */
async function whoMade(
  run: CommandRun
): Promise<{ part?: string; unknown?: string; note: string }> {
  const { deps, pull, intent } = run
  const makers = await deps.github.pullMakers(pull)
  const own = loopMade(pull.number, run.loaded.state, deps.settings.commitAuthor)
  const part = madeBy(intent.from.login, pull, makers, own)
  const gaps = unchecked(pull, makers)
  if (gaps.length)
    deps.log.warning(`Could not check who made PR #${pull.number}: ${gaps.join('; ')}.`)
  else if (makers.pushersUnknown)
    deps.log.warning(`${makers.pushersUnknown}: the fork's owner stands in for its pushers.`)
  const untied = untiedCoAuthors(makers)
  const notes = [
    ...(makers.pushersUnknown && !gaps.length
      ? [
          "GitHub would not say who pushed to the fork's branch, so this rests on the PR's author, its commits' authors, committers and co-authors, and the fork's owner"
        ]
      : []),
    ...(untied
      ? [
          `${untied === 1 ? 'one co-author is' : `${untied} co-authors are`} named by an address GitHub ties to no account, so the loop cannot tell whether you are one`
        ]
      : [])
  ]
  const grant =
    makers.pushersUnknown && gaps.some(g => g.startsWith('who pushed'))
      ? " Listing a branch's pushes needs read access to the repository's contents: give the workflow's token `contents: read` (Contents: read for an App or fine-grained token)."
      : ''
  return {
    ...(part ? { part } : {}),
    ...(gaps.length
      ? {
          unknown: `the loop cannot tell whether you made this PR: it could not check ${gaps.join('; ')}. Until it can, no dismissal or approval counts.${grant}`
        }
      : {}),
    note: notes.length ? `\n\nNote: ${notes.join('; ')}.` : ''
  }
}

/** `approve [reason]`: GO as is, recorded with who, when and why; the check on the head is green. */
async function approve(run: CommandRun, reason: string): Promise<IterationOutcome> {
  const { deps, pull, intent } = run
  const now = deps.clock.now()
  const state = run.loaded.state ?? newState(pull.number, deps.settings.maxIterations, now)
  if (!allowed(state.status, 'human_approve'))
    return run.speak.refuse(`the loop is ${state.status}: there is nothing to approve.`)
  const by = intent.from.login
  const maker = await whoMade(run)
  if (maker.part)
    return run.speak.refuse(
      maker.part === "the PR's author"
        ? "the PR's author cannot approve their own PR through review-loop: ask another maintainer."
        : `you are ${maker.part}, and whoever made a PR cannot approve it through review-loop (${GITHUB_RULE}): ask another maintainer.`
    )
  if (maker.unknown) return run.speak.refuse(maker.unknown)
  const why = reason || 'no reason given'
  const approved: LoopState = processed(
    stamped(
      {
        ...moveTo(
          state,
          transition(state.status, 'human_approve').to,
          `Approved as is by @${by}: ${why}.`
        ),
        override: { by, at: now.toISOString(), reason: why.slice(0, 500), sha: pull.headSha }
      },
      now
    ),
    intent.key
  )
  const outcome = await approvePhase(deps, pull, approved, run.loaded.comment)
  await run.speak.done(maker.note.trim() || undefined, approved)
  return { ...outcome, notice: `Approved as is by @${by}: ${why}.` }
}

/**
 * `dismiss RL-… [reason]`: the finding is settled as won't-fix; it no longer blocks. Not from anyone
 * who made the PR (its author, a pusher to its branch, an author, committer or co-author of its
 * commits: see madeBy): as with approve, they cannot wave through their own work, so the finding
 * keeps blocking and the reply says who can settle it.
 */
async function dismiss(run: CommandRun, id: string, reason: string): Promise<IterationOutcome> {
  const { deps, pull, intent } = run
  const state = run.loaded.state
  const known = state?.iterations.some(it => it.findings.some(f => f.id === id))
  if (!state || !known)
    return run.speak.refuse(
      `there is no finding ${id} on this PR; the ids are in the review-loop comment.`
    )
  const maker = await whoMade(run)
  if (maker.part)
    return run.speak.refuse(
      `a dismissal by ${maker.part === "the PR's author" ? maker.part : `${maker.part} (you)`} does not count towards GO (the same rule as approve): ${id} keeps blocking. Fix it, answer it in the code or a review thread, or ask another maintainer to dismiss it.`,
      state
    )
  if (maker.unknown) return run.speak.refuse(`${maker.unknown} ${id} keeps blocking.`, state)
  if (dismissedIds(state, pull.author).has(id))
    return run.speak.done(`${id} was dismissed already.`, processed(state, intent.key))
  const now = deps.clock.now()
  const dismissal = {
    id,
    by: intent.from.login,
    at: now.toISOString(),
    ...(reason ? { reason: reason.slice(0, 500) } : {})
  }
  const saved = processed(
    stamped({ ...state, dismissed: [...(state.dismissed ?? []), dismissal].slice(-100) }, now),
    intent.key
  )
  await writeState(deps, pull, saved, run.loaded.comment)
  return run.speak.done(
    `dismissed ${id}: it no longer blocks GO. The next review takes it into account (push, or \`/review-loop retry\`).${maker.note}`,
    saved
  )
}

/** The stop label comes off when a maintainer asks the loop to go on. */
async function liftStop(run: CommandRun): Promise<PullRequest> {
  const label = run.deps.settings.stopLabel
  if (!label || !run.pull.labels.includes(label)) return run.pull
  await run.deps.github.removeLabel(run.pull.number, label)
  return { ...run.pull, labels: run.pull.labels.filter(l => l !== label) }
}

/** `retry` and `continue [N]`: the head is reviewed now, continue as a new round with its cap. */
async function again(
  run: CommandRun,
  command: Extract<Command, { name: 'retry' | 'continue' }>
): Promise<IterationOutcome> {
  const state = run.loaded.state
  const event = command.name === 'retry' ? 'human_retry' : 'human_continue'
  if (event === 'human_continue' && (!state || !allowed(state.status, event)))
    return run.speak.refuse(
      `\`continue\` is for a loop that stopped short of GO (${CONTINUABLE.join(', ')}); this one is ${state?.status ?? 'not started'}. \`/review-loop retry\` reviews the head again.`
    )
  if (state && !allowed(state.status, event))
    return run.speak.refuse(`the PR is ${state.status}: there is nothing to review.`)
  const roundCap = command.name === 'continue' ? command.iterations : undefined
  const pull = await liftStop(run)
  return planned(run, pull, { event, roundCap }, { trigger: trigger(run, command.name) })
}

function trigger(run: CommandRun, command: HumanTrigger['command']): HumanTrigger {
  return { by: run.intent.from.login, command }
}

/** Plans the iteration a human asked for and runs it; what cannot be planned is refused in words. */
async function planned(
  run: CommandRun,
  pull: PullRequest,
  asked: { event: 'human_retry' | 'human_continue' | 'human_fix'; roundCap?: number },
  human: HumanAsk
): Promise<IterationOutcome> {
  const plan = await planPhase(run.deps, pull.number, { ...asked, loaded: run.loaded, pull })
  if (plan.kind !== 'review') return run.speak.refuse(plan.notice)
  const outcome = await run.iterate(
    { ...plan, state: processed(plan.state, run.intent.key) },
    human
  )
  // another run holds the iteration: the command is not done (nor remembered as done)
  if (outcome.claimTaken) return run.speak.refuse(outcome.notice ?? '')
  await run.speak.done()
  return outcome
}

/** `fix [instructions]`: one fix of the latest review, with the instructions for the AI fixer. */
async function fixNow(run: CommandRun, instructions: string): Promise<IterationOutcome> {
  const state = run.loaded.state
  const last = state && lastIteration(state)
  if (!state || !last)
    return run.speak.refuse('no review on this PR yet — comment `/review-loop retry` first.')
  if (!allowed(state.status, 'human_fix'))
    return run.speak.refuse(`the PR is ${state.status}: there is nothing to fix.`)
  const { settings, ai } = run.deps
  const blocker = fixBlocker({
    pull: run.pull,
    fixCommands: settings.fixCommands.length,
    aiFixer: Boolean(ai?.fix),
    surface: settings.surface
  })
  if (blocker) return run.speak.refuse(stopReason(blocker))
  const by = run.intent.from.login
  const pull = await liftStop(run)
  return planned(
    run,
    pull,
    { event: 'human_fix' },
    {
      trigger: {
        ...trigger(run, 'fix'),
        carried: last.n,
        ...(instructions ? { instructions } : {})
      },
      // a maintainer asking for the fix settles a finding held for a person: the fixer gets it
      findings: recordedFindings(state)
        .filter(f => !dismissedIds(state, run.pull.author).has(f.id))
        .map(({ verification: _held, ...f }) => f),
      rework: instructions ? [`@${by} asks: ${instructions}`] : []
    }
  )
}
