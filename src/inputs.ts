import path from 'node:path'
import { InputError } from './action/input-error.js'
import { badGlob } from './review/ignore.js'
import { ALWAYS_PROTECTED, badPattern } from './fix/protected-paths.js'
import { TOOL_LEVELS } from './gates/problem.js'
import { refusedPassthrough } from './process/command-env.js'
import { DEFAULT_FAIL_ON, FAILABLE } from './loop/rules.js'
import type {
  AiSettings,
  CheckSpec,
  PathInstruction,
  Settings,
  ToolLevel
} from './loop/settings.js'
import { SEVERITIES, type Severity, type TerminalStatus } from './loop/types.js'
import { MODEL_PROVIDERS, resolveProvider, type Env } from './model/provider.js'

export { InputError }

export { ALWAYS_PROTECTED }

type GetInput = (name: string) => string

/**
 * Every input's default. action.yml declares none but github-token's, so an input the workflow
 * leaves out reads '' and the repository's .github/review-loop.yml can set it; the defaults apply
 * after both (withDefaults). `npm run docs` shows them in the README.
 */
export const INPUT_DEFAULTS: Readonly<Record<string, string>> = {
  'max-iterations': '3',
  'severity-threshold': 'medium',
  'human-review-severity': 'high',
  retrigger: 'dispatch',
  'working-directory': '.',
  'review-drafts': 'false',
  'allow-forks': 'false',
  sandbox: 'auto',
  'sandbox-network': 'allow',
  'review-concurrency': '4',
  'verify-findings': 'true',
  'block-uncertain': 'false',
  'hold-go-at': 'high',
  'review-passes': '1',
  'review-max-turns': '6',
  'incremental-review': 'true',
  'max-annotations': '1000',
  'check-name': 'review-loop',
  'check-run-buttons': 'false',
  'command-timeout-minutes': '10',
  'request-timeout-seconds': '30',
  'max-wait-seconds': '120',
  'fail-on': 'max_iterations, needs_discussion, stalled, budget_exhausted, error',
  'escalation-label': 'review-loop: needs human',
  'stop-label': 'review-loop: stop',
  'submit-review': 'none',
  'commit-author-name': 'github-actions[bot]',
  'commit-author-email': '41898282+github-actions[bot]@users.noreply.github.com',
  'model-provider': 'auto',
  'review-model': 'claude-sonnet-5-5',
  'max-turns': '30',
  'review-timeout-minutes': '10',
  'fix-timeout-minutes': '20',
  mode: 'review',
  'stats-pull-requests': '50'
}

/** The input as given, else its default. */
export function withDefaults(get: GetInput): GetInput {
  return name => {
    const given = get(name)
    return given.trim() === '' ? (INPUT_DEFAULTS[name] ?? given) : given
  }
}

/** mode: review (the loop) or stats (loop analytics), and how many pull requests stats reads. */
export function parseMode(
  given: GetInput
): { mode: 'review' } | { mode: 'stats'; pullRequests: number } {
  const get = withDefaults(given)
  const mode = oneOf(get, 'mode', ['review', 'stats'] as const, 'review')
  if (mode === 'review') return { mode }
  return { mode, pullRequests: integer(get, 'stats-pull-requests', 50, 1, 1000) }
}

/** A label input: 'none' turns it off. */
function label(get: GetInput, name: string): string {
  const value = get(name).trim()
  return value.toLowerCase() === 'none' ? '' : value
}

function lines(value: string): string[] {
  return value
    .split(/\r?\n/)
    .map(l => l.trim())
    .filter(l => l !== '' && !l.startsWith('#'))
}

function list(value: string): string[] {
  return value
    .split(/[\n,]/)
    .map(l => l.trim())
    .filter(l => l !== '' && !l.startsWith('#'))
}

function integer(get: GetInput, name: string, fallback: number, min: number, max: number): number {
  const raw = get(name).trim()
  if (raw === '') return fallback
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new InputError(name, `'${raw}' is not a whole number from ${min} to ${max}.`)
  }
  return Number(raw)
}

function decimal(get: GetInput, name: string): number | undefined {
  const raw = get(name).trim()
  if (raw === '') return undefined
  const value = Number(raw)
  if (!/^\d+(\.\d+)?$/.test(raw) || !(value > 0)) {
    throw new InputError(
      name,
      `'${raw}' is not a positive amount of US dollars, such as 5 or 2.50.`
    )
  }
  return value
}

function oneOf<T extends string>(
  get: GetInput,
  name: string,
  allowed: readonly T[],
  fallback: T
): T {
  const raw = get(name).trim().toLowerCase()
  if (raw === '') return fallback
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new InputError(name, `'${raw}' is not one of: ${allowed.join(', ')}.`)
  }
  return raw as T
}

