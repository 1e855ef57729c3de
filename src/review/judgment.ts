import { atOrAbove, locationOf } from '../loop/findings.js'
import { sameProblem } from '../loop/matching.js'
import { lastIteration, recordedFindings } from '../loop/state.js'
import { touched } from '../loop/record.js'
import type {
  Decision,
  Finding,
  IterationRecord,
  LoopState,
  ReviewerVerdict,
  Severity,
  Verification
} from '../loop/types.js'
import { plural } from '../report/format.js'
import type { Git } from '../ports/index.js'
import { fixedLines } from './changed-lines.js'
import { mergeAnswers, mergeById } from './merge.js'
import type { ReviewerDeps } from './review-batch.js'
import type { ReviewPrompt } from './review-prompt.js'
import { verifyAll, type Question, type VerifyInput } from './verify.js'

/** Two passes' findings are one when they have one id, or are the same problem (`sameProblem`). */
function sameFinding(a: Finding, b: Finding): boolean {
  return a.id === b.id || sameProblem(b, a)
}

/**
 * Several independent passes' verdicts as one: findings merged by id or as the same problem, each
 * with the number of passes that raised it (`votes`). A blocking one raised by fewer passes than
 * `votesToBlock` — of those that reviewed its file: a pass whose part failed casts no vote — is set
 * aside as outvoted. The decision is the most cautious pass's; what any pass could not review stays
 * unreviewed, and any pass's budget stop or error stays.
 */
export function combinePasses(
  passes: readonly ReviewerVerdict[],
  votesToBlock: number,
  threshold: Severity
): ReviewerVerdict {
  const groups: Array<{ found: Finding[]; passes: Set<number> }> = []
  passes.forEach((pass, k) =>
    pass.findings.forEach(f => {
      const group = groups.find(g => sameFinding(g.found[0]!, f))
      if (group) {
        group.found.push(f)
        group.passes.add(k)
      } else groups.push({ found: [f], passes: new Set([k]) })
    })
  )
  const voters = (f: Finding) =>
    passes.filter(p => !(f.file && p.coverage?.unreviewed.includes(f.file))).length
  const counted = groups.map(g => ({
    ...mergeById(g.found)[0]!,
    votes: { count: g.passes.size, passes: passes.length }
  }))
  const outvoted = counted.filter(
    f =>
      atOrAbove(f.severity, threshold) &&
      !f.carried &&
      f.votes.count < Math.min(votesToBlock, voters(f))
  )
  return {
    ...passesTogether(passes),
    findings: counted.filter(f => !outvoted.includes(f)),
    setAside: [
      ...mergeById(passes.flatMap(p => p.setAside ?? [])),
      ...outvoted.map(f => ({
        ...f,
        verification: {
          status: 'outvoted' as const,
          by: 'votes' as const,
          why: `raised by ${f.votes.count} of ${passes.length} review passes; votes-to-block is ${votesToBlock}`,
          blocks: false
        }
      }))
    ].filter((f, i, all) => all.findIndex(o => o.id === f.id) === i)
  }
}

/** The passes' verdicts besides their findings: the most cautious decision, every failure kept. */
function passesTogether(passes: readonly ReviewerVerdict[]): ReviewerVerdict {
  const first = passes[0]!
  const decisions = passes.map(p => p.decision)
  const unreviewed = [...new Set(passes.flatMap(p => p.coverage?.unreviewed ?? []))]
  const coverage = first.coverage && {
    ...first.coverage,
    reviewed: first.coverage.reviewed - (unreviewed.length - first.coverage.unreviewed.length),
    unreviewed,
    failures: [...new Set(passes.flatMap(p => p.coverage?.failures ?? []))]
  }
  const dropped = passes.flatMap(p => p.droppedFindings ?? [])
  return {
    ...first,
    decision: decisions.includes('NEEDS_DISCUSSION')
      ? 'NEEDS_DISCUSSION'
      : decisions.includes('NO_GO')
        ? 'NO_GO'
        : 'GO',
    earlier: mergeAnswers(passes.flatMap(p => p.earlier ?? [])),
    failedCriteria: [...new Set(passes.flatMap(p => p.failedCriteria))],
    requiredRework: [...new Set(passes.flatMap(p => p.requiredRework))],
    dropped: dropped.length,
    droppedFindings: dropped,
    ...(coverage ? { coverage } : {}),
    ...(passes.some(p => p.budgetExhausted) ? { budgetExhausted: true } : {}),
    error: passes.flatMap(p => (p.error ? [p.error] : [])).join(' ') || undefined
  }
}

