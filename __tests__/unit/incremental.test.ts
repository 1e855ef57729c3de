/**
 * Issue 29's pure pieces: which parts a later review sends (chooseParts), what the review stands on
 * afterwards (contentOf, reviewedFiles), how the state keeps it (schema, compactState), and how the
 * comment and check run say which iteration reviewed each file.
 */
import { describe, expect, it } from 'vitest'
import { appendReview, reviewedFiles } from '../../src/loop/record.js'
import { compactState, STATE_JSON_BUDGET } from '../../src/loop/state-compact.js'
import { checkState } from '../../src/loop/state-schema.js'
import type { ReviewedContent, ReviewedFiles } from '../../src/loop/types.js'
import { checkRunSummary } from '../../src/report/check-run.js'
import { renderCoverage } from '../../src/report/coverage.js'
import { readDiff, type Batch, type ReviewPlan } from '../../src/review/batches.js'
import {
  chooseParts,
  contentOf,
  headContent,
  importersOf,
  NO_BLOB,
  mustAnswer,
  settingsDigest,
  type ChoiceInput
} from '../../src/review/incremental.js'
import type { GrepHit } from '../../src/ports/index.js'
import { BASE, finding, iteration, reviewed, state } from './builders.js'

const SETTINGS = '0123456789abcdef'
const OTHER_BASE = 'f'.repeat(40)
/** A blob id per file, and another one for its changed content. */
const blob = (file: string, version = 1): string =>
  `${version}${[...file].map(c => c.charCodeAt(0).toString(16)).join('')}`
    .padEnd(40, '0')
    .slice(0, 40)

function batch(index: number, files: string[], partial: string[] = []): Batch {
  return { index, files, partial, lines: {}, text: '' }
}

/**
 * Three parts: a.ts and b.ts; c.ts and the first hunks of big.ts; the rest of big.ts. Every file
 * reviewed clean in iteration 1 at its blob.
 */
const PLAN: ReviewPlan = {
  files: [],
  batches: [
    batch(1, ['a.ts', 'b.ts']),
    batch(2, ['c.ts', 'big.ts'], ['big.ts']),
    batch(3, ['big.ts'], ['big.ts'])
  ]
}
const FILES = ['a.ts', 'b.ts', 'c.ts', 'big.ts']
const BLOBS = new Map(FILES.map(f => [f, blob(f)]))
const PREVIOUS: ReviewedFiles = {
  base: BASE,
  settings: SETTINGS,
  files: Object.fromEntries(FILES.map(f => [f, `1:${blob(f)}`]))
}

function choose(over: Partial<ChoiceInput> = {}) {
  const choice = chooseParts(PLAN, {
    previous: PREVIOUS,
    base: BASE,
    settings: SETTINGS,
    blobs: BLOBS,
    mustSend: new Set(),
    ...over
  })
  return {
    ...choice,
    sent: choice.send.map(b => b.index),
    reused: choice.reuse.map(r => r.batch.index)
  }
}

const changedBlob = (file: string) => new Map([...BLOBS, [file, blob(file, 2)]])

