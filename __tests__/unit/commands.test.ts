import { describe, expect, it } from 'vitest'
import { buttonsFor, commandsFor, parseCommand } from '../../src/loop/commands.js'
import { routeEvent } from '../../src/loop/router.js'
import type { Finding, ReviewResult } from '../../src/loop/types.js'
import { zeroUsage } from '../../src/loop/usage.js'
import { verdictOf } from '../../src/run/decide.js'
import { remember, wasProcessed } from '../../src/loop/state.js'
import { finding, NOW, reviewerVerdict, state } from './builders.js'

describe('parseCommand', () => {
  it('takes the first /review-loop line, whatever its case', () => {
    expect(parseCommand('Thanks!\n/Review-Loop CONTINUE 2\n/review-loop stop')).toEqual({
      name: 'continue',
      iterations: 2
    })
    expect(parseCommand('  /review-loop approve   tracked in #12  ')).toEqual({
      name: 'approve',
      reason: 'tracked in #12'
    })
    expect(parseCommand('/review-loop fix handle\nempty names')).toEqual({
      name: 'fix',
      instructions: 'handle'
    })
    expect(parseCommand('/review-loop')).toEqual({ name: 'help' })
  })

  it('ignores a command in a quote, in a code block, or in the middle of a line', () => {
    expect(parseCommand('> /review-loop approve')).toBeUndefined()
    expect(parseCommand('```\n/review-loop approve\n```')).toBeUndefined()
    expect(parseCommand('please run /review-loop approve')).toBeUndefined()
    expect(parseCommand('    /review-loop approve')).toBeUndefined()
    expect(parseCommand('/review-loopy approve')).toBeUndefined()
  })

  it('says what to write when a command cannot be done as written', () => {
    expect(parseCommand('/review-loop continue 99')).toMatchObject({
      name: 'invalid',
      error: expect.stringMatching(/from 1 to 20/)
    })
    expect(parseCommand('/review-loop dismiss the-thing')).toMatchObject({
      name: 'invalid',
      error: expect.stringMatching(/RL-0123456789/)
    })
    expect(parseCommand('/review-loop merge')).toMatchObject({
      name: 'invalid',
      error: '`merge` is not a review-loop command.'
    })
    expect(parseCommand('/review-loop dismiss rl-ABC123 not worth it')).toEqual({
      name: 'dismiss',
      id: 'RL-abc123',
      reason: 'not worth it'
    })
  })
})

describe('what a human can do, by state', () => {
  it('offers continue only after the loop stopped short of GO, and no button once it is GO', () => {
    expect(commandsFor(state({ status: 'max_iterations' }))).toContain('continue [N]')
    expect(commandsFor(state({ status: 'running' }))).not.toContain('continue [N]')
    expect(commandsFor(state({ status: 'go' }))).not.toContain('approve [reason]')
    expect(commandsFor(state({ status: 'merged' }))).toEqual([])
    expect(buttonsFor('running')).toEqual(['stop'])
    expect(buttonsFor('stalled')).toEqual(['retry', 'continue', 'approve'])
    expect(buttonsFor('error')).toEqual(['retry', 'approve'])
    expect(buttonsFor('go')).toEqual([])
  })
})

const comment = (over: Record<string, unknown> = {}) => ({
  issue: { number: 7, pull_request: { url: 'x' } },
  comment: { id: 11, body: '/review-loop retry', user: { login: 'maintainer', type: 'User' } },
  ...over
})

