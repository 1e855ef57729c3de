import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { evalCli as runEvalCli } from '../../test-support/eval-cli.js'
import {
  changedFiles,
  evidenceAt,
  falseFinding,
  finding,
  fromLabels,
  labelVerifier,
  readCase,
  realFix,
  verdict
} from '../../test-support/eval-replies.js'
import {
  ModelServer,
  type RecordedCall,
  type ScriptedReply
} from '../../test-support/model-server.js'
import { TEST_API_KEY } from '../../test-support/scenario.js'

const CASES = path.resolve('eval/cases')
const dirs: string[] = []

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

const caseJson = (id: string) => readCase(CASES, id)
const changed = (id: string) => changedFiles(CASES, id)

/** The reviewer's and fixer's calls: the action's verifier calls (issue 28) left out. */
const own = (server: ModelServer) => server.calls.filter(c => !c.verifier)

/** Four shipped cases, one per runtime and a clean one, in the order the eval runs them (by id). */
const PICKED = [
  'clean-js-cookie-jsdoc-typo',
  'go-humanize-bytes-overflow',
  'js-cookie-domain-leading-dot',
  'py-cachetools-key-pickle'
]

/** `review-loop eval ARGS` through the committed bundle against the local model server. */
const evalCli = (
  server: ModelServer,
  args: string[],
  options: { bin?: string; json?: string } = {}
) => runEvalCli(server, args, dirs, options)

const caseArgs = (ids: readonly string[]) => ids.flatMap(id => ['--case', id])
const isFixer = (call: RecordedCall) =>
  (call.tools as Array<{ name?: string }>).some(t => t.name === 'write_file')

