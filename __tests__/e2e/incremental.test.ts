import { describe, expect, it } from 'vitest'
import type { ModelServer, ScriptedReply } from '../../test-support/model-server.js'
import { runScenario, type Scenario, type ScenarioReport } from '../../test-support/scenario.js'
import { verdict } from './greet-replies.js'

/** A source file of about `chars` characters, `lines` of real-looking code. */
function source(name: string, chars: number, extra = ''): string {
  const out: string[] = []
  let size = 0
  for (let i = 0; size < chars; i++) {
    const line = `export function ${name}${i}(x) { return x * ${i} + ${i % 7} }`
    out.push(line)
    size += line.length + 1
  }
  return `${out.join('\n')}\n${extra}`
}

/** 24 files in 6 folders, about 600,000 characters of diff: 6 parts or more. */
function largePr(): Pick<Scenario, 'base' | 'pr'> {
  const files: Record<string, string> = {}
  for (let d = 0; d < 6; d++)
    for (let f = 0; f < 4; f++)
      files[`src/mod${d}/file${f}.js`] = source(
        `m${d}f${f}`,
        25_000,
        d === 2 && f === 1 ? 'export const handle = req => eval(req.query.code)\n' : ''
      )
  return {
    base: { 'README.md': '# app\n' },
    pr: { title: 'A large change', commits: [{ message: 'large change', files }] }
  }
}

/** Every review call's request text per run (verifier calls left out). */
function reviewCalls(model: ModelServer): string[] {
  return model.calls
    .filter(c => c.status === 200 && !c.verifier)
    .map(c =>
      (c.messages as Array<{ content: Array<{ type: string; text?: string }> }>)
        .flatMap(m => m.content.map(b => b.text ?? ''))
        .join('\n')
    )
}

const EVAL = {
  severity: 'critical',
  category: 'security',
  file: 'src/mod2/file1.js',
  line: source('m2f1', 25_000).split('\n').length,
  evidence: 'export const handle = req => eval(req.query.code)',
  title: 'eval of request input runs any code a caller sends',
  description: 'handle() passes req.query.code to eval.',
  suggestedFix: 'Remove the eval.'
}

const FIX: ScriptedReply = {
  kind: 'tool_use',
  name: 'edit_file',
  input: { path: 'src/mod2/file1.js', old_text: 'eval(req.query.code)', new_text: 'String(req.query.code)' }
}

describe('incremental review', () => {
  it('sends again only the part the fix changed', async () => {
    let texts: string[] = []
    const report: ScenarioReport = await runScenario(
      {
        ...largePr(),
        inputs: { 'max-iterations': '3' },
        model: {
          templates: [
            { when: { contains: ['# Findings to address', 'edited src/mod2/file1.js'] }, reply: { kind: 'text', text: 'done' } },
            { when: { contains: '# Findings to address' }, reply: FIX },
            { when: { contains: '+export const handle = req => eval' }, reply: verdict('NO_GO', [EVAL]) },
            { reply: verdict('GO') }
          ]
        }
      },
      { keep: async (_s, model) => void (texts = reviewCalls(model!)) }
    )
    console.log(texts.length, report.runs.map(r => r.outputs['verdict']))
    console.log(JSON.stringify((report.finalState as any).iterations.map((i: any) => i.coverage)))
    console.log(report.comments.map(c => c.body).join("\n").split("### Latest review")[1]?.slice(0, 5000))
    expect(report.runs.at(-1)!.outputs['verdict']).toBe('GO')
  })
})
