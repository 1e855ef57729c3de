import parseDiff from 'parse-diff'
import { describe, expect, it } from 'vitest'
import { decide } from '../../src/loop/rules.js'
import { planReview, splitHunk, unquote } from '../../src/review/batches.js'
import { owners } from '../../src/review/ai-reviewer.js'
import { ignoreMatcher } from '../../src/review/ignore.js'
import { mergeBatches, type BatchResult } from '../../src/review/merge.js'
import type { ReviewerVerdict } from '../../src/loop/types.js'
import { zeroUsage } from '../../src/loop/usage.js'
import { finding, reviewerVerdict } from './builders.js'

/** A real-looking unified diff of one new file with `lines` lines. */
function newFile(file: string, lines: number, width = 40): string {
  const body = Array.from({ length: lines }, (_, i) => `+${`line ${i + 1} `.padEnd(width, 'x')}`)
  return [
    `diff --git a/${file} b/${file}`,
    'new file mode 100644',
    'index 0000000..1111111',
    '--- /dev/null',
    `+++ b/${file}`,
    `@@ -0,0 +1,${lines} @@`,
    ...body,
    ''
  ].join('\n')
}

function modified(file: string, hunks: number, linesPerHunk: number): string {
  const out = [
    `diff --git a/${file} b/${file}`,
    'index 1111111..2222222 100644',
    `--- a/${file}`,
    `+++ b/${file}`
  ]
  for (let h = 0; h < hunks; h++) {
    const start = 1 + h * 100
    const body = Array.from({ length: linesPerHunk }, (_, i) =>
      i % 3 === 0 ? `-old ${h}.${i}` : i % 3 === 1 ? `+new ${h}.${i}` : ` same ${h}.${i}`
    )
    const old = body.filter(l => l[0] !== '+').length
    const now = body.filter(l => l[0] !== '-').length
    out.push(`@@ -${start},${old} +${start},${now} @@ function f${h}()`, ...body)
  }
  return `${out.join('\n')}\n`
}

const none = ignoreMatcher([])

