import { botCommits } from './git-fixture.js'
import type { Sandbox } from './harness.js'
import type { ScriptedReply } from './model-server.js'
import { runScenario, type Fault, type Scenario, type ScenarioReport } from './scenario.js'

/** The kinds of fault the matrix injects on each route, as the fault-proxy study did. */
export const FAULT_KINDS = {
  '500': { status: 500 },
  '502': { status: 502 },
  '503': { status: 503 },
  reset: { reset: true },
  '403': { status: 403 },
  '404': { status: 404 },
  '422': { status: 422 },
  '429 retry-after': { status: 429, headers: { 'retry-after': '1' } },
  hang: { hang: true },
  'lost answer': { lost: true },
  '529 overloaded': { status: 529 },
  '500 persistent': { status: 500, times: 20 },
  /** A token that may not push is refused every time (the claim's push, then the fix's). */
  '403 persistent': { status: 403, times: 20 }
} satisfies Record<string, Omit<Fault, 'route'>>
export type FaultKind = keyof typeof FAULT_KINDS

/** The kinds every HTTP route gets. */
export const HTTP_KINDS: FaultKind[] = [
  '500',
  '502',
  '503',
  'reset',
  '403',
  '404',
  '422',
  '429 retry-after',
  'hang',
  'lost answer',
  '500 persistent'
]

const LINES = 60
const WS_CHECK = "whitespace: grep -rnE ' +$' src && exit 1 || exit 0"
const WS_FIX = "sed -i -E 's/ +$//' src/*.js"
const BOT = 'github-actions[bot]'
const GO: ScriptedReply = {
  kind: 'json',
  value: {
    decision: 'GO',
    summary: 'Looks right.',
    findings: [],
    failedCriteria: [],
    passedCriteria: [],
    requiredRework: [],
    earlierFindings: []
  }
}

/**
 * The lifecycle every cell runs: 60 lines with trailing spaces (60 located findings: a check run
 * with two annotation batches), fixed by a fix command, dispatched, then GO; `escalate` instead
 * ends at the cap with a label, a reviewer and a review. Failed runs are re-run once, as a person
 * would; requests time out after 2 s so hangs stay short.
 */
export function lifecycle(variant: 'fix' | 'escalate'): Scenario {
  const text = Array.from({ length: LINES }, (_, i) => `call${i}()   `).join('\n') + '\n'
  return {
    name: variant,
    base: { 'README.md': '# sample\n' },
    pr: { commits: [{ message: 'work', files: { 'src/a.js': text } }] },
    inputs: {
      checks: WS_CHECK,
      'request-timeout-seconds': '2',
      'max-wait-seconds': '5',
      'submit-review': 'comment',
      ...(variant === 'fix'
        ? { 'fix-commands': WS_FIX }
        : { 'max-iterations': '1', 'escalation-reviewers': 'maintainer' })
    },
    rerunFailed: true,
    maxRuns: 8
  }
}

export interface CellResult {
  route: string
  kind: string
  faultsApplied: number
  runs: number
  exitCodes: number[]
  /** Bot commits on the branch the final state does not count. */
  uncountedPushes: number
  /** Extra state comments, check runs per external id, annotations, dispatches or reviews per run. */
  duplicates: string[]
  /** Fix commits the state counts that are neither on the branch nor kept as a patch. */
  lostFixes: number
  /** The longest run, in seconds. */
  longestRunS: number
  finalStatus: string
  iterations: number
  /** The errors and warnings of every run, for what they tell the user. */
  messages: string[]
}

