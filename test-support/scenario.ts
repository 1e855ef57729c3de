import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parse as parseYaml } from 'yaml'
import type { CommitIdentity, FileChanges, ForcePush } from './git-fixture.js'
import type { FaultSpec } from './fault.js'
import { GitHttpServer, type GitFault } from './git-http-server.js'
import {
  HUMAN_TOKEN,
  PAT,
  Sandbox,
  WORKFLOW_TOKEN,
  FORK_TOKEN,
  type RunRecord,
  type RunRequest,
  type SandboxOptions,
  type TokenKind
} from './harness.js'
import { unexpectedOpenApiProblems } from './openapi-check.js'
import { enqueueInGroup, humanRuns, type HumanEvent, type IgnoredEvent } from './human-events.js'
import { ArtifactService } from './artifact-service.js'
import { buildRunnerLayout } from './runner-layout.js'
import {
  ModelServer,
  type ModelServerOptions,
  type ReplyTemplate,
  type ScriptedReply,
  type VerifierAnswer
} from './model-server.js'

export const TEST_API_KEY = 'sk-ant-test-0000000000000000000000000000'

/** A lifecycle to simulate: see "Scenario files" in the README. */
export interface Scenario {
  name?: string
  base: FileChanges
  pr: SandboxOptions['pr']
  /** Action inputs (the `with:` of the workflow step). */
  inputs?: Record<string, string>
  /**
   * What the workflow passes as github-token: the workflow token (default), a PAT, or a GitHub App's
   * installation token (then set state-author to `review-loop-app[bot]`).
   */
  token?: TokenKind
  /** The workflow token's permissions (`permissions:`); default every scope the README asks for. */
  permissions?: SandboxOptions['permissions']
  /** A fork's pull_request runs get the workflow token, not the read-only one (RunRequest). */
  forkWriteToken?: boolean
  /**
   * The event that starts the first run; default pull_request opened. A list starts a run for each
   * at the same moment (a PR opened and reopened at once: two runs side by side).
   */
  start?: ScenarioStart | ScenarioStart[]
  /**
   * The dispatch run N makes starts two runs side by side (GitHub took a re-sent dispatch for a
   * second one), each with its own run id.
   */
  duplicateDispatch?: { afterRun: number }
  /** Cap on runs; default 10. */
  maxRuns?: number
  /**
   * A human pushes before run N (1-based); GitHub then starts a pull_request synchronize run. With
   * `force` the human rewrites the branch instead (test-support/git-fixture.ts `forcePush`). With
   * `mergeBase` the human commits those files on the base branch (main) and merges it into the PR
   * branch instead (a merge from main: the PR's merge base moves; `files` and `force` are not used).
   */
  humanPushes?: Array<
    {
      beforeRun: number
      message?: string
      files?: FileChanges
      force?: ForcePush
      mergeBase?: FileChanges
      /**
       * The human deletes the PR's branch instead (the PR stays open; origin keeps its head as
       * refs/pull/N/head); no run starts.
       */
      deleteBranch?: boolean
      /** The login GitHub lists as the push's actor (the branch's activity); default octocat. */
      by?: string
    } & CommitIdentity
  >
  /** Every run's checkout holds only this many commits of its ref (fetch-depth); default all. */
  checkoutDepth?: number
  /** With checkoutDepth, pull_request runs check out the PR's merge commit (actions/checkout's default). */
  checkoutMergeRef?: boolean
  /** After run N a human comments, reviews or clicks a button; GitHub starts the runs it triggers. */
  humanEvents?: HumanEvent[]
  /**
   * Re-run run N (same run id, next attempt) right after it finishes; `together`: at the same moment
   * as the next run queued (the run N dispatched), side by side with it.
   */
  reruns?: Array<{ afterRun: number; together?: boolean }>
  /** Environment for every run. */
  env?: Record<string, string>
  /**
   * The repository's workflow files that take workflow_dispatch (default the one the runs are of).
   * A caller of the reusable workflow: `[review.yml]`, with `env.GITHUB_WORKFLOW_REF` naming it.
   */
  workflows?: string[]
  /** The node binary that runs dist/index.js; default node 24 (bench wraps it to measure memory). */
  node?: string
  /**
   * Every run in a fresh process, as the runner starts it, not in a warm host (see
   * test-support/action-hosts.ts): for what PR code could see of the action's process.
   */
  spawn?: boolean
  /** Config set in every checkout (persisted credentials, for example). */
  gitConfig?: Record<string, string>
  /**
   * Claude's answers, played by the local Messages API server: `replies` in call order, then the
   * first matching template for any number of calls; every answer after `latencyMs` (default 0).
   */
  model?: {
    replies?: ScriptedReply[]
    templates?: ReplyTemplate[]
    latencyMs?: number
    /**
     * Answers to verifier calls (answered before `replies`; see test-support/model-server.ts): the
     * first entry whose `when` (a string or a list, all must occur) is in the question (the
     * finding's header, id, file, title, evidence, description) answers; an entry without `when`
     * answers any; with none matching, `confirmed`. `false`: verifier calls take `replies`.
     */
    verifier?: false | ScenarioVerifierAnswer[]
  }
  /** Faults the local servers inject: see "Faults" in the README. */
  faults?: Fault[]
  /** Serve origin over HTTP, requiring the token, without any fault (git faults do it too). */
  gitOverHttp?: boolean
  /** Re-run a run that failed (exit code not 0) once, as a person would with "Re-run jobs". */
  rerunFailed?: boolean
  /** SIGKILL the action `afterMs` into run N (a cancelled job, a lost runner); it is then re-run. */
  kills?: Array<{ run: number; afterMs: number }>
  /**
   * Run on a GitHub-hosted runner's toolchain layout (test-support/runner-layout.ts): HOME, PATH and
   * the toolchain variables of a made-up /home/runner with rustup, pyenv, pip --user, pipx, Go and
   * tool-cache tools and credential files; LAYOUT_CREDENTIALS lists the credential files.
   */
  runnerLayout?: boolean
}

