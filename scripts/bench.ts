// npm run bench: prints the figures the issues ask for, measured on this machine.
//   1. start-up: process start → first API request of dist/, against a bare `node -e 0`
//   2. GitHub API calls per iteration (pagination and annotation batches aside)
//   3. review input tokens relative to the diff's, the whole PR reviewed (2.5k, 100k, 400k tokens)
//   4. share of fixer input tokens served from the prompt cache over a scripted 10-turn fix
//   5. what the sandbox adds to one command: `true` run directly and in bubblewrap
//   6. GitHub API calls of the runs a human starts: an outsider's command, status, a review to fix
//   7. a 2,000-file PR with 5 s model latency: review wall time against parts ÷ concurrency, peak RSS
//   8. a check printing 20,000 located problems: the GitHub API calls of its run
//   9. verified findings: review tokens and $ per iteration with the verifier off and on, and with 3
//      passes, on a fixable PR and on a 100k-token PR; the verifier's input served from the cache
//  10. incremental review: review tokens and $ per iteration of a 3-iteration loop on a large PR with
//      one-line fixes, incremental-review on and off
//  11. a Go check's time outside the sandbox and in it, warm (the build cache kept across runs)
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { toUsage } from '../src/model/client.js'
import { createConfinement } from '../src/process/sandbox.js'
import { defaultNode } from '../test-support/harness.js'
import type { RecordedCall, ScriptedReply } from '../test-support/model-server.js'
import type { Sandbox } from '../test-support/harness.js'
import { noisyCheckScenario } from '../test-support/noisy-check.js'
import { runScenario, type Scenario } from '../test-support/scenario.js'
import { chooseSandbox } from '../src/process/bwrap.js'

// every run in a process of its own, as the runner starts the action (most tests run it in a warm host: test-support/action-hosts.ts)
process.env['REVIEW_LOOP_SPAWN'] ??= 'all'

const node = defaultNode()
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

async function startup(reps = 15): Promise<void> {
  let first: number | undefined
  const server = http.createServer((_req, res) => {
    first ??= performance.now()
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}')
  })
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r))
  const port = (server.address() as { port: number }).port
  // the restart without secrets is skipped where bubblewrap confines PR code (src/action/startup.ts)
  const bwrapWorks =
    (await chooseSandbox('auto', 'allow', undefined, process.platform, false)).kind === 'bwrap'
  const env = {
    PATH: process.env['PATH'],
    GITHUB_REPOSITORY: 'acme/widgets',
    GITHUB_EVENT_NAME: 'workflow_dispatch',
    GITHUB_API_URL: `http://127.0.0.1:${port}`,
    'INPUT_GITHUB-TOKEN': 'ghs_bench',
    'INPUT_PR-NUMBER': '1',
    INPUT_CHECKS: 'ok: true'
  }
  const time = async (
    args: string[],
    untilRequest: boolean,
    extra: Record<string, string> = {}
  ): Promise<number> => {
    first = undefined
    const t0 = performance.now()
    const child = spawn(node, args, { env: { ...env, ...extra }, stdio: 'ignore' })
    const exit = await new Promise<number>(r => child.on('close', () => r(performance.now())))
    return (untilRequest ? first! : exit) - t0
  }
  // the entry action.yml names
  const script = path.resolve(process.env['BENCH_DIST'] ?? 'dist', 'index.cjs')
  const bare: number[] = []
  const sandboxed: number[] = []
  const unsandboxed: number[] = []
  for (let i = 0; i < reps; i++) {
    bare.push(await time(['-e', '0'], false))
    sandboxed.push(await time([script], true))
    unsandboxed.push(await time([script], true, { INPUT_SANDBOX: 'off' }))
  }
  server.close()
  const b = median(bare)
  const line = (label: string, ms: number, target: string): string =>
    `  ${label}${ms.toFixed(1)} ms  (${(ms / b).toFixed(2)}× bare; ${target})`
  console.log(`start-up (${reps} runs each, medians, ${node}):`)
  console.log(`  node -e 0, start → exit:                          ${b.toFixed(1)} ms`)
  console.log(
    line(
      `dist/index.cjs, start → first request, ${bwrapWorks ? 'bubblewrap works' : 'NO WORKING bubblewrap'}: `,
      median(sandboxed),
      'target ≤ 1.3×'
    )
  )
  console.log(
    line(
      'dist/index.cjs, start → first request, sandbox: off: ',
      median(unsandboxed),
      'restarts without the secrets first'
    )
  )
}