describe('planning the review of a whole diff', () => {
  it('puts a small diff in one batch, whole', () => {
    const diff = newFile('src/a.js', 10) + newFile('src/b.js', 10)
    const plan = planReview(diff, { ignore: none, budgetChars: 10_000 })
    expect(plan.batches).toHaveLength(1)
    expect(plan.batches[0]!.files).toEqual(['src/a.js', 'src/b.js'])
    expect(plan.batches[0]!.text.length).toBe(diff.length)
  })

  it('leaves out nothing that is not ignored, and keeps folders together', () => {
    const files = [
      'lib/x.js',
      'src/core/a.js',
      'docs/b.md',
      'src/core/b.js',
      'lib/y.js',
      'src/c.js'
    ]
    const diff = files.map(f => newFile(f, 30)).join('')
    const plan = planReview(diff, { ignore: none, budgetChars: 3_000 })
    const inBatches = plan.batches.flatMap(b => b.files)
    expect([...inBatches].sort()).toEqual([...files].sort())
    for (const b of plan.batches) expect(b.text.length).toBeLessThanOrEqual(3_000)
    // path order: one folder's files follow each other
    expect(inBatches).toEqual([...files].sort())
    // every line of the diff is sent exactly once, in order
    expect(plan.batches.map(b => b.text).join('')).toBe(
      [...files]
        .sort()
        .map(f => newFile(f, 30))
        .join('')
    )
  })

  it('cuts a file larger than a batch by hunks, and a huge hunk by lines, with right line numbers', () => {
    const diff =
      newFile('src/small.js', 5) + modified('src/huge.js', 9, 60) + newFile('src/big.js', 400)
    const plan = planReview(diff, { ignore: none, budgetChars: 4_000 })
    const huge = plan.batches.filter(b => b.files.includes('src/huge.js'))
    expect(huge.length).toBeGreaterThan(1)
    for (const b of huge) expect(b.partial).toEqual(['src/huge.js'])
    for (const b of plan.batches) expect(b.text.length).toBeLessThanOrEqual(4_000)
    // the pieces, parsed again, hold every change of the file at its own line numbers
    const lines = (text: string) =>
      parseDiff(text).flatMap(f =>
        f.chunks.flatMap(c =>
          c.changes.map(ch => `${ch.type}:${ch.type === 'normal' ? ch.ln2 : ch.ln}:${ch.content}`)
        )
      )
    const original = lines(modified('src/huge.js', 9, 60))
    expect(huge.flatMap(b => lines(b.text))).toEqual(original)
    const big = plan.batches.filter(b => b.files.includes('src/big.js'))
    expect(big.flatMap(b => lines(b.text))).toEqual(lines(newFile('src/big.js', 400)))
  })

  it('splits one hunk into hunks whose headers give each line its own numbers', () => {
    const hunk = ['@@ -10,6 +10,6 @@ ctx', ' a', '-b', '+B', ' c', '-d', '+D', ' e', ' f', ''].join(
      '\n'
    )
    const parts = splitHunk(hunk, 120)
    expect(parts.length).toBeGreaterThan(1)
    const numbered = parts.flatMap(p =>
      parseDiff(`--- a/x\n+++ b/x\n${p}`)[0]!.chunks.flatMap(c =>
        c.changes.map(ch =>
          ch.type === 'normal' ? `${ch.ln1}/${ch.ln2}${ch.content}` : `${ch.ln}${ch.content}`
        )
      )
    )
    expect(numbered).toEqual([
      '10/10 a',
      '11-b',
      '11+B',
      '12/12 c',
      '13-d',
      '13+D',
      '14/14 e',
      '15/15 f'
    ])
  })

  it('marks a file unreviewable when one of its lines is longer than a part', () => {
    const bundle = newFile('web/bundle.js', 1, 5_000)
    const plan = planReview(bundle + newFile('src/a.js', 3), { ignore: none, budgetChars: 2_000 })
    expect(plan.batches.flatMap(b => b.files)).toEqual(['src/a.js'])
    expect(plan.files.find(f => f.path === 'web/bundle.js')!.unreviewable).toMatch(
      /longer than a review part/
    )
  })

  it('reads paths git quotes back as they are on disk', () => {
    expect(unquote('"q\\"uote.ts"')).toBe('q"uote.ts')
    expect(unquote('"caf\\303\\251.ts"')).toBe('café.ts')
    expect(unquote('"tab\\there.ts"')).toBe('tab\there.ts')
  })

  it('ignores lockfiles, dist/, vendored, minified and binary files by default, and lists them', () => {
    const binary = [
      'diff --git a/logo.png b/logo.png',
      'new file mode 100644',
      'index 0000000..1234567',
      'Binary files /dev/null and b/logo.png differ',
      ''
    ].join('\n')
    const diff = [
      newFile('package-lock.json', 50),
      newFile('dist/index.js', 50),
      newFile('vendor/lib/x.go', 5),
      newFile('web/app.min.js', 5),
      newFile('src/app.js', 5),
      binary
    ].join('')
    const plan = planReview(diff, { ignore: none, budgetChars: 100_000 })
    expect(plan.batches.flatMap(b => b.files)).toEqual(['src/app.js'])
    expect(plan.files.filter(f => f.ignored).map(f => [f.path, f.ignored])).toEqual([
      ['package-lock.json', 'glob'],
      ['dist/index.js', 'glob'],
      ['vendor/lib/x.go', 'glob'],
      ['web/app.min.js', 'glob'],
      ['logo.png', 'binary']
    ])
  })

  it('takes ignored files back with !, and ignores more with the input', () => {
    const ignore = ignoreMatcher(['!dist/**', 'docs/**'])
    expect(ignore('dist/index.js')).toBe(false)
    expect(ignore('docs/guide.md')).toBe(true)
    expect(ignore('yarn.lock')).toBe(true)
    expect(ignore('src/.hidden/a.js')).toBe(false)
    expect(ignore('a/b/node_modules/c.js')).toBe(true)
  })
})

const verdict = (over: Partial<ReviewerVerdict> = {}): ReviewerVerdict =>
  reviewerVerdict({ summary: 'fine', ...over })

