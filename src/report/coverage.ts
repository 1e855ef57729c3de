import type { IterationRecord } from '../loop/types.js'
import { codeSpan, escapeMd } from './format.js'

const files = (n: number) => `${n} changed file${n === 1 ? '' : 's'}`

/** "Reviewed N of M changed files (K ignored)": the same words in the comment, check run and job summary. */
export function coverageLine(it: IterationRecord): string | undefined {
  const c = it.coverage
  if (!c) return undefined
  return `Reviewed ${c.reviewed} of ${files(c.files)} (${c.ignored} ignored)${c.batches > 1 ? ` in ${c.batches} parts` : ''}.`
}

const code = (paths: readonly string[]) => paths.map(codeSpan).join(', ')

/**
 * What an iteration's review covered, as Markdown: the line above, the files nobody reviewed and why
 * (a warning: the verdict cannot be GO), the files ignored by design (folded), and the checks whose
 * problems were more than the findings kept.
 */
export function renderCoverage(it: IterationRecord): string[] {
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
