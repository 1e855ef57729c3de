import { commandsFor } from '../loop/commands.js'
import { bySeverity, countBySeverity } from '../loop/findings.js'
import { renderStateMarker } from '../loop/state-comment.js'
import {
  filesChangedCount,
  lastIteration,
  resolvedCount,
  roundIterations,
  roundReviews,
  sameLogin
} from '../loop/state.js'
import { SEVERITIES, type Finding, type IterationRecord, type LoopState } from '../loop/types.js'
import {
  codeSpan,
  commitLink,
  duration,
  escapeMd,
  fileLink,
  fixLink,
  safeBlock,
  SEVERITY_ICON,
  STATUS_LABEL,
  tokens,
  usd,
  type RepoLinks
} from './format.js'
import { renderCoverage } from './coverage.js'
import { renderMermaid } from './mermaid.js'
import { evidenceBlock, renderSetAside, setAsideLine, verificationText } from './verification.js'

/** GitHub rejects comment bodies over 65,536 characters; we stay far below. */
export const COMMENT_LIMIT = 65_536
export const COMMENT_BUDGET = 60_000

export interface CommentExtras {
  /** People to mention when a human is needed. */
  mention?: string[]
  /** Where the full review lives (artifact name or folder). */
  artifact?: string
  /** Link to the uploaded artifact. */
  artifactUrl?: string
  /** The state-key secret that signs the state, when set. */
  stateKey?: string
  /** What the user must know about this run (PR code ran unsandboxed). */
  warnings?: readonly string[]
  /** The PR's author: their own dismissals are shown as not counting. */
  author?: string
  /** The review's findings it did not act on (`ReviewerVerdict.setAside`), each with its reason. */
  setAside?: readonly Finding[]
}

/** "iteration 2 of 3"; past the cap (a fork's PR, reviewed on each of its author's pushes) it says so. */
function iterationOf(state: LoopState): string {
  const n = roundReviews(state)
  const max = state.maxIterations
  return n > max ? `iteration ${n}, past the cap of ${max}` : `iteration ${n} of ${max}`
}

export function headline(state: LoopState): string {
  const last = lastIteration(state)
  const verdict = last?.decision ?? 'pending'
  const round = state.round > 1 ? ` (round ${state.round})` : ''
  return `## Review loop: ${state.status === 'running' ? verdict : STATUS_LABEL[state.status]} — ${iterationOf(state)}${round}`
}

export function statusLine(state: LoopState, links: RepoLinks): string {
  const last = lastIteration(state)
  const parts = [
    `**Status:** \`${state.status}\``,
    `**Verdict:** ${last?.decision ?? 'pending'}`,
    `**Cost so far:** ${usd(state.totals.costUsd)} (${tokens(state.totals).toLocaleString('en-US')} tokens)`
  ]
  if (last) parts.push(`**Reviewed:** ${commitLink(links, last.reviewedSha)}`)
  return parts.join(' · ')
}

function severityCounts(findings: ReadonlyArray<{ severity: Finding['severity'] }>): string {
  const counts = countBySeverity(findings)
  const parts = SEVERITIES.filter(s => counts[s] > 0).map(s => `${SEVERITY_ICON[s]}${counts[s]}`)
  return parts.length ? parts.join(' ') : '—'
}

function fixCell(links: RepoLinks, it: IterationRecord): string {
  if (!it.fix) return '—'
  const { outcome, commitSha } = it.fix
  const files = filesChangedCount(it.fix)
  if (outcome === 'pushed' && commitSha)
    return `${fixLink(links, commitSha)} (${files} file${files === 1 ? '' : 's'})`
  return outcome.replace('_', ' ')
}

