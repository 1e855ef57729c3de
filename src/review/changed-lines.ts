import parseDiff from 'parse-diff'
import type { IterationRecord, ReviewResult } from '../loop/types.js'
import type { Git } from '../ports/index.js'

/** A fix that deletes more than this share of a file's previous lines rewrote it. */
const REWRITE_SHARE = 0.5

/**
 * The lines (old side) the pushed fix of the previous iteration (in the head's history) changed in
 * the files its open findings cite: a finding gone from there was fixed, gone from elsewhere only no
 * longer raised. And the files it rewrote (deleted more than half of their lines, as a write_file of
 * the whole file does): there every line changed, so that says nothing about a finding.
 */
export async function fixedLines(
  git: Git,
  previous: IterationRecord,
  headSha: string
): Promise<Pick<ReviewResult, 'changedLines' | 'rewritten'>> {
  const files = [...new Set(previous.findings.flatMap(f => (f.file ? [f.file] : [])))]
  if (files.length === 0) return {}
  const ranges: Record<string, Array<[number, number]>> = {}
  const rewritten: string[] = []
  for (const file of parseDiff(await git.diff(previous.reviewedSha, headSha, files))) {
    const path = file.from && file.from !== '/dev/null' ? file.from : file.to
    if (!path) continue
    for (const chunk of file.chunks) {
      // the old side's lines the hunk replaced; a pure insertion touches the line before it
      const start = Math.max(1, chunk.oldStart)
      const end = Math.max(start, chunk.oldStart + chunk.oldLines - 1)
      ;(ranges[path] ??= []).push([start, end])
    }
    if (file.deletions > 0 && (await rewrote(git, previous.reviewedSha, path, file.deletions)))
      rewritten.push(path)
  }
  return { changedLines: ranges, ...(rewritten.length ? { rewritten } : {}) }
}

/** The fix deleted more than REWRITE_SHARE of the lines `path` had at `sha`. */
async function rewrote(git: Git, sha: string, path: string, deletions: number): Promise<boolean> {
  const before = await git.show(sha, path)
  if (before === undefined) return false
  const lines = before.split('\n').length - (before.endsWith('\n') ? 1 : 0)
  return lines > 0 && deletions > lines * REWRITE_SHARE
}
