import { createHash } from 'node:crypto'

/**
 * Normalises a finding title so cosmetic differences (case, spacing, line/column numbers that move
 * when code above changes) do not change the fingerprint.
 */
export function normaliseTitle(title: string): string {
  return title
    .toLowerCase()
    .replace(/\b(line|col|column|ln)\s*\d+/g, '$1')
    .replace(/\(\d+,\d+\)/g, '')
    .replace(/:\d+(:\d+)?/g, '')
    .replace(/\s+/g, ' ')
    .trim()
}

/** The nearest anchor of a finding: the code at its line, whitespace folded, so ids survive line shifts. */
export function normaliseAnchor(anchor: string | undefined): string {
  return (anchor ?? '').replace(/\s+/g, ' ').trim().slice(0, 200)
}

/**
 * Stable id of a finding: normalised title + file + nearest anchor (the text of the line it points
 * at). The same problem keeps its id across iterations even when lines move.
 */
export function fingerprint(input: {
  title: string
  file?: string
  anchor?: string
  /**
   * What tells this finding apart from another with the same normalised title, file and anchor
   * (its exact title, whose case may differ, and its rank among that title's findings on identical
   * lines: never its line number, which moves): hashed as it is. Without it, the id is the one it
   * always was.
   */
  distinct?: string
}): string {
  const hash = createHash('sha256')
    .update(normaliseTitle(input.title))
    .update('\0')
    .update(input.file ?? '')
    .update('\0')
    .update(normaliseAnchor(input.anchor))
  if (input.distinct !== undefined) hash.update('\0').update(input.distinct)
  return `RL-${hash.digest('hex').slice(0, 10)}`
}