describe('routeEvent for what humans do', () => {
  it('turns a new PR comment with a command into a command intent keyed by the comment', () => {
    expect(
      routeEvent({ eventName: 'issue_comment', action: 'created', payload: comment() })
    ).toEqual({
      kind: 'command',
      pr: 7,
      command: { name: 'retry' },
      from: { login: 'maintainer', type: 'User' },
      via: 'comment',
      key: 'c11',
      commentId: 11
    })
  })

  it('skips edited comments, issue comments, comments without a command, and bots', () => {
    const skip = (e: Parameters<typeof routeEvent>[0]) => routeEvent(e).kind
    expect(skip({ eventName: 'issue_comment', action: 'edited', payload: comment() })).toBe('skip')
    expect(
      skip({
        eventName: 'issue_comment',
        action: 'created',
        payload: comment({ issue: { number: 7 } })
      })
    ).toBe('skip')
    expect(
      skip({
        eventName: 'issue_comment',
        action: 'created',
        payload: comment({ comment: { id: 1, body: 'LGTM', user: { login: 'a' } } })
      })
    ).toBe('skip')
    expect(
      skip({
        eventName: 'issue_comment',
        action: 'created',
        payload: comment({
          comment: { id: 1, body: '/review-loop approve', user: { login: 'x[bot]', type: 'Bot' } }
        })
      })
    ).toBe('skip')
  })

  it('routes reviews: a command in the body, feedback otherwise, nothing for an approval', () => {
    const review = (body: string, state: string) => ({
      eventName: 'pull_request_review',
      action: 'submitted',
      payload: {
        pull_request: { number: 7 },
        review: { id: 5, body, state, user: { login: 'alice', type: 'User' } }
      }
    })
    expect(routeEvent(review('/review-loop stop', 'commented'))).toMatchObject({
      kind: 'command',
      key: 'r5',
      via: 'review'
    })
    expect(routeEvent(review('Please fix', 'changes_requested'))).toEqual({
      kind: 'feedback',
      pr: 7,
      from: { login: 'alice', type: 'User' }
    })
    expect(routeEvent(review('', 'approved')).kind).toBe('skip')
  })

  it("routes a button click to its command, its PR named by the loop's external id", () => {
    const click = routeEvent({
      eventName: 'check_run',
      action: 'requested_action',
      runId: '4242',
      payload: {
        check_run: {
          name: 'review-loop',
          pull_requests: [{ number: 8 }],
          external_id: '9:3:1000:1'
        },
        requested_action: { identifier: 'approve' },
        sender: { login: 'maintainer', type: 'User' }
      }
    })
    expect(click).toEqual({
      kind: 'command',
      pr: 9,
      command: { name: 'approve', reason: "approved with the check run's button by @maintainer" },
      from: { login: 'maintainer', type: 'User' },
      via: 'button',
      key: 'b4242',
      checkName: 'review-loop'
    })
  })
})

describe('dismissed findings', () => {
  const verdict = (decision: 'GO' | 'NO_GO', findings: Finding[]): ReviewResult => ({
    gates: [],
    findings,
    usage: zeroUsage(),
    verdict: reviewerVerdict({ decision, summary: 's', findings })
  })
  const dismissed = state({
    dismissed: [{ id: 'RL-0000000001', by: 'maintainer', at: NOW.toISOString() }]
  })

  it('no longer block GO, even where the reviewer said NO_GO for them alone', () => {
    expect(verdictOf(verdict('NO_GO', [finding()]), dismissed, 'medium')).toBe('GO')
    expect(verdictOf(verdict('NO_GO', [finding()]), state(), 'medium')).toBe('NO_GO')
  })

  it("do not count when the PR's author dismissed them, as the author cannot approve either", () => {
    const byAuthor = state({
      dismissed: [{ id: 'RL-0000000001', by: 'Octocat', at: NOW.toISOString() }]
    })
    expect(verdictOf(verdict('NO_GO', [finding()]), byAuthor, 'medium', 'octocat')).toBe('NO_GO')
    // a maintainer's dismissal still counts
    expect(verdictOf(verdict('NO_GO', [finding()]), dismissed, 'medium', 'octocat')).toBe('GO')
  })

  it('leave every other blocker blocking', () => {
    const other = finding({ id: 'RL-0000000002' })
    expect(verdictOf(verdict('NO_GO', [finding(), other]), dismissed, 'medium')).toBe('NO_GO')
    expect(verdictOf(verdict('GO', [finding(), other]), dismissed, 'medium')).toBe('NO_GO')
  })
})

describe('what the loop remembers as processed', () => {
  it('keeps the newest 200 keys and raises the floors of the review ids that fall off', () => {
    let s = state()
    for (let id = 1; id <= 250; id++) s = remember(s, [`t${id}`, `r${1000 + id}`])
    expect(s.processed).toHaveLength(200)
    expect(s.feedbackSeen).toEqual({ review: 1150, comment: 150 })
    expect(wasProcessed(s, 't3')).toBe(true)
    expect(wasProcessed(s, 't250')).toBe(true)
    expect(wasProcessed(s, 't251')).toBe(false)
    // a draft review's comment has an older id than one processed since: it is still new
    const late = remember(state(), ['t90'])
    expect(wasProcessed(late, 't80')).toBe(false)
    expect(wasProcessed(late, 'c90')).toBe(false)
  })
})
