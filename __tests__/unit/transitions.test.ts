import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { needsHuman } from '../../src/loop/rules.js'
import {
  ACTIONS,
  LOOP_EVENTS,
  transition,
  TRANSITIONS,
  type Action,
  type LoopEvent
} from '../../src/loop/transitions.js'
import { LOOP_STATUSES, type LoopStatus } from '../../src/loop/types.js'

/** The table as written in src/loop/README.md: event → status → cell text. */
function readTable(): { statuses: string[]; rows: Map<string, string[]> } {
  const readme = readFileSync('src/loop/README.md', 'utf8')
  const block = readme.slice(
    readme.indexOf('<!-- transitions:start -->'),
    readme.indexOf('<!-- transitions:end -->')
  )
  const lines = block.split('\n').filter(l => l.startsWith('|'))
  const cells = (line: string) =>
    line
      .slice(1, -1)
      .split('|')
      .map(c => c.trim())
  const [header, , ...body] = lines
  const statuses = cells(header!).slice(1)
  const rows = new Map(body.map(l => [cells(l)[0]!.replace(/`/g, ''), cells(l).slice(1)]))
  return { statuses, rows }
}

describe('the transition table in src/loop/README.md', () => {
  const { statuses, rows } = readTable()

  it('has a column for every status and a row for every event', () => {
    expect(statuses).toEqual([...LOOP_STATUSES])
    expect([...rows.keys()]).toEqual([...LOOP_EVENTS])
  })

  /** The cell's promise: the next state and action, or a thrown bug for '—'. */
  function expectCell(status: LoopStatus, event: LoopEvent, cell: string): void {
    const where = `${status} × ${event}`
    if (cell === '—') {
      expect(() => transition(status, event), where).toThrow(
        `'${event}' cannot happen while the loop is ${status}`
      )
      return
    }
    const match = /^(\w+) · (\w+)( \(new round\))?$/.exec(cell)
    expect(match, `${where}: cell '${cell}'`).not.toBeNull()
    const [, to, then, newRound] = match!
    expect(transition(status, event), where).toEqual({
      to,
      then,
      ...(newRound ? { newRound: true } : {})
    })
  }

  it.each([...LOOP_STATUSES])('column %s says what the code does for every event', status => {
    const column = LOOP_STATUSES.indexOf(status)
    for (const event of LOOP_EVENTS) expectCell(status, event, rows.get(event)?.[column] ?? '?')
  })
})

describe('what the table promises', () => {
  const all = LOOP_STATUSES.flatMap(status =>
    LOOP_EVENTS.flatMap(event => {
      const t = TRANSITIONS[status][event]
      return t ? [{ status, event, ...t }] : []
    })
  )

  it('uses only the documented actions', () => {
    for (const t of all) expect(ACTIONS).toContain(t.then)
  })

  it('calls a human exactly when the loop ends in a state that needs one', () => {
    for (const t of all) {
      const ends = t.to !== 'running' && t.then !== 'skip'
      expect(t.then === 'escalate', `${t.status} × ${t.event}`).toBe(ends && needsHuman(t.to))
    }
  })

  it('starts another run only while the loop is running', () => {
    const starts: Action[] = ['review', 'fix', 'retrigger', 'wait']
    for (const t of all) if (starts.includes(t.then)) expect(t.to).toBe('running')
  })

  it('never changes the status when it skips', () => {
    for (const t of all) if (t.then === 'skip') expect(t.to).toBe(t.status)
  })

  it('leaves an ended loop only by a human: a new commit or a command (a new round), or the stop label', () => {
    const human: LoopEvent[] = [
      'new_head',
      'stop_label',
      'head_reviewed',
      'pr_closed',
      'pr_merged',
      'human_retry',
      'human_continue',
      'human_fix',
      'human_feedback',
      'human_approve'
    ]
    for (const t of all.filter(t => t.status !== 'running')) {
      expect(human).toContain(t.event)
      if (t.to === 'running') expect(t.newRound).toBe(true)
      // closing a PR whose loop has ended leaves its final word as it was
      if (t.event === 'pr_closed' || t.event === 'pr_merged') expect(t.then).toBe('skip')
    }
  })

  it('ends a running loop as closed or merged when its PR is, without calling a human', () => {
    expect(transition('running', 'pr_closed')).toEqual({ to: 'closed', then: 'end' })
    expect(transition('running', 'pr_merged')).toEqual({ to: 'merged', then: 'end' })
  })

  it('lets no review or fix outcome happen outside a running loop', () => {
    const terminal = LOOP_STATUSES.filter(
      (s): s is Exclude<LoopStatus, 'running'> => s !== 'running'
    )
    for (const status of terminal)
      for (const event of LOOP_EVENTS.filter(e => /^(review_|no_go|fix_)/.test(e)))
        expect(TRANSITIONS[status][event]).toBeUndefined()
  })
})