function boolean(get: GetInput, name: string, fallback: boolean): boolean {
  const raw = get(name).trim().toLowerCase()
  if (raw === '') return fallback
  if (raw === 'true') return true
  if (raw === 'false') return false
  throw new InputError(name, `'${raw}' is not true or false.`)
}

const CHECK_LINE = /^([A-Za-z0-9][\w.-]*)\s*(?:\[([^\]]*)\])?\s*:\s*(.+)$/

const CHECK_EXAMPLE =
  "for example 'lint: npx eslint . -f json' or 'lint[warning=low, report=out/eslint.sarif]: …'"

/** The options of a check: `error=`, `warning=`, `note=` (a severity each) and `report=PATH`. */
function checkOptions(name: string, raw: string | undefined): Omit<CheckSpec, 'name' | 'command'> {
  const options: Omit<CheckSpec, 'name' | 'command'> = {}
  for (const option of (raw ?? '').split(/[,\s]+/).filter(Boolean)) {
    const [key = '', value = ''] = option.split('=', 2).map(s => s.trim())
    if ((TOOL_LEVELS as readonly string[]).includes(key)) {
      if (!(SEVERITIES as readonly string[]).includes(value))
        throw new InputError(
          'checks',
          `check '${name}': '${option}' gives '${key}' the severity '${value}'; use one of ${SEVERITIES.join(', ')}.`
        )
      options.levels = { ...options.levels, [key as ToolLevel]: value as Severity }
    } else if (key === 'report') {
      const normalized = path.posix.normalize(value)
      if (
        !value ||
        path.posix.isAbsolute(normalized) ||
        normalized === '..' ||
        normalized.startsWith('../') ||
        // the working directory itself as a report folder: every JSON or XML file a check writes
        // would be read as a report, and removed
        normalized === '.' ||
        normalized === './'
      )
        throw new InputError(
          'checks',
          `check '${name}': report=${value} must be a file or folder path relative to the working directory and below it, inside the repository (for example 'report=out/eslint.sarif' or 'report=build/test-results/test/').`
        )
      options.report = normalized
    } else {
      throw new InputError(
        'checks',
        `check '${name}': unknown option '${option}'; options are error=, warning=, note= (a severity) and report=PATH (${CHECK_EXAMPLE}).`
      )
    }
  }
  return options
}

/** The `checks` input: one `name[options]: command` per line. */
export function parseChecks(raw: string): CheckSpec[] {
  const seen = new Set<string>()
  return lines(raw).map(line => {
    const match = CHECK_LINE.exec(line)
    if (!match) {
      throw new InputError('checks', `line '${line}' is not 'name: command' (${CHECK_EXAMPLE}).`)
    }
    const [, name, options, command] = match as unknown as [
      string,
      string,
      string | undefined,
      string
    ]
    if (seen.has(name)) throw new InputError('checks', `the name '${name}' is used twice.`)
    seen.add(name)
    return { name, command: command.trim(), ...checkOptions(name, options) }
  })
}

/** The `problem-matchers` input: JSON files in GitHub's problem matcher format, one path a line. */
function parseMatcherFiles(raw: string): string[] {
  return lines(raw).map(file => {
    const normalized = path.posix.normalize(file)
    if (path.posix.isAbsolute(normalized) || normalized === '..' || normalized.startsWith('../'))
      throw new InputError(
        'problem-matchers',
        `'${file}' must be a path relative to the repository root (for example '.github/matchers/mytool.json').`
      )
    return normalized
  })
}

function parseFailOn(raw: string): TerminalStatus[] {
  const values = list(raw.toLowerCase())
  if (values.length === 0) return [...DEFAULT_FAIL_ON]
  if (values.length === 1 && values[0] === 'never') return []
  for (const v of values) {
    if (!(FAILABLE as readonly string[]).includes(v)) {
      throw new InputError('fail-on', `'${v}' is not one of: ${FAILABLE.join(', ')}, never.`)
    }
  }
  return values as TerminalStatus[]
}

function parsePrNumber(get: GetInput): number | undefined {
  const raw = get('pr-number').trim()
  if (raw === '') return undefined
  if (!/^\d+$/.test(raw) || Number(raw) < 1) {
    throw new InputError('pr-number', `'${raw}' is not a pull request number such as 42.`)
  }
  return Number(raw)
}