describe('merging the batches into one verdict', () => {
  const diff = newFile('a/one.js', 40) + newFile('b/two.js', 40) + newFile('c/three.js', 40)
  const plan = planReview(diff, { ignore: none, budgetChars: 2_500 })
  const results = (...outcomes: BatchResult['outcome'][]): BatchResult[] =>
    plan.batches.map((batch, i) => ({ batch, outcome: outcomes[i]! }))
  const go = { kind: 'verdict' as const, verdict: verdict() }

  it('is GO only when every batch says GO, and counts what it covered', () => {
    expect(plan.batches).toHaveLength(3)
    const merged = mergeBatches(plan, results(go, go, go), 'medium', zeroUsage())
    expect(merged.decision).toBe('GO')
    expect(merged.coverage).toMatchObject({ files: 3, reviewed: 3, unreviewed: [], batches: 3 })
    const one = mergeBatches(
      plan,
      results(go, { kind: 'verdict', verdict: verdict({ decision: 'NO_GO' }) }, go),
      'medium',
      zeroUsage()
    )
    expect(one.decision).toBe('NO_GO')
    expect(one.summary).toMatch(/Part 2 \(b\/two.js\): NO_GO/)
  })

  it('is never GO when a batch failed: it names the files and why', () => {
    const merged = mergeBatches(
      plan,
      results(go, { kind: 'failed', error: 'overloaded (529)' }, go),
      'medium',
      zeroUsage()
    )
    expect(merged.decision).toBe('NEEDS_DISCUSSION')
    expect(merged.coverage).toMatchObject({ reviewed: 2, unreviewed: ['b/two.js'] })
    expect(merged.error).toMatch(
      /1 file\(s\) could not be reviewed \(b\/two.js\): part 2 of 3 \(b\/two.js\): overloaded \(529\)/
    )
    const blocking = mergeBatches(
      plan,
      results(
        {
          kind: 'verdict',
          verdict: verdict({ decision: 'NO_GO', findings: [finding({ severity: 'high' })] })
        },
        { kind: 'failed', error: 'timeout' },
        go
      ),
      'medium',
      zeroUsage()
    )
    expect(blocking.decision).toBe('NO_GO')
  })

  it('keeps the more severe of one finding raised by two batches', () => {
    const low = finding({ id: 'RL-same', severity: 'low' })
    const high = finding({ id: 'RL-same', severity: 'high' })
    const merged = mergeBatches(
      plan,
      results(
        { kind: 'verdict', verdict: verdict({ findings: [low] }) },
        { kind: 'verdict', verdict: verdict({ decision: 'NO_GO', findings: [high] }) },
        go
      ),
      'medium',
      zeroUsage()
    )
    expect(merged.findings).toEqual([high])
  })

  it('a decision with files nobody reviewed is not GO, even when what was seen passes', () => {
    const outcome = { reviewerDecision: 'GO' as const, findings: [], gatesPassed: true }
    expect(decide(outcome, 'medium')).toBe('GO')
    expect(decide({ ...outcome, unreviewed: 1 }, 'medium')).toBe('NEEDS_DISCUSSION')
    expect(
      decide({ ...outcome, unreviewed: 1, findings: [finding({ severity: 'high' })] }, 'medium')
    ).toBe('NO_GO')
  })
})

describe('which part answers on an earlier finding', () => {
  it('is the part whose hunks cover its line, for a file cut into pieces', () => {
    const diff = newFile('src/big.js', 300) + newFile('src/small.js', 5)
    const plan = planReview(diff, { ignore: none, budgetChars: 4_000 })
    const big = plan.batches.filter(b => b.files.includes('src/big.js'))
    expect(big.length).toBeGreaterThan(2)
    const last = big[big.length - 1]!
    const [from] = last.lines['src/big.js']![0]!
    const record = (file: string | undefined, line?: number) => ({
      id: `RL-${file}-${line}`,
      severity: 'high' as const,
      status: 'open' as const,
      since: 1,
      file,
      line
    })
    const earlier = new Map(
      [
        record('src/big.js', 2),
        record('src/big.js', from + 1),
        record('src/small.js', 1),
        record(undefined)
      ].map(r => [r.id, r])
    )
    const owned = owners(plan.batches, earlier)
    expect([...owned.get(big[0]!.index)!]).toEqual(['RL-src/big.js-2', 'RL-undefined-undefined'])
    expect([...owned.get(last.index)!]).toEqual([`RL-src/big.js-${from + 1}`])
    const small = plan.batches.find(b => b.files.includes('src/small.js'))!
    expect([...owned.get(small.index)!]).toEqual(['RL-src/small.js-1'])
  })
})