export function renderTimeline(state: LoopState, links: RepoLinks, maxRows = 30): string {
  const rows = [
    '| # | reviewed | decision | open findings | fixed | disputed | fix | tokens | cost | time |',
    '|---|---|---|---|---|---|---|---|---|---|'
  ]
  const iterations = state.iterations.slice(-maxRows)
  if (iterations.length < state.iterations.length) {
    rows.push(
      `| … | ${state.iterations.length - iterations.length} earlier iterations in the artifacts | | | | | | | | |`
    )
  }
  for (const [i, it] of iterations.entries()) {
    const open = it.findings.filter(f => f.status === 'open')
    const gone = [
      it.gone?.length ? ` (+${it.gone.length} no longer raised)` : '',
      it.refuted?.length ? ` (+${it.refuted.length} refuted)` : ''
    ].join('')
    const disputed =
      it.findings.filter(f => f.status === 'disputed').length + (it.fix?.disputes.length ?? 0)
    rows.push(
      `| ${it.n}${it.round > 1 && it.round !== iterations[i - 1]?.round ? ` (round ${it.round})` : ''} | ${commitLink(links, it.reviewedSha)} | ${it.decision} | ${severityCounts(open)}${it.omitted ? ` +${it.omitted}` : ''} | ${resolvedCount(it)}${gone} | ${disputed} | ${fixCell(links, it)} | ${tokens(it.usage).toLocaleString('en-US')} | ${usd(it.usage.costUsd)} | ${duration(it.durationMs + (it.fix?.durationMs ?? 0))} |`
    )
  }
  return rows.join('\n')
}

interface FindingsOptions {
  maxFindings: number
  details: boolean
  descriptionChars: number
  /** The PR's author, whose dismissals do not count (see dismissedIds). */
  author?: string
  /** Each finding's evidence as code (default: with `details`). */
  evidence?: boolean
}

/** Open findings of the latest review, grouped by severity, each linked to its code. */
export function renderFindings(
  state: LoopState,
  findings: readonly Finding[],
  links: RepoLinks,
  opt: FindingsOptions
): string {
  const last = lastIteration(state)
  if (!last || findings.length === 0) return ''
  const since = new Map(last.findings.map(f => [f.id, f.since]))
  const reraised = new Set(last.findings.filter(f => f.reraised).map(f => f.id))
  const dismissed = new Map((state.dismissed ?? []).map(d => [d.id, d]))
  const sorted = [...findings].sort(bySeverity)
  const shown = sorted.slice(0, opt.maxFindings)
  const out = [`### Open findings (${findings.length})`]
  for (const severity of SEVERITIES) {
    const group = shown.filter(f => f.severity === severity)
    if (group.length === 0) continue
    out.push(
      '',
      `#### ${SEVERITY_ICON[severity]} ${severity} (${sorted.filter(f => f.severity === severity).length})`
    )
    for (const f of group) {
      const where = f.file
        ? fileLink(links, last.reviewedSha, f.file, f.line, f.endLine)
        : 'no location'
      const age = last.n - (since.get(f.id) ?? last.n) + 1
      const settled = dismissed.get(f.id)
      const why = settled?.reason ? `: ${escapeMd(settled.reason)}` : ''
      const status = !settled
        ? `open for ${age} iteration${age === 1 ? '' : 's'}`
        : opt.author !== undefined && sameLogin(settled.by, opt.author)
          ? `dismissed by @${settled.by}, the PR's author${why} (does not count: an author cannot dismiss their own PR's findings)`
          : `**dismissed** by @${settled.by}${why} (does not block)`
      out.push(
        `- **${escapeMd(f.title)}** — ${where} · \`${escapeMd(f.source)}\` · \`${f.id}\` · ${reraised.has(f.id) ? '**re-raised** after a fix · ' : ''}${status}`
      )
      const held = verificationText(f)
      if (held) out.push(`  ${held}`)
      const evidence = (opt.evidence ?? opt.details) ? evidenceBlock(f, '  ') : ''
      if (evidence) out.push(evidence)
      if (opt.details && (f.description || f.suggestedFix)) {
        const body = [f.description, f.suggestedFix ? `**Suggested fix:** ${f.suggestedFix}` : '']
          .filter(Boolean)
          .join('\n\n')
        // indented as a whole, so the block stays inside its list item
        const block = `<details><summary>Details</summary>\n\n${safeBlock(body, opt.descriptionChars)}\n\n</details>`
        out.push(block.replace(/^(?=.)/gm, '  '))
      }
    }
  }
  if (shown.length < sorted.length) {
    out.push(
      '',
      `… and ${sorted.length - shown.length} more in the review artifact and the job summary.`
    )
  }
  return out.join('\n')
}

