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

/** `owner/repo/.github/workflows/review.yml@refs/heads/main` → `review.yml`. */
export function workflowFileFromRef(ref: string | undefined): string | undefined {
  const match = /\/\.github\/workflows\/([^@/]+)@/.exec(ref ?? '')
  return match?.[1]
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
  return {
    eventName: env['GITHUB_EVENT_NAME'] ?? '',
    action: typeof payload['action'] === 'string' ? payload['action'] : undefined,
    payload,
    owner,
    repo,
    runId: env['GITHUB_RUN_ID'] ?? '0',
    runAttempt: Number(env['GITHUB_RUN_ATTEMPT'] ?? '1') || 1,
    workflowFile: workflowFileFromRef(env['GITHUB_WORKFLOW_REF']),
    serverUrl: (env['GITHUB_SERVER_URL'] ?? 'https://github.com').replace(/\/$/, ''),
    apiUrl: (env['GITHUB_API_URL'] ?? 'https://api.github.com').replace(/\/$/, ''),
    workspace: env['GITHUB_WORKSPACE'] ?? process.cwd(),
    tempDir: env['RUNNER_TEMP'] ?? env['TMPDIR'] ?? '/tmp',
    eventPrNumber: prNumberFromPayload(payload),
    actor: env['GITHUB_ACTOR'] ?? ''
  }
}
