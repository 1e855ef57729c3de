import { describe, expect, it } from 'vitest'
import { evidenceProblem } from '../../src/review/evidence.js'
import { combinePasses } from '../../src/review/judgment.js'
import type { ReviewerVerdict } from '../../src/loop/types.js'
import { finding, reviewerVerdict } from './builders.js'

const FILE = [
  'export function greet(name) {',
  "  return 'Hello, ' + name",
  '}',
  '',
  'export function shout(s) {',
  '  return s.toUpperCase()',
  '}'
]

describe('the evidence check: a blocking finding must quote the head lines it rests on', () => {
  it('accepts the quoted line, with its indentation and spacing changed, near the cited line', () => {
    const f = { file: 'src/greet.js', line: 2, evidence: "return   'Hello, ' + name" }
    expect(evidenceProblem(f, FILE)).toBeUndefined()
    expect(evidenceProblem({ ...f, line: 6 }, FILE)).toBeUndefined()
    expect(
      evidenceProblem({ ...f, evidence: 'export function greet(name) {\n  return' }, FILE)
    ).toBeUndefined()
  })

  it('refuses a quote that is not in the file, or not within 5 lines of the cited ones', () => {
    expect(evidenceProblem({ file: 'src/greet.js', line: 2, evidence: 'name.trim()' }, FILE)).toBe(
      'its evidence "name.trim()" is not in src/greet.js at lines 1-7'
    )
    const far = [...FILE, ...Array(20).fill(''), 'const far = 1']
    expect(evidenceProblem({ file: 'a.js', line: 2, evidence: 'const far = 1' }, far)).toMatch(
      /not in a.js at lines 1-7/
    )
    expect(evidenceProblem({ file: 'a.js', line: 2 }, FILE)).toBe(
      'it quotes no code (evidence) from the file'
    )
    expect(evidenceProblem({ file: 'a.js', line: 2, evidence: ' \n ' }, FILE)).toMatch(/no code/)
    // markers, numbers, fences and hunk headers alone quote no code either
    for (const evidence of ['+', '+\n-\n12:', '```\n```', '@@ -1 +1 @@'])
      expect(evidenceProblem({ file: 'a.js', line: 2, evidence }, FILE), evidence).toMatch(
        /quotes no code/
      )
  })

  it('accepts a quote in the form the reviewer was shown it: a diff marker, a line number, a search hit', () => {
    const at = (evidence: string) =>
      evidenceProblem({ file: 'src/greet.js', line: 2, evidence }, FILE)
    for (const quoted of [
      "+  return 'Hello, ' + name", // copied from the diff
      "    2  return 'Hello, ' + name", // the prompt's numbered file
      "2: return 'Hello, ' + name",
      "2| return 'Hello, ' + name",
      "L2 return 'Hello, ' + name",
      "src/greet.js:2:  return 'Hello, ' + name", // the search tool's hit
      "+export function greet(name) {\n+  return 'Hello, '+name\n+", // no whitespace, a blank + line
      ' export function greet(name) {', // a context line
      "```js\n  return 'Hello, ' + name\n```", // fenced
      "@@ -1,3 +1,3 @@\n+  return 'Hello, ' + name", // with its hunk header
      "2: +  return 'Hello, ' + name", // a number before the marker
      "> return 'Hello, ' + name" // a Markdown quote
    ])
      expect(at(quoted), quoted).toBeUndefined()
    expect(at("+  return 'Goodbye, ' + name")).toMatch(/is not in src\/greet.js/)
  })

  it('accepts a removed line quoted from the diff with its -, and only a line the diff removed', () => {
    const f = { file: 'src/greet.js', line: 2, evidence: '-  if (!name) return "Hello"' }
    const removed = ['  if (!name) return "Hello"', '']
    expect(evidenceProblem(f, FILE, removed)).toBeUndefined()
    expect(evidenceProblem(f, FILE, [])).toMatch(/is not in src\/greet.js at lines 1-7/)
    // without the -, a removed line is not in the head file
    expect(evidenceProblem({ ...f, evidence: 'if (!name) return "Hello"' }, FILE, removed)).toMatch(
      /is not in/
    )
  })

  it('compares a line with a hidden character as the model saw it (marked)', () => {
    const lines = ['const ok = 1', 'if (isAdmin\u202e) { grant() }']
    const quoted = 'if (isAdmin⟦hidden: U+202E⟧) { grant() }'
    expect(evidenceProblem({ file: 'a.js', line: 2, evidence: quoted }, lines)).toBeUndefined()
  })
})

function verdict(findings: ReviewerVerdict['findings']): ReviewerVerdict {
  return reviewerVerdict({ decision: findings.length ? 'NO_GO' : 'GO', summary: '', findings })
}

describe('several review passes count as votes', () => {
  const a = finding({ id: 'RL-a', line: 10, title: 'Off by one' })
  const b = finding({ id: 'RL-b', file: 'src/b.ts', line: 4, title: 'Null dereference' })
  const low = finding({ id: 'RL-c', severity: 'low', line: 40, title: 'Naming' })

  it('merges a finding raised by two passes at nearby lines under other ids, and counts its votes', () => {
    const moved = { ...a, id: 'RL-a2', line: 12, title: 'Loop bound off by one' }
    const out = combinePasses([verdict([a, b]), verdict([moved]), verdict([a, low])], 2, 'medium')
    expect(out.findings.map(f => [f.id, f.votes])).toEqual([
      ['RL-a', { count: 3, passes: 3 }],
      ['RL-c', { count: 1, passes: 3 }]
    ])
    expect(out.setAside?.map(f => [f.id, f.verification?.status, f.verification?.why])).toEqual([
      ['RL-b', 'outvoted', 'raised by 1 of 3 review passes; votes-to-block is 2']
    ])
    expect(out.decision).toBe('NO_GO')
  })

  it('counts a copy set aside for its quote as a vote, and keeps the finding as raised when any pass quoted it right', () => {
    const unquoted = {
      ...b,
      evidence: '```js',
      verification: {
        status: 'unverified' as const,
        by: 'evidence' as const,
        why: 'no',
        blocks: false
      }
    }
    const aside = (f: typeof unquoted): ReviewerVerdict => ({ ...verdict([]), setAside: [f] })
    const out = combinePasses([aside(unquoted), aside(unquoted), verdict([b])], 2, 'medium')
    expect(out.findings.map(f => [f.id, f.evidence, f.votes])).toEqual([
      ['RL-b', b.evidence, { count: 3, passes: 3 }]
    ])
    expect(out.setAside).toEqual([])
    // no pass quoted it right: one copy set aside for its quote, with every vote
    const none = combinePasses([aside(unquoted), aside(unquoted), verdict([])], 2, 'medium')
    expect(none.findings).toEqual([])
    expect(none.setAside?.map(f => [f.id, f.verification?.status, f.votes])).toEqual([
      ['RL-b', 'unverified', { count: 2, passes: 3 }]
    ])
  })

  it('keeps every finding with one vote needed, and is GO only when every pass is', () => {
    const out = combinePasses([verdict([]), verdict([b])], 1, 'medium')
    expect(out.findings.map(f => f.id)).toEqual(['RL-b'])
    expect(out.setAside).toEqual([])
    expect(out.decision).toBe('NO_GO')
    expect(combinePasses([verdict([]), verdict([])], 1, 'medium').decision).toBe('GO')
  })
})