function parseWorkingDirectory(get: GetInput): string {
  const workingDirectory = get('working-directory').trim() || '.'
  if (path.isAbsolute(workingDirectory) || /^[a-zA-Z]:/.test(workingDirectory)) {
    throw new InputError(
      'working-directory',
      `'${workingDirectory}' is absolute; give a folder relative to the repository root, such as 'packages/app'.`
    )
  }
  if (workingDirectory.split(/[\\/]/).includes('..')) {
    throw new InputError(
      'working-directory',
      `'${workingDirectory}' must stay inside the workspace.`
    )
  }
  return workingDirectory
}

function parsePassthrough(raw: string): string[] {
  const names = list(raw)
  for (const name of names) {
    const refused = refusedPassthrough(name)
    if (refused) throw new InputError('env-passthrough', `${refused}. Remove it from the list.`)
  }
  return names
}

type ModelChoice = Pick<
  AiSettings,
  'apiKey' | 'provider' | 'baseUrl' | 'reviewModel' | 'maxCostUsd'
>

/** Which model, where, and for how much; the provider is resolved against the environment. */
function parseModelChoice(get: GetInput, env: Env): ModelChoice {
  const apiKey = get('anthropic-api-key').trim()
  const reviewModel = get('review-model').trim() || 'claude-sonnet-5-5'
  const maxCostUsd = decimal(get, 'max-cost-usd')
  const baseUrl = get('anthropic-base-url').trim() || undefined
  const provider = resolveProvider(
    {
      modelProvider: oneOf(get, 'model-provider', MODEL_PROVIDERS, 'auto'),
      apiKey,
      baseUrl,
      awsRegion: get('aws-region').trim() || undefined,
      vertexProjectId: get('vertex-project-id').trim() || undefined,
      vertexRegion: get('vertex-region').trim() || undefined
    },
    env
  )
  return { apiKey, provider, baseUrl, reviewModel, maxCostUsd }
}

/** The rest of the model inputs: the fixer's model, its limits, and what the repository adds. */
function parseAiSettings(
  get: GetInput,
  model: ModelChoice,
  pathInstructions: PathInstruction[]
): AiSettings {
  return {
    ...model,
    pathInstructions,
    fixModel: get('fix-model').trim() || model.reviewModel,
    maxTurns: integer(get, 'max-turns', 30, 1, 500),
    reviewTimeoutMinutes: integer(get, 'review-timeout-minutes', 10, 1, 360),
    fixTimeoutMinutes: integer(get, 'fix-timeout-minutes', 20, 1, 360),
    guidelines: get('guidelines').trim() || undefined,
    instructions: get('instructions').trim() || undefined,
    ignore: parseIgnore(get('ignore')),
    reviewConcurrency: integer(get, 'review-concurrency', 4, 1, 16),
    ...reviewJudgment(get)
  }
}

/** How the review's findings must hold up before the loop acts on them. */
function reviewJudgment(
  get: GetInput
): Pick<
  AiSettings,
  | 'verifyFindings'
  | 'blockUncertain'
  | 'holdGoAt'
  | 'reviewPasses'
  | 'votesToBlock'
  | 'reviewMaxTurns'
  | 'incrementalReview'
> {
  const reviewPasses = integer(get, 'review-passes', 1, 1, 5)
  const majority = Math.floor(reviewPasses / 2) + 1
  const votesToBlock = integer(get, 'votes-to-block', majority, 1, 5)
  if (votesToBlock > reviewPasses)
    throw new InputError(
      'votes-to-block',
      `${votesToBlock} is more than review-passes (${reviewPasses}): no finding could ever block. Set it to at most ${reviewPasses}, or raise review-passes.`
    )
  return {
    verifyFindings: boolean(get, 'verify-findings', true),
    blockUncertain: boolean(get, 'block-uncertain', false),
    holdGoAt: oneOf(get, 'hold-go-at', [...SEVERITIES, 'none'] as const, 'high'),
    reviewPasses,
    votesToBlock,
    reviewMaxTurns: integer(get, 'review-max-turns', 6, 1, 20),
    incrementalReview: boolean(get, 'incremental-review', true)
  }
}

function parseProtected(raw: string): string[] {
  const patterns = list(raw)
  for (const pattern of patterns) {
    const bad = badPattern(pattern)
    if (bad)
      throw new InputError(
        'protected-paths',
        `'${pattern}': ${bad} (.gitignore syntax, for example 'config/' or '*.lock').`
      )
  }
  return patterns
}

function parseIgnore(raw: string): string[] {
  // one glob per line: commas belong to brace globs such as **/*.{png,jpg}
  const globs = lines(raw)
  for (const glob of globs) {
    const bad = badGlob(glob)
    if (bad) throw new InputError('ignore', `'${glob}': ${bad} (for example 'docs/generated/**').`)
  }
  return globs
}