/**
 * A check that never passes and a fix command that always changes something: the loop runs to its
 * cap (`maxIterations`), pushing a fix in every iteration before the last unless it stalls first.
 */
export function toTheCap(maxIterations: number): Scenario {
  return {
    base: { 'README.md': '# sample\n' },
    pr: { commits: [{ message: 'work', files: { 'src/a.js': 'run()\n' } }] },
    inputs: {
      checks: 'never: exit 1',
      'fix-commands': 'date +%s%N >> src/a.js',
      'max-iterations': String(maxIterations)
    }
  }
}

/** An event that starts a run of the scenario. */
export interface ScenarioStart {
  event: string
  action?: string
  dispatchInputs?: Record<string, string>
}

/** A run waiting to start, with the runs that start at the same moment (side by side). */
type Queued = RunRequest & { together?: RunRequest[] }

/** One scripted verifier answer of a scenario (`model.verifier`). */
export interface ScenarioVerifierAnswer extends VerifierAnswer {
  when?: string | string[]
}

/**
 * One fault (test-support/fault.ts) of a scenario. `route` is a route as in the report's `calls` (GitHub), `git fetch` / `git push` (the
 * git server; the checkout then fetches over HTTP with the token), or `POST /v1/messages` (the model
 * server). Without `run` it applies to every run; without `attempt`, to every attempt of run N.
 */
export interface Fault extends FaultSpec {
  run?: number
  attempt?: number
}

const GIT_ROUTES = ['git fetch', 'git push', 'git claim']

/** Which server a fault's route belongs to. */
function faultTarget(route: string): 'git' | 'model' | 'github' {
  if (GIT_ROUTES.includes(route)) return 'git'
  return /^POST \/v1\//.test(route) ? 'model' : 'github'
}

