import { bySeverity } from '../loop/findings.js'
import { lastIteration } from '../loop/state.js'
import type { Finding, LoopState, ReviewResult } from '../loop/types.js'
import { headline } from './comment.js'
import {
  codeBlock,
  escapeMd,
  fileLink,
  SEVERITY_ICON,
  untrustedMarkdown,
  type RepoLinks
} from './format.js'
import { setAsideLine, verificationText } from './verification.js'
import { setAsideCounts } from '../loop/record.js'

/** review-N.md: the whole review, uncut, for the artifact. */
export function renderReviewMarkdown(
  state: LoopState,
  review: ReviewResult,
  links: RepoLinks
): string {
  const it = lastIteration(state)
  const parts = [headline(state), '', `Reviewed commit: ${it?.reviewedSha ?? ''}`, '']
  if (review.verdict) {
    const v = review.verdict
    parts.push('## Reviewer', '', `Decision: **${v.decision}**`, '', v.summary, '')
    if (v.error) parts.push(`Error: ${v.error}`, '')
    if (v.failedCriteria.length)
      parts.push('Failed criteria:', ...v.failedCriteria.map(c => `- ${c}`), '')
    if (v.passedCriteria.length)
      parts.push('Passed criteria:', ...v.passedCriteria.map(c => `- ${c}`), '')
    if (v.requiredRework.length)
      parts.push('Required rework:', ...v.requiredRework.map(c => `- ${c}`), '')
    if (v.dropped)
      parts.push(
        `${v.dropped} finding(s) were dropped: their file or line is not in the reviewed tree.`,
        ''
      )
  }
  parts.push('## Checks', '')
  for (const g of review.gates) {
    parts.push(
      `### ${g.passed ? '✅' : '❌'} ${g.name} (exit ${g.exitCode})`,
      '',
      '`' + g.command + '`',
      '',
      '```',
      g.outputTail,
      '```',
      ''
    )
  }
  parts.push(`## Findings (${review.findings.length})`, '')
  for (const f of [...review.findings].sort(bySeverity)) {
    const where =
      f.file && it ? fileLink(links, it.reviewedSha, f.file, f.line, f.endLine) : 'no location'
    parts.push(
      `### ${SEVERITY_ICON[f.severity]} ${f.title}`,
      '',
      `\`${f.id}\` · ${f.severity} · ${f.category} · ${f.source} · ${where}`,
      '',
      f.description,
      ''
    )
    parts.push(...heldUp(f))
    if (f.suggestedFix) parts.push('Suggested fix:', '', f.suggestedFix, '')
  }
  parts.push(...setAsideSection(review, links, it?.reviewedSha))
  return parts.join('\n')
}

/** A finding's evidence, whole, and how it held up: the verifier's word and places, its votes. */
function heldUp(f: Finding): string[] {
  const out: string[] = []
  if (f.evidence?.trim()) out.push('Evidence:', '', codeBlock(f.evidence.slice(0, 4000)), '')
  const held = verificationText(f, 4000)
  if (held) out.push(held, '')
  return out
}

/** The findings the review did not act on, each with its reason, evidence and description. */
function setAsideSection(
  review: ReviewResult,
  links: RepoLinks,
  sha: string | undefined
): string[] {
  const aside = [...(review.verdict?.setAside ?? [])].sort(bySeverity)
  if (aside.length === 0) return []
  const out = [`## Not acted on (${aside.length})`, '', setAsideLine(setAsideCounts(aside)), '']
  for (const f of aside) {
    const where = f.file && sha ? fileLink(links, sha, f.file, f.line, f.endLine) : 'no location'
    out.push(
      `### ${SEVERITY_ICON[f.severity]} ${escapeMd(f.title)}`,
      '',
      `\`${f.id}\` · ${f.severity} · ${f.category} · ${escapeMd(f.source)} · ${where}`,
      '',
      ...heldUp(f),
      untrustedMarkdown(f.description),
      ''
    )
  }
  return out
}
