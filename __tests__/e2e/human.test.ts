import { describe, expect, it } from 'vitest'
import type { LoopState } from '../../src/loop/types.js'
import { APP_LOGIN } from '../../test-support/harness.js'
import { EMPTY_NAME, FIX_EDIT, GREET, verdict } from './greet-replies.js'
import type { ModelServer, ScriptedReply } from '../../test-support/model-server.js'
import { runScenario, type Scenario, type ScenarioReport } from '../../test-support/scenario.js'

/**
 * The loop listens: maintainer commands, human reviews turned into fixes, check-run buttons and
 * overrides, each through dist/ on the emulators, with GitHub's rules for who may command and which
 * events start runs.
 */

const TODO_CHECK = 'todo: grep -rn "TODO" src && exit 1 || exit 0'
const FIX_TODOS = "sed -i 's/TODO/DONE/' src/*.js"

function gates(overrides: Partial<Scenario>): Scenario {
  return {
    base: { 'package.json': '{ "name": "sample", "private": true }\n' },
    pr: { commits: [{ message: 'todo', files: { 'src/a.js': 'x()\n// TODO later\n' } }] },
    inputs: { checks: TODO_CHECK, 'fix-commands': FIX_TODOS, 'max-iterations': '1' },
    ...overrides
  }
}

const state = (report: ScenarioReport) => report.finalState as unknown as LoopState
const statuses = (report: ScenarioReport) =>
  report.runs.map(r => `${r.event}:${r.outputs['status'] ?? '-'}`)
const replies = (report: ScenarioReport, login: string) =>
  report.comments.filter(c => c.body.startsWith(`@${login} `))