describe('chooseParts: which parts a later review sends', () => {
  it('sends nothing again when every file is at the blob a clean review saw', () => {
    const c = choose()
    expect(c.sent).toEqual([])
    expect(c.reused).toEqual([1, 2, 3])
    expect(c.reuse[0]!.reviewedIn).toEqual({ 'a.ts': 1, 'b.ts': 1 })
    expect(c.changed).toEqual([])
    expect(c.whyAll).toBeUndefined()
  })

  it('sends every part when no review came before, without a reason to give', () => {
    const c = choose({ previous: undefined })
    expect(c.sent).toEqual([1, 2, 3])
    expect(c.whyAll).toBeUndefined()
  })

  it('sends only the part of a file whose blob changed, and names the file', () => {
    const c = choose({ blobs: changedBlob('b.ts') })
    expect(c.sent).toEqual([1])
    expect(c.reused).toEqual([2, 3])
    expect(c.changed).toEqual(['b.ts'])
  })

  it('sends the part of a file new since the last review', () => {
    const plan: ReviewPlan = { files: [], batches: [...PLAN.batches, batch(4, ['new.ts'])] }
    const c = chooseParts(plan, {
      previous: PREVIOUS,
      base: BASE,
      settings: SETTINGS,
      blobs: new Map([...BLOBS, ['new.ts', blob('new.ts')]]),
      mustSend: new Set()
    })
    expect(c.send.map(b => b.index)).toEqual([4])
    expect(c.changed).toEqual(['new.ts'])
  })

  it('sends every part holding a file split across parts when that file changed', () => {
    const c = choose({ blobs: changedBlob('big.ts') })
    expect(c.sent).toEqual([2, 3])
    expect(c.reused).toEqual([1])
    expect(c.changed).toEqual(['big.ts'])
  })

  it('sends a part whose earlier answer was not clean (`:open`), though its files did not change', () => {
    const previous = { ...PREVIOUS, files: { ...PREVIOUS.files, 'c.ts': `1:${blob('c.ts')}:open` } }
    const c = choose({ previous })
    expect(c.sent).toEqual([2])
    expect(c.changed).toEqual([])
  })

  it('sends a part that holds an open blocker, though its files are clean and unchanged', () => {
    const c = choose({ mustSend: new Set([3]) })
    expect(c.sent).toEqual([3])
    expect(c.reused).toEqual([1, 2])
  })

  it('sends every part, saying why, when the merge base moved', () => {
    const c = choose({ base: OTHER_BASE })
    expect(c.sent).toEqual([1, 2, 3])
    expect(c.whyAll).toBe(
      'the merge base moved (eeeeeee → fffffff: a merge from the base branch or a retarget)'
    )
  })

  it('sends every part, saying why, when the settings changed', () => {
    const c = choose({ settings: 'fedcba9876543210' })
    expect(c.sent).toEqual([1, 2, 3])
    expect(c.whyAll).toBe('the review settings, guidelines or prompts changed')
  })

  it('sends every part for the reason given (a retry, the state cut)', () => {
    const c = choose({ sendAll: 'a human asked for the review again (retry)' })
    expect(c.sent).toEqual([1, 2, 3])
    expect(c.whyAll).toBe('a human asked for the review again (retry)')
  })
})

describe('headContent: the blobs a review compares', () => {
  // `git diff` of a deleted file, captured from git 2.39.5
  const DELETION = [
    'diff --git a/src/old.js b/src/old.js',
    'deleted file mode 100644',
    'index edb0d90..0000000',
    '--- a/src/old.js',
    '+++ /dev/null',
    '@@ -1 +0,0 @@',
    '-export const old = 1',
    ''
  ].join('\n')

  it('keeps a file the PR deletes at the id of no object, so its unchanged part can be taken again', () => {
    const files = readDiff(DELETION)
    expect(files).toMatchObject([{ path: 'src/old.js', deleted: true }])
    const blobs = headContent(new Map([['src/a.js', blob('a')]]), files)
    expect(blobs).toEqual(
      new Map([
        ['src/a.js', blob('a')],
        ['src/old.js', NO_BLOB]
      ])
    )
    const plan: ReviewPlan = { files, batches: [batch(1, ['src/a.js', 'src/old.js'])] }
    const previous = {
      base: BASE,
      settings: SETTINGS,
      files: { 'src/a.js': `1:${blob('a')}`, 'src/old.js': `1:${NO_BLOB}` }
    }
    const input = { previous, base: BASE, settings: SETTINGS, blobs, mustSend: new Set<number>() }
    expect(chooseParts(plan, input).reuse.map(r => r.batch.index)).toEqual([1])
  })
})

