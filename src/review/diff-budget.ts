import parseDiff from 'parse-diff'

export interface DiffSelection {
  /** The diff text given to the reviewer. */
  text: string
  files: Array<{
    path: string
    additions: number
    deletions: number
    isNew: boolean
    included: boolean
  }>
  /** Characters of the full diff. */
  totalChars: number
}

/**
 * Full diff under the budget; over it, whole per-file diffs in order of size (smallest first, so
 * more files are seen whole) until the budget is spent, and the rest listed by name and size.
 */
export function selectDiff(diff: string, budgetChars: number): DiffSelection {
  const parsed = parseDiff(diff)
  const chunks = splitPerFile(diff)
  const files = parsed.map((f, i) => ({
    path: (f.to && f.to !== '/dev/null' ? f.to : f.from) ?? `file-${i}`,
    additions: f.additions,
    deletions: f.deletions,
    isNew: f.new === true,
    text: chunks[i] ?? ''
  }))
  if (diff.length <= budgetChars) {
    return {
      text: diff,
      files: files.map(f => ({ ...strip(f), included: true })),
      totalChars: diff.length
    }
  }
  const order = [...files].sort((a, b) => a.text.length - b.text.length)
  const included = new Map<string, string>()
  let used = 0
  for (const f of order) {
    if (used + f.text.length > budgetChars) continue
    used += f.text.length
    included.set(f.path, f.text)
  }
  // the budget left over goes to the start of the smallest files that did not fit whole
  for (const f of order) {
    const left = budgetChars - used
    if (included.has(f.path) || left < 2000) continue
    const cut = f.text.slice(0, f.text.lastIndexOf('\n', left - 200) + 1)
    used += cut.length
    included.set(
      f.path,
      `${cut}# … the diff of ${f.path} is cut here: ${cut.length} of ${f.text.length} characters shown\n`
    )
  }
  const omitted = files.filter(f => !included.has(f.path))
  const text = [
    ...files.filter(f => included.has(f.path)).map(f => included.get(f.path)!),
    omitted.length
      ? `\n# ${omitted.length} file(s) left out of this diff to fit the review budget:\n${omitted.map(f => `#   ${f.path} (+${f.additions} -${f.deletions})`).join('\n')}\n`
      : ''
  ].join('')
  return {
    text,
    files: files.map(f => ({ ...strip(f), included: included.has(f.path) })),
    totalChars: diff.length
  }
}

type FileInfo = DiffSelection['files'][number]

function strip(f: Omit<FileInfo, 'included'> & { text?: string }): Omit<FileInfo, 'included'> {
  return { path: f.path, additions: f.additions, deletions: f.deletions, isNew: f.isNew }
}

function splitPerFile(diff: string): string[] {
  const parts = diff.split(/^(?=diff --git )/m)
  return parts.filter(p => p.startsWith('diff --git '))
}
