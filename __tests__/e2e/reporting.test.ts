import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { Sandbox } from '../../test-support/harness.js'
import { runScenario, type Scenario } from '../../test-support/scenario.js'
import type { ScriptedReply } from '../../test-support/model-server.js'

const TODO_CHECK = 'todo: grep -rn "TODO" src && exit 1 || exit 0'

function base(overrides: Partial<Scenario>): Scenario {
  return {
    base: { 'README.md': '# sample\n' },
    pr: { commits: [{ message: 'todo', files: { 'src/a.js': 'run()\n// TODO later\n' } }] },
    inputs: { checks: TODO_CHECK, 'fix-commands': 'date +%s%N >> src/stamp.txt' },
    ...overrides
  }
}

function timelineRows(body: string): string[] {
  return body.split('\n').filter(l => /^\| \d+( \(round \d+\))? \| \[`[0-9a-f]{7}`\]/.test(l))
}

describe('what people see', () => {
  it('keeps exactly one PR comment whose timeline has a row per iteration after a 3-iteration loop', async () => {
    // each fix turns the TODO into another one: a new finding each time, so the loop runs to its cap
    // (the same finding raised again after a fix would stall it at the second review)
    const report = await runScenario(
      base({
        inputs: {
          checks: TODO_CHECK,
          'fix-commands': 'sed -i "s/TODO.*/TODO $(date +%s%N)/" src/a.js',
          'max-iterations': '3'
        }
      })
    )
    expect(report.runs).toHaveLength(3)
    expect(report.comments).toHaveLength(1)
    const body = report.comments[0]!.body
    expect(timelineRows(body)).toHaveLength(3)
    expect(body).toContain('## Review loop: stopped at the iteration cap — iteration 3 of 3')
    expect(body).toContain('```mermaid')
    expect(body).toMatch(/review 1: NO_GO \(1\)"\]\s+n0 --> n1\["fix 1: 1 file"\]/)
    // the open finding links to the file at the reviewed commit and says how long it has been open
    expect(body).toMatch(
      /\[`src\/a\.js:2`\]\(https:\/\/github\.com\/acme\/widgets\/blob\/[0-9a-f]{40}\/src\/a\.js#L2\)/
    )
    expect(body).toContain('open for 1 iteration')
    // the fix changed each earlier finding's line: fixed, not just no longer raised
    expect(timelineRows(body).map(r => r.split(' | ')[4])).toEqual(['0', '1', '1'])
    expect(report.checkRuns).toHaveLength(3)
    expect(report.checkRuns.map(c => c.title)).toEqual(Array(3).fill('NO_GO: 1 finding (1 high)'))
  })

  it('turns 120 located findings of two checks into 120 annotations over 3 requests', async () => {
    const lines = Array.from({ length: 60 }, (_, i) => `// TODO item ${i + 1}`).join('\n') + '\n'
    const report = await runScenario(
      base({
        pr: {
          commits: [{ message: 'many', files: { 'src/many.js': lines, 'lib/more.js': lines } }]
        },
        inputs: {
          checks: [
            'todo-src: grep -rn "TODO" src && exit 1 || exit 0',
            'todo-lib: grep -rn "TODO" lib && exit 1 || exit 0'
          ].join('\n'),
          'max-iterations': '1'
        }
      })
    )
    const run = report.runs[0]!
    const annotations = report.checkRuns[0]!.annotations
    expect(annotations).toHaveLength(120)
    expect(new Set(annotations.map(a => `${a.path}:${a.start_line}`)).size).toBe(120)
    expect(run.calls['POST /repos/{owner}/{repo}/check-runs']).toBe(1)
    expect(run.calls['PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}']).toBe(2)
    expect(run.coreCallCount).toBeLessThanOrEqual(10)
  })

  it('leaves a valid comment for a 60,000-character review and keeps the full text in the artifact', async () => {
    const findings = Array.from({ length: 10 }, (_, i) => ({
      severity: 'medium',
      category: 'logic',
      file: 'src/a.js',
      line: 1,
      evidence: 'run()',
      title: `Problem number ${i + 1} in run()`,
      description: `${'Long explanation. '.repeat(330)}END-${i + 1}`
    }))
    const verdict: ScriptedReply = {
      kind: 'json',
      value: {
        decision: 'NO_GO',
        summary: 'Many problems.',
        findings,
        failedCriteria: [],
        passedCriteria: [],
        requiredRework: [],
        earlierFindings: []
      }
    }
    let reviewMd = ''
    const report = await runScenario(
      base({
        inputs: { checks: 'ok: true', 'max-iterations': '1' },
        model: { replies: [verdict] }
      }),
      {
        onRun: run => {
          if (!run.outputs['review-json']) throw new Error(run.stdout + run.stderr)
          reviewMd = readFileSync(
            path.join(path.dirname(run.outputs['review-json']!), 'review-1.md'),
            'utf8'
          )
        }
      }
    )
    const total = findings.reduce((n, f) => n + f.description.length, 0)
    expect(total).toBeGreaterThan(59_000)
    const body = report.comments[0]!.body
    expect(body.length).toBeLessThanOrEqual(65_536)
    expect(report.finalState).toMatchObject({ status: 'max_iterations' })
    for (let i = 1; i <= 10; i++) expect(reviewMd).toContain(`END-${i}`)
    expect(body).toContain('the full text is in the review artifact')
  })

  it('escalates to a human (label, reviewers, mention) and takes the label off at GO', async () => {
    const report = await runScenario(
      base({
        inputs: {
          checks: TODO_CHECK,
          'fix-commands': 'true',
          'escalation-reviewers': 'alice, acme/maintainers'
        },
        humanPushes: [{ beforeRun: 2, message: 'done', files: { 'src/a.js': 'run()\n' } }]
      }),
      {
        keep: async sandbox => {
          // after run 1 (stalled) the label was there; the emulator recorded the calls
          const routes = sandbox.emulator.requests.map(r => `${r.route} ${r.status}`)
          expect(routes).toContain('POST /repos/{owner}/{repo}/issues/{issue_number}/labels 200')
          expect(routes).toContain(
            'POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers 201'
          )
          expect(routes).toContain(
            'DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name} 200'
          )
        }
      }
    )
    expect(report.runs.map(r => r.outputs['status'])).toEqual(['stalled', 'go'])
    expect(report.requestedReviewers).toContain('alice')
    expect(report.labels).not.toContain('review-loop: needs human')
  })

  it('mentions the people it escalates to in the comment, with the full history of findings', async () => {
    const sandbox = await Sandbox.create(base({}))
    try {
      await sandbox.run({
        event: 'pull_request',
        action: 'opened',
        inputs: { checks: TODO_CHECK, 'fix-commands': 'true', 'escalation-reviewers': 'alice' }
      })
      const body = sandbox.emulator.comments[0]!.body
      expect(body).toContain('**A human is needed:** @alice')
      expect(body).toContain('Full history of findings')
      expect(sandbox.emulator.pulls.get(7)!.labels).toEqual(['review-loop: needs human'])
    } finally {
      await sandbox.close()
    }
  })

  it('falls back to a comment review with a notice when GitHub refuses an approval', async () => {
    const report = await runScenario(
      base({
        pr: { commits: [{ message: 'clean', files: { 'src/a.js': 'run()\n' } }] },
        inputs: { checks: TODO_CHECK, 'submit-review': 'approve' }
      }),
      {
        keep: async sandbox => {
          expect(sandbox.emulator.reviews.map(r => r.event)).toEqual(['COMMENT'])
        }
      }
    )
    expect(report.runs[0]!.outputs['status']).toBe('go')
    expect(report.runs[0]!.notices.join()).toContain('GitHub refused the approval')
  })

  it('gives a neutral check instead of a failure for terminal states left out of fail-on', async () => {
    const report = await runScenario(
      base({ inputs: { checks: TODO_CHECK, 'fix-commands': 'true', 'fail-on': 'error' } })
    )
    expect(report.runs[0]!.outputs['status']).toBe('stalled')
    expect(report.runs[0]!.exitCode).toBe(0)
    expect(report.checkRuns[0]!.conclusion).toBe('neutral')
  })

  it('writes a job summary with this review as a table and the same diagram', async () => {
    const sandbox = await Sandbox.create(base({}))
    try {
      const run = await sandbox.run({
        event: 'pull_request',
        action: 'opened',
        inputs: { checks: TODO_CHECK, 'max-iterations': '1' }
      })
      expect(run.summary).toContain('| severity | location | finding | source | id |')
      expect(run.summary).toContain('todo: // TODO later')
      expect(run.summary).toContain('```mermaid')
      expect(run.summary).toContain('| todo | ❌ fail | 1 |')
    } finally {
      await sandbox.close()
    }
  })
})
