import { bySeverity } from '../loop/findings.js'
import { setAsideCounts } from '../loop/record.js'
import type { Finding, SetAsideCounts, SetAsideStatus } from '../loop/types.js'
import {
  codeBlock,
  escapeMd,
  fileLink,
  htmlText,
  plural,
  safeBlock,
  SEVERITY_ICON,
  type RepoLinks
} from './format.js'

/** Why a finding was set aside, as the count line says it: one finding, several. */
const REASON: Record<SetAsideStatus, readonly [string, string]> = {
  unverified: ['quotes code that is not in the file', 'quote code that is not in the file'],
  refuted: ['refuted by the verifier', 'refuted by the verifier'],
  uncertain: ['left uncertain by the verifier', 'left uncertain by the verifier'],
  outvoted: ['raised by too few review passes', 'raised by too few review passes']
}
const ORDER: readonly SetAsideStatus[] = ['unverified', 'refuted', 'uncertain', 'outvoted']

const ICON: Record<Finding['severity'] | SetAsideStatus | 'confirmed', string> = {
  ...SEVERITY_ICON,
  confirmed: '✅',
  refuted: '🚫',
  uncertain: '❔',
  unverified: '🔍',
  outvoted: '🗳️'
}

/** How many findings were set aside, and why: "1 quotes code that is not in the file, 2 refuted by the verifier". */
export function setAsideWhy(counts: SetAsideCounts | undefined): { total: number; why: string } {
  const parts = ORDER.filter(s => (counts?.[s] ?? 0) > 0).map(
    s => `${counts![s]} ${REASON[s][counts![s] === 1 ? 0 : 1]}`
  )
  const total = ORDER.reduce((sum, s) => sum + (counts?.[s] ?? 0), 0)
  return { total, why: parts.join(', ') }
}

/** "3 findings were not acted on: 1 quotes code that is not in the file, 2 refuted by the verifier." */
export function setAsideLine(counts: SetAsideCounts | undefined): string {
  const { total, why } = setAsideWhy(counts)
  if (total === 0) return ''
  return `${total} finding${total === 1 ? ' was' : 's were'} not acted on: ${why}.`
}

/** The verifier's places, `file:line`, as code. */
function citedText(f: Finding): string {
  const cited = (f.verification?.cited ?? []).slice(0, 5)
  if (cited.length === 0) return ''
  const more = (f.verification?.cited?.length ?? 0) - cited.length
  return ` (read ${cited.map(c => escapeMd(c.line ? `${c.file}:${c.line}` : c.file)).join(', ')}${more > 0 ? ` and ${more} more` : ''})`
}

/** How a finding held up, in one line of Markdown: the verifier's word, its votes. Empty if nothing. */
export function verificationText(f: Finding, whyChars = 300): string {
  const parts: string[] = []
  const v = f.verification
  if (v) {
    const why = v.why ? `: ${escapeMd(v.why.slice(0, whyChars))}` : ''
    const said =
      v.status === 'confirmed'
        ? `confirmed by the verifier${why}`
        : v.unverifiable
          ? `could not be verified${why} (it blocks as raised)`
          : v.status === 'uncertain'
            ? `the verifier could not tell${why}${v.blocks ? ' (blocks: block-uncertain is on)' : ''}`
            : `${REASON[v.status][0]}${why}`
    parts.push(`${ICON[v.status]} ${said}${citedText(f)}`)
  }
  if (f.votes && f.votes.passes > 1)
    parts.push(`raised by ${f.votes.count} of ${f.votes.passes} passes`)
  const again = v?.reconsidered
  if (again) {
    const words = `: ${escapeMd(again.why.slice(0, whyChars))}`
    parts.push(
      again.kept
        ? `the reviewer keeps it after seeing why${words}`
        : `withdrawn by the reviewer after seeing why${words}`
    )
  }
  if (v?.held)
    parts.push(
      '⚖️ **held for a person**: the signals disagree, so it holds GO and the loop does not fix it; dismiss it, `/review-loop fix` it, or approve'
    )
  return parts.join(' · ')
}

/** The first lines of a finding's evidence (at most `lines`, each cut to `chars`), as code. */
export function evidenceBlock(f: Finding, indent = '', lines = 2, chars = 200): string {
  const quoted = (f.evidence ?? '').split(/\r?\n/).filter(l => l.trim())
  if (quoted.length === 0) return ''
  const shown = quoted.slice(0, lines).map(l => (l.length > chars ? `${l.slice(0, chars)}…` : l))
  const left = quoted.length - shown.length
  const more = left ? `\n${indent}… ${plural(left, 'more line')}` : ''
  return `${codeBlock(shown.join('\n'), indent)}${more}`
}

/** A set-aside finding's place, its id and severity, as Markdown. */
function placeOf(f: Finding, links: RepoLinks, sha: string | undefined): string {
  const where = f.file && sha ? fileLink(links, sha, f.file, f.line, f.endLine) : 'no location'
  return `${where} · ${f.severity} · \`${escapeMd(f.id)}\``
}

export interface SetAsideOptions {
  /** At most this many shown one by one; the count line counts them all. */
  max: number
  /** Characters of each description shown (0: none). */
  descriptionChars: number
}

/**
 * The findings the loop does not act on: the count line, then each with its reason. Those the
 * verifier could not tell are shown open (a human may want to look); the others are collapsed.
 */
export function renderSetAside(
  findings: readonly Finding[],
  links: RepoLinks,
  sha: string | undefined,
  opt: SetAsideOptions
): string {
  if (findings.length === 0) return ''
  const sorted = [...findings].sort(bySeverity)
  const shown = sorted.slice(0, opt.max)
  const out = [`### Not acted on (${findings.length})`, '', setAsideLine(setAsideCounts(findings))]
  const uncertain = shown.filter(f => f.verification?.status === 'uncertain')
  if (uncertain.length) out.push('')
  for (const f of uncertain) {
    out.push(
      `- ${ICON.uncertain} **${escapeMd(f.title)}** — ${placeOf(f, links, sha)} · ${verificationText(f)}`
    )
    const evidence = evidenceBlock(f, '  ')
    if (evidence) out.push(evidence)
  }
  for (const f of shown.filter(f => f.verification?.status !== 'uncertain')) {
    const status = f.verification?.status
    const reason = status && status !== 'confirmed' ? REASON[status][0] : REASON.unverified[0]
    const body = [
      placeOf(f, links, sha),
      verificationText(f) || reason,
      evidenceBlock(f),
      opt.descriptionChars && f.description ? safeBlock(f.description, opt.descriptionChars) : ''
    ].filter(Boolean)
    out.push(
      '',
      `<details><summary>${ICON[status ?? 'unverified']} ${htmlText(f.title.slice(0, 200))} — ${reason}</summary>`,
      '',
      body.join('\n\n'),
      '',
      '</details>'
    )
  }
  if (shown.length < sorted.length)
    out.push('', `… and ${sorted.length - shown.length} more in the review artifact.`)
  return out.join('\n')
}
