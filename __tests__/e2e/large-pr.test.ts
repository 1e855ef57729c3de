import { describe, expect, it } from 'vitest'
import type { ModelServer, ReplyTemplate } from '../../test-support/model-server.js'
import { noisyCheckScenario } from '../../test-support/noisy-check.js'
import { runScenario, type Scenario, type ScenarioReport } from '../../test-support/scenario.js'
import { source } from './generated-code.js'
import { oneEditFixer, verdict } from './greet-replies.js'

/**
 * The PR of the issue: about 480,000 characters of diff. Four core files of about 90k characters
 * (one runs `eval(req.query.code)`), sixty small files in six folders, and a lockfile.
 */
function largePr(): Pick<Scenario, 'base' | 'pr'> {
  const files: Record<string, string> = {
    'src/core/eval.js': source(
      'run',
      90_000,
      'export const handle = req => eval(req.query.code)\n'
    ),
    'src/core/parse.js': source('parse', 90_000),
    'src/core/plan.js': source('plan', 90_000),
    'src/core/store.js': source('store', 90_000),
    'package-lock.json': `${JSON.stringify({ name: 'app', lockfileVersion: 3, packages: {} }, null, 2)}\n`
  }
  for (let d = 0; d < 6; d++)
    for (let f = 0; f < 10; f++) files[`src/mod${d}/file${f}.js`] = source(`m${d}f${f}`, 1_800)
  return {
    base: { 'README.md': '# app\n' },
    pr: { title: 'A large change', commits: [{ message: 'large change', files }] }
  }
}

const GO = verdict('GO')
const EVAL_FINDING = {
  severity: 'critical',
  category: 'security',
  file: 'src/core/eval.js',
  /** the last line of src/core/eval.js */
  line: 1_810,
  evidence: 'export const handle = req => eval(req.query.code)',
  title: 'eval of request input runs any code a caller sends',
  description: 'handle() passes req.query.code to eval.',
  suggestedFix: 'Remove the eval.'
}

/** Every review call's whole request text, in the order they came (verifier calls left out). */
function requestTexts(model: ModelServer): string[] {
  return model.calls
    .filter(c => c.status === 200 && !c.verifier)
    .map(c =>
      (c.messages as Array<{ content: Array<{ type: string; text?: string }> }>)
        .flatMap(m => m.content.map(b => b.text ?? ''))
        .join('\n')
    )
}

async function review(
  templates: ReplyTemplate[],
  inputs: Record<string, string> = {}
): Promise<{ report: ScenarioReport; texts: string[] }> {
  let texts: string[] = []
  const report = await runScenario(
    {
      ...largePr(),
      inputs: { 'max-iterations': '1', 'fail-on': 'needs_discussion', ...inputs },
      model: { templates, latencyMs: 200 },
      maxRuns: 1
    },
    { keep: async (_s, model) => void (texts = requestTexts(model!)) }
  )
  return { report, texts }
}

const comment = (r: ScenarioReport) => r.comments.map(c => c.body).join('\n')

