import type { IterationRecord, ReviewedFiles } from '../loop/types.js'
import { codeSpan, escapeMd, plural } from './format.js'

const files = (n: number) => `${n} changed file${n === 1 ? '' : 's'}`

/** "Reviewed N of M changed files (K ignored)": the same words in the comment, check run and job summary. */
export function coverageLine(it: IterationRecord): string | undefined {
  const c = it.coverage
  if (!c) return undefined
  const reused = c.unchanged
    ? ` ${c.unchanged} of them reviewed in an earlier iteration and unchanged since${c.skipped ? ` (${c.skipped} part${c.skipped === 1 ? '' : 's'} not sent again)` : ''}.`
    : ''
  return `Reviewed ${c.reviewed} of ${files(c.files)} (${c.ignored} ignored)${c.batches > 1 ? ` in ${c.batches} parts` : ''}.${reused}`
}

/** At most this many paths are listed per iteration. */
const LISTED = 200

/**
 * Which iteration reviewed each file at its current content (incremental-review), folded: the
 * files sent in this one, then those of earlier iterations, unchanged since.
 */
function reviewedWhen(it: IterationRecord, reviewed: ReviewedFiles): string[] {
  const byIteration = new Map<number, string[]>()
  for (const [path, entry] of Object.entries(reviewed.files)) {
    const n = Number(entry.split(':')[0])
    if (n <= it.n) byIteration.set(n, [...(byIteration.get(n) ?? []), path])
  }
  const lines = [...byIteration]
    .sort(([a], [b]) => b - a)
    .map(([n, paths]) => {
      const when = n === it.n ? 'in this iteration' : `in iteration ${n}, unchanged since`
      const listed = paths.sort().slice(0, LISTED)
      const more = paths.length > listed.length ? ` and ${paths.length - listed.length} more` : ''
      return `- ${when} (${plural(paths.length, 'file')}): ${code(listed)}${more}`
    })
  const total = [...byIteration.values()].reduce((sum, p) => sum + p.length, 0)
  return [
    '',
    `<details><summary>Reviewed at their current content (${plural(total, 'file')})</summary>\n\n${lines.join('\n')}\n\n</details>`
  ]
}

const code = (paths: readonly string[]) => paths.map(codeSpan).join(', ')

/**
 * What an iteration's review covered, as Markdown: the line above, the files nobody reviewed and why
 * (a warning: the verdict cannot be GO), which iteration reviewed each file when a review sent only
 * some parts (folded), the files ignored by design (folded), and the checks whose
 * problems were more than the findings kept.
 */
export function renderCoverage(it: IterationRecord, reviewed?: ReviewedFiles): string[] {
  const out: string[] = []
  const c = it.coverage
  const line = coverageLine(it)
  if (c && line) {
    out.push(`**Coverage:** ${line}`)
    const missing = (c.unreviewed?.length ?? 0) + (c.unreviewedOmitted ?? 0)
    if (missing)
      out.push(
        '',
        `> [!WARNING]\n> **Not reviewed (${missing}), so this review cannot be GO:** ${code(c.unreviewed ?? [])}${c.unreviewedOmitted ? ` and ${c.unreviewedOmitted} more` : ''}.${(c.failures ?? []).map(f => `\n> - ${escapeMd(f)}`).join('')}`
      )
    if (c.unchanged && reviewed) out.push(...reviewedWhen(it, reviewed))
    if (c.ignoredFiles?.length)
      out.push(
        '',
        `<details><summary>Ignored (${c.ignored}): not sent to the reviewer</summary>\n\n${code(c.ignoredFiles)}${c.ignored > c.ignoredFiles.length ? ` and ${c.ignored - c.ignoredFiles.length} more` : ''}\n\n</details>`
      )
  }
  for (const g of it.gates)
    if (g.problems !== undefined && g.kept !== undefined && g.problems > g.kept)
      out.push(
        '',
        `Check ${codeSpan(g.name)} printed ${g.problems} located problems; the ${g.kept} most severe are findings, the rest are in its output.`
      )
  return out
}
