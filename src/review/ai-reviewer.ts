import Bottleneck from 'bottleneck/light.js'
import { atOrAbove } from '../loop/findings.js'
import {
  carriedFindings,
  dismissedIds,
  lastIteration,
  latestRecords,
  recordedFindings
} from '../loop/state.js'
import type {
  Finding,
  FindingRecord,
  GateResult,
  LoopState,
  PullRequest,
  ReviewerVerdict
} from '../loop/types.js'
import { Budget } from '../model/budget.js'
import { plural } from '../report/format.js'
import { traitsOf } from '../model/models.js'
import type { Git, GrepHit } from '../ports/index.js'
import { planBatches, readDiff, type Batch, type FileDiff, type ReviewPlan } from './batches.js'
import { ignoreMatcher, type IgnoreMatcher } from './ignore.js'
import { mergeBatches, type BatchResult } from './merge.js'
import {
  REVIEW_OUTPUT_RESERVE,
  reviewBatch,
  type BatchOutcome,
  type ReviewerDeps
} from './review-batch.js'
import { combinePasses, holdUp, type PartOf } from './judgment.js'
import {
  batchPrompt,
  sharedPrompt,
  type ReviewPrompt,
  type Shape,
  type SharedPrompt
} from './review-prompt.js'
import {
  carriedOver,
  chooseParts,
  clean,
  contentOf,
  headContent,
  importersOf,
  mustAnswer,
  reusedOutcome,
  settingsDigest,
  withReuseNote,
  type PartChoice
} from './incremental.js'
import { withCallers } from './callers.js'

export { earlierRounds } from './review-prompt.js'
export { REVIEW_TOOL } from './review-prompt.js'
export type { ReviewerDeps } from './review-batch.js'

/** Characters of diff one review call reads at most (about 30k tokens). */
export const BATCH_CHARS = 120_000

export interface ReviewerInput {
  pull: PullRequest
  state: LoopState
  git: Git
  gates: GateResult[]
  /** Read every part again (a human's retry): nothing is taken from an earlier review. */
  fresh?: boolean
}

/**
 * Which batch answers on each earlier finding: the one holding its file, and of a file cut into
 * pieces the one whose hunks cover its line (else the nearest); the first batch for findings
 * without a file or in a file no batch holds.
 */
export function owners(
  batches: readonly Batch[],
  earlier: ReadonlyMap<string, Pick<FindingRecord, 'file' | 'line'>>
): Map<number, Set<string>> {
  const out = new Map<number, Set<string>>(batches.map(b => [b.index, new Set<string>()]))
  for (const [id, record] of earlier) {
    const holding = record.file ? batches.filter(b => b.files.includes(record.file!)) : []
    const line = record.line ?? 0
    const distance = (b: Batch): number =>
      Math.min(
        ...(b.lines[record.file!] ?? [[line, line]]).map(([from, to]) =>
          line < from ? from - line : line > to ? line - to : 0
        )
      )
    const owner = [...holding].sort((x, y) => distance(x) - distance(y))[0]
    out.get(owner?.index ?? 1)?.add(id)
  }
  return out
}

/**
 * Files git shows as binary that no `ignore` glob covers. Text hidden by the PR's .gitattributes
 * (`-diff`, `binary`) is diffed again as text; real binary content cannot be reviewed, so it
 * counts as not reviewed until `ignore` covers it.
 */
async function textOfBinaries(
  git: Git,
  range: { base: string; head: string },
  diffs: FileDiff[],
  ignore: IgnoreMatcher
): Promise<FileDiff[]> {
  return Promise.all(
    diffs.map(async f => {
      if (f.ignored !== 'binary' || ignore(f.path)) return f
      const blob = await git.show(range.head, f.path)
      if (blob === undefined) return f
      if (blob.includes('\0'))
        return {
          ...f,
          ignored: undefined,
          unreviewable:
            "git shows it as binary; add a glob for it to 'ignore' if it needs no review"
        }
      const text = readDiff(await git.diff(range.base, range.head, [f.path], { text: true }))[0]
      return text ? { ...text, path: f.path } : f
    })
  )
}

/**
 * Earlier open findings in files this review could not see, carried as open: nobody looked again,
 * so they are neither fixed nor "no longer raised".
 */