describe('a large PR is reviewed whole, in parallel', () => {
  it('sends every changed line to a reviewer, four parts at a time, and is GO only when every part is', async () => {
    const { report, texts } = await review([{ reply: GO }])
    const run = report.runs[0]!
    expect(run.outputs['verdict']).toBe('GO')
    // one call per part, four in flight at most and more than one: how many overlap at once
    // depends on the machine's load (a loaded CI saw 3), the cap does not
    expect(texts.length).toBeGreaterThanOrEqual(4)
    expect(report.modelMaxInFlight).toBeGreaterThan(1)
    expect(report.modelMaxInFlight).toBeLessThanOrEqual(4)
    // every added line of every file that is not ignored is in some review call
    const all = texts.join('\n')
    const pr = largePr().pr.commits[0]!.files
    for (const [file, content] of Object.entries(pr)) {
      if (file === 'package-lock.json') continue
      for (const line of (content as string).split('\n').filter(Boolean))
        expect(all.includes(`+${line}`), `${file}: ${line}`).toBe(true)
    }
    expect(all).toContain('eval(req.query.code)')
    expect(all).not.toContain('lockfileVersion')
    // the coverage is said where people look
    expect(comment(report)).toMatch(
      new RegExp(`Reviewed 64 of 65 changed files \\(1 ignored\\) in ${texts.length} parts`)
    )
    expect(comment(report)).toContain('`package-lock.json`')
    const state = report.finalState as { iterations: Array<{ coverage: unknown }> }
    expect(state.iterations[0]!.coverage).toMatchObject({
      files: 65,
      reviewed: 64,
      ignored: 1,
      batches: texts.length
    })
  })

  it('is NO_GO when one part finds a blocker, though every other part says GO', async () => {
    const { report } = await review([
      { when: { contains: 'eval(req.query.code)' }, reply: verdict('NO_GO', [EVAL_FINDING]) },
      { reply: GO }
    ])
    const run = report.runs[0]!
    expect(run.outputs['verdict']).toBe('NO_GO')
    expect(report.checkRuns[0]!.annotations).toEqual([
      expect.objectContaining({
        path: 'src/core/eval.js',
        start_line: 1_810,
        annotation_level: 'failure'
      })
    ])
  })

  it('is never GO when a part cannot be reviewed, and lists its files', async () => {
    const { report, texts } = await review([
      {
        when: { contains: 'eval(req.query.code)' },
        reply: { kind: 'error', status: 529, type: 'overloaded_error', message: 'Overloaded' }
      },
      { reply: GO }
    ])
    const run = report.runs[0]!
    expect(run.outputs['verdict']).toBe('NEEDS_DISCUSSION')
    expect(run.exitCode).toBe(1)
    expect(report.checkRuns[0]!.conclusion).toBe('failure')
    const body = comment(report)
    expect(body).toMatch(
      /Not reviewed \(1\), so this review cannot be GO:\*\* `src\/core\/eval.js`/
    )
    expect(body).toMatch(/Reviewed 63 of 65 changed files \(1 ignored\)/)
    expect((report.finalState as { reason: string }).reason).toBe(
      '1 changed file could not be reviewed, so the review cannot be GO; re-run the workflow or comment /review-loop retry.'
    )
    expect(texts.length).toBeGreaterThanOrEqual(4)
  })

  it('estimates the whole review before the first call: over max-cost-usd it makes none', async () => {
    const { report, texts } = await review([{ reply: GO }], { 'max-cost-usd': '0.05' })
    expect(texts).toEqual([])
    expect(report.modelCalls).toEqual([])
    const state = report.finalState as {
      status: string
      reason: string
      iterations: Array<{ error: string }>
    }
    expect(state.status).toBe('budget_exhausted')
    expect(state.iterations[0]!.error).toMatch(
      /would cost about \$0\.\d\d \(estimated before any call\)/
    )
    expect(comment(report)).toMatch(/Not reviewed \(64\)/)
  })
})

describe('earlier findings in a part that cannot be reviewed', () => {
  it('stay open, neither fixed nor "no longer raised", and are not counted as re-raised', async () => {
    const fixed = 'export const handle = () => null'
    const report = await runScenario({
      ...largePr(),
      // with incremental review only the part holding the fix is sent: it fails alone, and the parts
      // not sent again still stand
      inputs: { 'max-iterations': '3' },
      model: {
        latencyMs: 100,
        templates: [
          ...oneEditFixer(
            'src/core/eval.js',
            'export const handle = req => eval(req.query.code)',
            fixed,
            'Removed the eval.'
          ),
          { when: { contains: 'eval(req.query.code)' }, reply: verdict('NO_GO', [EVAL_FINDING]) },
          {
            when: { contains: fixed },
            reply: { kind: 'error', status: 529, type: 'overloaded_error', message: 'Overloaded' }
          },
          { reply: GO }
        ]
      }
    })
    const state = report.finalState as {
      status: string
      iterations: Array<{
        decision: string
        findings: Array<{ id: string; status: string; reraised?: boolean }>
        resolved: string[]
        gone?: string[]
        coverage: { unreviewed?: string[] }
      }>
    }
    const [first, second] = state.iterations
    expect(first!.decision).toBe('NO_GO')
    const id = first!.findings[0]!.id
    expect(second!.coverage.unreviewed).toEqual(['src/core/eval.js'])
    expect(second!.findings).toEqual([expect.objectContaining({ id, status: 'open' })])
    expect(second!.findings[0]!.reraised).toBeUndefined()
    expect(second!.resolved).toEqual([])
    expect(second!.gone ?? []).toEqual([])
    // nobody could look again: a human retries, rather than the fixer guessing
    expect(second!.decision).toBe('NEEDS_DISCUSSION')
    expect(state.status).toBe('needs_discussion')
  })
})

