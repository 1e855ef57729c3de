import { atOrAbove, holdsGo, locationOf } from '../loop/findings.js'
import { sameProblem } from '../loop/matching.js'
import { dismissedIds, lastIteration, recordedFindings } from '../loop/state.js'
import { clip, touched } from '../loop/record.js'
import type {
  Decision,
  Finding,
  IterationRecord,
  LoopState,
  RefutedEarlier,
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
import { askAll, reconsiderOne, verifyOne, type Question, type VerifyInput } from './verify.js'
import { NOT_ASKED, OWN_FAILURES } from './own-failures.js'

/** Two passes' findings are one when they have one id, or are the same problem (`sameProblem`). */
function sameFinding(a: Finding, b: Finding): boolean {
  return a.id === b.id || sameProblem(b, a)
}

/**
 * Several independent passes' verdicts as one: findings merged by id or as the same problem, each
 * with the number of passes that raised it (`votes`) — a copy a pass set aside for its quote votes
 * too, and when any pass quoted the code right the finding stands as raised with that quote. A
 * blocking one raised by fewer passes than `votesToBlock` — of those that reviewed its file: a pass
 * whose part failed casts no vote — is set aside as outvoted. The decision is the most cautious
 * pass's; what any pass could not review stays unreviewed, and any pass's budget stop or error stays.
 */
export function combinePasses(
  passes: readonly ReviewerVerdict[],
  votesToBlock: number,
  threshold: Severity
): ReviewerVerdict {
  const groups: Array<{ found: Finding[]; unmatched: Finding[]; passes: Set<number> }> = []
  const unquoted = (f: Finding) => f.verification?.by === 'evidence'
  passes.forEach((pass, k) =>
    [...pass.findings, ...(pass.setAside ?? []).filter(unquoted)].forEach(f => {
      const group = groups.find(g => sameFinding([...g.found, ...g.unmatched][0]!, f))
      const into = group ?? { found: [], unmatched: [], passes: new Set<number>() }
      if (!group) groups.push(into)
      ;(unquoted(f) ? into.unmatched : into.found).push(f)
      into.passes.add(k)
    })
  )
  const voters = (f: Finding) =>
    passes.filter(p => !(f.file && p.coverage?.unreviewed.includes(f.file))).length
  const counted = groups.map(g => ({
    ...mergeById(g.found.length ? g.found : g.unmatched)[0]!,
    votes: { count: g.passes.size, passes: passes.length }
  }))
  const stands = counted.filter(f => !unquoted(f))
  const outvoted = stands.filter(
    f =>
      atOrAbove(f.severity, threshold) &&
      !f.carried &&
      f.votes.count < Math.min(votesToBlock, voters(f))
  )
  return {
    ...passesTogether(passes),
    findings: stands.filter(f => !outvoted.includes(f)),
    setAside: [
      ...counted.filter(unquoted),
      ...mergeById(passes.flatMap(p => (p.setAside ?? []).filter(f => !unquoted(f)))),
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
 * reviewer's word is not enough for those. Each comes back with why. A finding held for a person
 * (hold-go-at) is one of them in a later round too, and `stillHeld` when nothing was said on it.
 */
export async function unsettledEarlier(
  state: LoopState,
  verdict: ReviewerVerdict,
  git: Git,
  head: string,
  deps: Pick<ReviewerDeps, 'threshold' | 'log'>
): Promise<Array<{ finding: Finding; why: string; stillHeld?: true }>> {
  const last = lastIteration(state)
  if (!last) return []
  // a finding held for a person stays until a person settles it, into the next round too
  const sameRound = last.round === state.round
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
      (sameRound || f.verification?.held) &&
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
            : 'the reviewer accepted a dispute nobody made',
      // held, and not raised again nor answered on: nothing settled it, so it stays held
      ...(f.verification?.held && !answered.has(f.id) ? { stillHeld: true as const } : {})
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
 * Whether a set-aside finding can hold GO (hold-go-at): an AI finding raised now, blocking, at or
 * above hold-go-at.
 */
function canHold(f: Finding, deps: Pick<ReviewerDeps, 'ai' | 'threshold'>): boolean {
  return (
    f.source === 'ai' &&
    !f.carried &&
    atOrAbove(f.severity, deps.threshold) &&
    holdsGo(f.severity, deps.ai.holdGoAt)
  )
}

/**
 * Set aside against the reviewer's word, so a disagreement: the verifier refuted it or could not
 * tell, the votes left it behind, or its quote did not match and the verifier did not refute it.
 * A quote the verifier refuted too has two signals against it and stays aside.
 */
function disputable(f: Finding): boolean {
  const v = f.verification
  if (!v || v.blocks) return false
  if (v.status === 'unverified') return v.by === 'evidence'
  return v.status !== 'confirmed'
}

/** Why a finding was set aside, as the reviewer is told when asked to reconsider it. */
export function objection(f: Finding): string {
  const v = f.verification
  const cited = v?.cited?.length
    ? ` (it read ${v.cited
        .slice(0, 5)
        .map(c => (c.line ? `${c.file}:${c.line}` : c.file))
        .join(', ')})`
    : ''
  switch (v?.status) {
    case 'refuted':
      return `An independent verifier refuted it${cited}: ${v.why}`
    case 'uncertain':
      return `An independent verifier could not tell whether it is real${cited}: ${v.why}`
    case 'outvoted':
      return `Too few independent review passes raised it: ${v.why}.`
    default:
      return `Its quoted evidence could not be matched to the file: ${v?.why ?? 'it quotes no code'}.`
  }
}

/**
 * A finding whose quote did not match, after the verifier read its code: confirmed, it blocks;
 * refuted, it stays aside (two signals against it); otherwise the evidence check's word stands, with
 * what the verifier said.
 */
function afterMismatch(f: Finding, v: Verification | undefined): Finding {
  const problem = f.verification?.why ?? 'it quotes no code'
  if (!v) return f
  if (v.status === 'confirmed') return { ...f, verification: v }
  const said =
    v.status === 'refuted'
      ? 'the verifier refuted it too'
      : v.unverifiable
        ? 'the verifier could not verify it'
        : 'the verifier could not tell'
  return {
    ...f,
    verification: {
      status: 'unverified',
      by: v.status === 'refuted' ? 'verifier' : 'evidence',
      why: clip(`${problem}; ${said}: ${v.why}`, 1000),
      blocks: false,
      ...(v.cited ? { cited: v.cited } : {})
    }
  }
}

/** Each question verified in the part that holds its finding (verify-findings), by finding id. */
async function verifyQuestions(
  deps: ReviewerDeps,
  input: VerifyInput,
  partOf: PartOf,
  questions: readonly Question[]
): Promise<Map<string, Verification>> {
  if (!deps.ai.verifyFindings) return new Map()
  const asks = questions.flatMap(q => {
    const part = partOf(q.finding)
    return part ? [{ part, question: q }] : []
  })
  if (asks.length) deps.log.info(`review: verifying ${plural(asks.length, 'finding')}`)
  const answers = await askAll(deps, input, asks, verifyOne)
  return new Map(asks.map((a, i) => [a.question.finding.id, answers[i]!]))
}

/**
 * Dropping a blocker takes more than raising it (hold-go-at): each set-aside finding that can hold
 * GO and was set aside against the reviewer's word is shown to the reviewer with why. Withdrawn, it
 * stays aside; kept, or when the reviewer cannot be asked (no part holds it, the budget, an error),
 * it is held: open, and the review needs a person. A finding a maintainer dismissed is not asked.
 */
async function weigh(
  deps: ReviewerDeps,
  input: VerifyInput,
  setAside: readonly Finding[],
  partOf: PartOf,
  dismissed: ReadonlySet<string>
): Promise<{ held: Finding[]; aside: Finding[] }> {
  const asked = setAside.filter(f => canHold(f, deps) && disputable(f) && !dismissed.has(f.id))
  if (asked.length === 0) return { held: [], aside: [...setAside] }
  const asks = asked.flatMap(f => {
    const part = partOf(f)
    const question = { kind: 'reconsider' as const, finding: f, why: objection(f) }
    return part ? [{ part, question }] : []
  })
  deps.log.info(
    `review: ${plural(asked.length, 'blocking finding')} set aside at or above hold-go-at (${deps.ai.holdGoAt}): the reviewer is shown why and asked to reconsider`
  )
  const answers = await askAll(deps, input, asks, reconsiderOne)
  const byId = new Map(asks.map((a, i) => [a.question.finding.id, answers[i]!]))
  const weighed = asked.map(f => {
    const reconsidered = byId.get(f.id) ?? {
      kept: true,
      why: `${NOT_ASKED}: ${OWN_FAILURES.noPart}`
    }
    const verification = { ...f.verification!, reconsidered }
    return {
      ...f,
      verification: reconsidered.kept ? { ...verification, held: true as const } : verification
    }
  })
  return {
    held: weighed.filter(f => f.verification.held),
    aside: [
      ...setAside.filter(f => !asked.includes(f)),
      ...weighed.filter(f => !f.verification.held)
    ]
  }
}

/**
 * Only findings that hold up block: each blocking AI finding goes to the verifier (verify-findings),
 * and each earlier blocker said to be gone at unchanged code too, and so does a finding at or above
 * hold-go-at whose quote did not match (the mismatch noted). Confirmed findings stay, with their
 * verification; refuted ones, and uncertain ones unless block-uncertain, are set aside. An earlier
 * blocker comes back open unless the verifier refutes it (then it is closed as refuted, never fixed).
 * A finding set aside against the reviewer's word at or above hold-go-at is weighed (`weigh`): held,
 * it makes the review NEEDS_DISCUSSION. A NO_GO that rested only on findings set aside becomes GO;
 * one with an earlier blocker back is never GO.
 */
export async function holdUp(
  deps: ReviewerDeps,
  input: VerifyInput & { state: LoopState },
  verdict: ReviewerVerdict,
  partOf: PartOf
): Promise<ReviewerVerdict> {
  const { threshold } = deps
  const unsettled = await unsettledEarlier(
    input.state,
    verdict,
    input.git,
    input.pull.headSha,
    deps
  )
  const dismissed = dismissedIds(input.state, input.pull.author)
  const n = lastIteration(input.state)?.n ?? 0
  // held, and nothing said on it since: still held, unless a maintainer dismissed it
  const stillHeld = unsettled
    .filter(e => e.stillHeld && !dismissed.has(e.finding.id))
    .map(e => stillOpen(e.finding, e.why, n, e.finding.verification))
  const earlier = unsettled.filter(e => !e.stillHeld)
  const blocking = verdict.findings.filter(
    f => f.source === 'ai' && !f.carried && atOrAbove(f.severity, threshold) && partOf(f)
  )
  // a finding one pass set aside and another raised with its evidence is judged as raised
  const raised = new Set(verdict.findings.map(f => f.id))
  const asideBefore = (verdict.setAside ?? []).filter(f => !raised.has(f.id))
  const mismatched = asideBefore.filter(
    f => f.verification?.by === 'evidence' && canHold(f, deps) && partOf(f)
  )
  const byId = await verifyQuestions(deps, input, partOf, [
    ...blocking.map(f => ({ kind: 'new' as const, finding: f })),
    ...mismatched.map(f => ({ kind: 'new' as const, finding: f, why: f.verification?.why })),
    ...earlier.map(e => ({ kind: 'earlier' as const, finding: e.finding, why: e.why }))
  ])
  const checked = verdict.findings.map(f => {
    const v = byId.get(f.id)
    return v && blocking.includes(f) ? { ...f, verification: v } : f
  })
  const rechecked = mismatched.map(f => afterMismatch(f, byId.get(f.id)))
  const { back, refutedEarlier } = earlierAfter(earlier, byId, n)
  const acts = (f: Finding) => f.verification?.blocks !== false
  const kept = [...checked.filter(acts), ...rechecked.filter(acts), ...back]
  // an earlier blocker back open is no longer set aside, under its id or reworded
  const isBack = (f: Finding) => back.some(b => b.id === f.id || sameProblem(f, b))
  const before = [
    ...asideBefore.filter(f => !mismatched.includes(f)),
    ...rechecked.filter(f => !acts(f)),
    ...checked.filter(f => !acts(f))
  ].filter(f => !isBack(f))
  const weighed = await weigh(deps, input, before, partOf, dismissed)
  const { aside } = weighed
  const held = [...stillHeld, ...weighed.held]
  const settled = decisionAfter(verdict, { kept, aside, held }, back.length > 0, threshold)
  return {
    ...verdict,
    decision: settled.decision,
    findings: [...kept, ...held],
    setAside: aside.length ? aside : undefined,
    ...(refutedEarlier.length ? { refutedEarlier } : {}),
    ...(settled.note ? { summary: `${verdict.summary}\n\n${settled.note}` } : {})
  }
}

/**
 * The earlier blockers asked about, once verified: back open unless the verifier refuted them; the
 * refuted ones are closed as refuted, with the verifier's reason.
 */
function earlierAfter(
  earlier: ReadonlyArray<{ finding: Finding; why: string }>,
  byId: ReadonlyMap<string, Verification>,
  n: number
): { back: Finding[]; refutedEarlier: RefutedEarlier[] } {
  const answered = earlier.map(e => ({ e, v: byId.get(e.finding.id) }))
  return {
    back: answered
      .filter(({ v }) => v?.status !== 'refuted')
      .map(({ e, v }) => stillOpen(e.finding, e.why, n, v && { ...v, blocks: true })),
    refutedEarlier: answered.flatMap(({ e, v }) =>
      v?.status === 'refuted' ? [{ id: e.finding.id, why: clip(v.why, 500) }] : []
    )
  }
}

/** Why a held finding did not hold up, in a few words. */
const NOT_HELD: Record<string, string> = {
  refuted: 'the verifier refuted it',
  uncertain: 'the verifier could not tell',
  outvoted: 'too few review passes raised it',
  unverified: 'its quote did not match the file'
}

/** What a person is told about findings the reviewer keeps against the verifier, the votes or the quote. */
function heldNote(held: readonly Finding[]): string {
  const named = held
    .slice(0, 3)
    .map(
      f =>
        `"${f.title}" (${f.id}, ${locationOf(f) ?? 'no location'}, ${f.severity}: ${NOT_HELD[f.verification?.status ?? 'unverified'] ?? 'set aside'})`
    )
    .join('; ')
  const more = held.length > 3 ? ` and ${held.length - 3} more` : ''
  return `The reviewer keeps ${plural(held.length, 'blocking finding')} that did not hold up, after seeing why: ${named}${more}. The signals disagree, so the loop does not act on it and does not say GO: a maintainer decides (dismiss, fix or approve; see the reason above).`
}

/**
 * The review's decision once only what held up blocks. A finding held (the reviewer keeps it against
 * the verifier, the votes or the quote) makes it NEEDS_DISCUSSION: a person decides. An earlier
 * blocker back makes it NO_GO. A NO_GO that rested only on findings set aside becomes GO when the
 * reviewer failed no criterion and reviewed everything; with failed criteria a human decides
 * (NEEDS_DISCUSSION): the fixer never acts on rework the findings behind it did not support.
 */
function decisionAfter(
  verdict: ReviewerVerdict,
  found: { kept: readonly Finding[]; aside: readonly Finding[]; held: readonly Finding[] },
  earlierBack: boolean,
  threshold: Severity
): { decision: Decision; note?: string } {
  const { kept, aside: setAside, held } = found
  if (held.length) return { decision: 'NEEDS_DISCUSSION', note: heldNote(held) }
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
