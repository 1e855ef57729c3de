// npm run bench: prints the figures the issues ask for, measured on this machine.
//   1. start-up: process start → first API request of dist/, against a bare `node -e 0`
//   2. GitHub API calls per iteration (pagination and annotation batches aside)
//   3. tokens sent per review relative to the size of the diff
//   4. share of fixer input tokens served from the prompt cache over a scripted 10-turn fix
//   5. what the sandbox adds to one command: `true` run directly and in bubblewrap
//   6. GitHub API calls of the runs a human starts: an outsider's command, status, a review to fix
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createConfinement } from '../src/process/sandbox.js'
import { defaultNode } from '../test-support/harness.js'
import type { ScriptedReply } from '../test-support/model-server.js'
import { runScenario } from '../test-support/scenario.js'

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
  const env = {
    PATH: process.env['PATH'],
    GITHUB_REPOSITORY: 'acme/widgets',
    GITHUB_EVENT_NAME: 'workflow_dispatch',
    GITHUB_API_URL: `http://127.0.0.1:${port}`,
    'INPUT_GITHUB-TOKEN': 'ghs_bench',
    'INPUT_PR-NUMBER': '1',
    INPUT_CHECKS: 'ok: true'
  }
  const time = async (args: string[], untilRequest: boolean): Promise<number> => {
    first = undefined
    const t0 = performance.now()
    const child = spawn(node, args, { env, stdio: 'ignore' })
    const exit = await new Promise<number>(r => child.on('close', () => r(performance.now())))
    return (untilRequest ? first! : exit) - t0
  }
  const bare: number[] = []
  const ours: number[] = []
  for (let i = 0; i < reps; i++) {
    bare.push(await time(['-e', '0'], false))
    ours.push(await time([path.resolve(process.env['BENCH_DIST'] ?? 'dist', 'index.js')], true))
  }
  server.close()
  const b = median(bare)
  const o = median(ours)
  console.log(`start-up (${reps} runs each, medians, ${node}):`)
  console.log(`  node -e 0, start → exit:              ${b.toFixed(1)} ms`)
  console.log(
    `  dist/index.js, start → first request: ${o.toFixed(1)} ms  (${(o / b).toFixed(2)}× bare; target ≤ 1.5×)`
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

async function tokensPerReview(): Promise<void> {
  console.log(
    'tokens sent per review against the diff (input + cache tokens, estimated by the test server at 4 chars/token):'
  )
  console.log('  diff chars | diff tokens | prompt tokens | prompt/diff')
  for (const lines of [20, 200, 2000, 10_000, 40_000]) {
    const file =
      Array.from({ length: lines }, (_, i) => `export const value${i} = ${i} // line ${i}`).join(
        '\n'
      ) + '\n'
    let diffChars = 0
    let prompt = 0
    await runScenario(
      {
        base: { 'README.md': '# x\n' },
        pr: { commits: [{ message: 'add', files: { 'src/big.js': file } }] },
        inputs: { checks: 'ok: true', 'review-model': 'claude-haiku-4-5' },
        model: { replies: [go] }
      },
      {
        keep: async (_s, model) => {
          const u = model!.calls[0]!.usage!
          prompt = u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens
          diffChars = file.length + 100
        }
      }
    )
    const diffTokens = Math.ceil(diffChars / 4)
    console.log(
      `  ${String(diffChars).padStart(10)} | ${String(diffTokens).padStart(11)} | ${String(prompt).padStart(13)} | ${(prompt / diffTokens).toFixed(2)}`
    )
  }
}

async function cacheShare(): Promise<void> {
  const finding = {
    severity: 'high',
    category: 'logic',
    file: 'src/a.js',
    line: 1,
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
        const fix = model!.calls.slice(1, 11).map(c => c.usage!)
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
        log: {
          info: () => {},
          notice: () => {},
          warning: () => {},
          debug: () => {},
          group: (_n, f) => f()
        }
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

// `npm run bench -- startup` (or api, tokens, cache, sandbox, human) runs one section; none runs them all.
const sections: Record<string, () => Promise<void>> = {
  startup: () => startup(Number(process.env['BENCH_REPS'] ?? 15)),
  api: apiCalls,
  tokens: tokensPerReview,
  cache: cacheShare,
  sandbox: () => sandboxOverhead(Number(process.env['BENCH_REPS'] ?? 30)),
  human: humanCalls
}
const only = process.argv[2]
if (only && !sections[only])
  throw new Error(`no section '${only}'; one of ${Object.keys(sections).join(', ')}`)
for (const [name, section] of Object.entries(sections)) {
  if (only && name !== only) continue
  await section()
  console.log()
}