/** The lines the changes since `last` touched in its findings' files; nothing when they cannot be read. */
async function changesSince(
  git: Git,
  last: IterationRecord,
  head: string,
  log: ReviewerDeps['log']
): Promise<{ changedLines?: Record<string, Array<[number, number]>>; rewritten?: string[] }> {
  if (last.reviewedSha === head) return {}
  try {
    return await fixedLines(git, last, head)
  } catch (e) {
    // a history rewritten under a shallow checkout: every earlier blocker is asked about
    log.warning(
      `review: the changes since ${last.reviewedSha.slice(0, 7)} could not be read (${(e as Error).message.slice(0, 200)}); earlier blockers are checked as if their code did not change`
    )
    return {}
  }
}

/**
 * Earlier AI blockers of this round, still unsettled (open, or disputed), that this review neither
 * raised again (maybe reworded or moved) nor answered as still open — it called them fixed, accepted
 * a dispute nobody made, or said nothing (a disputed one: said nothing) — while the code at their
 * lines did not change since they were reviewed (a rewritten file counts as changed): the
 * reviewer's word is not enough for those. Each comes back with why.
 */
export async function unsettledEarlier(
  state: LoopState,
  verdict: ReviewerVerdict,
  git: Git,
  head: string,
  deps: Pick<ReviewerDeps, 'threshold' | 'log'>
): Promise<Array<{ finding: Finding; why: string }>> {
  const last = lastIteration(state)
  if (!last || last.round !== state.round) return []
  const answered = new Map((verdict.earlier ?? []).map(a => [a.id, a.status]))
  const disputed = new Set(last.fix?.disputes.map(d => d.id) ?? [])
  // a file this review could not see is carried as it is (withUnseen), not asked about
  const unseen = new Set(verdict.coverage?.unreviewed ?? [])
  const raised = (f: Finding) => verdict.findings.some(c => c.id === f.id || sameProblem(c, f))
  const saysGone = (f: Finding) => {
    const answer = answered.get(f.id)
    if (answer === undefined || answer === 'fixed') return true
    return answer === 'dispute_accepted' && !disputed.has(f.id)
  }
  const candidates = recordedFindings(state).filter(
    f =>
      f.source === 'ai' &&
      f.file &&
      !unseen.has(f.file) &&
      atOrAbove(f.severity, deps.threshold) &&
      !raised(f) &&
      saysGone(f)
  )
  if (candidates.length === 0) return []
  const changed = await changesSince(git, last, head, deps.log)
  return candidates
    .filter(f => !touched(f, changed.changedLines) && !changed.rewritten?.includes(f.file!))
    .map(f => ({
      finding: f,
      why:
        answered.get(f.id) === undefined
          ? 'the reviewer did not answer on it'
          : answered.get(f.id) === 'fixed'
            ? 'the reviewer called it fixed'
            : 'the reviewer accepted a dispute nobody made'
    }))
}

/** Where each finding is verified: the first pass's part holding its file (the part's prompt is cached). */
export type PartOf = (f: Finding) => ReviewPrompt | undefined

function stillOpen(f: Finding, why: string, n: number, verification?: Verification): Finding {
  return {
    ...f,
    description: `Still open: ${why}, but the code at ${locationOf(f) ?? 'its place'} did not change since iteration ${n}.`,
    ...(verification ? { verification } : {})
  }
}

/**
 * Only findings that hold up block: each blocking AI finding goes to the verifier (verify-findings),
 * and each earlier blocker said to be gone at unchanged code too. Confirmed findings stay, with their
 * verification; refuted ones, and uncertain ones unless block-uncertain, are set aside. An earlier
 * blocker comes back open unless the verifier refutes it. A NO_GO that rested only on findings set
 * aside becomes GO; one with an earlier blocker back is never GO.
 */