async function apiCalls(): Promise<void> {
  const report = await runScenario({
    base: { 'src/a.js': 'ok()\n' },
    pr: { commits: [{ message: 'ws', files: { 'src/b.js': 'x()   \n' } }] },
    inputs: {
      checks: "ws: grep -rnE ' +$' src && exit 1 || exit 0",
      'fix-commands': "sed -i -E 's/ +$//' src/*.js"
    }
  })
  console.log('GitHub API calls per iteration (fixable PR: NO_GO → fix → GO; target ≤ 10):')
  for (const r of report.runs) {
    console.log(
      `  run ${r.run} (${r.event}, ${r.outputs['verdict']}): ${r.coreCallCount} calls — ${Object.entries(
        r.calls
      )
        .map(([k, v]) => `${v}× ${k}`)
        .join(', ')}`
    )
  }
}

async function humanCalls(): Promise<void> {
  const report = await runScenario({
    base: { 'src/a.js': 'ok()\n' },
    pr: { commits: [{ message: 'todo', files: { 'src/b.js': 'x()\n// TODO\n' } }] },
    inputs: {
      checks: 'todo: grep -rn TODO src && exit 1 || exit 0',
      'fix-commands': "sed -i 's/TODO/DONE/' src/*.js",
      'max-iterations': '1'
    },
    humanEvents: [
      { afterRun: 1, comment: { author: 'mallory', body: '/review-loop approve' } },
      {
        afterRun: 2,
        comment: { author: 'maintainer', permission: 'write', body: '/review-loop status' }
      },
      {
        afterRun: 3,
        review: {
          author: 'alice',
          permission: 'write',
          state: 'changes_requested',
          comments: [
            { path: 'src/b.js', line: 2, body: 'Resolve this TODO' },
            { path: 'src/b.js', line: 1, body: 'Name x better' }
          ]
        }
      }
    ]
  })
  console.log('GitHub API calls of the runs humans start (an outsider, status, a review fixed):')
  for (const r of report.runs) {
    console.log(
      `  run ${r.run} (${r.event}, ${r.outputs['status']}): ${r.callCount} calls — ${Object.entries(
        r.calls
      )
        .map(([k, v]) => `${v}× ${k}`)
        .join(', ')}`
    )
  }
}

const go: ScriptedReply = {
  kind: 'json',
  value: {
    decision: 'GO',
    summary: 'ok',
    findings: [],
    failedCriteria: [],
    passedCriteria: [],
    requiredRework: [],
    earlierFindings: []
  }
}

/**
 * A PR of about `chars` characters of diff: half new files, half files of the base changed on every
 * fourth line (so the reviewer also gets their surrounding code), `lines` lines each, in folders of ten.
 */
function largePr(chars: number, lines = 400): Pick<Scenario, 'base' | 'pr'> {
  const base: Record<string, string> = { 'README.md': '# app\n' }
  const head: Record<string, string> = {}
  const text = (name: string, changed: boolean) =>
    Array.from(
      { length: lines },
      (_, i) =>
        `export const ${name}_${i} = ${changed && i % 4 === 0 ? `compute(${i})` : i} // ${name}`
    ).join('\n') + '\n'
  let size = 0
  for (let i = 0; size < chars; i++) {
    const file = `src/dir${Math.floor(i / 10)}/file${i}.js`
    if (i % 2 === 0) {
      head[file] = text(`n${i}`, false)
      size += head[file].length + lines + 120
    } else {
      base[file] = text(`m${i}`, false)
      head[file] = text(`m${i}`, true)
      size += Math.round(head[file].length * 1.3)
    }
  }
  return { base, pr: { title: 'A large change', commits: [{ message: 'large', files: head }] } }
}

/** The PR's diff as git shows it, read from the scenario's repository. */
function prDiff(sandbox: Sandbox): string {
  const pull = sandbox.emulator.pulls.get(sandbox.prNumber)!
  return execFileSync(
    'git',
    ['--git-dir', sandbox.bare, 'diff', `${pull.baseRef}...${pull.headRef}`],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 30
    }
  )
}

async function tokensPerReview(): Promise<void> {
  console.log(
    'review input tokens against diff tokens, whole PR reviewed (input + cache tokens; the test server counts 4 chars a token):'
  )
  console.log(
    '  diff tokens | parts | review input tokens | input ÷ diff | target: 1.2 + 3k per part'
  )
  for (const target of [2_500, 100_000, 400_000]) {
    let diffTokens = 0
    let input = 0
    let parts = 0
    await runScenario(
      {
        ...largePr(target * 4),
        inputs: { 'max-iterations': '1' },
        model: { templates: [{ reply: go }] },
        maxRuns: 1
      },
      {
        keep: async (sandbox, model) => {
          diffTokens = Math.ceil(prDiff(sandbox).length / 4)
          for (const c of model!.calls) {
            if (!c.usage) continue
            parts++
            input +=
              c.usage.input_tokens +
              c.usage.cache_creation_input_tokens +
              c.usage.cache_read_input_tokens
          }
        }
      }
    )
    const ratio = input / diffTokens
    const bound = 1.2 + (3000 * parts) / diffTokens
    console.log(
      `  ${String(diffTokens).padStart(11)} | ${String(parts).padStart(5)} | ${String(input).padStart(19)} | ${ratio.toFixed(3).padStart(12)} | ≤ ${bound.toFixed(3)} ${ratio <= bound ? 'met' : 'NOT met'}`
    )
  }
}

