/**
 * Issue 29 through dist/: a later review sends only the parts whose files changed since a review
 * that found nothing blocking in them (or that hold a blocker still open); a new merge base,
 * `incremental-review: 'false'` and a human's retry send every part again. The PR: 24 files in 6
 * folders, about 600,000 characters of diff (about 150k tokens), reviewed in 6 parts.
 */
import { describe, expect, it } from 'vitest'
import { git } from '../../test-support/git-fixture.js'
import type { Sandbox } from '../../test-support/harness.js'
import type { HumanEvent } from '../../test-support/human-events.js'
import type {
  ModelServer,
  RecordedCall,
  ReplyTemplate,
  ScriptedReply
} from '../../test-support/model-server.js'
import { runScenario, type Scenario, type ScenarioReport } from '../../test-support/scenario.js'
import { source } from './generated-code.js'
import { oneEditFixer, verdict } from './greet-replies.js'

const EVAL_LINE = 'export const handle = req => eval(req.query.code)'
const FILES = Array.from({ length: 6 }, (_, d) =>
  Array.from({ length: 4 }, (_, f) => `src/mod${d}/file${f}.js`)
).flat()
/** The file holding the blocker, in part 3 (the folder src/mod2). */
const EVAL_FILE = 'src/mod2/file1.js'

/** 24 files in 6 folders, about 600,000 characters of diff: 6 parts, one folder each. */
function largePr(): Pick<Scenario, 'base' | 'pr'> {
  const files: Record<string, string> = {}
  for (const file of FILES) {
    const [, d, f] = /mod(\d)\/file(\d)/.exec(file)!
    files[file] = source(`m${d}f${f}`, 25_000, file === EVAL_FILE ? `${EVAL_LINE}\n` : '')
  }
  return {
    base: { 'README.md': '# app\n' },
    pr: { title: 'A large change', commits: [{ message: 'large change', files }] }
  }
}

const EVAL = {
  severity: 'critical',
  category: 'security',
  file: EVAL_FILE,
  line: source('m2f1', 25_000).split('\n').length,
  evidence: EVAL_LINE,
  title: 'eval of request input runs any code a caller sends',
  description: 'handle() passes req.query.code to eval.',
  suggestedFix: 'Remove the eval.'
}

/** The fixer's one-line fix of the blocker, then its closing words. */
const FIXER = oneEditFixer(EVAL_FILE, 'eval(req.query.code)', 'String(req.query.code)')

/** The reviewer: NO_GO on a part whose diff adds the eval, GO on every other part. */
const REVIEWER: ReplyTemplate[] = [
  { when: { contains: `+${EVAL_LINE}` }, reply: verdict('NO_GO', [EVAL]) },
  { reply: verdict('GO') }
]

const textOf = (call: RecordedCall): string =>
  (call.messages as Array<{ content: string | Array<{ type: string; text?: string }> }>)
    .flatMap(m => (typeof m.content === 'string' ? [m.content] : m.content.map(b => b.text ?? '')))
    .join('\n')

/** One review call: the folders its diff holds (one part is one folder here) and its input tokens. */
interface ReviewCall {
  folders: string[]
  tokens: number
  text: string
}

/**
 * The review calls (not the fixer's, not the verifier's) of each run, in run order. Runs are one
 * after the other, so a call belongs to the last run started before it arrived.
 */
