import type { Decision, Usage } from '../loop/types.js'
import { plainText } from '../loop/untrusted.js'
import { addUsage, zeroUsage } from '../loop/usage.js'
import { codeSpan, escapeMd, plural } from './format.js'

/**
 * A labelled issue's place: a file and its first and last line in the PR's tree; none for a label
 * with no place (a golden comment), which only the judge matches.
 */
export interface LabelledSpan {
  file?: string
  lines?: readonly [number, number]
}

/** Where a reviewer's finding points. */
export interface FindingPlace {
  file?: string
  line?: number
  endLine?: number
}

/** A finding and an issue said to be the same: by index into the case's findings and issues. */
export type Match = readonly [finding: number, issue: number]

/**
 * True when the finding names the issue's file and a line within its lines, `tolerance` lines
 * either side (a finding's own range counts when it overlaps). A finding without a line matches
 * no issue by place, nor does any finding an issue without a place.
 */
export function samePlace(issue: LabelledSpan, finding: FindingPlace, tolerance: number): boolean {
  if (!issue.file || !issue.lines) return false
  if (finding.file !== issue.file || finding.line === undefined) return false
  const end = Math.max(finding.line, finding.endLine ?? finding.line)
  return finding.line <= issue.lines[1] + tolerance && end >= issue.lines[0] - tolerance
}

/** Every (finding, issue) pair at the same place. */
export function placeMatches(
  issues: readonly LabelledSpan[],
  findings: readonly FindingPlace[],
  tolerance: number
): Match[] {
  return findings.flatMap((f, fi) =>
    issues.flatMap((issue, ii) => (samePlace(issue, f, tolerance) ? [[fi, ii] as const] : []))
  )
}

/**
 * A case's counts. An issue counts as found when any finding matches it. Each issue makes at most one
 * finding true: the findings and issues are paired one to one, as many pairs as the matches allow
 * (the reviewer's order breaks ties). A finding that matches only issues other findings are paired
 * with is a duplicate: it says something true but finds nothing more.
 */
export interface CaseCounts {
  findings: number
  trueFindings: number
  /** Findings that match an issue but are left unpaired: neither true nor false in precision. */
  duplicates: number
  issues: number
  foundIssues: number
}

export function countMatches(
  findings: number,
  issues: number,
  matches: readonly Match[]
): CaseCounts {
  const paired = pairs(findings, matches)
  const matching = new Set(matches.map(m => m[0]))
  return {
    findings,
    trueFindings: paired,
    duplicates: matching.size - paired,
    issues,
    foundIssues: new Set(matches.map(m => m[1])).size
  }
}

/** The most (finding, issue) pairs the matches allow, each finding and issue in one pair at most. */
function pairs(findings: number, matches: readonly Match[]): number {
  const issueOf = new Map<number, number>() // issue → its finding
  const options = (f: number) => matches.filter(m => m[0] === f).map(m => m[1])
  // Kuhn's augmenting paths: a finding takes a free issue, or one whose finding can move to another
  const place = (f: number, seen: Set<number>): boolean =>
    options(f).some(i => {
      if (seen.has(i)) return false
      seen.add(i)
      const holder = issueOf.get(i)
      if (holder !== undefined && !place(holder, seen)) return false
      issueOf.set(i, f)
      return true
    })
  let count = 0
  for (let f = 0; f < findings; f++) if (place(f, new Set())) count++
  return count
}

export type TestStatus = 'passed' | 'failed' | 'unavailable' | 'not run'

/** One case's result, as the table and the JSON give it. */
export interface EvalCaseResult extends CaseCounts {
  id: string
  language: string
  kind: 'bug' | 'clean'
  /** `error`: the run failed (named in `error`); `skipped`: not run (why in `error`: the budget, or stopped). */
  status: 'done' | 'error' | 'skipped'
  decision?: Decision
  /** How the loop ended, with --loop. */
  loopStatus?: string
  usage: Usage
  wallMs: number
  /** With --loop: the case's test on the PR before the loop and on the branch after it. */
  test?: { before: TestStatus; after: TestStatus }
  error?: string
}