function withUnseen(state: LoopState, verdict: ReviewerVerdict): ReviewerVerdict {
  const carried = carriedUnseen(state, verdict)
  return carried.length ? { ...verdict, findings: [...verdict.findings, ...carried] } : verdict
}

function carriedUnseen(state: LoopState, verdict: ReviewerVerdict): Finding[] {
  const unseen = new Set(verdict.coverage?.unreviewed ?? [])
  const last = lastIteration(state)
  if (unseen.size === 0 || last?.round !== state.round) return []
  const raised = new Set(verdict.findings.map(f => f.id))
  return carriedFindings(
    state,
    f => Boolean(f.file && unseen.has(f.file) && !raised.has(f.id)),
    f => `carried: ${f.file} could not be reviewed this time`
  )
}

/** What the whole review would cost, each batch reserved as one call (its prompt and output). */
function estimate(model: string, prompts: readonly ReviewPrompt[]): number {
  return prompts.reduce(
    (sum, p) => sum + Budget.reserve(model, JSON.stringify(p).length, REVIEW_OUTPUT_RESERVE),
    0
  )
}

/**
 * Runs every batch, `concurrency` at a time. An API error fails its batch only, unless all fail and
 * no part taken from an earlier review (`reused`) answered either.
 */
async function runBatches(
  deps: ReviewerDeps,
  work: ReadonlyArray<{ batch: Batch; prompt: ReviewPrompt; run: () => Promise<BatchOutcome> }>,
  reused: number
): Promise<BatchResult[]> {
  const limiter = new Bottleneck({ maxConcurrent: Math.max(1, deps.ai.reviewConcurrency) })
  const settled = await Promise.allSettled(work.map(w => limiter.schedule(() => w.run())))
  const errors = settled.flatMap(s => (s.status === 'rejected' ? [s.reason as Error] : []))
  // nothing answered: the error is the run's (bad credentials, a model that does not exist)
  if (errors.length === settled.length && errors[0] && reused === 0) throw errors[0]
  return settled.map((s, i) => ({
    batch: work[i]!.batch,
    outcome:
      s.status === 'fulfilled'
        ? s.value
        : { kind: 'failed', error: (s.reason as Error).message.slice(0, 300) }
  }))
}

/**
 * Pass `k`'s plan: the same parts (the same files reviewed together, so each pass covers the PR the
 * same way), each part's files in another order (rotated, every other pass reversed), so passes are
 * not one prompt sent several times. A part of one file reads the same in every pass.
 */
function passPlan(plan: ReviewPlan, k: number): ReviewPlan {
  if (k === 0) return plan
  const order = <T>(xs: readonly T[]): T[] => {
    const shift = k % xs.length
    const rotated = [...xs.slice(shift), ...xs.slice(0, shift)]
    return k % 2 === 1 ? rotated.reverse() : rotated
  }
  return {
    ...plan,
    batches: plan.batches.map(b => {
      if (b.files.length < 2) return b
      const files = order(readDiff(b.text))
      return { ...b, files: files.map(f => f.path), text: files.map(f => f.text).join('') }
    })
  }
}

/** One pass's parts to send, each with its prompt, and the earlier findings each part answers on. */
interface Pass {
  plan: ReviewPlan
  /** The parts sent (incremental-review leaves out those reviewed before at their current content). */
  batches: Batch[]
  /**
   * Each sent part's prompt by its index, and those withVerifierParts adds: a finding in a part not
   * sent is verified on its own part's prompt.
   */
  prompts: Map<number, ReviewPrompt>
  /** A part's prompt. */
  build: (b: Batch) => Promise<ReviewPrompt>
  /** The latest record of every earlier finding of the round. */
  earlier: Map<string, FindingRecord>
  owned: Map<number, Set<string>>
}

async function preparePass(
  deps: ReviewerDeps,
  input: ReviewerInput,
  range: { base: string; head: string },
  plan: ReviewPlan,
  shared: SharedPrompt,
  send: ReadonlySet<number>
): Promise<Pass> {
  const earlier = latestRecords(input.state)
  const owned = owners(plan.batches, earlier)
  const batches = plan.batches.filter(b => send.has(b.index))
  const build = (b: Batch) =>
    batchPrompt(shared, input.git, range, b, {
      plan,
      answerOn: [...owned.get(b.index)!],
      cachePart: deps.ai.verifyFindings
    })
  const prompts = await Promise.all(batches.map(build))
  return {
    plan,
    batches,
    prompts: new Map(batches.map((b, i) => [b.index, prompts[i]!])),
    earlier,
    owned,
    build
  }
}

