import { BUTTONS, buttonsFor } from '../loop/commands.js'
import { bySeverity, countBySeverity } from '../loop/findings.js'
import { isTerminal } from '../loop/state.js'
import {
  SEVERITIES,
  type Annotation,
  type Decision,
  type Finding,
  type LoopState,
  type LoopStatus,
  type Severity
} from '../loop/types.js'
import {
  renderFindings,
  renderLatestReview,
  renderNotActedOn,
  renderTimeline,
  statusLine
} from './comment.js'
import { plainField } from '../loop/untrusted.js'
import { escapeMd, SEVERITY_ICON, untrustedMarkdown, type RepoLinks } from './format.js'
import { renderMermaid } from './mermaid.js'

/** GitHub's limit for output.summary and output.text. */
export const CHECK_TEXT_LIMIT = 65_535

const LEVEL: Record<Severity, Annotation['level']> = {
  critical: 'failure',
  high: 'failure',
  medium: 'warning',
  low: 'warning',
  suggestion: 'notice'
}

/** Every located finding as an annotation on the diff; `reraised` ids say so in the title. */
export function toAnnotations(
  findings: readonly Finding[],
  reraised: ReadonlySet<string> = new Set()
): Annotation[] {
  return [...findings]
    .sort(bySeverity)
    .filter(f => f.file && f.line && f.line > 0)
    .map(f => {
      const endLine = f.endLine && f.endLine >= f.line! ? f.endLine : f.line!
      // GitHub takes columns only on an annotation of one line
      const columns =
        f.column && endLine === f.line
          ? {
              startColumn: f.column,
              endColumn: f.endColumn && f.endColumn >= f.column ? f.endColumn : f.column
            }
          : {}
      return {
        file: f.file!,
        startLine: f.line!,
        endLine,
        ...columns,
        level: LEVEL[f.severity],
        // annotations are plain text on GitHub: nothing hidden, nothing linked (`plainField`)
        title: plainField(
          `[${f.severity}]${reraised.has(f.id) ? ' [re-raised]' : ''} ${f.title}`
        ).slice(0, 255),
        message: plainField(f.description || f.title).slice(0, 60_000) || f.id,
        details: f.suggestedFix
          ? plainField(`Suggested fix:\n${f.suggestedFix}`).slice(0, 60_000)
          : undefined
      }
    })
}

/**
 * The review's decision and its findings by severity. A review's GO on which the loop ended
 * otherwise (`status`: its branch deleted) says the end, not GO.
 */
export function checkTitle(
  decision: Decision,
  findings: readonly Finding[],
  status?: LoopStatus
): string {
  if (decision === 'GO' && status && status !== 'go' && isTerminal(status))
    return `Not GO: the loop ended ${status} (see the summary)`
  if (findings.length === 0) return decision
  const counts = countBySeverity(findings)
  const parts = SEVERITIES.filter(s => counts[s] > 0).map(s => `${counts[s]} ${s}`)
  return `${decision}: ${findings.length} finding${findings.length === 1 ? '' : 's'} (${parts.join(', ')})`
}

/**
 * The check run's summary mirrors the comment: where the loop stands, its path, the timeline, the
 * open findings (with their evidence and how they held up) and those the review set aside.
 */
export function checkRunSummary(
  state: LoopState,
  findings: readonly Finding[],
  links: RepoLinks,
  note?: string,
  /** The PR's author, whose dismissals do not count. */
  author?: string,
  /** The findings the review did not act on (no annotation: the loop does not act on them). */
  setAside: readonly Finding[] = []
): string {
  return fit(
    [
      statusLine(state, links),
      state.reason ? `\n> ${escapeMd(state.reason)}` : '',
      note ? `\n> [!NOTE]\n> ${note}` : '',
      '',
      renderMermaid(state),
      '',
      renderTimeline(state, links),
      '',
      renderLatestReview(state),
      '',
      renderFindings(state, findings, links, {
        maxFindings: 100,
        details: false,
        descriptionChars: 0,
        evidence: true,
        author
      }),
      '',
      renderNotActedOn(state, { findings: setAside, links, max: 30, descriptionChars: 0 })
    ].join('\n')
  )
}

/** Findings with no location go in the check's text, since they cannot be annotations. */
export function unlocatedText(findings: readonly Finding[]): string | undefined {
  const unlocated = findings.filter(f => !(f.file && f.line))
  if (unlocated.length === 0) return undefined
  const parts = ['## Findings without a location', '']
  for (const f of [...unlocated].sort(bySeverity)) {
    parts.push(
      `### ${SEVERITY_ICON[f.severity]} ${escapeMd(f.title)}`,
      '',
      `\`${f.id}\` · ${f.severity} · ${escapeMd(f.source)}`,
      '',
      untrustedMarkdown(f.description.slice(0, 8000)),
      ''
    )
  }
  return fit(parts.join('\n'))
}

export function fit(text: string, limit = CHECK_TEXT_LIMIT - 100): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}\n\n… (cut; see the review artifact)`
}

/** The buttons that fit the loop's state, in GitHub's words (at most three). */
export function checkRunActions(
  status: LoopState['status']
): Array<{ label: string; description: string; identifier: string }> {
  return buttonsFor(status).map(id => ({ identifier: id, ...BUTTONS[id] }))
}

/**
 * How many workflow-command annotations of each level one step shows: the runner keeps the first 10
 * errors, 10 warnings and 10 notices of a step and only counts the rest (`_maxIssueCount` in
 * actions/runner's src/Runner.Worker/ExecutionContext.cs). Two of each are left to the action's own
 * messages (its notice, a warning, a failed step's error).
 */
export const STEP_ANNOTATIONS: Readonly<Record<Annotation['level'], number>> = {
  failure: 8,
  warning: 8,
  notice: 8
}

/** The annotations one step can show, most severe first, and how many are left out. */
export function stepAnnotations(annotations: readonly Annotation[]): {
  shown: Annotation[]
  left: number
} {
  const used: Record<Annotation['level'], number> = { failure: 0, warning: 0, notice: 0 }
  const shown = annotations.filter(a => used[a.level]++ < STEP_ANNOTATIONS[a.level])
  return { shown, left: annotations.length - shown.length }
}