describe('maintainer commands', () => {
  it("continues a loop at its cap as a new round that reaches GO; an outsider's approve changes nothing", async () => {
    const report = await runScenario(
      gates({
        humanEvents: [
          {
            afterRun: 1,
            comment: { author: 'mallory', permission: 'read', body: '/review-loop approve' }
          },
          {
            afterRun: 1,
            comment: {
              author: 'maintainer',
              permission: 'write',
              body: 'Let it try again.\n/review-loop continue 2'
            }
          }
        ]
      })
    )
    expect(statuses(report)).toEqual([
      'pull_request:max_iterations',
      'issue_comment:skipped',
      'issue_comment:running',
      'workflow_dispatch:go'
    ])
    // the outsider: one short reply, a confused reaction, and the loop as it was
    expect(report.runs[1]!.exitCode).toBe(0)
    expect(report.runs[1]!.notices.join('\n')).toMatch(/mallory \(read\) has no write access/)
    expect(replies(report, 'mallory')).toHaveLength(1)
    expect(report.reactions.filter(r => r.content === 'confused')).toHaveLength(1)
    // the maintainer: 👀 then 🚀, a second round with the cap of 2, GO in its second iteration
    const final = state(report)
    expect(final.status).toBe('go')
    expect(final.round).toBe(2)
    expect(final.roundCap).toEqual({ round: 2, max: 2 })
    expect(final.override).toBeUndefined()
    expect(final.iterations.map(it => [it.round, it.decision])).toEqual([
      [1, 'NO_GO'],
      [2, 'NO_GO'],
      [2, 'GO']
    ])
    expect(final.iterations[1]!.trigger).toEqual({ by: 'maintainer', command: 'continue' })
    expect(final.processed).toHaveLength(1)
    const mine = report.reactions.filter(r => r.login === 'github-actions[bot]')
    expect(mine.map(r => r.content).sort()).toEqual(['confused', 'eyes', 'rocket'])
    expect(report.checkRuns.at(-1)!.conclusion).toBe('success')
    expect(report.comments[0]!.body).toContain('**What you can do:**')
  })

  it("does not let the PR's author dismiss their own blocker: retry stays NO_GO; a maintainer's dismissal counts", async () => {
    const id = 'RL-9a1c9782a5' // EMPTY_NAME on GREET
    // the reviewer's only objection is the finding: dismissing it settles the review
    const noGo = verdict('NO_GO', [EMPTY_NAME]) as Extract<ScriptedReply, { kind: 'json' }>
    const blocker = { ...noGo, value: { ...(noGo.value as object), failedCriteria: [] } }
    const say = (afterRun: number, author: string, body: string) => ({
      afterRun,
      comment: { author, permission: 'write' as const, body }
    })
    const report = await runScenario(
      ai([blocker, blocker, blocker], {
        inputs: { 'max-iterations': '1' },
        humanEvents: [
          // octocat opened the PR (the harness's PR author)
          say(1, 'octocat', `/review-loop dismiss ${id} not a problem`),
          say(2, 'octocat', '/review-loop retry'),
          say(3, 'maintainer', `/review-loop dismiss ${id} tracked in #12`),
          say(4, 'maintainer', '/review-loop retry')
        ]
      })
    )
    expect(statuses(report)).toEqual([
      'pull_request:max_iterations',
      'issue_comment:max_iterations',
      'issue_comment:max_iterations',
      'issue_comment:max_iterations',
      'issue_comment:go'
    ])
    expect(report.runs[2]!.outputs['verdict']).toBe('NO_GO')
    expect(replies(report, 'octocat')[0]!.body).toBe(
      `@octocat a dismissal by the PR's author does not count towards GO (the same rule as approve): ${id} keeps blocking. Fix it, answer it in the code or a review thread, or ask another maintainer to dismiss it.`
    )
    expect(report.checkRuns.map(c => c.conclusion)).toEqual(['failure', 'failure', 'success'])
    expect(state(report).dismissed).toEqual([
      expect.objectContaining({ id, by: 'maintainer', reason: 'tracked in #12' })
    ])
  })

  it("refuses a dismissal or approval by whoever made the PR (a commit's author, committer or co-author, a pusher); a maintainer's dismissal counts", async () => {
    const id = 'RL-9a1c9782a5' // EMPTY_NAME on GREET
    const noGo = verdict('NO_GO', [EMPTY_NAME]) as Extract<ScriptedReply, { kind: 'json' }>
    const blocker = { ...noGo, value: { ...(noGo.value as object), failedCriteria: [] } }
    const say = (afterRun: number, author: string, body: string) => ({
      afterRun,
      comment: { author, permission: 'write' as const, body }
    })
    const report = await runScenario(
      ai([blocker, blocker, blocker], {
        // alice wrote the commit, bob committed it, carol co-wrote it (named by an ordinary address
        // of hers: GitHub resolves it to her account)
        pr: {
          commits: [
            {
              message: 'greet\n\nCo-authored-by: Carol <carol@example.com>',
              files: { 'src/greet.js': GREET },
              author: { name: 'Alice', email: 'alice@example.com' },
              committer: { name: 'Bob', email: 'bob@example.com' }
            }
          ]
        },
        inputs: { 'max-iterations': '1' },
        // dana pushes octocat's commit: only the branch's activity names her
        humanPushes: [
          { beforeRun: 6, by: 'dana', message: 'notes', files: { 'docs/notes.md': 'notes\n' } }
        ],
        humanEvents: [
          say(1, 'alice', `/review-loop dismiss ${id} not a problem`),
          say(2, 'bob', `/review-loop dismiss ${id} not a problem`),
          say(3, 'carol', `/review-loop dismiss ${id} not a problem`),
          say(4, 'bob', '/review-loop approve fine by me'),
          say(6, 'dana', `/review-loop dismiss ${id} not a problem`),
          say(7, 'maintainer', `/review-loop dismiss ${id} tracked in #12`),
          say(8, 'maintainer', '/review-loop retry')
        ]
      }),
      {
        before: sandbox => {
          // the addresses GitHub ties to alice's, bob's and carol's accounts (verified emails)
          sandbox.emulator.addEmail('alice', 'alice@example.com')
          sandbox.emulator.addEmail('bob', 'bob@example.com')
          sandbox.emulator.addEmail('carol', 'carol@example.com')
        }
      }
    )
    expect(statuses(report)).toEqual([
      'pull_request:max_iterations',
      'issue_comment:max_iterations',
      'issue_comment:max_iterations',
      'issue_comment:max_iterations',
      'issue_comment:skipped',
      'pull_request:max_iterations',
      'issue_comment:max_iterations',
      'issue_comment:max_iterations',
      'issue_comment:go'
    ])
    const refusal = (login: string, who: string) =>
      new RegExp(
        `^@${login} a dismissal by ${who} \\(you\\) does not count towards GO \\(the same rule as approve\\): ${id} keeps blocking\\.`
      )
    expect(replies(report, 'alice')[0]!.body).toMatch(
      refusal('alice', 'the author of its commit [0-9a-f]{7}')
    )
    expect(replies(report, 'bob')[0]!.body).toMatch(
      refusal('bob', 'the committer of its commit [0-9a-f]{7}')
    )
    expect(replies(report, 'carol')[0]!.body).toMatch(
      refusal('carol', 'a co-author of its commit [0-9a-f]{7} \\(Co-authored-by\\)')
    )
    expect(replies(report, 'dana')[0]!.body).toMatch(
      refusal('dana', 'someone who pushed to its head branch')
    )
    expect(replies(report, 'bob')[1]!.body).toMatch(
      /^@bob you are the committer of its commit [0-9a-f]{7}, and whoever made a PR cannot approve it through review-loop \(GitHub's rule: the most recent push cannot be approved by whoever pushed it\): ask another maintainer\.$/
    )
    // the refusals changed nothing: no approval, one dismissal (the maintainer's), and GO after it
    expect(state(report).override).toBeUndefined()
    expect(state(report).dismissed).toEqual([
      expect.objectContaining({ id, by: 'maintainer', reason: 'tracked in #12' })
    ])
    expect(replies(report, 'maintainer')[0]!.body).toMatch(
      new RegExp(`^@maintainer dismissed ${id}: it no longer blocks GO\\.`)
    )
    expect(report.checkRuns.at(-1)!.conclusion).toBe('success')
  })

  it("dispatches the loop's next run again when a command's run took its place in the concurrency group", async () => {
    const report = await runScenario(
      gates({
        inputs: { checks: TODO_CHECK, 'fix-commands': FIX_TODOS },
        humanEvents: [
          {
            afterRun: 1,
            whileRunning: true,
            comment: { author: 'maintainer', permission: 'write', body: '/review-loop status' }
          }
        ]
      })
    )
    expect(report.cancelledRuns).toEqual([{ afterRun: 1, event: 'workflow_dispatch' }])
    expect(statuses(report)).toEqual([
      'pull_request:running',
      'issue_comment:running',
      'workflow_dispatch:go'
    ])
    expect(report.runs[1]!.notices.join('\n')).toMatch(/cancelled the loop's waiting run/)
    expect(report.dispatches).toHaveLength(2)
    expect(replies(report, 'maintainer')[0]!.body).toMatch(
      /the loop is `running`: iteration 1 of 3/
    )
  })

  it("records a maintainer's approval as GO with who and why, turns the head's check green, and a re-run changes nothing", async () => {
    const report = await runScenario(
      gates({
        humanEvents: [
          {
            afterRun: 1,
            comment: {
              author: 'maintainer',
              permission: 'maintain',
              body: '/review-loop approve tracked in #12'
            }
          }
        ],
        reruns: [{ afterRun: 2 }]
      })
    )
    expect(statuses(report)).toEqual([
      'pull_request:max_iterations',
      'issue_comment:go',
      'issue_comment:go'
    ])
    expect(report.runs.every(r => r.exitCode === 0 || r.run === 1)).toBe(true)
    const final = state(report)
    expect(final.override).toMatchObject({ by: 'maintainer', reason: 'tracked in #12' })
    expect(final.reason).toBe('Approved as is by @maintainer: tracked in #12.')
    const checks = report.checkRuns.filter(c => c.headSha === report.checkRuns[0]!.headSha)
    expect(checks.map(c => c.conclusion)).toEqual(['failure', 'success'])
    // the reason is the approver's words: its reference is kept from linking (a zero-width space)
    expect(checks[1]!.title).toBe('Approved by @maintainer: tracked in #\u200b12')
    // the escalation label went on at the cap and came off at the approval
    expect(report.labels).not.toContain('review-loop: needs human')
    // the re-run found the comment processed: no second check run, no second reaction
    expect(report.runs[2]!.notices.join('\n')).toMatch(/processed already/)
    expect(report.reactions.filter(r => r.content === 'rocket')).toHaveLength(1)
  })

  it('answers status and help, and refuses a fix with no review yet in words', async () => {
    const report = await runScenario(
      gates({
        start: { event: 'pull_request', action: 'labeled' },
        humanEvents: [
          {
            afterRun: 1,
            comment: {
              author: 'maintainer',
              permission: 'admin',
              body: '/review-loop fix handle empty names'
            }
          },
          {
            afterRun: 3,
            comment: { author: 'maintainer', permission: 'admin', body: '/Review-Loop status' }
          },
          {
            afterRun: 4,
            comment: { author: 'maintainer', permission: 'admin', body: '/review-loop frobnicate' }
          },
          {
            afterRun: 5,
            comment: { author: 'octocat', permission: 'admin', body: '/review-loop approve mine' }
          }
        ],
        // a re-run of the refused fix finds its 😕 there and says nothing again
        reruns: [{ afterRun: 2 }]
      })
    )
    const words = replies(report, 'maintainer').map(c => c.body)
    expect(words).toHaveLength(3)
    expect(report.runs[2]!.attempt).toBe(2)
    expect(words[0]).toBe(
      '@maintainer no review on this PR yet — comment `/review-loop retry` first.'
    )
    expect(words[1]).toMatch(/there is no review on this PR yet[\s\S]*`\/review-loop retry`/)
    expect(words[2]).toMatch(/`frobnicate` is not a review-loop command/)
    // the PR's author (octocat) may not turn its own check green
    expect(replies(report, 'octocat').map(c => c.body)).toEqual([
      "@octocat the PR's author cannot approve their own PR through review-loop: ask another maintainer."
    ])
    expect(report.finalState).toBeUndefined()
  })
})

function ai(replies: ScriptedReply[], more: Partial<Scenario>): Scenario {
  return {
    base: { 'package.json': '{ "name": "sample", "type": "module" }\n' },
    pr: { commits: [{ message: 'greet', files: { 'src/greet.js': GREET } }] },
    model: { replies },
    ...more
  }
}

/**
 * The messages of every reviewer and fixer call the model server received (verifier calls left
 * out), each as JSON, per call.
 */
function keepPrompts(into: string[][]): (s: unknown, m?: ModelServer) => Promise<void> {
  return async (_s, model) => {
    for (const call of (model?.calls ?? []).filter(c => !c.verifier))
      into.push(
        (call.messages as Array<{ role: string; content: unknown }>).map(m =>
          JSON.stringify(m.content)
        )
      )
  }
}

describe('fixes a human asks for', () => {
  it('runs one fix carrying the instructions of `/review-loop fix`', async () => {
    const prompts: string[][] = []
    const report = await runScenario(
      ai(
        [
          verdict('NO_GO', [EMPTY_NAME]),
          FIX_EDIT,
          { kind: 'text', text: 'Defaulted the name to world.' },
          verdict('GO')
        ],
        {
          inputs: { 'max-iterations': '1' },
          humanEvents: [
            {
              afterRun: 1,
              comment: {
                author: 'maintainer',
                permission: 'write',
                body: '/review-loop fix handle empty names'
              }
            }
          ]
        }
      ),
      { keep: keepPrompts(prompts) }
    )
    expect(statuses(report)).toEqual([
      'pull_request:max_iterations',
      'issue_comment:running',
      'workflow_dispatch:go'
    ])
    // the fixer's task holds the maintainer's words and the carried finding
    const task = prompts[1]![0]!
    expect(task).toContain('@maintainer asks: handle empty names')
    expect(task).toContain('greet prints')
    const final = state(report)
    expect(final.iterations[1]!.trigger).toEqual({
      by: 'maintainer',
      command: 'fix',
      instructions: 'handle empty names',
      carried: 1
    })
    expect(final.iterations[1]!.fix!.outcome).toBe('pushed')
    expect(final.round).toBe(2)
  })

  it('fixes a changes-requested review with two inline comments, answers and resolves both threads, and processes nothing twice', async () => {
    const report = await runScenario(
      ai(
        [
          verdict('GO'),
          FIX_EDIT,
          { kind: 'text', text: 'Handled the empty name in greet.' },
          verdict('GO')
        ],
        {
          humanEvents: [
            {
              afterRun: 1,
              review: {
                author: 'alice',
                permission: 'write',
                state: 'changes_requested',
                body: '',
                comments: [
                  { path: 'src/greet.js', line: 2, body: 'Handle the empty case' },
                  { path: 'src/greet.js', line: 1, body: 'Name the default in the docs' }
                ]
              }
            }
          ],
          reruns: [{ afterRun: 2 }]
        }
      )
    )
    expect(
      report.runs.map(r => `${r.event}${r.attempt > 1 ? ` (attempt ${r.attempt})` : ''}`)
    ).toEqual([
      'pull_request',
      'pull_request_review',
      'pull_request_review (attempt 2)',
      // GitHub's concurrency group keeps one waiting run: the second comment's run replaced the first's
      'pull_request_review_comment',
      'workflow_dispatch'
    ])
    expect(report.cancelledRuns).toEqual([{ afterRun: 1, event: 'pull_request_review_comment' }])
    expect(report.runs.every(r => r.exitCode === 0)).toBe(true)
    const final = state(report)
    const fixIteration = final.iterations[1]!
    expect(fixIteration.trigger).toMatchObject({ by: 'alice', command: 'feedback' })
    expect(fixIteration.findings.map(f => [f.source, f.severity, f.file, f.line])).toEqual([
      ['human', 'high', 'src/greet.js', 2],
      ['human', 'high', 'src/greet.js', 1]
    ])
    expect(final.status).toBe('go')
    // one fix pushed, both threads answered once and resolved
    expect(report.pushes.filter(p => p.by !== 'human')).toHaveLength(1)
    const sha = fixIteration.fix!.commitSha
    const answers = report.reviewComments.filter(c => c.author === 'github-actions[bot]')
    expect(answers.map(a => a.body)).toEqual([
      `Addressed in ${sha}: Handled the empty name in greet.`,
      `Addressed in ${sha}: Handled the empty name in greet.`
    ])
    expect(report.reviewThreads.map(t => t.isResolved)).toEqual([true, true])
    // the re-run and the review-comment runs found nothing new
    for (const run of report.runs.slice(2, 4))
      expect(run.notices.join('\n')).toMatch(/No new review feedback/)
  })
})

describe('questions in review threads', () => {
  it('has the reviewer model answer a question in its thread, changes no code, and answers once', async () => {
    const report = await runScenario(
      ai(
        [
          verdict('GO'),
          {
            kind: 'text',
            text: 'It returns the greeting as is; @someone could localise it later. <img src=https://evil.example/p.png>\u0000\u001b[31m'
          }
        ],
        {
          humanEvents: [
            {
              afterRun: 1,
              review: {
                author: 'alice',
                permission: 'admin',
                state: 'commented',
                body: 'One question.',
                comments: [
                  { path: 'src/greet.js', line: 2, body: 'Why is the greeting not localised?' }
                ]
              }
            }
          ]
        }
      )
    )
    expect(report.runs.map(r => r.event)).toEqual([
      'pull_request',
      'pull_request_review',
      'pull_request_review_comment'
    ])
    const answers = report.reviewComments.filter(c => c.author === 'github-actions[bot]')
    expect(answers).toHaveLength(1)
    // the answer's mentions are made inert, and it says whose answer it is
    expect(answers[0]!.body).toMatch(/^It returns the greeting as is; @\u200bsomeone could/)
    expect(answers[0]!.body).toContain("Answered by review-loop's reviewer model")
    // nor does its HTML render, nor its control bytes reach GitHub
    expect(answers[0]!.body).toContain('later. <\u200bimg src=https://evil.example/p.png>')
    expect(answers[0]!.body).not.toContain('\u0000')
    expect(answers[0]!.body).not.toContain('\u001b')
    expect(report.pushes.filter(p => p.by !== 'human')).toHaveLength(0)
    expect(report.modelCalls).toHaveLength(2)
    expect(state(report).status).toBe('go')
    // the review and its comment are remembered as processed
    expect(state(report).processed).toHaveLength(2)
    expect(state(report).processed).toContain(`t${report.reviewComments[0]!.id}`)
    expect(report.runs[2]!.notices.join('\n')).toMatch(/No new review feedback/)
  })
})

describe('check-run buttons', () => {
  it('retries on a click when an App token made the check run; a click on a workflow-token check starts nothing', async () => {
    const withApp = await runScenario(
      gates({
        token: 'app',
        inputs: {
          checks: TODO_CHECK,
          'max-iterations': '1',
          'check-run-buttons': 'true',
          'state-author': APP_LOGIN
        },
        humanEvents: [
          { afterRun: 1, button: { author: 'maintainer', permission: 'write', action: 'retry' } }
        ]
      })
    )
    expect(withApp.checkRuns[0]!.actions).toEqual(['retry', 'continue', 'approve'])
    expect(statuses(withApp)).toEqual(['pull_request:max_iterations', 'check_run:max_iterations'])
    const final = state(withApp)
    expect(final.round).toBe(2)
    expect(final.iterations[1]!.trigger).toEqual({ by: 'maintainer', command: 'retry' })
    expect(final.processed).toEqual([`b${withApp.runs[1]!.runId}`])

    const withWorkflowToken = await runScenario(
      gates({
        inputs: { checks: TODO_CHECK, 'max-iterations': '1', 'check-run-buttons': 'true' },
        humanEvents: [
          { afterRun: 1, button: { author: 'maintainer', permission: 'write', action: 'retry' } }
        ]
      })
    )
    expect(withWorkflowToken.runs).toHaveLength(1)
    expect(withWorkflowToken.ignoredEvents).toEqual([
      {
        afterRun: 1,
        what: "button 'retry'",
        why: 'the check run was made with the workflow token, and GitHub starts no workflow for a check run made by GitHub Actions'
      }
    ])
  })
})