describe('contentOf: what a review stands on', () => {
  const key = { base: BASE, settings: SETTINGS }

  it('keeps each sent file with its blob, clean when its part was, and each reused file with its iteration', () => {
    const choice = chooseParts(PLAN, {
      previous: PREVIOUS,
      ...key,
      blobs: changedBlob('a.ts'),
      mustSend: new Set()
    })
    const content = contentOf(choice, key, changedBlob('a.ts'), new Map([[1, false]]))
    expect(content).toEqual({
      ...key,
      files: {
        'a.ts': { blob: blob('a.ts', 2), clean: false },
        'b.ts': { blob: blob('b.ts'), clean: false },
        'c.ts': { blob: blob('c.ts'), clean: true, n: 1 },
        'big.ts': { blob: blob('big.ts'), clean: true, n: 1 }
      }
    })
  })

  it('leaves out the files of a part that got no answer (failed), so they are sent again', () => {
    const choice = { send: PLAN.batches, reuse: [] }
    const content = contentOf(
      choice,
      key,
      BLOBS,
      new Map([
        [1, true],
        [2, undefined],
        [3, true]
      ])
    )
    // big.ts is in the failed part 2 and the answered part 3: only part of it was read
    expect(Object.keys(content.files)).toEqual(['a.ts', 'b.ts'])
  })

  it('a file in a reused part and a sent part is reviewed now, clean only if the sent part was', () => {
    const choice = chooseParts(PLAN, {
      previous: PREVIOUS,
      ...key,
      blobs: BLOBS,
      mustSend: new Set([3])
    })
    expect(choice.reuse.map(r => r.batch.index)).toEqual([1, 2])
    const clean = contentOf(choice, key, BLOBS, new Map([[3, true]]))
    expect(clean.files['big.ts']).toEqual({ blob: blob('big.ts'), clean: true })
    const open = contentOf(choice, key, BLOBS, new Map([[3, false]]))
    expect(open.files['big.ts']).toEqual({ blob: blob('big.ts'), clean: false })
    const failed = contentOf(choice, key, BLOBS, new Map([[3, undefined]]))
    expect(failed.files['big.ts']).toBeUndefined()
    expect(failed.files['c.ts']).toEqual({ blob: blob('c.ts'), clean: true, n: 1 })
  })
})

describe('reviewedFiles: the state’s `reviewed`', () => {
  /** The longest path the state keeps, and one character more. */
  const LONGEST = `${'p'.repeat(997)}.ts`
  const TOO_LONG = `${'p'.repeat(998)}.ts`
  const content: ReviewedContent = {
    base: BASE,
    settings: SETTINGS,
    files: {
      'now.ts': { blob: blob('now.ts'), clean: true },
      'open.ts': { blob: blob('open.ts'), clean: false },
      'before.ts': { blob: blob('before.ts'), clean: true, n: 1 },
      [LONGEST]: { blob: blob('x'), clean: true },
      [TOO_LONG]: { blob: blob('x'), clean: true }
    }
  }

  it('stamps files sent now with this iteration, keeps earlier ones, marks unclean ones `:open`, leaves out paths over 1000 characters', () => {
    expect([LONGEST.length, TOO_LONG.length]).toEqual([1000, 1001])
    const kept = reviewedFiles(content, 3)
    expect(kept).toEqual({
      base: BASE,
      settings: SETTINGS,
      files: {
        'now.ts': `3:${blob('now.ts')}`,
        'open.ts': `3:${blob('open.ts')}:open`,
        'before.ts': `1:${blob('before.ts')}`,
        [LONGEST]: `3:${blob('x')}`
      }
    })
    // what it keeps, the state schema accepts
    expect(checkState(state({ reviewed: kept }))).toHaveProperty('state')
  })

  it('appendReview keeps it from the review, keeps the earlier one after a fix-only run, drops it without content', () => {
    const coverage = {
      files: 1,
      reviewed: 1,
      ignored: [],
      unreviewed: [],
      failures: [],
      batches: 1,
      content: {
        base: BASE,
        settings: SETTINGS,
        files: { 'now.ts': { blob: blob('now.ts'), clean: true } }
      }
    }
    const first = appendReview(state(), reviewed({ n: 1, coverage }))
    expect(first.reviewed).toEqual({
      base: BASE,
      settings: SETTINGS,
      files: { 'now.ts': `1:${blob('now.ts')}` }
    })
    const fixOnly = appendReview(
      first,
      reviewed({ n: 2, trigger: { by: 'octocat', command: 'fix' } })
    )
    expect(fixOnly.reviewed).toEqual(first.reviewed)
    // incremental-review off: nothing a later review could stand on
    const { content: _content, ...without } = coverage
    const off = appendReview(first, reviewed({ n: 2, coverage: without }))
    expect(off).not.toHaveProperty('reviewed')
  })
})