/**
 * Builds the prompts of the parts not sent again that hold a blocking finding (one the reviewer of a
 * sent part found there): the verifier reads a finding's own part. Only those are built.
 */
async function withVerifierParts(
  pass: Pass,
  findings: readonly Finding[],
  threshold: ReviewerDeps['threshold']
): Promise<void> {
  const blocking = findings.filter(f => !f.carried && atOrAbove(f.severity, threshold))
  const owner = owners(pass.plan.batches, new Map(blocking.map(f => [f.id, f])))
  for (const b of pass.plan.batches)
    if (owner.get(b.index)?.size && !pass.prompts.has(b.index))
      pass.prompts.set(b.index, await pass.build(b))
}

/**
 * Reviews the sent parts of one pass (see runBatches) and merges them, with the parts taken from an
 * earlier review, into the pass's verdict.
 */
async function runPass(
  deps: ReviewerDeps,
  input: ReviewerInput,
  pass: Pass,
  reused: readonly BatchResult[],
  shape: Shape,
  deadline: number
): Promise<{ verdict: ReviewerVerdict; results: BatchResult[] }> {
  const { plan, prompts, earlier, owned } = pass
  const label = (b: Batch) =>
    plan.batches.length > 1 ? `review part ${b.index}/${plan.batches.length}` : 'review'
  const sent = pass.batches.length
    ? await runBatches(
        deps,
        pass.batches.map(batch => ({
          batch,
          prompt: prompts.get(batch.index)!,
          run: () =>
            reviewBatch(
              deps,
              {
                ...input,
                earlier,
                owned: owned.get(batch.index)!,
                deadline,
                label: label(batch),
                diff: batch.text
              },
              prompts.get(batch.index)!,
              shape
            )
        })),
        reused.length
      )
    : []
  const results = [...sent, ...reused].sort((a, b) => a.batch.index - b.batch.index)
  return { verdict: mergeBatches(plan, results, deps.threshold, deps.budget.usage), results }
}

/**
 * The first pass's part that holds a finding's file and line (the first part for a file no part
 * holds): its prompt is the verifier's cached prefix. A part not sent again has its prompt built for
 * this (withVerifierParts); without one, the first part sent.
 */
function partFinder(pass: Pass): PartOf {
  return f => {
    const owner = owners(pass.plan.batches, new Map([[f.id, f]]))
    const index = [...owner].find(([, ids]) => ids.has(f.id))?.[0]
    return pass.prompts.get(index ?? 1) ?? pass.prompts.get(pass.batches[0]?.index ?? 1)
  }
}

/** What incremental-review decides for this review: the parts to send and what the rest stand on. */
interface Incremental {
  choice: PartChoice
  /** The base and settings digest the review stands on; undefined with incremental-review off. */
  key?: { base: string; settings: string }
  blobs: ReadonlyMap<string, string>
  /** The parts not sent, each as its earlier review's outcome (GO, with its open findings). */
  reused: BatchResult[]
  /** Lines of the parts not sent that seem to import a changed file. */
  importers: GrepHit[]
  /** The findings humans dismissed: a part raising only those again is clean. */
  dismissed: ReadonlySet<string>
}

