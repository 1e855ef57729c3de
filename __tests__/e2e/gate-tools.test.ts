import { execSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  copySample,
  located,
  runLive,
  sortPlanted,
  toolEnv
} from '../../test-support/gate-parity.js'
import { GATE_TOOLS, type GateTool } from '../../test-support/gate-tools.js'
import { runScenario } from '../../test-support/scenario.js'

/**
 * The real tools, run as checks on the sample repository through runGates: each finds what its
 * captured fixture holds. CI installs the npm and Debian ones (.ci/run sets
 * REVIEW_LOOP_REAL_TOOLS=required, so a missing one fails); clippy runs where rustup put cargo.
 */
const required = process.env['REVIEW_LOOP_REAL_TOOLS'] === 'required'

function installed(tool: GateTool): boolean {
  try {
    execSync(`command -v ${tool.run!.bin}`, { env: toolEnv(), stdio: 'ignore', shell: '/bin/sh' })
    return true
  } catch {
    return false
  }
}

const live = GATE_TOOLS.filter(t => t.run)

describe('the real tools, run as checks', () => {
  it.each(live.map(t => [`${t.tool} ${t.format}`, t] as const))(
    '%s',
    async (_name, tool) => {
      if (!installed(tool)) {
        if (required && tool.run!.from !== 'rustup')
          throw new Error(
            `${tool.run!.bin} is not installed (${tool.run!.from}); .ci/run installs it`
          )
        return
      }
      const root = copySample()
      try {
        expect(located(await runLive(tool, root))).toEqual(sortPlanted(tool.planted))
      } finally {
        rmSync(root, { recursive: true, force: true })
      }
    },
    240_000
  )
})

describe('checks through the built action', () => {
  it('annotates a real tool and a problem matcher on their lines and columns, with each check in its own log group', async () => {
    const matcher = {
      problemMatcher: [
        {
          owner: 'todo',
          pattern: [{ regexp: '^TODO (\\S+) line (\\d+): (.*)$', file: 1, line: 2, message: 3 }]
        }
      ]
    }
    const report = await runScenario({
      base: { 'README.md': '# sample\n', '.github/matchers/todo.json': JSON.stringify(matcher) },
      pr: {
        commits: [
          {
            message: 'deploy script',
            files: {
              'sh/deploy': '#!/bin/sh\ntarget=production\necho Deploying $1\ncd /tmp\n',
              'src/a.js': 'run()\n'
            }
          }
        ]
      },
      inputs: {
        checks: [
          'sh[warning=low]: shellcheck -f json sh/deploy',
          'todo: echo "TODO src/a.js line 1: remove me"; echo "::error file=src/a.js,line=1::from the tool"; exit 1'
        ].join('\n'),
        'problem-matchers': '.github/matchers/todo.json',
        'max-iterations': '1'
      }
    })
    const run = report.runs[0]!
    const annotations = report.checkRuns[0]!.annotations
    expect(
      annotations.map(a => [a.path, a.start_line, a.start_column, a.end_column, a.annotation_level])
    ).toEqual([
      ['src/a.js', 1, null, null, 'failure'],
      ['src/a.js', 1, null, null, 'failure'],
      ['sh/deploy', 2, 1, 7, 'warning'],
      ['sh/deploy', 3, 16, 18, 'warning'],
      ['sh/deploy', 4, 1, 8, 'warning']
    ])
    expect(run.groups).toEqual(
      expect.arrayContaining([
        'check sh: exit 1, 3 located problems',
        'check todo: exit 1, 2 located problems'
      ])
    )
    // PR code's output is shown, never run: the runner reads no workflow command in it
    expect(run.errors.join('\n')).not.toContain('from the tool')
  })
})