/** A 2,000-file PR reviewed with 5 s per model call: wall time against the parts, and peak memory. */
async function manyFiles(): Promise<void> {
  const latencyMs = Number(process.env['BENCH_LATENCY_MS'] ?? 5000)
  const files: Record<string, string> = {}
  for (let i = 0; i < 2000; i++)
    files[`src/pkg${Math.floor(i / 25)}/mod${i}.ts`] =
      Array.from({ length: 12 + (i % 20) }, (_, l) => `export const v${i}_${l} = ${l} * ${i}`).join(
        '\n'
      ) + '\n'
  const dir = mkdtempSync(path.join(tmpdir(), 'rl-bench-rss-'))
  const rss = path.join(dir, 'rss')
  const wrapper = path.join(dir, 'node.cjs')
  // a node script, not sh (which drops the INPUT_* variables whose names hold a '-'), that runs
  // the real node under /usr/bin/time to read its peak resident set
  const script = [
    `#!${node}`,
    "const { spawnSync } = require('node:child_process')",
    `const r = spawnSync('/usr/bin/time', ['-f', '%M', '-o', ${JSON.stringify(rss)}, ${JSON.stringify(node)}, ...process.argv.slice(2)], { stdio: 'inherit' })`,
    'process.exit(r.status ?? 1)'
  ]
  writeFileSync(wrapper, `${script.join('\n')}\n`, { mode: 0o755 })
  let review = { parts: 0, maxInFlight: 0, wallMs: 0, firstAt: 0, lastAt: 0 }
  try {
    const report = await runScenario(
      {
        base: { 'README.md': '# app\n' },
        pr: { title: '2,000 files', commits: [{ message: 'many', files }] },
        inputs: { 'max-iterations': '1' },
        model: { templates: [{ reply: go }], latencyMs },
        maxRuns: 1,
        node: wrapper
      },
      {
        keep: async (_s, model) => {
          const calls = model!.calls.filter(c => c.usage)
          review = {
            parts: calls.length,
            maxInFlight: model!.maxInFlight,
            firstAt: Math.min(...calls.map(c => c.at)),
            lastAt: Math.max(...calls.map(c => c.at)),
            wallMs: 0
          }
        }
      }
    )
    // from the first review call's arrival to the last one's answer
    review.wallMs = review.lastAt + latencyMs - review.firstAt
    const ideal = (review.parts / 4) * latencyMs
    const peakMb = Number(readFileSync(rss, 'utf8').trim().split('\n').pop()) / 1024
    console.log(`2,000-file PR, ${latencyMs} ms per model call, review-concurrency 4:`)
    console.log(`  parts: ${review.parts}, most calls at once: ${review.maxInFlight}`)
    console.log(
      `  review wall time: ${(review.wallMs / 1000).toFixed(1)} s; parts ÷ 4 × ${latencyMs / 1000} s = ${(ideal / 1000).toFixed(1)} s; ratio ${(review.wallMs / ideal).toFixed(2)} (target ≤ 1.2)`
    )
    console.log(
      `  peak RSS of the action: ${peakMb.toFixed(0)} MB (target ≤ 300 MB); run exit ${report.runs[0]!.exitCode}`
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** A check printing 20,000 located problems: the GitHub API calls of its run. */
async function noisyCheck(): Promise<void> {
  const report = await runScenario(noisyCheckScenario(20_000))
  const run = report.runs[0]!
  const annotations = report.checkRuns.reduce((n, c) => n + c.annotations.length, 0)
  console.log(
    'a check printing 20,000 located problems (target: ≤ 40 GitHub API calls in that run):'
  )
  console.log(
    `  ${run.callCount} calls (${run.coreCallCount} core), ${annotations} annotations — ${Object.entries(
      run.calls
    )
      .map(([k, v]) => `${v}× ${k}`)
      .join(', ')}`
  )
}

async function cacheShare(): Promise<void> {
  const finding = {
    severity: 'high',
    category: 'logic',
    file: 'src/a.js',
    line: 1,
    evidence: 'export const value0 = 0',
    title: 'a problem',
    description: 'fix it'
  }
  const nogo: ScriptedReply = {
    ...go,
    value: { ...(go as { value: object }).value, decision: 'NO_GO', findings: [finding] }
  } as ScriptedReply
  const turns: ScriptedReply[] = [
    { kind: 'tool_use', name: 'list_files', input: {} },
    { kind: 'tool_use', name: 'read_file', input: { path: 'src/a.js' } },
    { kind: 'tool_use', name: 'search', input: { text: 'value' } },
    { kind: 'tool_use', name: 'read_file', input: { path: 'src/b.js' } },
    { kind: 'tool_use', name: 'run_check', input: { name: 'ok' } },
    {
      kind: 'tool_use',
      name: 'edit_file',
      input: { path: 'src/a.js', old_text: 'value0 = 0', new_text: 'value0 = 1' }
    },
    { kind: 'tool_use', name: 'read_file', input: { path: 'src/a.js', offset: 0, limit: 20 } },
    { kind: 'tool_use', name: 'run_check', input: { name: 'ok' } },
    { kind: 'tool_use', name: 'search', input: { text: 'value1' } },
    { kind: 'text', text: 'Fixed the problem.' }
  ]
  const file =
    Array.from({ length: 300 }, (_, i) => `export const value${i} = ${i}`).join('\n') + '\n'
  let share = ''
  await runScenario(
    {
      base: { 'README.md': '# x\n', 'src/b.js': file },
      pr: { commits: [{ message: 'a', files: { 'src/a.js': file } }] },
      inputs: { checks: 'ok: true', 'max-iterations': '2' },
      model: { replies: [nogo, ...turns, go] }
    },
    {
      keep: async (_s, model) => {
        // the fixer's calls: the review's verifier calls (issue 28) left out
        const fix = model!.calls
          .filter(c => !c.verifier)
          .slice(1, 11)
          .map(c => c.usage!)
        const read = fix.reduce((n, u) => n + u.cache_read_input_tokens, 0)
        const write = fix.reduce((n, u) => n + u.cache_creation_input_tokens, 0)
        const input = fix.reduce((n, u) => n + u.input_tokens, 0)
        share = `  ${fix.length} fixer calls: ${read} tokens read from cache, ${write} written, ${input} uncached → ${((100 * read) / (read + write + input)).toFixed(1)}% of fixer input tokens served from cache`
      }
    }
  )
  console.log('prompt cache over a scripted 10-turn fix:')
  console.log(share)
}

/** A review call's text: what tells a verifier call (its question) from a review. */
function callText(c: RecordedCall): string {
  return JSON.stringify(c.messages)
}

/** Tokens (input, cache read and written, output) and $ of calls, and the share read from cache. */
function tally(model: string, calls: readonly RecordedCall[]) {
  let usd = 0
  let read = 0
  let write = 0
  let uncached = 0
  let output = 0
  for (const c of calls) {
    const u = c.usage
    if (!u) continue
    uncached += u.input_tokens
    read += u.cache_read_input_tokens
    write += u.cache_creation_input_tokens
    output += u.output_tokens
    usd += toUsage(model, u).costUsd
  }
  const input = uncached + read + write
  const tokens = input + output
  return {
    tokens,
    usd,
    cached: input ? read / input : 0,
    calls: calls.filter(c => c.usage).length,
    input,
    uncached,
    read,
    write,
    output
  }
}

/** The cart PR of scenarios/issue-28/five-blockers.yaml, with its two true blockers. */
const CART = [
  'export function total(items) {',
  '  let sum = 0',
  '  for (let i = 0; i <= items.length; i++) {',
  '    sum += items[i].price * items[i].qty',
  '  }',
  '  return sum',
  '}',
  '',
  'export function discount(sum, code) {',
  "  if (code = 'HALF') return sum / 2",
  '  return sum',
  '}',
  ''
].join('\n')

function cartFinding(line: number, title: string): Record<string, unknown> {
  return {
    severity: 'high',
    category: 'logic',
    file: 'src/cart.js',
    line,
    title,
    description: `${title}.`,
    evidence: CART.split('\n')[line - 1]!.trim()
  }
}

function verdictReply(findings: unknown[]): ScriptedReply {
  const v = (go as { value: Record<string, unknown> }).value
  return {
    kind: 'json',
    value: { ...v, decision: findings.length ? 'NO_GO' : 'GO', findings }
  } as ScriptedReply
}

type Mode = { name: string; inputs: Record<string, string>; verifier?: unknown[] }
/** The verifier refutes the second blocker of each workload (issue 37's disagreement). */
const REFUTE_SECOND = [
  { when: 'discount assigns', verdict: 'refuted', reason: 'scripted: the verifier disagrees' },
  { when: 'compute(4)', verdict: 'refuted', reason: 'scripted: the verifier disagrees' }
]
/** The reviewer, shown the refutation, keeps its finding. */
const REVIEWER_KEEPS = [
  { when: ['# Finding to reconsider', 'discount assigns'], verdict: 'confirmed' },
  { when: ['# Finding to reconsider', 'compute(4)'], verdict: 'confirmed' }
]
const MODES: Mode[] = [
  { name: 'verifier off', inputs: { 'verify-findings': 'false' } },
  { name: 'verifier on', inputs: {} },
  { name: 'verifier on, 3 passes', inputs: { 'review-passes': '3' } },
  { name: 'disagreement, withdrawn', inputs: {}, verifier: REFUTE_SECOND },
  { name: 'disagreement, kept', inputs: {}, verifier: [...REVIEWER_KEEPS, ...REFUTE_SECOND] }
]

/** Per iteration: the review's own calls, the verifier's, and the reviewer's second look (fixer calls aside). */
function perIteration(calls: readonly RecordedCall[]) {
  const rows: Array<{ review: RecordedCall[]; verify: RecordedCall[]; again: RecordedCall[] }> = []
  let fixing = true
  for (const c of calls) {
    const tools = (c.tools as Array<{ name?: string }>).map(t => t.name)
    if (tools.includes('edit_file')) {
      fixing = true
      continue
    }
    const verifier =
      callText(c).includes('# Finding to verify') ||
      callText(c).includes('# Earlier finding to verify')
    const again = callText(c).includes('# Finding to reconsider')
    if (fixing && !verifier && !again) {
      rows.push({ review: [], verify: [], again: [] })
      fixing = false
    }
    rows.at(-1)?.[again ? 'again' : verifier ? 'verify' : 'review'].push(c)
  }
  return rows
}

async function verifiedFindings(): Promise<void> {
  const model = 'claude-sonnet-5-5'
  console.log(
    `verified findings: review tokens (input + cache + output) and $ per iteration, ${model} prices; verifier calls' input read from cache:`
  )
  const blockers = [
    cartFinding(3, 'total reads past the end of items'),
    cartFinding(10, 'discount assigns instead of comparing')
  ]
  const workloads: Array<{ name: string; scenario: (m: Mode) => Scenario }> = [
    {
      name: 'fixable PR (2 blockers, fixed in iteration 1)',
      scenario: m => {
        const passes = Number(m.inputs['review-passes'] ?? 1)
        return {
          base: { 'package.json': '{ "name": "shop", "type": "module" }' },
          pr: { commits: [{ message: 'cart', files: { 'src/cart.js': CART } }] },
          inputs: { 'max-iterations': '2', ...m.inputs },
          model: {
            replies: [
              ...Array(passes).fill(verdictReply(blockers)),
              {
                kind: 'tool_uses',
                calls: [
                  {
                    name: 'edit_file',
                    input: { path: 'src/cart.js', old_text: 'i <= items', new_text: 'i < items' }
                  },
                  {
                    name: 'edit_file',
                    input: {
                      path: 'src/cart.js',
                      old_text: "code = 'HALF'",
                      new_text: "code === 'HALF'"
                    }
                  }
                ]
              },
              { kind: 'text', text: 'Fixed both.' },
              ...Array(passes).fill(verdictReply([]))
            ]
          }
        }
      }
    },
    {
      name: '100k-token PR (2 blockers in one part, 1 iteration)',
      scenario: m => ({
        ...largePr(400_000),
        inputs: { 'max-iterations': '1', ...m.inputs },
        model: {
          templates: [
            {
              when: { contains: 'src/dir0/file1.js' },
              reply: verdictReply([
                {
                  ...blockers[0]!,
                  file: 'src/dir0/file1.js',
                  line: 1,
                  evidence: 'export const m1_0 = compute(0) // m1',
                  title: 'compute(0) is never awaited'
                },
                {
                  ...blockers[1]!,
                  file: 'src/dir0/file1.js',
                  line: 5,
                  evidence: 'export const m1_4 = compute(4) // m1',
                  title: 'compute(4) result unchecked'
                }
              ])
            },
            { reply: go }
          ]
        }
      })
    }
  ]
  for (const w of workloads) {
    console.log(`  ${w.name}:`)
    console.log(
      '    mode                    | iteration | review calls | review tokens | review $ | verifier calls | verifier tokens | verifier $ | verifier input from cache | second-look calls | tokens | $ | ends'
    )
    const totals: number[] = []
    const second: Array<{ mode: string; again: ReturnType<typeof tally> }> = []
    for (const m of MODES) {
      let rows: ReturnType<typeof perIteration> = []
      const scenario = w.scenario(m)
      if (m.verifier) scenario.model = { ...scenario.model, verifier: m.verifier as never }
      const report = await runScenario(scenario, {
        keep: async (_s, server) => {
          rows = perIteration(server!.calls)
        }
      })
      let all = 0
      rows.forEach((r, i) => {
        const review = tally(model, r.review)
        const verify = tally(model, r.verify)
        const again = tally(model, r.again)
        if (again.calls) second.push({ mode: m.name, again })
        all += review.tokens + verify.tokens + again.tokens
        const ends = i === rows.length - 1 ? (report.finalState as { status: string }).status : ''
        console.log(
          `    ${m.name.padEnd(23)} | ${String(i + 1).padStart(9)} | ${String(review.calls).padStart(12)} | ${String(review.tokens).padStart(13)} | ${review.usd.toFixed(4).padStart(8)} | ${String(verify.calls).padStart(14)} | ${String(verify.tokens).padStart(15)} | ${verify.usd.toFixed(4).padStart(10)} | ${(verify.calls ? `${(100 * verify.cached).toFixed(1)}%` : '–').padStart(25)} | ${String(again.calls).padStart(17)} | ${String(again.tokens).padStart(6)} | ${again.usd.toFixed(4)} | ${ends}`
        )
      })
      totals.push(all)
    }
    const [off, on, three] = totals as [number, number, number]
    console.log(
      `    verification adds ${((100 * (on - off)) / off).toFixed(1)}% review tokens (target ≤ 35%); 3 passes: ${(three / off).toFixed(2)}× the tokens of one pass without the verifier`
    )
    for (const { mode, again } of second)
      console.log(
        `    the disagreement path (hold-go-at), ${mode}: ${again.calls} second-look call for 1 disagreement, ${again.tokens} tokens, $${again.usd.toFixed(4)}, ${(100 * again.cached).toFixed(1)}% of its input from the prompt cache`
      )
  }
}

/** The large PR of the incremental section: both blockers sit in its first part (src/dir0/file0-6.js). */
const SMALL_FIXES = {
  a: {
    finding: {
      severity: 'high',
      category: 'logic',
      file: 'src/dir0/file1.js',
      line: 1,
      evidence: 'export const m1_0 = compute(0) // m1',
      title: 'compute(0) may be undefined',
      description: 'm1_0 takes compute(0) unchecked.'
    },
    edit: {
      path: 'src/dir0/file1.js',
      old_text: 'm1_0 = compute(0)',
      new_text: 'm1_0 = compute(0) ?? 0'
    }
  },
  b: {
    finding: {
      severity: 'high',
      category: 'logic',
      file: 'src/dir0/file3.js',
      line: 1,
      evidence: 'export const m3_0 = compute(0) // m3',
      title: 'm3_0 repeats the unchecked compute(0)',
      description: 'm3_0 takes compute(0) unchecked, as m1_0 did.'
    },
    edit: {
      path: 'src/dir0/file3.js',
      old_text: 'm3_0 = compute(0)',
      new_text: 'm3_0 = compute(0) ?? 0'
    }
  }
}

/**
 * A 3-iteration loop on a large PR with small fixes: review 1 finds blocker A (file1), the fixer
 * changes its one line; review 2, reading the part again, finds blocker B (file3, same part), one
 * more line; review 3 is GO. Every answer comes from a template matched on the call's text, so the
 * same script serves both modes.
 */
function smallFixes(chars: number, inputs: Record<string, string>): Scenario {
  const { a, b } = SMALL_FIXES
  const edit = (e: typeof a.edit): ScriptedReply => ({
    kind: 'tool_use',
    name: 'edit_file',
    input: e
  })
  return {
    ...largePr(chars),
    inputs: { 'max-iterations': '3', ...inputs },
    model: {
      templates: [
        {
          when: { contains: ['# Findings to address', 'edited src/dir0/file'] },
          reply: { kind: 'text', text: 'Fixed.' }
        },
        { when: { contains: ['# Findings to address', b.finding.title] }, reply: edit(b.edit) },
        { when: { contains: '# Findings to address' }, reply: edit(a.edit) },
        { when: { contains: `+${a.finding.evidence}` }, reply: verdictReply([a.finding]) },
        { when: { contains: `+${b.finding.evidence}` }, reply: verdictReply([b.finding]) },
        { reply: go }
      ]
    }
  }
}

type Tally = ReturnType<typeof tally>

/** One row of the incremental table. */
function incrementalRow(mode: string, label: string, r: Tally, v: Tally, ratio: string): string {
  const n = (x: number, w: number) => x.toLocaleString('en-US').padStart(w)
  return `    ${mode.padEnd(15)} | ${label.padStart(9)} | ${n(r.calls, 5)} | ${n(r.input, 12)} | ${n(r.uncached, 8)} | ${n(r.read, 10)} | ${n(r.write, 11)} | ${n(r.output, 6)} | ${r.usd.toFixed(4).padStart(8)} | ${ratio.padStart(10)} | ${n(v.calls, 14)} | ${n(v.input, 14)} | ${v.usd.toFixed(4).padStart(10)}`
}

/** The sum of tallies. */
function sumTally(ts: readonly Tally[]): Tally {
  const keys = ['tokens', 'usd', 'calls', 'input', 'uncached', 'read', 'write', 'output'] as const
  const out = { ...ts[0]!, cached: 0 }
  for (const k of keys) out[k] = ts.reduce((n, t) => n + t[k], 0)
  return out
}

/** Issue 29: review input tokens and $ per iteration, incremental review on and off. */
async function incrementalReview(): Promise<void> {
  const model = 'claude-sonnet-5-5'
  const chars = Number(process.env['BENCH_INCREMENTAL_CHARS'] ?? 640_000)
  const totals: Record<string, Tally> = {}
  let header = ''
  const lines: string[] = []
  for (const [mode, value] of [
    ['on', 'true'],
    ['off', 'false']
  ] as const) {
    let rows: ReturnType<typeof perIteration> = []
    const report = await runScenario(smallFixes(chars, { 'incremental-review': value }), {
      keep: async (sandbox, server) => {
        rows = perIteration(server!.calls)
        header ||= `${Math.ceil(prDiff(sandbox).length / 4).toLocaleString('en-US')} diff tokens`
      }
    })
    const review = rows.map(r => tally(model, r.review))
    const verify = rows.map(r => tally(model, r.verify))
    review.forEach((r, i) =>
      lines.push(
        incrementalRow(
          `${mode}`,
          String(i + 1),
          r,
          verify[i]!,
          `${((100 * r.input) / review[0]!.input).toFixed(1)}%`
        )
      )
    )
    totals[mode] = sumTally(review)
    lines.push(incrementalRow(mode, 'total', totals[mode], sumTally(verify), ''))
    const verdicts = report.runs.map(r => r.outputs['verdict'] ?? '–').join(' → ')
    lines.push(
      `    ${mode.padEnd(15)} | verdicts by run: ${verdicts}; status ${report.runs.at(-1)!.outputs['status']}`
    )
  }
  console.log(
    `incremental review (issue 29): a 3-iteration loop on a large PR (${header}, 4 chars a token), one line fixed after reviews 1 and 2; review calls apart from the verifier's; ${model} prices:`
  )
  console.log(
    '    incremental     | iteration | calls | input tokens | uncached | cache read | cache write | output | review $ | ÷ review 1 | verifier calls | verifier input | verifier $'
  )
  for (const l of lines) console.log(l)
  const { on, off } = totals as { on: Tally; off: Tally }
  console.log(
    `    on ÷ off over the loop: ${((100 * on.input) / off.input).toFixed(1)}% of the review input tokens, ${((100 * on.usd) / off.usd).toFixed(1)}% of the review $`
  )
}

const silentLog = {
  info: () => {},
  notice: () => {},
  warning: () => {},
  debug: () => {},
  group: <T>(_n: string, f: () => Promise<T>) => f(),
  verbatim: () => undefined,
  annotate: () => undefined
}

/** A small Go module importing a few packages of the standard library, with a test. */
const GO_MODULE: Record<string, string> = {
  'go.mod': 'module example.com/bench\n\ngo 1.19\n',
  'serve.go':
    'package bench\n\nimport (\n\t"encoding/json"\n\t"net/http"\n\t"regexp"\n\t"strings"\n)\n\nvar word = regexp.MustCompile(`[a-z]+`)\n\n// Handler answers the words of ?q= as JSON.\nfunc Handler(w http.ResponseWriter, r *http.Request) {\n\t_ = json.NewEncoder(w).Encode(word.FindAllString(strings.ToLower(r.URL.Query().Get("q")), -1))\n}\n',
  'serve_test.go':
    'package bench\n\nimport (\n\t"net/http/httptest"\n\t"testing"\n)\n\nfunc TestHandler(t *testing.T) {\n\trec := httptest.NewRecorder()\n\tHandler(rec, httptest.NewRequest("GET", "/?q=Hi+there", nil))\n\tif rec.Body.String() != "[\\"hi\\",\\"there\\"]\\n" {\n\t\tt.Fatal(rec.Body.String())\n\t}\n}\n'
}

/**
 * A Go check (`go vet ./... && go test ./...`) outside the sandbox and in it, warm: outside with
 * your GOCACHE after a first run; inside, each run a new confinement (a new private HOME, as each
 * run of the loop), with the build cache the CLI keeps across runs and without it (as before).
 */
async function goCheck(reps = 5): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'rl-bench-go-'))
  const command = 'go vet ./... && go test -count=1 ./...'
  try {
    for (const [name, text] of Object.entries(GO_MODULE)) writeFileSync(path.join(dir, name), text)
    execFileSync('git', ['init', '-q', dir])
    const outside = (): number => {
      const t0 = performance.now()
      execFileSync('bash', ['-c', command], { cwd: dir, stdio: 'ignore' })
      return performance.now() - t0
    }
    const inside = async (caches?: string): Promise<number> => {
      const c = await createConfinement({
        mode: 'required',
        network: 'allow',
        passthrough: [],
        tempDir: path.join(dir, '.private'),
        env: process.env,
        log: silentLog,
        ...(caches ? { caches } : {})
      })({ root: dir, gitDir: path.join(dir, '.git'), gitConfig: '/dev/null' })
      const r = await c.runner.run(command, { cwd: dir, env: c.env, timeoutMs: 300_000 })
      if (r.exitCode !== 0) throw new Error(`${command} failed in the sandbox: ${r.output}`)
      return r.durationMs
    }
    const caches = path.join(dir, '.git', 'review-loop', 'caches')
    outside()
    await inside(caches)
    const warm = { outside: [] as number[], kept: [] as number[], fresh: [] as number[] }
    for (let i = 0; i < reps; i++) {
      warm.outside.push(outside())
      warm.kept.push(await inside(caches))
      warm.fresh.push(await inside())
    }
    const out = median(warm.outside)
    const line = (label: string, ms: number): string =>
      `  ${label}${ms.toFixed(0).padStart(6)} ms  (${(ms / out).toFixed(2)}× outside)`
    console.log(`a Go check (${command}), warm, median of ${reps} runs:`)
    console.log(
      `  outside the sandbox, your GOCACHE:                   ${out.toFixed(0).padStart(6)} ms`
    )
    console.log(
      line('in bubblewrap, the build cache kept across runs:     ', median(warm.kept)) +
        '; target ≤ 1.3×'
    )
    console.log(line('in bubblewrap, an empty GOCACHE each run (no cache): ', median(warm.fresh)))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

async function sandboxOverhead(reps = 30): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'rl-bench-'))
  try {
    execFileSync('git', ['init', '-q', dir])
    const times: Record<string, number[]> = {}
    for (const mode of ['off', 'required'] as const) {
      const confine = createConfinement({
        mode,
        network: 'allow',
        passthrough: [],
        tempDir: path.join(dir, '.private'),
        env: process.env,
        log: silentLog
      })
      const c = await confine({ root: dir, gitDir: path.join(dir, '.git'), gitConfig: '/dev/null' })
      const label = c.sandboxed ? 'bubblewrap' : 'direct'
      times[label] = []
      for (let i = 0; i < reps; i++) {
        const r = await c.runner.run('true', { cwd: dir, env: c.env, timeoutMs: 10_000 })
        times[label].push(r.durationMs)
      }
    }
    console.log(`one command ('true'), median of ${reps} runs, ms:`)
    console.log(Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)])))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

// `npm run bench -- startup` (or any key below: api, tokens, large, noisy, cache, sandbox, go, human,
// verify, incremental) runs one section; none runs them all.
const sections: Record<string, () => Promise<void>> = {
  startup: () => startup(Number(process.env['BENCH_REPS'] ?? 15)),
  api: apiCalls,
  tokens: tokensPerReview,
  large: manyFiles,
  noisy: noisyCheck,
  cache: cacheShare,
  sandbox: () => sandboxOverhead(Number(process.env['BENCH_REPS'] ?? 30)),
  go: () => goCheck(Number(process.env['BENCH_REPS'] ?? 5)),
  human: humanCalls,
  verify: verifiedFindings,
  incremental: incrementalReview
}
const only = process.argv[2]
if (only && !sections[only])
  throw new Error(`no section '${only}'; one of ${Object.keys(sections).join(', ')}`)
for (const [name, section] of Object.entries(sections)) {
  if (only && name !== only) continue
  await section()
  console.log()
}