async function incremental(
  deps: ReviewerDeps,
  input: ReviewerInput,
  base: string,
  plan: ReviewPlan,
  shared: SharedPrompt
): Promise<Incremental> {
  const { ai, threshold, log } = deps
  if (!ai.incrementalReview)
    return {
      choice: { send: plan.batches, reuse: [] },
      blobs: new Map(),
      reused: [],
      importers: [],
      dismissed: new Set()
    }
  const { state, pull } = input
  const key = { base, settings: settingsDigest(ai, threshold, shared.system, pull) }
  const blobs = headContent(await input.git.blobs(pull.headSha), plan.files)
  const dismissed = dismissedIds(state, pull.author)
  const blockers = mustAnswer(state, threshold, dismissed)
  const mustSend = new Set(
    [...owners(plan.batches, blockers)].flatMap(([i, ids]) => (ids.size ? [i] : []))
  )
  const sendAll = input.fresh
    ? 'a human asked for the review again (retry)'
    : lastIteration(state)?.omitted
      ? 'the state left out some findings of the last review'
      : undefined
  const choose = (more: ReadonlySet<number>) =>
    chooseParts(plan, {
      previous: state.reviewed,
      ...key,
      blobs,
      mustSend: new Set([...mustSend, ...more]),
      sendAll
    })
  // a part naming a definition changed since the last review is sent again (callers.ts)
  const choice = await withCallers(
    input.git,
    log,
    { state, head: pull.headSha, all: plan.batches },
    choose(new Set()),
    choose
  )
  const whyAll =
    choice.whyAll ??
    (!state.reviewed && state.iterations.length
      ? 'the state holds no record of what was reviewed before (incremental-review was off, the review failed, or the state was cut to fit its comment)'
      : undefined)
  if (whyAll && plan.batches.length > 1) log.info(`review: every part is sent: ${whyAll}`)
  const open = owners(plan.batches, new Map(recordedFindings(state).map(f => [f.id, f])))
  const reused = choice.reuse.map(r => ({
    batch: r.batch,
    outcome: reusedOutcome(r, carriedOver(state, open.get(r.batch.index) ?? new Set()))
  }))
  const within = new Set(choice.reuse.flatMap(r => r.batch.files))
  if (reused.length)
    log.info(
      `review: ${plural(choice.send.length, 'part')} of ${plan.batches.length} sent; ${plural(reused.length, 'part')} (${plural(within.size, 'file')}) reviewed before at their current content are not sent again (incremental-review)`
    )
  const importers = reused.length
    ? await importersOf(input.git, pull.headSha, choice.changed ?? [], within)
    : []
  return { choice, key, blobs, reused, importers, dismissed }
}

/** The coverage with what incremental-review took from earlier reviews, and what the state keeps. */
function withContent(
  verdict: ReviewerVerdict,
  inc: Incremental,
  passes: ReadonlyArray<readonly BatchResult[]>,
  threshold: ReviewerDeps['threshold']
): ReviewerVerdict {
  if (!inc.key || !verdict.coverage) return verdict
  const sent = new Set(inc.choice.send.flatMap(b => b.files))
  const unchanged: Record<string, number> = {}
  for (const r of inc.choice.reuse)
    for (const [file, n] of Object.entries(r.reviewedIn)) if (!sent.has(file)) unchanged[file] = n
  // a part sent is settled when every pass answered it, and clean when every pass found it clean
  const answered = new Map<number, boolean | undefined>()
  for (const b of inc.choice.send) {
    const outcomes = passes.map(results => results.find(r => r.batch.index === b.index)?.outcome)
    answered.set(
      b.index,
      outcomes.every(o => o?.kind === 'verdict')
        ? outcomes.every(o => clean(o, threshold, inc.dismissed))
        : undefined
    )
  }
  return {
    ...verdict,
    coverage: {
      ...verdict.coverage,
      ...(inc.reused.length ? { unchanged, skipped: inc.reused.length } : {}),
      content: contentOf(inc.choice, inc.key, inc.blobs, answered)
    }
  }
}

/**
 * The review the budget cannot pay for: no call, its parts failed closed, the estimate said. The
 * parts not sent again keep their earlier review (and the state its record).
 */
function refused(
  deps: ReviewerDeps,
  input: ReviewerInput,
  review: { plan: ReviewPlan; inc: Incremental; sent: Batch[]; cost: number }
): ReviewerVerdict {
  const { ai, budget } = deps
  const { plan, inc, sent, cost } = review
  const left = budget.leftUsd ?? 0
  const why = `the review of ${plural(sent.length, 'part')}${ai.reviewPasses > 1 ? ` in ${ai.reviewPasses} passes` : ''} would cost about $${cost.toFixed(2)} (estimated before any call), more than the $${Math.max(0, left).toFixed(2)} left of max-cost-usd`
  deps.log.warning(`review: ${why}`)
  const results = sent.map(batch => ({
    batch,
    outcome: { kind: 'failed' as const, error: why, budgetExhausted: true }
  }))
  const all = [...results, ...inc.reused].sort((a, b) => a.batch.index - b.batch.index)
  const verdict = mergeBatches(plan, all, deps.threshold, budget.usage)
  const kept = withContent(withUnseen(input.state, verdict), inc, [all], deps.threshold)
  return { ...kept, estimateUsd: cost }
}