describe('review-loop eval, through dist/ against the local model server', () => {
  it('documents itself and lists one line per shipped case', async () => {
    const server = await ModelServer.start({ apiKey: TEST_API_KEY })
    try {
      const help = await evalCli(server, ['--help'])
      expect(help.code).toBe(0)
      for (const option of [
        '--list',
        '--loop',
        '--judge-model',
        '--max-cost-usd',
        '--json',
        '--set'
      ])
        expect(help.out).toContain(option)
      const list = await evalCli(server, ['--list'])
      expect(list.code).toBe(0)
      const ids = readdirSync(CASES).sort()
      const lines = list.out.trim().split('\n')
      expect(lines.slice(0, -1).map(l => l.split(/\s+/)[0])).toEqual(ids)
      expect(lines).toContainEqual(
        expect.stringMatching(/^js-cookie-domain-leading-dot +javascript +bug +test$/)
      )
      expect(lines.at(-1)).toMatch(
        new RegExp(`^${ids.length} cases: \\d+ bug, \\d+ clean; \\d+ with a test$`)
      )
      expect(server.calls).toHaveLength(0)
    } finally {
      await server.close()
    }
  })

  it('scores a reviewer scripted from the labels P = R = 1, and one that finds nothing R = 0', async () => {
    const perfect = await ModelServer.start({
      apiKey: TEST_API_KEY,
      script: PICKED.map(id => verdict(fromLabels(caseJson(id))))
    })
    try {
      const r = await evalCli(perfect, caseArgs(PICKED))
      expect(r.code, r.out + r.err).toBe(0)
      expect(r.json.summary).toMatchObject({ precision: 1, recall: 1, f1: 1 })
      expect(r.json.summary.falseNoGo).toMatchObject({ count: 0, of: 1 })
      expect(r.out).toMatch(/^Precision 1\.00/m)
      expect(r.out).toMatch(/^\[1\/4\] clean-js-cookie-jsdoc-typo +clean +GO/m)
      expect(own(perfect)).toHaveLength(4)
    } finally {
      await perfect.close()
    }
    const blind = await ModelServer.start({
      apiKey: TEST_API_KEY,
      templates: [{ reply: verdict([]) }]
    })
    try {
      const r = await evalCli(blind, caseArgs(PICKED))
      expect(r.code, r.out + r.err).toBe(0)
      expect(r.json.summary.recall).toBe(0)
      expect(r.json.summary.precision).toBeUndefined()
      expect(r.json.summary.missedGo).toMatchObject({ count: 3, of: 3 })
    } finally {
      await blind.close()
    }
  })

  it('scores a reviewer with known false positives at exactly their precision', async () => {
    // each bug case: its labelled issue plus one finding on line 1 of a file the PR changed (a
    // place the action can cite, away from every label); the clean case: one such finding
    const script = PICKED.map(id => {
      const c = caseJson(id)
      const file = changed(id)[0]!
      expect((c.issues ?? []).every(i => i.file !== file || i.lines[0] > 1 + 3)).toBe(true)
      return verdict([...fromLabels(c), falseFinding(c)])
    })
    const server = await ModelServer.start({ apiKey: TEST_API_KEY, script })
    try {
      const r = await evalCli(server, caseArgs(PICKED))
      const labelled = PICKED.reduce((n, id) => n + (caseJson(id).issues?.length ?? 0), 0)
      expect(r.json.summary.precision).toBeCloseTo(labelled / (labelled + PICKED.length), 10)
      expect(r.json.summary.recall).toBe(1)
      expect(r.json.summary.falseNoGo).toMatchObject({ count: 1, of: 1 })
    } finally {
      await server.close()
    }
  })

  it('matches by meaning with --judge-model when the place does not', async () => {
    const id = 'js-cookie-domain-leading-dot'
    const label = caseJson(id).issues![0]!
    const line = label.lines[1] + 40
    const evidence = evidenceAt(caseJson(id), label.file, line)
    const server = await ModelServer.start({
      apiKey: TEST_API_KEY,
      script: [
        verdict([finding(label.file, line, 'Leading dot in a domain is refused', evidence)]),
        { kind: 'json', value: { matches: [{ finding: 0, issue: 0 }] } }
      ]
    })
    try {
      const plain = await ModelServer.start({
        apiKey: TEST_API_KEY,
        script: [verdict([finding(label.file, line, 'A problem', evidence)])]
      })
      const unjudged = await evalCli(plain, caseArgs([id]))
      await plain.close()
      expect(unjudged.json.summary.recall).toBe(0)
      const r = await evalCli(server, [...caseArgs([id]), '--judge-model', 'claude-haiku-4-5'])
      expect(r.json.summary).toMatchObject({ precision: 1, recall: 1 })
      expect(own(server).map(c => c.model)).toEqual(['claude-sonnet-5-5', 'claude-haiku-4-5'])
      // the judge is told the finding is untrusted text and gets the label's words
      expect(JSON.stringify(own(server)[1]!.messages)).toContain(label.description.slice(0, 40))
    } finally {
      await server.close()
    }
  })

  it('estimates the cost before any call and runs no case --max-cost-usd cannot pay for', async () => {
    const server = await ModelServer.start({ apiKey: TEST_API_KEY })
    try {
      const r = await evalCli(server, [...caseArgs(PICKED), '--max-cost-usd', '0.0001'])
      expect(r.out).toMatch(
        /Estimated cost: at most \$\d+\.\d\d if no answer is longer than the 8,000-token output reserve, with every review taking all its 6 turns/
      )
      expect(r.out).toContain('covers the upper bound of 0 of 4 cases: the eval goes on while')
      expect(r.json.summary.skipped).toBe(4)
      expect(server.calls).toHaveLength(0)
    } finally {
      await server.close()
    }
  })

  it('--loop: a fixer that applies the real fix gives fix rate 1, one that changes nothing 0', async () => {
    const bugs = ['js-cookie-domain-leading-dot', 'py-cachetools-key-pickle']
    // the real fix: each file the PR changed, written back as the fixed tree (base/) has it
    // the real fix takes the branch back to its base: nothing is left to review after it
    const script = bugs.flatMap(id => [
      verdict(fromLabels(caseJson(id))),
      realFix(CASES, id),
      { kind: 'text', text: 'Restored the fixed code.' } as ScriptedReply
    ])
    const fixing = await ModelServer.start({ apiKey: TEST_API_KEY, script })
    try {
      const r = await evalCli(fixing, [...caseArgs(bugs), '--loop'])
      expect(r.code, r.out + r.err).toBe(0)
      expect(r.json.summary.fixed).toMatchObject({ count: 2, of: 2, rate: 1 })
      expect(r.json.cases.map(c => c.test)).toEqual([
        { before: 'failed', after: 'passed' },
        { before: 'failed', after: 'passed' }
      ])
    } finally {
      await fixing.close()
    }
    const idle = await ModelServer.start({
      apiKey: TEST_API_KEY,
      responder: call =>
        isFixer(call)
          ? { kind: 'text', text: 'Nothing to change.' }
          : verdict(
              fromLabels(
                caseJson(
                  bugs.find(id =>
                    JSON.stringify(call.messages).includes(caseJson(id).issues![0]!.file)
                  ) ?? bugs[0]!
                )
              )
            )
    })
    try {
      const r = await evalCli(idle, [...caseArgs(bugs), '--loop'])
      expect(r.code, r.out + r.err).toBe(0)
      expect(r.json.summary.fixed).toMatchObject({ count: 0, of: 2, rate: 0 })
    } finally {
      await idle.close()
    }
  })

  it('counts what a case paid and scores its review when the loop fails after it', async () => {
    const id = 'js-cookie-domain-leading-dot'
    const server = await ModelServer.start({
      apiKey: TEST_API_KEY,
      script: [
        verdict(fromLabels(caseJson(id))),
        {
          kind: 'tool_use',
          name: 'edit_file',
          input: {
            path: 'index.js',
            old_text: "'use strict';",
            new_text: "'use strict'; // checked"
          }
        },
        { kind: 'text', text: 'Marked it.' },
        { kind: 'error', status: 400, type: 'invalid_request_error', message: 'boom' }
      ]
    })
    try {
      const r = await evalCli(server, [...caseArgs([id]), '--loop'])
      const [c] = r.json.cases
      expect(own(server).filter(call => call.status === 200)).toHaveLength(3)
      expect(c).toMatchObject({ status: 'done', decision: 'NO_GO', loopStatus: 'error' })
      expect(c!.error).toContain('boom')
      expect(r.json.summary).toMatchObject({ precision: 1, recall: 1 })
      // the answered calls (a verifier's too) are the case's cost, and the eval's
      const paid = server.calls.reduce((sum, call) => sum + (call.usage?.input_tokens ?? 0), 0)
      expect(c!.usage.inputTokens).toBe(paid)
      expect(r.json.summary.usage.costUsd).toBeGreaterThan(0)
      expect(r.out).toContain('boom')
    } finally {
      await server.close()
    }
  })

  it('refuses a --json file it cannot write before any model call', async () => {
    const server = await ModelServer.start({ apiKey: TEST_API_KEY })
    try {
      const r = await evalCli(server, caseArgs(PICKED), { json: '/nonexistent/folder/eval.json' })
      expect(r.code).toBe(2)
      expect(r.err).toContain(
        '--json /nonexistent/folder/eval.json: the folder /nonexistent/folder does not exist or cannot be written'
      )
      expect(server.calls).toHaveLength(0)
    } finally {
      await server.close()
    }
  })

  it('--loop from an installed package (no node_modules of its own): Go and Python tests still run, JavaScript ones are unavailable', async () => {
    const pkg = mkdtempSync(path.join(os.tmpdir(), 'review-loop-eval-pkg-'))
    dirs.push(pkg)
    for (const part of ['bin', 'dist', 'eval', 'prompts', 'schema', 'action.yml', 'package.json'])
      cpSync(part, path.join(pkg, part), { recursive: true })
    const ids = [
      'go-humanize-bytes-overflow',
      'js-cookie-domain-leading-dot',
      'py-cachetools-key-pickle'
    ]
    const server = await ModelServer.start({
      apiKey: TEST_API_KEY,
      script: ids.flatMap(id => [
        verdict(fromLabels(caseJson(id))),
        realFix(CASES, id),
        { kind: 'text', text: 'Restored the fixed code.' } as ScriptedReply
      ])
    })
    try {
      const r = await evalCli(server, [...caseArgs(ids), '--loop'], {
        bin: path.join(pkg, 'bin', 'review-loop.mjs')
      })
      expect(r.code, r.out + r.err).toBe(0)
      expect(r.json.cases.map(c => [c.id, c.test])).toEqual([
        [ids[0], { before: 'failed', after: 'passed' }],
        [ids[1], { before: 'unavailable', after: 'unavailable' }],
        [ids[2], { before: 'failed', after: 'passed' }]
      ])
      expect(r.json.summary.fixed).toMatchObject({ count: 2, of: 2 })
      // why the JavaScript case's test did not run is in its record
      const record = readFileSync(path.join(r.dir, 'out', ids[1]!, 'test-before.txt'), 'utf8')
      expect(record).toMatch(/mocha/)
    } finally {
      await server.close()
    }
    // a Go build with an empty cache in the sandbox, and Python's tests, twice each: 45 s on a
    // 2-core machine with nothing else running
  }, 180_000)
})

describe("eval-scripted's verifier (scripts/eval-scripted.ts --verifier labels)", () => {
  it('confirms every finding made from a label and refutes every false one, on every shipped case', () => {
    const cases = readdirSync(CASES).map(caseJson)
    const verify = labelVerifier(cases).responder!
    const ask = (f: { file: string; line: number; title: string }) =>
      verify(
        { earlier: false, file: f.file, line: f.line, title: f.title, text: '', shape: 'json' },
        { messages: [], tools: [], outputConfig: undefined },
        0
      )
    const verdicts = (findings: Array<{ file: string; line: number; title: string }>) =>
      findings.map(f => (ask(f) as { verdict: string }).verdict)
    const labelled = cases.flatMap(fromLabels)
    expect(labelled.length).toBeGreaterThan(50)
    expect(new Set(verdicts(labelled))).toEqual(new Set(['confirmed']))
    expect(new Set(verdicts(cases.map(falseFinding)))).toEqual(new Set(['refuted']))
  })
})