/** Every finding the loop has seen, for the human it escalates to. */
export function renderHistory(state: LoopState, maxRows = 60): string {
  const seen = new Map<
    string,
    { title: string; severity: string; first: number; last: number; status: string }
  >()
  for (const it of state.iterations) {
    for (const f of it.findings) {
      const prev = seen.get(f.id)
      seen.set(f.id, {
        title: f.title ?? prev?.title ?? f.id,
        severity: f.severity,
        first: prev?.first ?? it.n,
        last: it.n,
        status: f.reraised ? `${f.status} (re-raised)` : f.status
      })
    }
    for (const id of it.resolved) {
      const prev = seen.get(id)
      if (prev) prev.status = 'fixed'
    }
    for (const id of it.gone ?? []) {
      const prev = seen.get(id)
      if (prev) prev.status = 'no longer raised'
    }
    for (const { id } of it.refuted ?? []) {
      const prev = seen.get(id)
      if (prev) prev.status = 'refuted'
    }
  }
  const rows = [...seen.entries()].slice(0, maxRows)
  if (rows.length === 0) return ''
  return [
    '<details><summary>Full history of findings</summary>',
    '',
    '| id | severity | title | seen in | status |',
    '|---|---|---|---|---|',
    ...rows.map(
      ([id, r]) =>
        `| \`${id}\` | ${r.severity} | ${escapeMd(r.title).slice(0, 150)} | ${r.first === r.last ? r.first : `${r.first}–${r.last}`} | ${r.status} |`
    ),
    seen.size > rows.length ? `\n… ${seen.size - rows.length} more in the artifacts.` : '',
    '</details>'
  ].join('\n')
}

/** How the comment and the check run show the findings the review did not act on. */
export interface SetAsideShown {
  findings: readonly Finding[]
  links: RepoLinks
  /** At most this many one by one. */
  max: number
  descriptionChars: number
}

/**
 * The findings the latest review did not act on: each with its reason when they are at hand, else
 * (a comment written outside a review) their count as the state keeps it.
 */
export function renderNotActedOn(state: LoopState, setAside?: SetAsideShown): string {
  const last = lastIteration(state)
  if (!last) return ''
  if (setAside?.findings.length)
    return renderSetAside(setAside.findings, setAside.links, last.reviewedSha, setAside)
  const counted = setAsideLine(last.setAside)
  return counted ? `**Not acted on:** ${counted}` : ''
}

/** What the latest review said: why it failed closed, its summary, failed criteria, dropped findings. */
export function renderLatestReview(state: LoopState): string {
  const last = lastIteration(state)
  if (!last) return ''
  const out = ['### Latest review', '']
  if (last.error) out.push(`> [!CAUTION]\n> ${escapeMd(last.error)}`, '')
  out.push(escapeMd(last.summary.slice(0, 1500)))
  const coverage = renderCoverage(last, state.reviewed)
  if (coverage.length) out.push('', ...coverage)
  if (last.failedCriteria?.length)
    out.push('', '**Failed criteria:**', ...last.failedCriteria.map(c => `- ${escapeMd(c)}`))
  if (last.dropped?.length)
    out.push(
      '',
      `**Dropped findings (${last.dropped.length}):** the action could not place them in ${last.reviewedSha.slice(0, 7)}, so they are not on the PR's lines.`,
      ...last.dropped.map(
        d => `- ${SEVERITY_ICON[d.severity]} ${escapeMd(d.title)} — ${escapeMd(d.why)}`
      )
    )
  out.push(...renderRefuted(state, last))
  return out.join('\n')
}