export async function holdUp(
  deps: ReviewerDeps,
  input: VerifyInput & { state: LoopState },
  verdict: ReviewerVerdict,
  partOf: PartOf
): Promise<ReviewerVerdict> {
  const { threshold, ai } = deps
  const earlier = await unsettledEarlier(input.state, verdict, input.git, input.pull.headSha, deps)
  const n = lastIteration(input.state)?.n ?? 0
  const blocking = verdict.findings.filter(
    f => f.source === 'ai' && !f.carried && atOrAbove(f.severity, threshold) && partOf(f)
  )
  const questions: Question[] = ai.verifyFindings
    ? [
        ...blocking.map(f => ({ kind: 'new' as const, finding: f })),
        ...earlier.map(e => ({ kind: 'earlier' as const, finding: e.finding, why: e.why }))
      ]
    : []
  const asks = questions.flatMap(q => {
    const part = partOf(q.finding)
    return part ? [{ part, question: q }] : []
  })
  if (asks.length) deps.log.info(`review: verifying ${plural(asks.length, 'finding')}`)
  const answers = await verifyAll(deps, input, asks)
  const byId = new Map(asks.map((a, i) => [a.question.finding.id, answers[i]!]))
  const checked = verdict.findings.map(f => {
    const v = byId.get(f.id)
    return v && blocking.includes(f) ? { ...f, verification: v } : f
  })
  const back = earlier
    .map(e => ({ e, v: byId.get(e.finding.id) }))
    .filter(({ v }) => v?.status !== 'refuted')
    .map(({ e, v }) => stillOpen(e.finding, e.why, n, v && { ...v, blocks: true }))
  const kept = [...checked.filter(f => f.verification?.blocks !== false), ...back]
  // an earlier blocker back open is no longer set aside, under its id or reworded
  const isBack = (f: Finding) => back.some(b => b.id === f.id || sameProblem(f, b))
  const setAside = [
    ...(verdict.setAside ?? []),
    ...checked.filter(f => f.verification?.blocks === false)
  ].filter(f => !isBack(f))
  const settled = decisionAfter(verdict, kept, setAside, back.length > 0, threshold)
  return {
    ...verdict,
    decision: settled.decision,
    findings: kept,
    setAside: setAside.length ? setAside : undefined,
    ...(settled.note ? { summary: `${verdict.summary}\n\n${settled.note}` } : {})
  }
}

/**
 * The review's decision once only what held up blocks. An earlier blocker back makes it NO_GO. A
 * NO_GO that rested only on findings set aside becomes GO when the reviewer failed no criterion and
 * reviewed everything; with failed criteria a human decides (NEEDS_DISCUSSION): the fixer never acts
 * on rework the findings behind it did not support.
 */
function decisionAfter(
  verdict: ReviewerVerdict,
  kept: readonly Finding[],
  setAside: readonly Finding[],
  earlierBack: boolean,
  threshold: Severity
): { decision: Decision; note?: string } {
  if (verdict.decision === 'NEEDS_DISCUSSION') return { decision: verdict.decision }
  if (earlierBack) return { decision: 'NO_GO' }
  const blocks = (f: Finding) => atOrAbove(f.severity, threshold)
  const restsOnAside = verdict.decision === 'NO_GO' && setAside.some(blocks) && !kept.some(blocks)
  if (!restsOnAside || verdict.error || verdict.coverage?.unreviewed.length)
    return { decision: verdict.decision }
  const aside = plural(setAside.filter(blocks).length, 'blocking finding')
  if (verdict.failedCriteria.length)
    return {
      decision: 'NEEDS_DISCUSSION',
      note: `The reviewer's ${aside} did not hold up (set aside), but it also says criteria failed (${verdict.failedCriteria.slice(0, 3).join('; ')}): a human decides, since the fixer acts only on findings that hold up.`
    }
  return {
    decision: 'GO',
    note: `The reviewer's NO_GO rested only on findings that did not hold up (${aside} set aside), so nothing blocks.`
  }
}