export interface EvalSummary {
  cases: number
  done: number
  errors: number
  skipped: number
  findings: number
  trueFindings: number
  duplicates: number
  issues: number
  foundIssues: number
  /** True findings of the findings that are not duplicates. */
  precision?: number
  recall?: number
  f1?: number
  /** Clean cases the review did not pass (NO_GO or NEEDS_DISCUSSION), of the clean cases reviewed. */
  falseNoGo: { count: number; of: number; rate?: number }
  /** Bug cases the review passed (GO), of the bug cases reviewed. */
  missedGo: { count: number; of: number; rate?: number }
  /** With --loop: cases whose test failed before and passes after, of those whose test failed before and ran after. */
  fixed?: { count: number; of: number; rate?: number }
  /** With --loop: clean cases whose test passed before and fails after (the loop broke correct code). */
  broken?: { count: number; of: number }
  usage: Usage
  wallMs: number
}

const ratio = (count: number, of: number) => ({ count, of, rate: of ? count / of : undefined })

/** The overall figures: precision and recall over all findings and issues (micro-averaged). */
export function summarize(results: readonly EvalCaseResult[]): EvalSummary {
  const done = results.filter(r => r.status === 'done')
  const sum = (k: keyof CaseCounts) => done.reduce((s, r) => s + r[k], 0)
  const findings = sum('findings')
  const trueFindings = sum('trueFindings')
  const duplicates = sum('duplicates')
  const issues = sum('issues')
  const foundIssues = sum('foundIssues')
  // a duplicate is left out of precision: counted false it would call a true statement a false
  // alarm, counted true it would reward saying one thing twice
  const judged = findings - duplicates
  const precision = judged ? trueFindings / judged : undefined
  const recall = issues ? foundIssues / issues : undefined
  // a reviewer that finds none of the issues scores 0, whether it said anything or not
  const f1 =
    recall === 0
      ? 0
      : precision !== undefined && recall !== undefined
        ? precision + recall > 0
          ? (2 * precision * recall) / (precision + recall)
          : 0
        : undefined
  const reviewed = done.filter(r => r.decision)
  const clean = reviewed.filter(r => r.kind === 'clean')
  const bugs = reviewed.filter(r => r.kind === 'bug')
  const tested = done.filter(r => r.test)
  const failedBefore = tested.filter(
    r => r.test!.before === 'failed' && ['passed', 'failed'].includes(r.test!.after)
  )
  const passedBefore = tested.filter(r => r.kind === 'clean' && r.test!.before === 'passed')
  return {
    cases: results.length,
    done: done.length,
    errors: results.filter(r => r.status === 'error').length,
    skipped: results.filter(r => r.status === 'skipped').length,
    findings,
    trueFindings,
    duplicates,
    issues,
    foundIssues,
    precision,
    recall,
    f1,
    falseNoGo: ratio(clean.filter(r => r.decision !== 'GO').length, clean.length),
    missedGo: ratio(bugs.filter(r => r.decision === 'GO').length, bugs.length),
    ...(tested.length
      ? {
          fixed: ratio(
            failedBefore.filter(r => r.test!.after === 'passed').length,
            failedBefore.length
          ),
          broken: {
            count: passedBefore.filter(r => r.test!.after === 'failed').length,
            of: passedBefore.length
          }
        }
      : {}),
    usage: results.reduce((u, r) => addUsage(u, r.usage), zeroUsage()),
    wallMs: results.reduce((s, r) => s + r.wallMs, 0)
  }
}

/** `n noun(s)`, zero included. */
export const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`
const fixed2 = (n: number | undefined) => (n === undefined ? '–' : n.toFixed(2))
const pct = (r: { count: number; of: number; rate?: number }) =>
  r.rate === undefined ? '– (none)' : `${(r.rate * 100).toFixed(0)} % (${r.count} of ${r.of})`
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`
const money = (u: number) => `$${u.toFixed(u < 1 ? 4 : 2)}`
const tokenCount = (u: Usage) =>
  u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens

/** One line of the per-case table (and of the progress): fixed-width columns a terminal aligns. */
export function caseLine(r: EvalCaseResult, width: number): string {
  const what =
    r.status === 'skipped'
      ? `not run (${r.error ?? 'budget'})`
      : r.status === 'error'
        ? `error: ${plainText(r.error ?? '?')}`
        : [
            (r.decision ?? 'no verdict').padEnd(17),
            `${r.findings} found`.padEnd(9),
            r.kind === 'bug'
              ? `${r.trueFindings} true${r.duplicates ? ` (${r.duplicates} duplicate)` : ''}, ${r.foundIssues}/${r.issues} issues`
              : `${r.findings} false`,
            r.test ? `test ${r.test.before} → ${r.test.after}` : '',
            // a run that failed after its review, or a judge that failed: said beside the scores
            r.error ? `(${plainText(r.error)})` : ''
          ]
            .filter(Boolean)
            .join('  ')
  const cost =
    r.status === 'skipped'
      ? ''
      : `  ${tokenCount(r.usage)} tok  ${money(r.usage.costUsd)}  ${secs(r.wallMs)}`
  return `${r.id.padEnd(width)}  ${r.kind.padEnd(5)}  ${what}${cost}`
}

/** The overall figures as lines of text. */
export function summaryLines(s: EvalSummary, tolerance: number): string[] {
  const lines = [
    `Cases: ${s.done} of ${s.cases} run${s.errors ? `, ${plural(s.errors, 'error')}` : ''}${s.skipped ? `, ${s.skipped} not run` : ''}`,
    `Precision ${fixed2(s.precision)} (${s.trueFindings} of ${counted(s.findings - s.duplicates, 'finding')} match a labelled issue, ±${tolerance} lines${s.duplicates ? `; ${counted(s.duplicates, 'duplicate')} left out` : ''})`,
    `Recall    ${fixed2(s.recall)} (${s.foundIssues} of ${counted(s.issues, 'labelled issue')} found)`,
    `F1        ${fixed2(s.f1)}`,
    `False NO_GO on clean cases: ${pct(s.falseNoGo)}`,
    `GO on bug cases:            ${pct(s.missedGo)}`
  ]
  if (s.fixed)
    lines.push(
      `Fix rate: ${pct(s.fixed)} (the case's test failed before the loop and passes after)`
    )
  if (s.broken?.of)
    lines.push(`Clean cases whose test the loop broke: ${s.broken.count} of ${s.broken.of}`)
  lines.push(
    `Tokens ${tokenCount(s.usage)} (input ${s.usage.inputTokens}, output ${s.usage.outputTokens}, cache read ${s.usage.cacheReadTokens}, cache write ${s.usage.cacheWriteTokens}); cost ${money(s.usage.costUsd)}; time ${secs(s.wallMs)}`
  )
  return lines
}

/** What a report says about how it was run: shown above the scorecard's figures. */
export interface EvalRunFacts {
  dataset: string
  reviewModel: string
  judgeModel?: string
  judgeMode?: string
  context: string
  tolerance: number
  /** How many shards the figures sum, when more than one. */
  shards?: number
}

/** The scorecard as GitHub-flavoured Markdown for a job summary: the figures, then a row per case. */
export function scorecardMarkdown(
  s: EvalSummary,
  facts: EvalRunFacts,
  results: readonly EvalCaseResult[]
): string {
  const how = [
    `reviewer ${codeSpan(facts.reviewModel)}`,
    facts.judgeModel
      ? `judge ${codeSpan(facts.judgeModel)}${facts.judgeMode ? ` (${facts.judgeMode})` : ''}`
      : '',
    `context ${facts.context}`,
    facts.shards ? `${facts.shards} shards merged` : ''
  ].filter(Boolean)
  const rows = results.map(r => {
    const what =
      r.status === 'done'
        ? `${r.decision ?? 'no verdict'} | ${r.findings} | ${r.trueFindings} | ${r.duplicates} | ${r.foundIssues}/${r.issues}`
        : `${r.status === 'skipped' ? 'not run' : 'error'}: ${escapeMd(r.error ?? '')} | | | |`
    return `| ${escapeMd(r.id)} | ${r.kind} | ${what} | ${money(r.usage.costUsd)} |`
  })
  return [
    '## review-loop eval',
    '',
    `${escapeMd(facts.dataset)}: ${how.join(', ')}.`,
    '',
    '```text',
    ...summaryLines(s, facts.tolerance),
    '```',
    '',
    '| case | kind | verdict | findings | true | duplicates | issues found | cost |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    ''
  ].join('\n')
}