/** Earlier blockers this review closed as refuted (not fixed: nobody changed their code), with why. */
function renderRefuted(state: LoopState, last: IterationRecord): string[] {
  if (!last.refuted?.length) return []
  const titles = new Map(state.iterations.flatMap(it => it.findings.map(f => [f.id, f.title])))
  return [
    '',
    `**Closed as refuted (${last.refuted.length}):** earlier blockers at code nobody changed since, which the reviewer called gone and the verifier refuted; not counted as fixed.`,
    ...last.refuted.map(
      r =>
        `- \`${escapeMd(r.id)}\` ${escapeMd(titles.get(r.id) ?? '')} — 🚫 refuted by the verifier: ${escapeMd(r.why)}`
    )
  ]
}

/** What the last fixes of the round left out of their commits, and why (protected, links out). */
function renderLeftOut(round: readonly IterationRecord[]): string[] {
  const out: string[] = []
  const fixes = round.filter(it => it.fix?.leftOut?.length || it.fix?.revertedProtected.length)
  for (const it of fixes.slice(-3)) {
    const left =
      it.fix!.leftOut ??
      it.fix!.revertedProtected.map(p => ({ path: p, reason: 'it is protected' }))
    out.push('', `**Left out of the fix commit of iteration ${it.n}:**`)
    for (const l of left.slice(0, 10)) out.push(`- ${codeSpan(l.path)}: ${escapeMd(l.reason)}`)
    if (left.length > 10) out.push(`- … and ${left.length - 10} more (see the run's summary)`)
  }
  return out
}

/** The fixer's disputes with its reasons and the reviewer's answers, what its commit left out, and its closing summary. */
export function renderFixerVoice(state: LoopState): string {
  const round = roundIterations(state)
  const out: string[] = renderLeftOut(round)
  const disputed = round.filter(it => it.fix?.disputes.length).slice(-3)
  for (const it of disputed) {
    const next = round.find(r => r.n === it.n + 1)
    out.push('', `**Disputes of iteration ${it.n}:**`)
    for (const d of it.fix!.disputes.slice(0, 10)) {
      const answer = next?.answers?.find(a => a.id === d.id)
      const reply = answer
        ? ` — reviewer: ${answer.status.replace('_', ' ')}${answer.note ? `: ${escapeMd(answer.note)}` : ''}`
        : next
          ? next.findings.some(f => f.id === d.id)
            ? ' — reviewer: kept it'
            : ' — reviewer: dropped it'
          : state.status === 'running'
            ? ' — the next review weighs it'
            : ' — a human decides'
      out.push(`- \`${d.id}\`: ${escapeMd(d.reason).slice(0, 500)}${reply}`)
    }
  }
  const summarised = round.findLast(it => it.fix?.summary)
  if (summarised)
    out.push(
      '',
      `**Fixer's summary (iteration ${summarised.n}${summarised.fix!.stopReason ? `, stopped: ${summarised.fix!.stopReason}` : ''}):**`,
      '',
      safeBlock(summarised.fix!.summary!, 1500)
    )
  return out.length ? ['### The fixer', ...out].join('\n') : ''
}

/** The commands that fit the loop's state, as one line for people. */
export function whatYouCanDo(state: LoopState | undefined): string {
  const can = commandsFor(state)
  if (can.length === 0) return ''
  return `**What you can do:** comment ${can.map(c => `\`/review-loop ${c}\``).join(' · ')}`
}

/** The answer to `/review-loop status`: where the loop stands and what can be done. */
export function statusText(state: LoopState | undefined): string {
  if (!state) return `there is no review on this PR yet.\n\n${whatYouCanDo(undefined)}`
  const last = lastIteration(state)
  const open = (last?.findings ?? []).filter(f => f.status === 'open').length
  const round = state.round > 1 ? ` of round ${state.round}` : ''
  const lines = [
    `the loop is \`${state.status}\`: ${iterationOf(state)}${round}, verdict ${last?.decision ?? 'pending'}, ${open} open finding${open === 1 ? '' : 's'}, ${usd(state.totals.costUsd)} spent.`
  ]
  if (state.reason) lines.push('', `> ${escapeMd(state.reason)}`)
  const can = whatYouCanDo(state)
  if (can) lines.push('', can)
  return lines.join('\n')
}

