import { atOrAbove, locationOf } from '../loop/findings.js'
import { sameProblem } from '../loop/matching.js'
import { lastIteration, recordedFindings } from '../loop/state.js'
import type { Finding, LoopState, ReviewerVerdict, Severity, Verification } from '../loop/types.js'
import { plural } from '../report/format.js'
import type { Git } from '../ports/index.js'
import { mergeAnswers, mergeById } from './merge.js'
import type { ReviewerDeps } from './review-batch.js'
import type { ReviewPrompt } from './review-prompt.js'
import { verifyAll, type Question, type VerifyInput } from './verify.js'

/** Two passes' findings are one when they have one id, or are the same problem (`sameProblem`). */
function samePlace(a: Finding, b: Finding): boolean {
  return a.id === b.id || sameProblem(b, { ...a, status: 'open', since: 0 })
}

/**
 * Several independent passes' verdicts as one: findings merged by id or as the same problem, each with the number
 * of passes that raised it (`votes`); a blocking one raised by fewer than `votesToBlock` passes is set
 * aside as outvoted. The decision is the most cautious pass's; the rest (coverage, dropped) is the
 * first pass's.
 */
export function combinePasses(
  passes: readonly ReviewerVerdict[],
  votesToBlock: number,
  threshold: Severity
): ReviewerVerdict {
  const first = passes[0]!
  const groups: Array<{ found: Finding[]; passes: Set<number> }> = []
  passes.forEach((pass, k) =>
    pass.findings.forEach(f => {
      const group = groups.find(g => samePlace(g.found[0]!, f))
      if (group) {
        group.found.push(f)
        group.passes.add(k)
      } else groups.push({ found: [f], passes: new Set([k]) })
    })
  )
  const counted = groups.map(g => ({
    ...mergeById(g.found)[0]!,
    votes: { count: g.passes.size, passes: passes.length }
  }))
  const outvoted = counted.filter(
    f => atOrAbove(f.severity, threshold) && !f.carried && f.votes.count < votesToBlock
  )
  const decisions = passes.map(p => p.decision)
  return {
    ...first,
    decision: decisions.includes('NEEDS_DISCUSSION')
      ? 'NEEDS_DISCUSSION'
      : decisions.includes('NO_GO')
        ? 'NO_GO'
        : 'GO',
    findings: counted.filter(f => !outvoted.includes(f)),
    earlier: mergeAnswers(passes.flatMap(p => p.earlier ?? [])),
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
    ].filter((f, i, all) => all.findIndex(o => o.id === f.id) === i),
    error: passes.flatMap(p => (p.error ? [p.error] : [])).join(' ') || undefined
  }
}

/**
 * Earlier open AI blockers of this round that this review neither raised nor kept open — it called
 * them fixed or said nothing — while their file did not change since they were raised: the reviewer's
 * word is not enough for those. Each comes back with why.
 */
export async function unsettledEarlier(
  state: LoopState,
  verdict: ReviewerVerdict,
  git: Git,
  head: string,
  threshold: Severity
): Promise<Array<{ finding: Finding; why: string }>> {
  const last = lastIteration(state)
  if (!last || last.round !== state.round) return []
  const answered = new Map((verdict.earlier ?? []).map(a => [a.id, a.status]))
  const current = [...verdict.findings, ...(verdict.setAside ?? [])]
  // raised again, maybe reworded or moved: the id it keeps is settled later (keepEarlierIds)
  const raised = (f: Finding) =>
    current.some(c => c.id === f.id || sameProblem(c, { ...f, status: 'open', since: 0 }))
  const disputed = new Set(last.fix?.disputes.map(d => d.id) ?? [])
  const open = new Set(last.findings.filter(f => f.status === 'open').map(f => f.id))
  // a file this review could not see is carried as it is (withUnseen), not asked about
  const unseen = new Set(verdict.coverage?.unreviewed ?? [])
  const candidates = recordedFindings(state).filter(
    f =>
      f.source === 'ai' &&
      f.file &&
      !unseen.has(f.file) &&
      open.has(f.id) &&
      !disputed.has(f.id) &&
      atOrAbove(f.severity, threshold) &&
      !raised(f) &&
      (answered.get(f.id) ?? 'fixed') === 'fixed'
  )
  if (candidates.length === 0) return []
  const changed = new Set(
    last.reviewedSha === head ? [] : await git.changedBetween(last.reviewedSha, head)
  )
  return candidates
    .filter(f => !changed.has(f.file!))
    .map(f => ({
      finding: f,
      why: answered.has(f.id) ? 'the reviewer called it fixed' : 'the reviewer did not answer on it'
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
  const earlier = await unsettledEarlier(
    input.state,
    verdict,
    input.git,
    input.pull.headSha,
    threshold
  )
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
  const aside = checked.filter(f => f.verification?.blocks === false)
  const setAside = [...(verdict.setAside ?? []), ...aside]
  const restsOnAside =
    verdict.decision === 'NO_GO' &&
    setAside.some(f => atOrAbove(f.severity, threshold)) &&
    !kept.some(f => atOrAbove(f.severity, threshold))
  const decision = back.length ? 'NO_GO' : restsOnAside ? 'GO' : verdict.decision
  return {
    ...verdict,
    decision: verdict.decision === 'NEEDS_DISCUSSION' ? verdict.decision : decision,
    findings: kept,
    ...(setAside.length ? { setAside } : {}),
    ...(restsOnAside
      ? {
          summary: `${verdict.summary}\n\nThe reviewer's NO_GO rested only on findings that did not hold up (${plural(setAside.length, 'finding')} set aside), so nothing blocks.`
        }
      : {})
  }
}