/**
 * The AI review of the whole PR. The diff is planned into batches that each fit one call (whole
 * files, folders together, huge files by hunks); the files `ignore` excludes are listed, not sent.
 * The whole review's cost is estimated before the first call: a review the budget cannot pay for
 * makes no call and ends budget-exhausted. Batches are reviewed in parallel (`review-concurrency`),
 * sharing a cached prefix, and merged into one verdict that is GO only if every batch says GO; with
 * `review-passes` above 1 the whole review runs that many times, files in another order, and the
 * passes' findings are counted as votes. Then only findings that hold up block (`holdUp`: the
 * evidence check was done per part, the verifier confirms). `review-timeout-minutes` bounds all of it.
 * With `incremental-review`, a part whose files are all at the content an earlier review found
 * nothing blocking in (same base, same settings) and that holds no open blocker is not sent again:
 * it stands as GO with its open findings, and the coverage says which iteration reviewed each file.
 */
export async function aiReview(deps: ReviewerDeps, input: ReviewerInput): Promise<ReviewerVerdict> {
  const { ai, budget, threshold } = deps
  const now = deps.now ?? (() => Date.now())
  const { pull, git } = input
  const base = await git.prepareDiff(pull.baseRef, pull.baseSha, pull.headSha)
  const range = { base, head: pull.headSha }
  const ignore = ignoreMatcher(ai.ignore)
  const diffs = await textOfBinaries(
    git,
    range,
    readDiff(await git.diff(base, pull.headSha)),
    ignore
  )
  const plan: ReviewPlan = planBatches(diffs, { ignore, budgetChars: BATCH_CHARS })
  const shape: Shape = traitsOf(ai.reviewModel, ai.provider?.name).structuredOutputs
    ? 'json'
    : 'tool'
  const prompt = { threshold, ...ai, promptsDir: deps.promptsDir }
  const plain = await sharedPrompt(prompt, input, shape, plan)
  const inc = await incremental(deps, input, base, plan, plain)
  const shared = withReuseNote(plain, inc.choice, ai.reviewMaxTurns, inc.importers)
  const send = new Set(inc.choice.send.map(b => b.index))
  const first = await preparePass(deps, input, range, plan, shared, send)
  const sentPrompts = first.batches.map(b => first.prompts.get(b.index)!)
  const cost = estimate(ai.reviewModel, sentPrompts) * ai.reviewPasses
  if (first.batches.length && !budget.allowsUsd(cost))
    return refused(deps, input, { plan, inc, sent: first.batches, cost })
  if (first.batches.length > 1)
    deps.log.info(
      `review: ${plan.files.length} changed files in ${plan.batches.length} parts, ${first.batches.length < plan.batches.length ? `${first.batches.length} sent, ` : ''}${Math.min(ai.reviewConcurrency, first.batches.length)} at a time (estimated $${cost.toFixed(2)})`
    )
  // the time limit is the model calls': preparing the diff (maybe a fetch) does not count
  const deadline = now() + ai.reviewTimeoutMinutes * 60_000
  const passes = [await runPass(deps, input, first, inc.reused, shape, deadline)]
  for (let k = 1; k < ai.reviewPasses && first.batches.length; k++) {
    deps.log.info(`review: pass ${k + 1} of ${ai.reviewPasses}`)
    const pass = await preparePass(deps, input, range, passPlan(plan, k), shared, send)
    passes.push(await runPass(deps, input, pass, inc.reused, shape, deadline))
  }
  const verdicts = passes.map(p => p.verdict)
  const voted =
    verdicts.length > 1 ? combinePasses(verdicts, ai.votesToBlock, threshold) : verdicts[0]!
  // a finding set aside may be verified or reconsidered too (hold-go-at): on its own part's prompt
  if (ai.verifyFindings || ai.holdGoAt !== 'none')
    await withVerifierParts(first, [...voted.findings, ...(voted.setAside ?? [])], threshold)
  const held = await holdUp(
    deps,
    { pull, git, deadline, shape, state: input.state },
    voted,
    partFinder(first)
  )
  const verdict = withUnseen(input.state, { ...held, usage: budget.usage })
  return withContent(
    verdict,
    inc,
    passes.map(p => p.results),
    threshold
  )
}
