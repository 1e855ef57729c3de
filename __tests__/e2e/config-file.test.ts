import { describe, expect, it } from 'vitest'
import { runScenario, type Scenario } from '../../test-support/scenario.js'

const TODO_CHECK = 'todo: grep -n TODO src/a.js | sed "s|^|src/a.js:|" | grep . && exit 1 || exit 0'

function withFile(file: string, overrides: Partial<Scenario> = {}): Scenario {
  return {
    base: { 'README.md': '# sample\n', '.github/review-loop.yml': file },
    pr: { commits: [{ message: 'todo', files: { 'src/a.js': 'run()\n// TODO later\n' } }] },
    ...overrides
  }
}

const FILE = [
  '# yaml-language-server: $schema=https://raw.githubusercontent.com/your-org/review-loop/v1/schema/review-loop.schema.json',
  'checks:',
  `  - '${TODO_CHECK}'`,
  'fix-commands:',
  "  - sed -i '/TODO/d' src/a.js",
  'max-iterations: 4',
  ''
].join('\n')

describe('.github/review-loop.yml', () => {
  it('runs checks and fix commands named only in the file, read from the base branch', async () => {
    const report = await runScenario(withFile(FILE))
    expect(report.runs.map(r => r.exitCode)).toEqual([0, 0])
    expect(report.runs[0]!.groups).toContain('check todo: exit 1, 1 located problem')
    expect(report.runs[0]!.outputs['max-iterations']).toBe('4')
    expect(report.finalState?.['status']).toBe('go')
    expect(report.openApiProblems).toEqual([])
  })

  it('lets the workflow inputs override the file', async () => {
    const report = await runScenario(withFile(FILE, { inputs: { 'max-iterations': '2' } }))
    expect(report.runs[0]!.outputs['max-iterations']).toBe('2')
    expect(report.runs[0]!.groups).toContain('check todo: exit 1, 1 located problem')
  })

  it('is read from the base commit: a PR that rewrites it is reviewed by the base settings', async () => {
    const report = await runScenario(
      withFile(FILE, {
        pr: {
          commits: [
            {
              message: 'todo, and no more checks',
              files: {
                'src/a.js': 'run()\n// TODO later\n',
                '.github/review-loop.yml': "checks: 'todo: exit 0'\n"
              }
            }
          ]
        }
      })
    )
    expect(report.runs[0]!.groups).toContain('check todo: exit 1, 1 located problem')
  })

  it('fails the step on a wrong key, naming the key, its line and the fix', async () => {
    const report = await runScenario(withFile(`checks: 'x: true'\nmax-iteration: 4\n`))
    const [run] = report.runs
    expect(run!.exitCode).toBe(1)
    expect(run!.errors.join('\n')).toMatch(
      /line 2.*`max-iteration`.*did you mean `max-iterations`/s
    )
    expect(report.comments).toEqual([])
  })

  it('says a wrong value came from the file', async () => {
    const report = await runScenario(withFile(`checks: 'x: true'\nmax-iterations: 50\n`))
    const [run] = report.runs
    expect(run!.exitCode).toBe(1)
    expect(run!.errors.join('\n')).toMatch(
      /Input 'max-iterations'.*It is set in \.github\/review-loop\.yml/s
    )
  })
})