function duplicates(report: ScenarioReport, perRun: Sandbox['runs']): string[] {
  const found: string[] = []
  const states = report.comments.filter(
    c => c.author === BOT && c.body.includes('<!-- review-loop:state')
  )
  if (states.length > 1) found.push(`${states.length} state comments`)
  const byExternal = new Map<string, number>()
  for (const c of report.checkRuns)
    byExternal.set(c.externalId ?? '', (byExternal.get(c.externalId ?? '') ?? 0) + 1)
  for (const [id, n] of byExternal) if (n > 1) found.push(`${n} check runs for ${id}`)
  for (const c of report.checkRuns) {
    const keys = c.annotations.map(a => `${a.path}:${a.start_line}:${a.message}`)
    if (new Set(keys).size !== keys.length)
      found.push(`check run ${c.id}: ${keys.length} annotations, ${new Set(keys).size} distinct`)
  }
  for (const run of perRun)
    if (run.dispatched.length > 1) found.push(`${run.dispatched.length} dispatches by one run`)
  const reviews = new Map<string, number>()
  for (const r of report.reviews)
    reviews.set(`${r.commitId}:${r.body}`, (reviews.get(`${r.commitId}:${r.body}`) ?? 0) + 1)
  for (const [, n] of reviews) if (n > 1) found.push(`${n} identical reviews`)
  return found
}

interface IterationJson {
  n: number
  fix?: { outcome: string; commitSha?: string; patch?: string }
}

/** Runs one cell: the lifecycle with one fault on run 1 (attempt 1), and checks the invariants. */
export async function runCell(
  variant: 'fix' | 'escalate' | 'model',
  route: string,
  kind: FaultKind
): Promise<CellResult> {
  let branch: string[] = []
  let runs: Sandbox['runs'] = []
  const scenario =
    variant === 'model'
      ? { ...lifecycle('escalate'), inputs: { checks: 'ok: true', 'request-timeout-seconds': '2' } }
      : lifecycle(variant)
  const report = await runScenario(
    { ...scenario, faults: [{ run: 1, attempt: 1, route, ...FAULT_KINDS[kind] }] },
    {
      // the reviewer says GO to every call, however many a fault costs
      ...(variant === 'model' ? { model: { responder: () => GO } } : {}),
      keep: async sandbox => {
        runs = [...sandbox.runs]
        branch = botCommits(sandbox.bare)
      }
    }
  )
  const iterations = ((report.finalState?.['iterations'] ?? []) as IterationJson[]).filter(Boolean)
  const counted = new Set(iterations.map(i => i.fix?.commitSha).filter(Boolean))
  const patches = new Set(
    report.artifacts.flatMap(a => a.files.filter(f => /^fix-\d+\.patch$/.test(f)))
  )
  const lost = iterations.filter(
    i =>
      i.fix?.commitSha &&
      !branch.includes(i.fix.commitSha) &&
      !(i.fix.patch && patches.has(i.fix.patch))
  )
  return {
    route,
    kind,
    faultsApplied: report.faultsApplied.length,
    runs: report.runs.length,
    exitCodes: report.runs.map(r => r.exitCode),
    uncountedPushes: branch.filter(sha => !counted.has(sha)).length,
    duplicates: duplicates(report, runs),
    lostFixes: lost.length,
    longestRunS: Math.max(...runs.map(r => r.durationMs)) / 1000,
    finalStatus: String(report.finalState?.['status'] ?? 'none'),
    iterations: iterations.length,
    messages: report.runs.flatMap(r => [...r.errors, ...r.warnings])
  }
}

/** The matrix as a table, for the test's output: cells in the order given, whatever order they ended in. */
export function table(cells: CellResult[], order: Array<[route: string, kind: string]>): string {
  const at = (c: CellResult) =>
    order.findIndex(([route, kind]) => route === c.route && kind === c.kind)
  const rows = [...cells]
    .sort((a, b) => at(a) - at(b))
    .map(
      c =>
        `| ${c.route} | ${c.kind} | ${c.faultsApplied} | ${c.exitCodes.join(' ')} | ${c.uncountedPushes} | ${c.duplicates.length} | ${c.lostFixes} | ${c.longestRunS.toFixed(1)} | ${c.finalStatus} (${c.iterations}) |`
    )
  return [
    '| route | fault | injected | exit codes | uncounted pushes | duplicates | lost fixes | longest run (s) | final |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows
  ].join('\n')
}
