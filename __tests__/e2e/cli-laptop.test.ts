import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { git } from '../../test-support/git-fixture.js'
import { cli, sampleRepo, TODO_CHECK, type CliWatch } from '../../test-support/local-cli.js'

const dirs: string[] = []

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

/**
 * The TODO check, which on the fixed tree (the second review) hangs: the loop is still running
 * when it is interrupted, whenever the interrupt comes after the fix commit.
 */
const HANGS_ONCE_FIXED =
  'todo: if grep -n TODO src/a.js | sed "s|^|src/a.js:|" | grep .; then exit 1; else sleep 120; fi'

/** Ctrl-C once the output holds `line`, after `before` (what the user did meanwhile). */
function ctrlCAfter(line: string, before: () => void = () => {}): CliWatch {
  let sent = false
  return {
    onOutput(out, ctrlC) {
      if (sent || !out.includes(line)) return
      sent = true
      before()
      ctrlC()
    }
  }
}

describe('npx review-loop on a laptop', () => {
  it('Ctrl-C after a fix commit brings the fix onto the branch, as a normal end does', async () => {
    const repo = sampleRepo(dirs)
    const r = await cli(
      ['--check', HANGS_ONCE_FIXED, '--fix', "sed -i '/TODO/d' src/a.js"],
      repo,
      {},
      ctrlCAfter('[1/3] fix: committed (1 file)')
    )
    expect(r.code).toBe(130)
    expect(git(repo, ['log', '--format=%s', '-1'])).toBe(
      'review-loop: address review (iteration 1)'
    )
    expect(readFileSync(path.join(repo, 'src/a.js'), 'utf8')).toBe('run()\n')
    expect(git(repo, ['status', '--porcelain'])).toBe('')
    expect(r.out).toContain(
      `Your branch feature is at ${git(repo, ['rev-parse', 'HEAD']).slice(0, 12)}, with the fixes.`
    )
  })

  it('Ctrl-C after a fix commit on a branch the user moved meanwhile: the branch is left, and the fix named', async () => {
    const repo = sampleRepo(dirs)
    let mine = ''
    const r = await cli(
      ['--check', HANGS_ONCE_FIXED, '--fix', "sed -i '/TODO/d' src/a.js"],
      repo,
      {},
      ctrlCAfter('[1/3] fix: committed (1 file)', () => {
        git(repo, ['commit', '-q', '--allow-empty', '-m', 'mine'])
        mine = git(repo, ['rev-parse', 'HEAD'])
      })
    )
    expect(r.code).toBe(130)
    expect(git(repo, ['rev-parse', 'HEAD'])).toBe(mine)
    expect(git(repo, ['status', '--porcelain'])).toBe('')
    // the commit, the ref it is kept at, and its patch with the command that applies it
    const ref = /git cherry-pick [0-9a-f]{12}\.\.(refs\/review-loop\/feature\/[0-9a-f]{12})/.exec(
      r.out
    )?.[1]
    expect(r.out).toMatch(
      /The fixes \(commit [0-9a-f]{40}\) were not brought onto feature: feature moved/
    )
    expect(git(repo, ['log', '--format=%s', '-1', ref!])).toBe(
      'review-loop: address review (iteration 1)'
    )
    const patch = /Apply with: git am (\S+fix-1\.patch)$/m.exec(r.out)?.[1]
    expect(patch && existsSync(patch)).toBe(true)
    git(repo, ['am', '-q', patch!])
    expect(readFileSync(path.join(repo, 'src/a.js'), 'utf8')).toBe('run()\n')
  })

  it('Ctrl-C while the fixes are being brought back at the end loses no fix', async () => {
    const repo = sampleRepo(dirs)
    // git as the user has it, except that the fetch that brings the fixes back gets a Ctrl-C
    // (the terminal's, sent to the whole group) the first time it starts
    const bin = mkdtempSync(path.join(os.tmpdir(), 'review-loop-git-'))
    dirs.push(bin)
    const realGit = execFileSync('sh', ['-c', 'command -v git']).toString().trim()
    writeFileSync(
      path.join(bin, 'git'),
      [
        '#!/bin/sh',
        `if [ "$1" = fetch ] && [ "$(pwd -P)" = "$(cd '${repo}' && pwd -P)" ] && [ ! -e '${bin}/sent' ]; then`,
        // to review-loop's process group, which the terminal's Ctrl-C reaches
        `  touch '${bin}/sent'; kill -INT -$(ps -o pgid= -p $PPID | tr -d ' ')`,
        'fi',
        `exec '${realGit}' "$@"`,
        ''
      ].join('\n'),
      { mode: 0o755 }
    )
    const r = await cli(
      ['--check', TODO_CHECK, '--fix', "sed -i '/TODO/d' src/a.js"],
      repo,
      { PATH: `${bin}:${process.env['PATH']}` },
      { onOutput: () => {} }
    )
    expect(existsSync(path.join(bin, 'sent'))).toBe(true)
    // the fix is on the branch: the Ctrl-C stopped neither the fetch nor the merge
    expect(git(repo, ['log', '--format=%s', '-1']), r.out + r.err).toBe(
      'review-loop: address review (iteration 1)'
    )
    expect(readFileSync(path.join(repo, 'src/a.js'), 'utf8')).toBe('run()\n')
  })

  it('Ctrl-C before any fix says the branch is as it was', async () => {
    const repo = sampleRepo(dirs)
    const head = git(repo, ['rev-parse', 'HEAD'])
    const r = await cli(
      ['--check', 'slow: echo started; sleep 120', '--dry-run', '--verbose'],
      repo,
      {},
      ctrlCAfter('notice: AI review is off')
    )
    expect(r.code).toBe(130)
    expect(git(repo, ['rev-parse', 'HEAD'])).toBe(head)
    expect(r.out).toContain('Interrupted: feature is as it was (no fix was committed).')
  })

  it("times a review with its checks, and prints no step's time as 0.0s", async () => {
    const repo = sampleRepo(dirs)
    const r = await cli(
      ['--check', 'slow: sleep 1.2', '--check', 'quick: true', '--dry-run', '--verbose'],
      repo
    )
    expect(r.out).not.toMatch(/\b0\.0s/)
    // the review's closing line counts its checks, which run before its group opens
    const review = /^── \[1\/1\] review [0-9a-f]{7}: done in (\d+\.\d)s$/m.exec(r.out)
    expect(Number(review?.[1])).toBeGreaterThanOrEqual(1.2)
  })

  it("speaks of the laptop: each iteration's records in a folder it names, no artifact, pull request or job", async () => {
    const repo = sampleRepo(dirs)
    const out = `${repo}-out`
    dirs.push(out)
    const r = await cli(
      ['--check', TODO_CHECK, '--fix', "sed -i '/TODO/d' src/a.js", '--out', out],
      repo
    )
    expect(r.out).toContain('review-loop: go')
    expect(r.out).toContain(
      `The comment, the check results and each iteration's records are in ${out}`
    )
    expect(readdirSync(path.join(out, 'records'))).toEqual(['iteration-1', 'iteration-2'])
    const comment = readFileSync(path.join(out, 'comment.md'), 'utf8')
    expect(comment).toContain(`Full reviews: \`${path.join(out, 'records/iteration-2')}\``)
    for (const text of [r.out, comment.replace(/^<!--.*-->$/m, '')])
      expect(text).not.toMatch(/artifact|pr-1|Re-run|the job|workflow/i)
  })
})
