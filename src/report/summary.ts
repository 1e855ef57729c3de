import { bySeverity } from '../loop/findings.js'
import type { Finding, LoopState } from '../loop/types.js'
import { headline, renderTimeline, statusLine } from './comment.js'
import { escapeMd, fileLink, SEVERITY_ICON, duration, type RepoLinks } from './format.js'
import { renderCoverage } from './coverage.js'
import { renderMermaid } from './mermaid.js'
import { setAsideLine, verificationText } from './verification.js'
import { setAsideCounts } from '../loop/record.js'

/** The job summary is capped at 1 MiB per step; this stays well below. */
const SUMMARY_BUDGET = 900_000

export interface SummaryInput {
  state: LoopState
  findings: readonly Finding[]
  /** The review's findings it did not act on (`ReviewerVerdict.setAside`). */
  setAside?: readonly Finding[]
  gates: ReadonlyArray<{ name: string; passed: boolean; exitCode: number; durationMs: number }>
  links: RepoLinks
  reviewSummary?: string
  artifact?: string
  notes: readonly string[]
}

/** A finding's title, and how it held up (the verifier's word, its votes) when it was checked. */
function findingCell(f: Finding): string {
  const held = verificationText(f, 200)
  return held ? `${escapeMd(f.title)}<br>${held}` : escapeMd(f.title)
}

/** The findings the review did not act on, counted by why, then one row each with its reason. */
function notActedOn(aside: readonly Finding[], links: RepoLinks, sha?: string): string[] {
  if (aside.length === 0) return []
  const out = [
    '',
    `### Not acted on (${aside.length})`,
    '',
    setAsideLine(setAsideCounts(aside)),
    ''
  ]
  out.push('| severity | location | finding | why | id |', '|---|---|---|---|---|')
  for (const f of [...aside].sort(bySeverity)) {
    const where = f.file && sha ? fileLink(links, sha, f.file, f.line, f.endLine) : '—'
    out.push(
      `| ${SEVERITY_ICON[f.severity]} ${f.severity} | ${where} | ${escapeMd(f.title)} | ${verificationText(f) || 'not verified'} | \`${f.id}\` |`
    )
  }
  return out
}

/** This iteration's review as a table people can scan, with the loop's path. */
export function renderJobSummary(input: SummaryInput): string {
  const { state, findings, links } = input
  const last = state.iterations[state.iterations.length - 1]
  const parts = [headline(state), '', statusLine(state, links)]
  if (state.reason) parts.push('', `> ${escapeMd(state.reason)}`)
  for (const note of input.notes) parts.push('', `> [!NOTE]\n> ${escapeMd(note)}`)
  parts.push('', renderMermaid(state))
  if (input.reviewSummary) parts.push('', '### Review summary', '', escapeMd(input.reviewSummary))
  if (last) {
    const coverage = renderCoverage(last, state.reviewed)
    if (coverage.length) parts.push('', '### Coverage', '', ...coverage)
  }
  if (input.gates.length) {
    parts.push('', '### Checks', '', '| check | result | exit | time |', '|---|---|---|---|')
    for (const g of input.gates) {
      parts.push(
        `| ${escapeMd(g.name)} | ${g.passed ? '✅ pass' : '❌ fail'} | ${g.exitCode} | ${duration(g.durationMs)} |`
      )
    }
  }
  parts.push('', `### Findings of this review (${findings.length})`, '')
  if (findings.length) {
    parts.push('| severity | location | finding | source | id |', '|---|---|---|---|---|')
    for (const f of [...findings].sort(bySeverity)) {
      const where =
        f.file && last ? fileLink(links, last.reviewedSha, f.file, f.line, f.endLine) : '—'
      parts.push(
        `| ${SEVERITY_ICON[f.severity]} ${f.severity} | ${where} | ${findingCell(f)} | ${escapeMd(f.source)} | \`${f.id}\` |`
      )
    }
  } else {
    parts.push('None.')
  }
  parts.push(...notActedOn(input.setAside ?? [], links, last?.reviewedSha))
  parts.push('', '### Timeline', '', renderTimeline(state, links))
  if (input.artifact)
    parts.push('', `Full review and fix records: artifact \`${escapeMd(input.artifact)}\`.`)
  let text = parts.join('\n')
  if (text.length > SUMMARY_BUDGET)
    text = `${text.slice(0, SUMMARY_BUDGET)}\n\n… (cut; see the artifact)`
  return text
}