describe('what git shows as binary', () => {
  it('reviews text the PR hides with .gitattributes, and never says GO on binary content nobody ignored', async () => {
    let texts: string[] = []
    const report = await runScenario(
      {
        base: { 'README.md': '# app\n' },
        pr: {
          commits: [
            {
              message: 'hide',
              files: {
                '.gitattributes': 'src/evil.js -diff\n',
                'src/evil.js': 'export const run = q => eval(q)\n',
                'src/blob.dat': 'header\u0000\u0001\u0002payload\n',
                'img/logo.png': '\u0089PNG\u0000\u0000data\n'
              }
            }
          ]
        },
        inputs: { 'max-iterations': '1' },
        model: { templates: [{ reply: GO }] },
        maxRuns: 1
      },
      { keep: async (_s, model) => void (texts = requestTexts(model!)) }
    )
    // the file .gitattributes turned into "Binary files differ" is sent as text
    expect(texts.join('\n')).toContain('+export const run = q => eval(q)')
    const state = report.finalState as {
      status: string
      iterations: Array<{ coverage: Record<string, unknown> }>
    }
    expect(state.iterations[0]!.coverage).toMatchObject({
      files: 4,
      reviewed: 2,
      ignored: 1,
      ignoredFiles: ['img/logo.png'],
      unreviewed: ['src/blob.dat']
    })
    expect(report.runs[0]!.outputs['verdict']).toBe('NEEDS_DISCUSSION')
    expect(comment(report)).toMatch(/src\/blob.dat: git shows it as binary; add a glob for it to/)
  })
})

describe('a noisy check stays within GitHub limits', () => {
  it('keeps 100 findings of 20,000 printed problems, on lines the file has, in a handful of calls', async () => {
    const report = await runScenario(noisyCheckScenario(20_000))
    const run = report.runs[0]!
    const annotations = report.checkRuns.flatMap(c => c.annotations)
    expect(annotations).toHaveLength(100)
    expect(Math.max(...annotations.map(a => a.start_line))).toBe(3)
    // at most ten calls plus one per fifty annotations
    expect(run.coreCallCount).toBeLessThanOrEqual(10 + 100 / 50)
    expect(comment(report)).toMatch(
      /printed 20000 located problems; the 100 most severe are findings/
    )
    // the step fails for the failing check, not for a rate limit
    expect(run.errors.join('\n')).toMatch(/max_iterations/)
    expect([...run.errors, ...run.warnings].join('\n')).not.toMatch(/rate limit/)
  })

  it('annotates at most max-annotations, most severe first, and counts the rest', async () => {
    const print = (name: string, level: string) =>
      `${name}: node -e "for (let i = 0; i < 100; i++) console.log('src/b.js:1:1: ${level}: ${name} ' + i)"; exit 1`
    const report = await runScenario({
      base: { 'src/a.js': 'ok()\n' },
      pr: { commits: [{ message: 'b', files: { 'src/b.js': 'one()\n' } }] },
      inputs: {
        checks: [print('errors', 'error'), print('warnings', 'warning')].join('\n'),
        'max-annotations': '120',
        'max-iterations': '1'
      },
      maxRuns: 1
    })
    const annotations = report.checkRuns.flatMap(c => c.annotations)
    expect(annotations).toHaveLength(120)
    expect(annotations.slice(0, 100).every(a => a.annotation_level === 'failure')).toBe(true)
    expect(report.checkRuns[0]!.summary).toMatch(
      /80 of 200 located findings are not annotated \(max-annotations: 120/
    )
  })
})