/** The whole sticky comment: machine part, then the part for people, fitted under the size budget. */
export function renderComment(
  state: LoopState,
  findings: readonly Finding[],
  links: RepoLinks,
  extras: CommentExtras = {},
  budget = COMMENT_BUDGET
): string {
  const marker = renderStateMarker(state, extras.stateKey)
  // the findings set aside shrink with the rest: fewer, then without descriptions, then counted only
  const attempts: Array<FindingsOptions & { setAside: number; setAsideChars: number }> = [
    { maxFindings: 50, details: true, descriptionChars: 1500, setAside: 30, setAsideChars: 500 },
    { maxFindings: 30, details: true, descriptionChars: 500, setAside: 20, setAsideChars: 300 },
    { maxFindings: 30, details: false, descriptionChars: 0, setAside: 10, setAsideChars: 0 },
    { maxFindings: 10, details: false, descriptionChars: 0, setAside: 5, setAsideChars: 0 },
    { maxFindings: 0, details: false, descriptionChars: 0, setAside: 0, setAsideChars: 0 }
  ]
  for (const opt of attempts) {
    const body = [
      marker,
      renderHuman(
        state,
        findings,
        links,
        extras,
        { ...opt, author: extras.author },
        opt.maxFindings > 0
      )
    ].join('\n')
    if (body.length <= budget) return body
  }
  return [marker, headline(state), statusLine(state, links)].join('\n')
}

function renderHuman(
  state: LoopState,
  findings: readonly Finding[],
  links: RepoLinks,
  extras: CommentExtras,
  opt: FindingsOptions & { setAside: number; setAsideChars: number },
  withHistory: boolean
): string {
  const parts = [headline(state), '', statusLine(state, links)]
  if (state.reason) parts.push('', `> ${escapeMd(state.reason)}`)
  for (const warning of extras.warnings ?? [])
    parts.push('', `> [!WARNING]\n> ${escapeMd(warning)}`)
  if (extras.mention?.length) {
    parts.push(
      '',
      `**A human is needed:** ${extras.mention.map(m => `@${m}`).join(' ')} — please take a look.`
    )
  }
  parts.push('', renderMermaid(state), '', '### Timeline', '', renderTimeline(state, links))
  const latest = renderLatestReview(state)
  if (latest) parts.push('', latest)
  const open = renderFindings(state, findings, links, opt)
  if (open) parts.push('', open)
  const aside = renderNotActedOn(state, {
    findings: extras.setAside ?? [],
    links,
    max: opt.setAside,
    descriptionChars: opt.setAsideChars
  })
  if (aside) parts.push('', aside)
  const fixer = renderFixerVoice(state)
  if (fixer) parts.push('', fixer)
  // commands are comments on a pull request: a local run (no server) has none to take
  const can = links.serverUrl ? whatYouCanDo(state) : ''
  if (can) parts.push('', can)
  if (withHistory && state.status !== 'running' && state.status !== 'go')
    parts.push('', renderHistory(state))
  const footer = [
    extras.artifact
      ? extras.artifactUrl
        ? `Full review: [${escapeMd(extras.artifact)}](${extras.artifactUrl})`
        : // a local run's records are a folder on the machine, not an artifact
          `Full reviews: ${links.serverUrl ? 'artifact ' : ''}\`${escapeMd(extras.artifact)}\``
      : '',
    links.runUrl ? `[workflow run](${links.runUrl})` : '',
    'updated by review-loop'
  ].filter(Boolean)
  parts.push('', `<sub>${footer.join(' · ')}</sub>`)
  return parts.join('\n')
}
