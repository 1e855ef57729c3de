import { prNumberFromPayload, readPayloadFile } from './event.js'

/** What the runner tells us about this run: read once from the environment and the event file. */
export interface RunContext {
  eventName: string
  /** `action` of the event payload, when it has one (pull_request: opened, synchronize, ...). */
  action?: string
  payload: Record<string, unknown>
  owner: string
  repo: string
  runId: string
  runAttempt: number
  /** File name of the running workflow (from GITHUB_WORKFLOW_REF), the target of re-dispatch. */
  workflowFile?: string
  /** Why there is no `workflowFile` to dispatch, in words (when there is none). */
  workflowMissing?: string
  serverUrl: string
  apiUrl: string
  workspace: string
  tempDir: string
  /** The PR number named by the event itself (pull_request payload or workflow_dispatch input). */
  eventPrNumber?: number
  actor: string
}

/** The workflow run's page: where its artifacts and logs are linked from. */
export function runUrl(ctx: Pick<RunContext, 'serverUrl' | 'owner' | 'repo' | 'runId'>): string {
  return `${ctx.serverUrl}/${ctx.owner}/${ctx.repo}/actions/runs/${ctx.runId}`
}

export class ContextError extends Error {}

type Env = Record<string, string | undefined>

/** The workflow a dispatch starts again: its file name, or why there is none. */
export type DispatchTarget =
  { file: string; missing?: undefined } | { file?: undefined; missing: string }

/**
 * The running workflow, from GITHUB_WORKFLOW_REF: `owner/repo/.github/workflows/review.yml@ref` →
 * `review.yml`. A reusable workflow's job gets its caller's ref, the workflow a dispatch must start.
 * A workflow of another repository than `repository` (GITHUB_REPOSITORY), as a ruleset's required
 * workflow is, cannot be dispatched here: a file of that name here would be another workflow.
 */
export function dispatchTarget(ref: string | undefined, repository: string): DispatchTarget {
  const match = /^(?:([^/@]+\/[^/@]+)\/)?\.github\/workflows\/([^@/]+)@./.exec(ref ?? '')
  const file = match?.[2]
  if (!file) return { missing: 'GITHUB_WORKFLOW_REF names no workflow file.' }
  const home = match[1]
  if (home && home.toLowerCase() !== repository.toLowerCase())
    return {
      missing: `the running workflow is ${file} of ${home} (GITHUB_WORKFLOW_REF), not of ${repository}, and a dispatch starts only a workflow of the repository it is sent to (a ruleset's required workflow runs from another repository). Use retrigger: push with a PAT or App token, or call review-loop from a workflow of ${repository}.`
    }
  return { file }
}

function readPayload(path: string | undefined): Record<string, unknown> {
  if (!path) return {}
  try {
    return readPayloadFile(path)
  } catch (e) {
    throw new ContextError(
      `Cannot read the event payload at GITHUB_EVENT_PATH: ${(e as Error).message}`
    )
  }
}

export function readContext(env: Env): RunContext {
  const repository = env['GITHUB_REPOSITORY'] ?? ''
  const [owner, repo] = repository.split('/')
  if (!owner || !repo) {
    throw new ContextError(
      'GITHUB_REPOSITORY is not set: review-loop runs as a step of a GitHub Actions workflow.'
    )
  }
  const payload = readPayload(env['GITHUB_EVENT_PATH'])
  const target = dispatchTarget(env['GITHUB_WORKFLOW_REF'], repository)
  return {
    eventName: env['GITHUB_EVENT_NAME'] ?? '',
    action: typeof payload['action'] === 'string' ? payload['action'] : undefined,
    payload,
    owner,
    repo,
    runId: env['GITHUB_RUN_ID'] ?? '0',
    runAttempt: Number(env['GITHUB_RUN_ATTEMPT'] ?? '1') || 1,
    workflowFile: target.file,
    workflowMissing: target.missing,
    serverUrl: (env['GITHUB_SERVER_URL'] ?? 'https://github.com').replace(/\/$/, ''),
    apiUrl: (env['GITHUB_API_URL'] ?? 'https://api.github.com').replace(/\/$/, ''),
    workspace: env['GITHUB_WORKSPACE'] ?? process.cwd(),
    tempDir: env['RUNNER_TEMP'] ?? env['TMPDIR'] ?? '/tmp',
    eventPrNumber: prNumberFromPayload(payload),
    actor: env['GITHUB_ACTOR'] ?? ''
  }
}