export interface ScenarioReport {
  scenario: string
  runs: Array<{
    run: number
    event: string
    action?: string
    runId: number
    attempt: number
    exitCode: number
    /** SIGKILLed by the scenario's `kills` before it ended. */
    killed: boolean
    outputs: Record<string, string>
    calls: Record<string, number>
    callCount: number
    coreCallCount: number
    notices: string[]
    warnings: string[]
    errors: string[]
    /** The titles of the log's groups (`::group::`), in order. */
    groups: string[]
    /** The job summary the run wrote (GITHUB_STEP_SUMMARY). */
    summary: string
    /** Workflow-command annotations on a file (`::error file=…,line=…::`), as the runner reads them. */
    annotations: StepAnnotation[]
  }>
  finalState: Record<string, unknown> | undefined
  comments: Array<{ id: number; author: string; body: string }>
  checkRuns: Array<{
    id: number
    externalId?: string
    headSha: string
    conclusion: string | null
    title?: string
    summary?: string
    /** The check run's `output.text` (findings without a location, among others). */
    text?: string
    /** The buttons' identifiers. */
    actions: string[]
    annotations: Array<{
      path: string
      start_line: number
      start_column?: number | null
      end_column?: number | null
      annotation_level: string | null
      title?: string | null
      message: string | null
      raw_details?: string | null
    }>
  }>
  /** Commit statuses set on the PR's commits (what a PAT reports through), oldest first. */
  statuses: Array<{ sha: string; context: string; state: string; description?: string }>
  dispatches: Array<{ workflow: string; ref: string; inputs: Record<string, string> }>
  /** PR reviews the action submitted. */
  reviews: Array<{ id: number; event: string; body: string; commitId: string }>
  pushes: Array<{ run?: number; by: string; sha: string }>
  /** Faults the servers injected, per run: route and kind. */
  faultsApplied: Array<{ run: number; route: string; fault: string }>
  labels: string[]
  requestedReviewers: string[]
  /** Where the action's requests or the emulator's answers differ from GitHub's OpenAPI description. */
  openApiProblems: string[]
  /** Human events that started no run, and why. */
  ignoredEvents: IgnoredEvent[]
  /** Waiting runs GitHub's concurrency group cancelled when a human event's run came. */
  cancelledRuns: Array<{ afterRun: number; event: string }>
  /** Reactions on comments: who reacted with what. */
  reactions: Array<{ subject: string; subjectId: number; content: string; login: string }>
  /** Review comments (inline), humans' and the loop's replies. */
  reviewComments: Array<{
    id: number
    author: string
    path: string
    body: string
    inReplyToId?: number
  }>
  /** Review threads and whether they are resolved. */
  reviewThreads: Array<{ id: string; isResolved: boolean; commentIds: number[] }>
  /** Workflow artifacts uploaded to the local artifact service: name and file names. */
  artifacts: Array<{ name: string; files: string[] }>
  /** Calls to the Messages API server (AI scenarios only). */
  modelCalls: Array<{
    /** the route taken: the Anthropic API, Bedrock or Vertex */
    provider: string
    /** the request path; for Bedrock and Vertex it names the model */
    path: string
    model: string
    status: number
    toolChoice: unknown
    /** output_config (structured outputs), as sent */
    outputConfig: unknown
    maxTokens: number
    usage?: {
      input_tokens: number
      output_tokens: number
      cache_creation_input_tokens: number
      cache_read_input_tokens: number
    }
    /** the index in `model.templates` of the template that answered the call, if one did */
    template?: number
    /** true for a verifier call answered by `model.verifier` (or its default) */
    verifier?: true
  }>
  /** The most model calls being answered at once (parallel review batches); 0 without a model. */
  modelMaxInFlight: number
}

/** Arms the faults of run `k`, attempt `attempt`, on the server each belongs to. */
function armFaults(
  faults: Fault[],
  k: number,
  attempt: number,
  servers: { sandbox: Sandbox; model?: ModelServer; gitServer?: GitHttpServer }
): void {
  servers.sandbox.emulator.clearFaults()
  servers.model?.clearFaults()
  servers.gitServer?.clearFaults()
  for (const { run, attempt: a, route, ...fault } of faults) {
    if ((run !== undefined && run !== k) || (a !== undefined && a !== attempt)) continue
    const target = faultTarget(route)
    if (target === 'git')
      servers.gitServer!.addFault({ ...fault, route: route as GitFault['route'] })
    else if (target === 'model') {
      if (!servers.model) throw new Error(`fault on ${route}: the scenario has no model`)
      servers.model.addFault({ ...fault, route })
    } else servers.sandbox.emulator.addFault({ ...fault, route })
  }
}

