import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { readGateOutput } from '../../src/gates/run-gates.js'
import { decodeState } from '../../src/loop/state-comment.js'
import { compactState } from '../../src/loop/state-compact.js'
import { renderComment, COMMENT_LIMIT } from '../../src/report/comment.js'
import { iteration, state } from './builders.js'

const links = { serverUrl: 'https://github.com', owner: 'acme', repo: 'widgets', pr: 7 }

describe('limits that protect the loop', () => {
  it('never lets a passing check block GO: its located lines are warnings', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'rl-limits-'))
    writeFileSync(path.join(root, 'a.ts'), 'old()\n')
    const output = 'a.ts:1: error: old() is deprecated\n'
    const findings = readGateOutput(
      { name: 'lint', command: '' },
      { exitCode: 0, stdout: output, output, timedOut: false },
      { repoRoot: root, cwd: root }
    ).findings
    expect(findings.map(f => [f.file, f.severity])).toEqual([['a.ts', 'low']])
  })

  it('reads 150,000 identical located lines (and 150,000 distinct ones) without overflowing the stack', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'rl-limits-'))
    writeFileSync(path.join(root, 'a.js'), 'one()\n'.repeat(10))
    const read = (output: string) =>
      readGateOutput(
        { name: 'flood', command: '' },
        { exitCode: 1, stdout: output, output, timedOut: false },
        { repoRoot: root, cwd: root }
      )
    const same = read('a.js:1:1: error: same\n'.repeat(150_000))
    expect(same.problems).toBe(150_000)
    expect(same.findings.map(f => [f.file, f.line, f.title])).toEqual([['a.js', 1, 'flood: same']])
    const distinct = read(
      Array.from({ length: 150_000 }, (_, i) => `a.js:${(i % 10) + 1}:1: error: e${i}`).join('\n')
    )
    expect(distinct.problems).toBe(150_000)
    expect(distinct.findings).toHaveLength(100)
  })

  it('keeps a comment under the limit and readable after 4,000 resolved findings and 2,000 reverted paths', () => {
    const ids = Array.from({ length: 4000 }, (_, i) => `RL-${String(i).padStart(10, '0')}`)
    const paths = Array.from({ length: 2000 }, (_, i) => `dist/generated/chunk-${i}.js`)
    const big = state({
      iterations: [
        iteration({
          n: 1,
          fix: {
            outcome: 'pushed',
            commitSha: 'a'.repeat(40),
            filesChanged: paths,
            commands: [],
            disputes: [],
            revertedProtected: paths,
            durationMs: 1
          }
        }),
        iteration({ n: 2, reviewedSha: 'b'.repeat(40), resolved: ids })
      ]
    })
    const body = renderComment(compactState(big), [], links)
    expect(body.length).toBeLessThan(COMMENT_LIMIT)
    const decoded = decodeState(body)
    expect(decoded.kind).toBe('ok')
    // the counts people read stay true although the lists were shortened
    expect(body).toMatch(/\| 2 \| \[`bbbbbbb`\][^\n]*\| 4000 \|/)
    expect(body).toContain('(2000 files)')
  })
})