describe('the state keeps `reviewed` only while it fits', () => {
  const many = (count: number): ReviewedFiles => ({
    base: BASE,
    settings: SETTINGS,
    files: Object.fromEntries(
      Array.from({ length: count }, (_, i) => [`src/module-${i}/index.ts`, `1:${blob(String(i))}`])
    )
  })

  it('keeps it when the state fits', () => {
    const s = state({ iterations: [iteration()], reviewed: many(50) })
    expect(compactState(s)).toEqual(s)
  })

  it('drops it when the state is too big (the next review reads the whole PR), keeping the iterations', () => {
    const s = state({ iterations: [iteration()], reviewed: many(600) })
    expect(JSON.stringify(s).length).toBeGreaterThan(STATE_JSON_BUDGET)
    const compact = compactState(s)
    expect(compact).not.toHaveProperty('reviewed')
    expect(compact.iterations).toEqual(s.iterations)
  })
})

describe('the state schema’s `reviewed`', () => {
  const ok = (reviewed: unknown) => 'state' in checkState({ ...state(), reviewed })
  const entry = `12:${blob('a')}`

  it('accepts entries `n:blob` and `n:blob:open`, SHA-1 and SHA-256 blobs', () => {
    expect(ok({ base: BASE, settings: SETTINGS, files: {} })).toBe(true)
    expect(
      ok({ base: BASE, settings: SETTINGS, files: { 'a.ts': entry, 'b.ts': `${entry}:open` } })
    ).toBe(true)
    expect(ok({ base: BASE, settings: SETTINGS, files: { 'a.ts': `1:${'a'.repeat(64)}` } })).toBe(
      true
    )
  })

  it.each([
    ['a blob that is not hex', { 'a.ts': `1:${'g'.repeat(40)}` }],
    ['a short blob', { 'a.ts': `1:${'a'.repeat(39)}` }],
    ['no iteration', { 'a.ts': blob('a') }],
    ['another mark than :open', { 'a.ts': `${entry}:closed` }],
    ['an iteration of 7 digits', { 'a.ts': `1234567:${blob('a')}` }],
    ['a path over 1000 characters', { ['p'.repeat(1001)]: entry }]
  ])('refuses %s', (_, files) => {
    expect(ok({ base: BASE, settings: SETTINGS, files })).toBe(false)
  })

  it('refuses a missing or malformed base or settings, and unknown keys', () => {
    expect(ok({ settings: SETTINGS, files: {} })).toBe(false)
    expect(ok({ base: 'main', settings: SETTINGS, files: {} })).toBe(false)
    expect(ok({ base: BASE, settings: 'short', files: {} })).toBe(false)
    expect(ok({ base: BASE, settings: SETTINGS, files: {}, extra: 1 })).toBe(false)
  })
})

describe('coverage by iteration in the comment and the check run', () => {
  const reviewedState: ReviewedFiles = {
    base: BASE,
    settings: SETTINGS,
    files: {
      'src/z.ts': `3:${blob('z')}`,
      'src/fixed.ts': `3:${blob('f')}`,
      'src/b.ts': `1:${blob('b')}`,
      'src/a.ts': `1:${blob('a')}`,
      'src/c.ts': `2:${blob('c')}`
    }
  }
  const latest = iteration({
    n: 3,
    decision: 'GO',
    coverage: { files: 5, reviewed: 5, ignored: 0, batches: 3, unchanged: 3, skipped: 2 }
  })
  const LINE =
    'Reviewed 5 of 5 changed files (0 ignored) in 3 parts. 3 of them reviewed in an earlier iteration and unchanged since (2 parts not sent again).'
  const LIST = [
    '<details><summary>Reviewed at their current content (5 files)</summary>',
    '',
    '- in this iteration (2 files): `src/fixed.ts`, `src/z.ts`',
    '- in iteration 2, unchanged since (1 file): `src/c.ts`',
    '- in iteration 1, unchanged since (2 files): `src/a.ts`, `src/b.ts`',
    '',
    '</details>'
  ].join('\n')

  it('lists the files by the iteration that reviewed them, latest first', () => {
    expect(renderCoverage(latest, reviewedState)).toEqual([`**Coverage:** ${LINE}`, '', LIST])
  })

  it('says nothing of earlier iterations when every part was sent', () => {
    const all = iteration({ n: 3, coverage: { files: 5, reviewed: 5, ignored: 0, batches: 3 } })
    expect(renderCoverage(all, reviewedState)).toEqual([
      '**Coverage:** Reviewed 5 of 5 changed files (0 ignored) in 3 parts.'
    ])
  })

  it('the check run summary carries the line and the list', () => {
    const s = state({
      status: 'go',
      iterations: [iteration({ n: 1 }), iteration({ n: 2 }), latest],
      reviewed: reviewedState
    })
    const links = { serverUrl: 'https://github.com', owner: 'acme', repo: 'widgets', pr: 7 }
    const summary = checkRunSummary(s, [], links)
    expect(summary).toContain(LINE)
    expect(summary).toContain(LIST)
  })
})