function reviewCallsByRun(sandbox: Sandbox, model: ModelServer): ReviewCall[][] {
  const out: ReviewCall[][] = sandbox.runs.map(() => [])
  for (const call of model.calls) {
    const text = textOf(call)
    if (call.status !== 200 || call.verifier || text.includes('# Findings to address')) continue
    const u = call.usage!
    const folders = [...text.matchAll(/^diff --git a\/(src\/mod\d)\//gm)].map(m => m[1]!)
    out[sandbox.runs.findLastIndex(r => r.startedAt <= call.at)]!.push({
      folders: [...new Set(folders)].sort(),
      tokens: u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens,
      text
    })
  }
  return out
}

interface Outcome {
  report: ScenarioReport
  /** Review calls per run. */
  calls: ReviewCall[][]
  /** Each run's log. */
  logs: string[]
  /** The final head's files and blobs, and its merge base with main. */
  head: { blobs: Map<string, string>; base: string }
}

async function run(
  scenario: Partial<Scenario>,
  responder?: (call: RecordedCall) => ScriptedReply | undefined
): Promise<Outcome> {
  let calls: ReviewCall[][] = []
  const logs: string[] = []
  const head = { blobs: new Map<string, string>(), base: '' }
  const report = await runScenario(
    {
      ...largePr(),
      inputs: { 'max-iterations': '3' },
      model: { templates: [...FIXER, ...REVIEWER] },
      ...scenario
    },
    {
      onRun: r => logs.push(r.stdout),
      ...(responder ? { model: { responder: (call: RecordedCall) => responder(call)! } } : {}),
      keep: async (sandbox, model) => {
        calls = reviewCallsByRun(sandbox, model!)
        const sha = sandbox.headSha()
        for (const line of git(sandbox.bare, ['ls-tree', '-r', sha]).split('\n')) {
          const [meta, path] = line.split('\t')
          head.blobs.set(path!, meta!.split(' ')[2]!)
        }
        head.base = git(sandbox.bare, ['merge-base', 'refs/heads/main', sha])
      }
    }
  )
  return { report, calls, logs, head }
}

/** The coverage line of a review that sent every part. */
const ALL_SENT = 'Reviewed 24 of 24 changed files (0 ignored) in 6 parts.'
const ALL_FOLDERS = [0, 1, 2, 3, 4, 5].map(d => `src/mod${d}`)
const parts = (calls: ReviewCall[]): string[] => calls.flatMap(c => c.folders).sort()
const tokens = (calls: ReviewCall[]): number => calls.reduce((sum, c) => sum + c.tokens, 0)
const verdicts = (r: ScenarioReport) => r.runs.map(x => x.outputs['verdict'])
const latestComment = (r: ScenarioReport): string =>
  r.comments.find(c => c.body.includes('<!-- review-loop:state'))!.body
/** The comment's "Latest review" section (the state and the timeline above it name earlier ones). */
const latestReview = (r: ScenarioReport): string => latestComment(r).split('### Latest review')[1]!

interface Reviewed {
  base: string
  settings: string
  files: Record<string, string>
}
const reviewedOf = (r: ScenarioReport) => (r.finalState as { reviewed?: Reviewed }).reviewed

/** The folded list's lines: "in this iteration (4 files): `a`, `b`" → files by heading. */
function reviewedWhen(body: string): Map<string, string[]> {
  const list =
    /<summary>Reviewed at their current content \(\d+ files?\)<\/summary>([\s\S]*?)<\/details>/.exec(
      body
    )
  expect(list, 'the folded "Reviewed at their current content" list').not.toBeNull()
  return new Map(
    [...list![1]!.matchAll(/^- (.+?) \(\d+ files?\): (.+)$/gm)].map(m => [
      m[1]!,
      [...m[2]!.matchAll(/`([^`]+)`/g)].map(x => x[1]!)
    ])
  )
}

describe('incremental review (issue 29)', () => {
  it('after a one-line fix sends only the fixed part: ≤ 25 % of the first review, GO, every file shown reviewed at its content', async () => {
    const { report, calls, head } = await run({})
    expect(verdicts(report)).toEqual(['NO_GO', 'GO'])
    expect(report.runs).toHaveLength(2)
    expect(parts(calls[0]!)).toEqual(ALL_FOLDERS)
    expect(parts(calls[1]!)).toEqual(['src/mod2'])
    // the first review reads about 150k tokens of diff; the second only its part
    expect(tokens(calls[0]!)).toBeGreaterThan(150_000)
    expect(tokens(calls[1]!)).toBeLessThanOrEqual(tokens(calls[0]!) * 0.25)

    const body = latestComment(report)
    const coverage =
      'Reviewed 24 of 24 changed files (0 ignored) in 6 parts. 20 of them reviewed in an earlier iteration and unchanged since (5 parts not sent again).'
    expect(body).toContain(`**Coverage:** ${coverage}`)
    const when = reviewedWhen(body)
    expect([...when.keys()]).toEqual(['in this iteration', 'in iteration 1, unchanged since'])
    expect(when.get('in this iteration')).toEqual(FILES.filter(f => f.startsWith('src/mod2/')))
    expect(when.get('in iteration 1, unchanged since')).toEqual(
      FILES.filter(f => !f.startsWith('src/mod2/'))
    )
    // the check run and the job summary say the same
    expect(report.checkRuns.at(-1)!.summary).toContain(coverage)
    expect(report.runs[1]!.summary).toContain(coverage)
    expect(report.runs[1]!.summary).toContain(
      '- in iteration 1, unchanged since (20 files): `src/mod0/file0.js`'
    )

    // the state: each file at the final head's blob, against its merge base
    const reviewed = reviewedOf(report)!
    expect(reviewed.base).toBe(head.base)
    expect(reviewed.settings).toMatch(/^[0-9a-f]{16}$/)
    expect(reviewed.files).toEqual(
      Object.fromEntries(
        FILES.map(f => [f, `${f.startsWith('src/mod2/') ? 2 : 1}:${head.blobs.get(f)}`])
      )
    )
  })

  it('re-reviews the part of a file a human pushed before the next review, with the fixed part, and no other', async () => {
    const { report, calls, head } = await run({
      humanPushes: [
        {
          beforeRun: 2,
          message: 'a change by hand',
          files: { 'src/mod4/file3.js': `${source('m4f3', 25_000)}export const extra = 1\n` }
        }
      ]
    })
    // the fix's run, then the run the human's push started, with nothing new to review
    expect(report.runs.map(r => `${r.event}:${r.outputs['verdict']}`)).toEqual([
      'pull_request:NO_GO',
      'workflow_dispatch:GO',
      'pull_request:GO'
    ])
    expect(parts(calls[0]!)).toEqual(ALL_FOLDERS)
    // the review after the fix and the human's push: the fixed part and the pushed file's part
    expect(parts(calls[1]!)).toEqual(['src/mod2', 'src/mod4'])
    expect(calls[1]!.find(c => c.folders[0] === 'src/mod4')!.text).toContain(
      '+export const extra = 1'
    )
    expect(calls[2]).toEqual([])
    const reviewed = reviewedOf(report)!
    expect(reviewed.files['src/mod4/file3.js']).toBe(`2:${head.blobs.get('src/mod4/file3.js')}`)
    expect(reviewed.files['src/mod4/file2.js']).toBe(`2:${head.blobs.get('src/mod4/file2.js')}`)
    expect(reviewed.files['src/mod0/file0.js']).toBe(`1:${head.blobs.get('src/mod0/file0.js')}`)
  })

  it('re-reviews everything when the base branch is merged into the PR (the merge base moved)', async () => {
    const { report, calls, logs, head } = await run({
      humanPushes: [
        { beforeRun: 2, message: 'docs on main', mergeBase: { 'docs/notes.md': 'notes\n' } }
      ]
    })
    expect(verdicts(report)).toEqual(['NO_GO', 'GO', 'GO'])
    // the review after the fix and the merge reads every part again
    expect(parts(calls[1]!)).toEqual(ALL_FOLDERS)
    expect(calls[2]).toEqual([])
    expect(logs[1]).toMatch(
      /review: every part is sent: the merge base moved \([0-9a-f]{7} → [0-9a-f]{7}/
    )
    expect(latestReview(report)).toContain(`**Coverage:** ${ALL_SENT}\n`)
    const reviewed = reviewedOf(report)!
    expect(reviewed.base).toBe(head.base)
    // the file merged from main is not the PR's change
    expect(reviewed.files['docs/notes.md']).toBeUndefined()
    expect(Object.keys(reviewed.files).sort()).toEqual([...FILES].sort())
  })

  it('does not send again a part holding a file the PR deletes, when nothing in it changed', async () => {
    const pr = largePr()
    const { report, calls, head } = await run({
      base: { ...pr.base, 'src/mod0/old.js': 'export const old = 1\n' },
      pr: {
        ...pr.pr,
        commits: [
          { ...pr.pr.commits[0]!, files: { ...pr.pr.commits[0]!.files, 'src/mod0/old.js': null } }
        ]
      }
    })
    expect(verdicts(report)).toEqual(['NO_GO', 'GO'])
    expect(calls[0]!.find(c => c.folders[0] === 'src/mod0')!.text).toContain(
      '-export const old = 1'
    )
    expect(parts(calls[1]!)).toEqual(['src/mod2'])
    // a deleted file is kept at git's id for "no object"
    expect(reviewedOf(report)!.files['src/mod0/old.js']).toBe(`1:${'0'.repeat(40)}`)
    expect(head.blobs.has('src/mod0/old.js')).toBe(false)
  })

  it("with incremental-review 'false' sends every part in every iteration and keeps no reviewed content", async () => {
    const { report, calls } = await run({
      inputs: { 'max-iterations': '3', 'incremental-review': 'false' }
    })
    expect(verdicts(report)).toEqual(['NO_GO', 'GO'])
    expect(parts(calls[0]!)).toEqual(ALL_FOLDERS)
    expect(parts(calls[1]!)).toEqual(ALL_FOLDERS)
    expect(latestReview(report)).toContain(`**Coverage:** ${ALL_SENT}\n`)
    expect(reviewedOf(report)).toBeUndefined()
  })

  it("a human's /review-loop retry sends every part again", async () => {
    const retry: HumanEvent = {
      afterRun: 2,
      comment: { author: 'octocat', permission: 'write', body: '/review-loop retry' }
    }
    const { report, calls, logs } = await run({ humanEvents: [retry] })
    expect(verdicts(report)).toEqual(['NO_GO', 'GO', 'GO'])
    expect(report.runs[2]!.event).toBe('issue_comment')
    expect(parts(calls[1]!)).toEqual(['src/mod2'])
    // the retry reads everything, though nothing changed since the last review
    expect(parts(calls[2]!)).toEqual(ALL_FOLDERS)
    expect(logs[2]).toContain(
      'review: every part is sent: a human asked for the review again (retry)'
    )
    expect(latestReview(report)).toContain(`**Coverage:** ${ALL_SENT}\n`)
  })

  it('sends again the part whose blocker the fixer disputed, though its files did not change', async () => {
    // the fixer disputes the blocker and edits nothing; the part's reviewer accepts the dispute
    const answer = (call: RecordedCall): ScriptedReply | undefined => {
      const text = textOf(call)
      const id = /RL-[0-9a-f]{10}/.exec(text)?.[0]
      if (text.includes('# Findings to address')) {
        const done = JSON.stringify(call.messages).includes('tool_result')
        return done
          ? { kind: 'text', text: 'Disputed.' }
          : {
              kind: 'tool_use',
              name: 'dispute_finding',
              input: { id, reason: 'wrong', explanation: 'handle() is only called by tests' }
            }
      }
      if (text.includes('fixer disputed RL-')) {
        const go = verdict('GO') as { kind: 'json'; value: Record<string, unknown> }
        return {
          ...go,
          value: {
            ...go.value,
            earlierFindings: [{ id, status: 'dispute_accepted', note: 'right' }]
          }
        }
      }
      return undefined
    }
    const { report, calls, head } = await run(
      {
        model: {
          templates: [
            {
              when: { contains: `+${EVAL_LINE}`, notContains: 'fixer disputed' },
              reply: verdict('NO_GO', [EVAL])
            }
          ]
        }
      },
      call => answer(call) ?? verdict('GO')
    )
    expect(verdicts(report)).toEqual(['NO_GO', 'GO'])
    // no fix pushed: the head is the one reviewed first
    expect(report.runs[1]!.outputs['reviewed-sha']).toBe(report.runs[0]!.outputs['reviewed-sha'])
    expect(parts(calls[1]!)).toEqual(['src/mod2'])
    expect(calls[1]![0]!.text).toContain('handle() is only called by tests')
    expect(reviewedOf(report)!.files[EVAL_FILE]).toBe(`2:${head.blobs.get(EVAL_FILE)}`)
  })
})

describe('what a human raised', () => {
  it("sends the part of a human's open review comment again, though its files did not change", async () => {
    const LINE3 = source('m2f1', 25_000).split('\n')[2]!
    // the reviewer keeps a human's finding open when its part is asked about it
    const responder = (call: RecordedCall): ScriptedReply | undefined => {
      const text = JSON.stringify(call.messages)
      const asked = /answer on these earlier findings, which are in your part: (RL-[0-9a-f]+)/.exec(
        text
      )
      if (!asked || !text.includes('diff --git a/src/mod2/')) return verdict('GO')
      const kept = verdict('NO_GO', [
        {
          severity: 'high',
          category: 'security',
          file: 'src/mod2/file1.js',
          line: 3,
          evidence: LINE3,
          title: 'the session token is logged',
          description: 'Still logs the token.',
          suggestedFix: 'Do not log it.',
          previousId: asked[1]
        }
      ]) as Extract<ScriptedReply, { kind: 'json' }>
      const value = kept.value as Record<string, unknown>
      return {
        ...kept,
        value: { ...value, earlierFindings: [{ id: asked[1], status: 'still_open', note: 'no' }] }
      }
    }
    const { report, calls } = await run(
      {
        inputs: { 'max-iterations': '2' },
        model: {
          templates: oneEditFixer(
            'src/mod4/file0.js',
            source('m4f0', 25_000).split('\n')[0]!,
            'export function m4f00(x) { return x * 0 + 1 }'
          )
        },
        humanEvents: [
          {
            afterRun: 1,
            review: {
              author: 'alice',
              permission: 'write',
              state: 'changes_requested',
              body: '',
              comments: [
                { path: 'src/mod2/file1.js', line: 3, body: 'This logs the session token' },
                { path: 'src/mod4/file0.js', line: 1, body: 'Off by one here' }
              ]
            }
          }
        ]
      },
      responder
    )
    const state = report.finalState as {
      status: string
      iterations: Array<{ findings: Array<{ id: string; file?: string }>; gone?: string[] }>
    }
    const human = state.iterations
      .flatMap(it => it.findings)
      .find(f => f.file === 'src/mod2/file1.js')!
    const last = calls.at(-1)!
    // the fix changed src/mod4; src/mod2 is sent for the human's finding, and answers on it
    expect(parts(last)).toEqual(['src/mod2', 'src/mod4'])
    expect(last.find(c => c.folders.includes('src/mod2'))!.text).toContain(human.id)
    expect(state.iterations.at(-1)!.gone ?? []).not.toContain(human.id)
    expect(state.status).not.toBe('go')
  })
})
