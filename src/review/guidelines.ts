import type { Git } from '../ports/index.js'

export const GUIDELINE_FILES = ['.github/review-guidelines.md', 'REVIEW.md'] as const

/** The "Code Review Standards" section of a constitution file (any heading level, up to the next peer). */
export function reviewStandardsSection(markdown: string): string | undefined {
  const lines = markdown.split('\n')
  const start = lines.findIndex(l => /^#{1,6}\s+code review standards\s*$/i.test(l.trim()))
  if (start < 0) return undefined
  const level = /^(#+)/.exec(lines[start]!.trim())![1]!.length
  let end = lines.length
  for (let i = start + 1; i < lines.length; i++) {
    const m = /^(#+)\s/.exec(lines[i]!.trim())
    if (m && m[1]!.length <= level) {
      end = i
      break
    }
  }
  return lines.slice(start, end).join('\n').trim()
}

/**
 * The review guidelines, read from the PR's base commit so a PR cannot rewrite the rules it is
 * reviewed by: the `guidelines` input, else .github/review-guidelines.md, REVIEW.md, or the
 * "Code Review Standards" section of constitution.md.
 */
export async function loadGuidelines(
  git: Git,
  baseSha: string,
  configured: string | undefined
): Promise<{ source: string; text: string } | undefined> {
  if (configured) {
    const text = await git.show(baseSha, configured)
    if (text === undefined) {
      throw new Error(
        `Input 'guidelines': ${configured} does not exist on the base branch; give a path relative to the repository root.`
      )
    }
    return { source: configured, text }
  }
  for (const file of GUIDELINE_FILES) {
    const text = await git.show(baseSha, file)
    if (text !== undefined) return { source: file, text }
  }
  for (const file of ['constitution.md', '.github/constitution.md', 'docs/constitution.md']) {
    const text = await git.show(baseSha, file)
    const section = text && reviewStandardsSection(text)
    if (section) return { source: `${file} (Code Review Standards)`, text: section }
  }
  return undefined
}