/** Every injected fault, by the run it hit (requests are matched to runs by time). */
function faultLog(
  sandbox: Sandbox,
  model: ModelServer | undefined,
  gitServer: GitHttpServer | undefined
): ScenarioReport['faultsApplied'] {
  const hits = [
    ...sandbox.emulator.requests.map(r => ({ at: r.at, route: r.route, fault: r.fault })),
    ...(model?.faultsApplied ?? []),
    ...(gitServer?.requests ?? []).map(r => ({ at: r.at, route: r.route, fault: r.fault }))
  ].filter((h): h is { at: number; route: string; fault: string } => Boolean(h.fault))
  return hits
    .sort((a, b) => a.at - b.at)
    .map(h => ({
      run: sandbox.runs.findLastIndex(r => r.startedAt <= h.at) + 1,
      route: h.route,
      fault: h.fault
    }))
}

export function loadScenario(file: string): Scenario {
  const text = readFileSync(file, 'utf8')
  const parsed = (file.endsWith('.json') ? JSON.parse(text) : parseYaml(text)) as Scenario
  if (!parsed || typeof parsed !== 'object' || !parsed.pr || !parsed.base) {
    throw new Error(`${file}: a scenario needs at least 'base' (files) and 'pr' (with commits).`)
  }
  parsed.base = repeated(parsed.base)
  for (const c of parsed.pr.commits ?? []) c.files = repeated(c.files)
  for (const p of parsed.humanPushes ?? []) p.files = repeated(p.files)
  // a relative `node` is the scenario file's neighbour (scenarios/issue-25/node-rss.sh)
  if (parsed.node && /^\.\.?\//.test(parsed.node))
    parsed.node = path.resolve(path.dirname(file), parsed.node)
  return parsed
}

/**
 * Files whose content is `{ repeat: TEXT, times: N }` as TEXT N times (in `base`, the PR's commits
 * and human pushes): a large PR in a small scenario file (scenarios/issue-28/budget-parallel.yaml).
 */
function repeated<T extends FileChanges | undefined>(files: T): T {
  if (!files) return files
  const entries = Object.entries(files as Record<string, unknown>).map(([file, content]) => {
    const r = content as { repeat?: unknown; times?: unknown } | null
    if (r && typeof r === 'object' && typeof r.repeat === 'string' && typeof r.times === 'number')
      return [file, r.repeat.repeat(r.times)]
    return [file, content]
  })
  return Object.fromEntries(entries) as T
}

/**
 * The lines the runner reads as workflow commands: as it does, none between `::stop-commands::TOKEN`
 * and `::TOKEN::` (the action prints PR code's output that way).
 */
function commandLines(stdout: string): string[] {
  const out: string[] = []
  let resume: string | undefined
  for (const line of stdout.split('\n')) {
    if (resume) {
      if (line === resume) resume = undefined
      continue
    }
    const stop = /^::stop-commands::(.+)$/.exec(line)
    if (stop) resume = `::${stop[1]}::`
    else out.push(line)
  }
  return out
}

function commands(stdout: string, kind: string): string[] {
  const prefix = `::${kind}`
  return commandLines(stdout)
    .filter(l => l.startsWith(prefix))
    .map(l =>
      l
        .slice(l.indexOf('::', 2) + 2)
        .replace(/%0A/g, '\n')
        .replace(/%25/g, '%')
    )
}

export interface StepAnnotation {
  level: 'error' | 'warning' | 'notice'
  file: string
  line: number
  title?: string
  message: string
}

/** Undoes the toolkit's escaping of a workflow command's data or property. */
const unescape = (text: string): string =>
  text
    .replace(/%0D/g, '\r')
    .replace(/%0A/g, '\n')
    .replace(/%3A/g, ':')
    .replace(/%2C/g, ',')
    .replace(/%25/g, '%')

/** The step's annotations on files: `::error file=a.ts,line=3,title=…::message`. */
function stepAnnotations(stdout: string): StepAnnotation[] {
  const out: StepAnnotation[] = []
  for (const line of commandLines(stdout)) {
    const m = /^::(error|warning|notice) ([^:]*)::(.*)$/.exec(line)
    if (!m) continue
    const props = new Map(
      m[2]!.split(',').map(p => [p.slice(0, p.indexOf('=')), unescape(p.slice(p.indexOf('=') + 1))])
    )
    const file = props.get('file')
    if (!file) continue
    out.push({
      level: m[1] as StepAnnotation['level'],
      file,
      line: Number(props.get('line')),
      title: props.get('title'),
      message: unescape(m[3]!)
    })
  }
  return out
}

/** The scenario's `model.verifier` before the hook's own verifier rules; false if either says so. */
function verifierOf(
  model: Scenario['model'],
  hook: ModelServerOptions | undefined
): ModelServerOptions['verifier'] {
  const own = model?.verifier
  if (own === false || hook?.verifier === false) return false
  if (own === undefined) return hook?.verifier
  if (!Array.isArray(own)) throw new Error('model.verifier: must be false or a list of answers')
  const rules = own.map(({ when, ...answer }, i) => {
    const unknown = Object.keys(answer).filter(k => !['verdict', 'reason', 'cited'].includes(k))
    if (unknown.length)
      throw new Error(
        `model.verifier[${i}]: unknown key ${unknown.join(', ')} (when, verdict, reason, cited)`
      )
    return { when, answer }
  })
  return { ...hook?.verifier, rules: [...rules, ...(hook?.verifier?.rules ?? [])] }
}

/**
 * The Messages API server for the scenario's `model` and the hook's options: the scenario's replies
 * then the hook's script, the scenario's templates then the hook's, the hook's responder, the
 * scenario's verifier answers then the hook's.
 */
function startModel(
  model: Scenario['model'],
  hook: ModelServerOptions | undefined
): Promise<ModelServer> {
  return ModelServer.start({
    ...hook,
    script: [...(model?.replies ?? []), ...(hook?.script ?? [])],
    templates: [...(model?.templates ?? []), ...(hook?.templates ?? [])],
    latencyMs: model?.latencyMs ?? hook?.latencyMs,
    verifier: verifierOf(model, hook)
  })
}

/** What one run starts next, the way GitHub would: dispatched runs, human events, re-runs. */
function afterRun(
  k: number,
  request: RunRequest,
  run: RunRecord,
  at: {
    scenario: Scenario
    sandbox: Sandbox
    base: Partial<RunRequest>
    queue: Queued[]
    queuedDispatches: Set<number>
    report: Pick<ScenarioReport, 'pushes' | 'ignoredEvents' | 'cancelledRuns'>
    onRun?: (run: RunRecord, sandbox: Sandbox) => void
  }
): void {
  const { scenario, sandbox, base, queue, report } = at
  at.onRun?.(run, sandbox)
  if (run.pushed) report.pushes.push({ run: k, by: run.pushed.by, sha: run.pushed.sha })
  // a dispatch starts a run; a push starts one only when made with a PAT or App token
  for (const d of run.dispatched) {
    if (d.runId !== undefined && at.queuedDispatches.has(d.runId)) continue
    if (d.runId !== undefined) at.queuedDispatches.add(d.runId)
    const dispatched = {
      ...base,
      event: 'workflow_dispatch',
      dispatchInputs: d.inputs,
      inputs: { ...scenario.inputs, 'pr-number': d.inputs['pr-number'] ?? '' }
    }
    const twice = scenario.duplicateDispatch?.afterRun === k
    queue.push({ ...dispatched, runId: d.runId, together: twice ? [dispatched] : [] })
  }
  for (const h of scenario.humanEvents?.filter(e => e.afterRun === k) ?? [])
    for (const r of humanRuns(sandbox, base, h, report.ignoredEvents))
      for (const c of enqueueInGroup(sandbox, queue, r, h.whileRunning === true))
        report.cancelledRuns.push({ afterRun: k, event: c.event })
  if (run.pushed?.by === 'pat' || run.pushed?.by === 'app')
    queue.push({ ...base, event: 'pull_request', action: 'synchronize' })
  // a killed run is re-run by a person (Re-run jobs): same run id, next attempt
  const failedOnce = scenario.rerunFailed && run.exitCode !== 0 && run.runAttempt === 1
  const rerun = scenario.reruns?.find(r => r.afterRun === k)
  if (!run.killed && !failedOnce && !rerun) return
  const again = { ...request, runId: run.runId, runAttempt: run.runAttempt + 1 }
  const next = queue.at(-1)
  if (rerun?.together && next) next.together = [...(next.together ?? []), again]
  else queue.unshift(again)
}

/** Runs the scenario's lifecycle and schedules runs the way GitHub would. */
export async function runScenario(
  scenario: Scenario,
  hooks: {
    onRun?: (run: RunRecord, sandbox: Sandbox) => void
    /** Called once the sandbox (origin, the PR, the emulator) is made, before the first run. */
    before?: (sandbox: Sandbox) => void
    keep?: (sandbox: Sandbox, model?: ModelServer) => Promise<void>
    /** A responder instead of (or after) the scenario's scripted replies. */
    model?: ModelServerOptions
    /**
     * More environment for every run, made once the model server is up (for values that need its
     * URL, such as Google credentials from `model.writeGoogleCredentials`).
     */
    env?: (model: ModelServer | undefined) => Promise<Record<string, string>>
  } = {}
): Promise<ScenarioReport> {
  const sandbox = await Sandbox.create({
    base: scenario.base,
    pr: scenario.pr,
    permissions: scenario.permissions,
    ...(scenario.workflows ? { workflows: scenario.workflows } : {})
  })
  const artifacts = await ArtifactService.start()
  sandbox.artifactService = artifacts
  hooks.before?.(sandbox)
  const model =
    scenario.model || hooks.model ? await startModel(scenario.model, hooks.model) : undefined
  const pushes: ScenarioReport['pushes'] = []
  const ignoredEvents: IgnoredEvent[] = []
  const cancelledRuns: ScenarioReport['cancelledRuns'] = []
  const gitServer =
    scenario.gitOverHttp || scenario.faults?.some(f => faultTarget(f.route) === 'git')
      ? await GitHttpServer.start(sandbox.bare, scenario.token === 'pat' ? PAT : WORKFLOW_TOKEN, [
          FORK_TOKEN
        ])
      : undefined
  const layoutDir = scenario.runnerLayout
    ? realpathSync(mkdtempSync(path.join(tmpdir(), 'rl-runner-layout-')))
    : undefined
  const layout = layoutDir ? buildRunnerLayout(layoutDir) : undefined
  try {
    const inputs = model
      ? { 'anthropic-api-key': TEST_API_KEY, 'anthropic-base-url': model.url, ...scenario.inputs }
      : scenario.inputs
    scenario = { ...scenario, inputs }
    const base: Partial<RunRequest> = {
      inputs,
      token: scenario.token,
      env: {
        ...layout?.env,
        ...(layout ? { LAYOUT_CREDENTIALS: layout.credentials.join(' ') } : {}),
        ...scenario.env,
        ...(await hooks.env?.(model))
      },
      gitConfig: scenario.gitConfig,
      originUrl: gitServer?.url,
      depth: scenario.checkoutDepth,
      forkWriteToken: scenario.forkWriteToken,
      mergeRef: scenario.checkoutMergeRef,
      ...(scenario.node ? { node: scenario.node } : {}),
      ...(scenario.spawn ? { spawn: true } : {})
    }
    const starts = [scenario.start ?? { event: 'pull_request', action: 'opened' }].flat()
    const queue: Queued[] = [
      { ...base, ...starts[0]!, together: starts.slice(1).map(start => ({ ...base, ...start })) }
    ]
    const maxRuns = scenario.maxRuns ?? 10
    /** Dispatched runs queued already: runs side by side both see each other's dispatches. */
    const queuedDispatches = new Set<number>()
    while (sandbox.runs.length < maxRuns) {
      const k = sandbox.runs.length + 1
      for (const push of scenario.humanPushes?.filter(p => p.beforeRun === k) ?? []) {
        if (push.deleteBranch) {
          sandbox.deleteBranch()
          continue
        }
        const sha = sandbox.humanPush(
          push.files ?? {},
          push.message ?? 'push by hand',
          push.force,
          push.mergeBase,
          push
        )
        pushes.push({ by: 'human', sha })
        queue.push({ ...base, event: 'pull_request', action: 'synchronize' })
      }
      if (queue.length === 0) break
      const { together = [], ...first } = queue.shift()!
      const batch: RunRequest[] = [first, ...together]
      const runs = await Promise.all(
        batch.map((request, i) => {
          armFaults(scenario.faults ?? [], k + i, request.runAttempt ?? 1, {
            sandbox,
            model,
            gitServer
          })
          const kill = scenario.kills?.find(x => x.run === k + i)
          return sandbox.run({ ...request, killAfterMs: kill?.afterMs })
        })
      )
      for (const [i, run] of runs.entries())
        afterRun(k + i, batch[i]!, run, {
          scenario,
          sandbox,
          base,
          queue,
          queuedDispatches,
          report: { pushes, ignoredEvents, cancelledRuns },
          onRun: hooks.onRun
        })
    }
    await hooks.keep?.(sandbox, model)
    const emu = sandbox.emulator
    const pull = emu.pulls.get(sandbox.prNumber)
    // what the action sent, and what the emulator answered, must be what GitHub describes
    const problems = unexpectedOpenApiProblems(emu.openApiProblems)
    if (problems.length)
      throw new Error(`GitHub's OpenAPI description disagrees:\n${problems.join('\n')}`)
    return {
      scenario: scenario.name ?? 'scenario',
      runs: sandbox.runs.map(r => ({
        run: r.index + 1,
        event: r.event,
        action: r.action,
        runId: r.runId,
        attempt: r.runAttempt,
        exitCode: r.exitCode,
        killed: r.killed,
        outputs: r.outputs,
        calls: r.calls,
        callCount: r.callCount,
        coreCallCount: r.coreCallCount,
        notices: commands(r.stdout, 'notice'),
        warnings: commands(r.stdout, 'warning'),
        errors: commands(r.stdout, 'error'),
        groups: commands(r.stdout, 'group'),
        annotations: stepAnnotations(r.stdout),
        summary: r.summary
      })),
      finalState: sandbox.stateJson(),
      comments: emu.comments.map(c => ({ id: c.id, author: c.author, body: c.body })),
      checkRuns: emu.checkRuns.map(c => ({
        id: c.id,
        actions: (c.actions ?? []).map(a => a.identifier),
        externalId: c.externalId,
        headSha: c.headSha,
        conclusion: c.conclusion,
        title: c.title,
        summary: c.summary,
        text: c.text,
        annotations: c.annotations.map(a => ({
          path: a.path,
          start_line: a.start_line,
          start_column: a.start_column,
          end_column: a.end_column,
          annotation_level: a.annotation_level,
          title: a.title,
          message: a.message,
          raw_details: a.raw_details
        }))
      })),
      statuses: emu.statuses.map(({ sha, context, state, description }) => ({
        sha,
        context,
        state,
        description
      })),
      dispatches: emu.dispatches.map(d => ({
        workflow: d.workflowId,
        ref: d.ref,
        inputs: d.inputs
      })),
      reviews: emu.reviews.map(r => ({
        id: r.id,
        event: r.event,
        body: r.body,
        commitId: r.commitId
      })),
      pushes,
      faultsApplied: faultLog(sandbox, model, gitServer),
      labels: pull?.labels ?? [],
      requestedReviewers: pull?.requestedReviewers ?? [],
      ignoredEvents,
      cancelledRuns,
      openApiProblems: [...emu.openApiProblems],
      reactions: emu.reactions.map(r => ({
        subject: r.subject,
        subjectId: r.subjectId,
        content: r.content,
        login: r.login
      })),
      reviewComments: emu.reviewComments.map(c => ({
        id: c.id,
        author: c.author,
        path: c.path,
        body: c.body,
        inReplyToId: c.inReplyToId
      })),
      reviewThreads: emu.reviewThreads.map(t => ({
        id: t.id,
        isResolved: t.isResolved,
        commentIds: t.commentIds
      })),
      artifacts: artifacts.artifacts.map(a => ({
        name: a.name,
        files: Object.keys(a.files).sort()
      })),
      modelCalls: (model?.calls ?? []).map(c => ({
        provider: c.provider,
        path: c.path,
        model: c.model,
        status: c.status,
        toolChoice: c.toolChoice,
        outputConfig: c.outputConfig,
        maxTokens: c.maxTokens,
        usage: c.usage,
        template: c.template,
        verifier: c.verifier
      })),
      modelMaxInFlight: model?.maxInFlight ?? 0
    }
  } finally {
    await gitServer?.close()
    await model?.close()
    await artifacts.close()
    await sandbox.close()
    if (layoutDir) rmSync(layoutDir, { recursive: true, force: true })
  }
}

export { HUMAN_TOKEN }
