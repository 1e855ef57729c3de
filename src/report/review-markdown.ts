import { bySeverity } from '../loop/findings.js'
import { lastIteration } from '../loop/state.js'
import type { LoopState, ReviewResult } from '../loop/types.js'
import { headline } from './comment.js'
import { fileLink, SEVERITY_ICON, type RepoLinks } from './format.js'

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
    if (f.suggestedFix) parts.push('Suggested fix:', '', f.suggestedFix, '')
  }
  return parts.join('\n')
}