describe('what else sends every part, or a part', () => {
  const ai = {
    reviewModel: 'claude-sonnet-5-5',
    provider: undefined,
    ignore: [],
    verifyFindings: true,
    blockUncertain: false,
    reviewPasses: 1,
    votesToBlock: 1,
    reviewMaxTurns: 6
  }
  const system = [{ type: 'text' as const, text: 'You review code.' }]
  const pr = { title: 'Add greeting', body: 'It must greet the empty name too.' }

  it('the settings digest changes with the model, the system prompt and the PR description, not otherwise', () => {
    const digest = settingsDigest(ai, 'medium', system, pr)
    expect(digest).toMatch(/^[0-9a-f]{16}$/)
    expect(settingsDigest({ ...ai }, 'medium', [...system], { ...pr })).toBe(digest)
    expect(
      settingsDigest({ ...ai, reviewModel: 'claude-opus-5-5' }, 'medium', system, pr)
    ).not.toBe(digest)
    expect(settingsDigest(ai, 'high', system, pr)).not.toBe(digest)
    expect(settingsDigest(ai, 'medium', [{ type: 'text', text: 'Be strict.' }], pr)).not.toBe(
      digest
    )
    expect(
      settingsDigest(ai, 'medium', system, { ...pr, body: `${pr.body} And log it.` })
    ).not.toBe(digest)
  })

  it('a blocker a human dismissed sends no part; one still open does; one below the threshold does not', () => {
    const s = state({
      iterations: [
        iteration({
          findings: [
            { ...finding({ id: 'RL-open', file: 'a.ts' }), status: 'open', since: 1 },
            { ...finding({ id: 'RL-gone', file: 'c.ts' }), status: 'open', since: 1 },
            {
              ...finding({ id: 'RL-low', file: 'big.ts', severity: 'low' }),
              status: 'open',
              since: 1
            }
          ]
        })
      ]
    })
    expect([...mustAnswer(s, 'medium', new Set(['RL-gone'])).keys()]).toEqual(['RL-open'])
    expect([...mustAnswer(s, 'medium').keys()]).toEqual(['RL-open', 'RL-gone'])
  })

  it('names the lines of parts not sent that import a changed file, and nothing else', async () => {
    const hits: Record<string, GrepHit[]> = {
      greet: [
        { file: 'src/app.js', line: 3, text: "import { greet } from './greet.js'" },
        { file: 'src/app.js', line: 9, text: 'greet(name) // a call' },
        { file: 'src/sent.js', line: 1, text: "import { greet } from './greet.js'" },
        { file: 'src/greet.js', line: 1, text: "export const greet = n => 'hi ' + n" }
      ],
      util: [{ file: 'lib/x.py', line: 2, text: 'from util import slug' }]
    }
    const git = { grep: async (_sha: string, text: string) => hits[text] ?? [] }
    const within = new Set(['src/app.js', 'lib/x.py', 'src/greet.js'])
    const found = await importersOf(git, 'HEAD', ['src/greet.js', 'src/util/index.ts'], within)
    expect(found.map(h => `${h.file}:${h.line}`)).toEqual(['src/app.js:3', 'lib/x.py:2'])
  })
})
