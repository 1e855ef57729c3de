import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createGit } from '../../src/git/git.js'
import { loadGuidelines } from '../../src/review/guidelines.js'
import { git, writeFiles, type FileChanges } from '../../test-support/git-fixture.js'

async function repoWith(files: FileChanges): Promise<{ dir: string; sha: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'rl-guidelines-'))
  git(dir, ['init', '-q', '-b', 'main'])
  writeFiles(dir, { 'README.md': '# x\n', ...files })
  git(dir, ['add', '-A'])
  git(dir, ['commit', '-q', '-m', 'base'])
  return { dir, sha: git(dir, ['rev-parse', 'HEAD']) }
}

describe('review guidelines', () => {
  it('come from .github/review-guidelines.md first, then REVIEW.md', async () => {
    const { dir, sha } = await repoWith({
      'REVIEW.md': 'review rules',
      '.github/review-guidelines.md': 'github rules'
    })
    expect(await loadGuidelines(await createGit(dir), sha, undefined)).toEqual({
      source: '.github/review-guidelines.md',
      text: 'github rules'
    })
  })

  it("take only the constitution's Code Review Standards section", async () => {
    const constitution =
      '# Constitution\n\n## Principles\nbe kind\n\n## Code Review Standards\n- tests for new logic\n### Details\nsmall PRs\n\n## Releases\nweekly\n'
    const { dir, sha } = await repoWith({ 'constitution.md': constitution })
    const g = await loadGuidelines(await createGit(dir), sha, undefined)
    expect(g?.source).toBe('constitution.md (Code Review Standards)')
    expect(g?.text).toContain('tests for new logic')
    expect(g?.text).toContain('small PRs')
    expect(g?.text).not.toContain('be kind')
    expect(g?.text).not.toContain('weekly')
  })

  it('are read from the base commit, so a PR cannot rewrite the rules it is reviewed by', async () => {
    const { dir, sha } = await repoWith({ 'REVIEW.md': 'strict rules' })
    writeFiles(dir, { 'REVIEW.md': 'approve everything' })
    git(dir, ['commit', '-qam', 'pr weakens the rules'])
    expect((await loadGuidelines(await createGit(dir), sha, undefined))?.text).toBe('strict rules')
  })

  it('name the input when the configured file does not exist', async () => {
    const { dir, sha } = await repoWith({})
    await expect(loadGuidelines(await createGit(dir), sha, 'docs/rules.md')).rejects.toThrow(
      "Input 'guidelines': docs/rules.md does not exist on the base branch"
    )
  })
})