/** Who is called when the loop needs a human, and how. */
function parseEscalation(
  get: GetInput
): Pick<
  Settings,
  | 'escalationLabel'
  | 'stopLabel'
  | 'escalationReviewers'
  | 'escalationTeamReviewers'
  | 'submitReview'
> {
  const reviewers = list(get('escalation-reviewers'))
  return {
    escalationLabel: label(get, 'escalation-label'),
    stopLabel: label(get, 'stop-label'),
    escalationReviewers: reviewers.filter(r => !r.includes('/')),
    escalationTeamReviewers: reviewers.filter(r => r.includes('/')).map(r => r.split('/')[1] ?? r),
    submitReview: oneOf(get, 'submit-review', ['none', 'comment', 'approve'] as const, 'none')
  }
}

/**
 * What the GitHub adapter needs before the repository's settings file can be read: the workflow's
 * own inputs (the file may not set them).
 */
export function parseConnection(
  given: GetInput
): Pick<Settings, 'githubToken' | 'requestTimeoutSeconds' | 'maxWaitSeconds' | 'stateAuthor'> {
  const get = withDefaults(given)
  const githubToken = get('github-token').trim()
  if (githubToken === '') {
    throw new InputError(
      'github-token',
      "is empty. Leave it unset to use the workflow token, or pass a PAT/App token secret; a fork's pull_request run gets no secrets, so pass `${{ secrets.MY_TOKEN || github.token }}` there."
    )
  }
  return {
    githubToken,
    requestTimeoutSeconds: integer(get, 'request-timeout-seconds', 30, 1, 600),
    maxWaitSeconds: integer(get, 'max-wait-seconds', 120, 0, 3600),
    stateAuthor: get('state-author').trim() || undefined
  }
}

/**
 * `env` is read only to choose the model provider (credentials exported by earlier steps);
 * `pathInstructions` come from .github/review-loop.yml.
 */
export function parseSettings(
  given: GetInput,
  env: Env = process.env,
  pathInstructions: PathInstruction[] = []
): Settings {
  const get = withDefaults(given)
  const connection = parseConnection(get)
  // parsed in the order the first wrong input is reported: the PR, the folder, the model
  const prNumber = parsePrNumber(get)
  const workingDirectory = parseWorkingDirectory(get)
  const model = parseModelChoice(get, env)
  const settings: Settings = {
    ...connection,
    maxIterations: integer(get, 'max-iterations', 3, 1, 20),
    severityThreshold: oneOf(get, 'severity-threshold', SEVERITIES, 'medium'),
    humanReviewSeverity: oneOf(get, 'human-review-severity', SEVERITIES, 'high'),
    gates: parseChecks(get('checks')),
    problemMatchers: parseMatcherFiles(get('problem-matchers')),
    fixCommands: lines(get('fix-commands')),
    retrigger: oneOf(get, 'retrigger', ['dispatch', 'push', 'none'] as const, 'dispatch'),
    prNumber,
    workingDirectory,
    protectedPaths: [...ALWAYS_PROTECTED, ...parseProtected(get('protected-paths'))],
    reviewDrafts: boolean(get, 'review-drafts', false),
    allowForks: boolean(get, 'allow-forks', false),
    checkName: get('check-name').trim() || 'review-loop',
    checkRunButtons: boolean(get, 'check-run-buttons', false),
    commandTimeoutMinutes: integer(get, 'command-timeout-minutes', 10, 1, 360),
    failOn: parseFailOn(get('fail-on')),
    ...parseEscalation(get),
    commitAuthor: {
      name: get('commit-author-name').trim() || 'github-actions[bot]',
      email:
        get('commit-author-email').trim() || '41898282+github-actions[bot]@users.noreply.github.com'
    },
    artifactsDir: get('artifacts-dir').trim() || undefined,
    stateKey: get('state-key').trim() || undefined,
    sandbox: oneOf(get, 'sandbox', ['auto', 'required', 'off'] as const, 'auto'),
    sandboxNetwork: oneOf(get, 'sandbox-network', ['allow', 'deny'] as const, 'allow'),
    envPassthrough: parsePassthrough(get('env-passthrough')),
    maxAnnotations: integer(get, 'max-annotations', 1000, 0, 10_000),
    ai: parseAiSettings(get, model, pathInstructions)
  }
  if (settings.gates.length === 0 && !settings.ai.provider) {
    throw new InputError(
      'checks',
      "is empty and no model provider is configured (no 'anthropic-api-key', no AWS credentials for Bedrock, no Vertex project), so nothing would review the PR. Add at least one 'name: command' line (for example 'test: npm test'), or set anthropic-api-key (or model-provider bedrock / vertex)."
    )
  }
  return settings
}
