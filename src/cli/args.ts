import { parseArgs } from 'node:util'
import { suggestKey } from '../config/config-file.js'
import type { ReviewOptions } from '../wiring/local-review.js'
import { UsageError } from '../wiring/usage-error.js'

export const HELP = `review-loop: the review → fix loop of the review-loop GitHub Action, on a local repository.

Usage:
  review-loop [options]          review the current branch against its base, fix, review again
  review-loop stats [options]    loop analytics over the last pull requests of a GitHub repository
  review-loop eval [DATASET]     measure the AI reviewer on pull requests with known bugs
                                 (review-loop eval --help)
  review-loop --help | --version

Review options:
  --base BRANCH        the branch the current branch is compared with (default: the branch
                       origin/HEAD names, else main)
  --check 'NAME: CMD'  a check (the checks input); repeat for more
  --fix CMD            a fix command (the fix-commands input); repeat for more
  --max-iterations N   reviews before the loop stops (default 3)
  --max-cost-usd USD   the model budget for the whole loop
  --set INPUT=VALUE    any input of the action (for example --set severity-threshold=high); repeat
  --out DIR            where the comment, the check results and the artifacts go
                       (default: .git/review-loop/<time> of the repository)
  --dry-run            review only: no fix, no commit (works offline with checks alone)
  --verbose            print every check's output (by default only a failing check's)
  --no-lend            the checks install dependencies themselves: do not lend them your
                       installed node_modules, .venv, venv (read-only in the sandbox, a
                       hard-linked copy without it)

  Settings are read as on GitHub: options, then .github/review-loop.yml of the base branch, then
  the defaults. With ANTHROPIC_API_KEY set, Claude reviews and fixes as well (or model-provider
  bedrock / vertex with their credentials). Fixes are committed on the current branch, never pushed.
  Exit status: 0 at GO, 1 when the loop ended in a fail-on state, 2 on a usage error.

Stats options:
  --repo OWNER/NAME    the repository (default: GITHUB_REPOSITORY)
  --last N             how many of the newest pull requests to read (default 50)
  --api-url URL        the REST API (default: GITHUB_API_URL or https://api.github.com)
  --summary FILE       also write the markdown report (with Mermaid charts) to FILE
  --state-author LOGIN whose state comments count (default github-actions[bot], the workflow token)
  The token is GITHUB_TOKEN (or GH_TOKEN), with pull-requests: read and issues: read; signed states
  need REVIEW_LOOP_STATE_KEY.
`

export const EVAL_HELP = `review-loop eval: measure the AI reviewer (and with --loop the whole loop) on pull requests
whose bugs are known.

Usage:
  review-loop eval [DATASET] [options]
  review-loop eval --list [DATASET]
  review-loop eval merge REPORT.json... [--json FILE] [--summary FILE]
  review-loop eval import martian GOLDEN.json... --out DIR [--api-url URL]

  DATASET is a folder of cases (default: the dataset shipped with review-loop, its eval/ folder:
  real bug-fix commits of permissively licensed projects, and clean changes whose right verdict is
  GO). Each case's pull request is built in a temporary repository and reviewed exactly as
  review-loop reviews a branch: the same prompts, parts and settings. Each finding at or above the
  severity threshold is matched to the case's labelled issues: the same file and a line within the
  labelled lines (± --tolerance). A case may instead name its repository and commits: it is fetched
  when it runs (a partial fetch of those commits) into a cache, $REVIEW_LOOP_EVAL_CACHE or else
  $XDG_CACHE_HOME/review-loop/eval (~/.cache/review-loop/eval), reused by later runs; a case that
  cannot be fetched is an error naming its repository, and the others run.

Options:
  --list               one line per case: id, language, bug or clean, whether it has a test
  --case ID            run only this case; repeat for more
  --set INPUT=VALUE    any input of the action, for every case (for example --set review-model=M,
                       --set severity-threshold=low to score every finding)
  --loop               run the whole loop (reviews and AI fixes, up to max-iterations), then the
                       case's own test: the fix rate counts the cases whose test failed before and
                       passes after (run in the sandbox: it runs code a model wrote)
  --judge-model M      also match a finding to an issue when model M says they are the same defect;
                       labels with no place (imported golden comments) are matched by it alone,
                       and an eval of them is refused without it
  --judge-mode MODE    batch (default): one judge call per case; pairwise: one call per (labelled
                       issue, finding) pair, as Martian's Code Review Bench judges (costs more)
  --max-cost-usd USD   the budget for the whole eval, a hard cap; it stops before a case whose first
                       answer the rest cannot pay for, and a case it cuts short is not run
  --tolerance N        lines either side of a labelled issue a finding may name (default 3)
  --context diff|tools what the reviewer is given: diff, the diff and the changed files' full text;
                       tools (the default), those and its read tools over the PR's tree (--context
                       diff is --set review-max-turns=1)
  --shard I/N          run every Nth case from the Ith (1 ≤ I ≤ N), for N jobs side by side; merge
                       their --json reports with review-loop eval merge
  --json FILE          also write every case's result and the totals as JSON
  --summary FILE       append the scorecard as Markdown (for example $GITHUB_STEP_SUMMARY)
  --out DIR            where each case's comment, findings and log go (default: a new temporary folder)

  review-loop eval merge sums the shards' --json reports into one: the same cases and totals as one
  run over all of them. It refuses reports of different runs (dataset, models, settings) and says
  which shard is missing or was cut off before its last case.

Import:
  review-loop eval import martian GOLDEN.json... --out DIR
                       writes a dataset (DIR/cases/<id>/case.json) from the golden comment
                       files of Martian's Code Review Bench (withmartian/code-review-benchmark,
                       offline/golden_comments/): a case per pull request, its golden comments
                       as labels with no place. Each PR's head and merge base are read once
                       from GitHub's REST API (--api-url URL, default GITHUB_API_URL or
                       https://api.github.com; GITHUB_TOKEN or GH_TOKEN when set, needed beyond
                       60 requests an hour). Exit 1 when a PR could not be read.

  Before the first model call it prints what the reviews cost at most (if no answer is longer than
  the output reserve); then a line per case as it finishes, then precision (duplicates left out),
  recall, F1, the false NO_GO rate on clean cases, the fix rate (--loop), tokens, cost and time. A
  case whose review the budget, the time or an API error cut short is not run, never scored. It needs model credentials: ANTHROPIC_API_KEY (or --set model-provider=bedrock or vertex
  with theirs). A dataset is code: with --loop its tests run (in the sandbox), so run the ones you
  trust. Exit status: 1 when a case failed to run, 2 on a usage error, else 0 (cases the budget left
  out included).
`

export interface CliIo {
  cwd: string
  env: Record<string, string | undefined>
  out: (line: string) => void
  err: (line: string) => void
}

export interface StatsOptions {
  command: 'stats'
  repo?: string
  last: number
  apiUrl?: string
  summary?: string
  stateAuthor: string
}

export interface EvalOptions {
  command: 'eval'
  /** The dataset folder; the shipped one when not given. */
  dataset?: string
  inputs: Record<string, string>
  list: boolean
  cases: string[]
  loop: boolean
  judgeModel?: string
  /** `batch`: one judge call per case; `pairwise`: one per (issue, finding) pair, as Martian's judge. */
  judgeMode: 'batch' | 'pairwise'
  maxCostUsd?: number
  tolerance: number
  json?: string
  out?: string
  /** --shard I/N: every Nth case of those chosen, from the Ith (1-based). */
  shard?: { index: number; of: number }
  /** --context: the diff and changed files only, or with the read tools (review-max-turns). */
  context?: 'diff' | 'tools'
  /** --summary FILE: the scorecard as Markdown, appended (a job summary). */
  summary?: string
}

/** `review-loop eval merge FILE...`: the shards' JSON reports summed into one. */
export interface EvalMergeOptions {
  command: 'eval-merge'
  files: string[]
  json?: string
  summary?: string
}

/** `review-loop eval import martian GOLDEN.json... --out DIR`: a dataset from a benchmark's files. */
export interface EvalImportOptions {
  command: 'eval-import'
  format: 'martian'
  files: string[]
  out: string
  apiUrl?: string
}

export type CliOptions =
  | ReviewOptions
  | StatsOptions
  | EvalOptions
  | EvalMergeOptions
  | EvalImportOptions
  | { command: 'help' | 'version' | 'eval-help' }

const OPTIONS = {
  base: { type: 'string' },
  check: { type: 'string', multiple: true },
  fix: { type: 'string', multiple: true },
  'max-iterations': { type: 'string' },
  'max-cost-usd': { type: 'string' },
  set: { type: 'string', multiple: true },
  out: { type: 'string' },
  'dry-run': { type: 'boolean' },
  verbose: { type: 'boolean' },
  'no-lend': { type: 'boolean' },
  repo: { type: 'string' },
  last: { type: 'string' },
  'api-url': { type: 'string' },
  summary: { type: 'string' },
  'state-author': { type: 'string' },
  list: { type: 'boolean' },
  case: { type: 'string', multiple: true },
  loop: { type: 'boolean' },
  'judge-model': { type: 'string' },
  'judge-mode': { type: 'string' },
  tolerance: { type: 'string' },
  json: { type: 'string' },
  shard: { type: 'string' },
  context: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' }
} as const

/** The command line, read into typed options; a wrong one is a UsageError that says what to type. */
export function parseCli(argv: readonly string[]): CliOptions {
  let parsed
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true })
  } catch (e) {
    const name = argv[0] === 'eval' ? 'review-loop eval' : 'review-loop'
    throw new UsageError(`${optionError(e as Error)} See ${name} --help.`)
  }
  const { values, positionals } = parsed
  const [command = 'review', ...extra] = positionals
  refuseForeign(values, command)
  if (command === 'eval') return values.help ? { command: 'eval-help' } : evalOptions(values, extra)
  if (values.help) return { command: 'help' }
  if (values.version) return { command: 'version' }
  if (extra.length || !['review', 'stats'].includes(command))
    throw new UsageError(`Unknown command '${positionals.join(' ')}'. See review-loop --help.`)
  if (command === 'stats') {
    const last = Number(values.last ?? '50')
    if (!Number.isInteger(last) || last < 1 || last > 1000)
      throw new UsageError(
        `--last takes a number of pull requests from 1 to 1000, not '${values.last}'.`
      )
    return {
      command,
      repo: values.repo,
      last,
      apiUrl: values['api-url'],
      summary: values.summary,
      stateAuthor: values['state-author'] ?? 'github-actions[bot]'
    }
  }
  return {
    command: 'review',
    base: values.base,
    inputs: reviewInputs(values),
    out: values.out,
    dryRun: values['dry-run'] ?? false,
    verbose: values.verbose ?? false,
    lend: !values['no-lend']
  }
}

/** What was wrong on the command line; an unknown option that looks like a typo names the known one. */
function optionError(e: Error): string {
  const given = /'(-[^']*)'/.exec(e.message)?.[1]
  const name = given?.replace(/^-+/, '').split('=')[0] ?? ''
  // a one-letter option (-x) is no typo of a long one: no suggestion
  const near =
    (e as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && name.length > 1
      ? suggestKey(name, Object.keys(OPTIONS))
      : undefined
  return near ? `Unknown option '${given}': did you mean --${near}?` : `${e.message}.`
}

/** The review options as the action's inputs (`--set` for any of them). */
function reviewInputs(values: {
  check?: string[]
  fix?: string[]
  'max-iterations'?: string
  'max-cost-usd'?: string
  set?: string[]
}): Record<string, string> {
  const inputs: Record<string, string> = {}
  for (const pair of values.set ?? []) {
    const at = pair.indexOf('=')
    if (at < 1)
      throw new UsageError(
        `--set takes INPUT=VALUE (for example --set max-turns=10), not '${pair}'.`
      )
    inputs[pair.slice(0, at).trim()] = pair.slice(at + 1)
  }
  if (values.check?.length) inputs['checks'] = values.check.join('\n')
  if (values.fix?.length) inputs['fix-commands'] = values.fix.join('\n')
  if (values['max-iterations']) inputs['max-iterations'] = values['max-iterations']
  if (values['max-cost-usd']) inputs['max-cost-usd'] = values['max-cost-usd']
  return inputs
}

/** The options each command takes (help and version aside). */
const COMMAND_OPTIONS: Record<string, readonly string[]> = {
  review: [
    'base',
    'check',
    'fix',
    'max-iterations',
    'max-cost-usd',
    'set',
    'out',
    'dry-run',
    'verbose',
    'no-lend'
  ],
  stats: ['repo', 'last', 'api-url', 'summary', 'state-author'],
  eval: [
    'set',
    'list',
    'case',
    'loop',
    'judge-model',
    'judge-mode',
    'max-cost-usd',
    'tolerance',
    'json',
    'out',
    'shard',
    'context',
    'summary',
    'api-url'
  ]
}

/** An option of another command is a mistake said plainly, not silently ignored. */
function refuseForeign(values: Record<string, unknown>, command: string): void {
  const allowed = COMMAND_OPTIONS[command]
  if (!allowed) return
  const foreign = Object.keys(values).find(
    k => values[k] !== undefined && !['help', 'version', ...allowed].includes(k)
  )
  if (!foreign) return
  const owner = Object.keys(COMMAND_OPTIONS).find(c => COMMAND_OPTIONS[c]!.includes(foreign))
  const name = command === 'review' ? 'review-loop' : `review-loop ${command}`
  throw new UsageError(
    `--${foreign} is not an option of ${name}${owner ? ` (it is one of ${owner === 'review' ? 'review-loop' : `review-loop ${owner}`})` : ''}. See ${name} --help.`
  )
}

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values']

/** `review-loop eval merge FILE... [--json FILE] [--summary FILE]`: only those options. */
function evalMergeOptions(values: Values, files: string[]): EvalMergeOptions {
  if (!files.length)
    throw new UsageError(
      'eval merge takes the JSON reports of the shards (review-loop eval --shard I/N --json FILE), for example: review-loop eval merge shard-*.json --json eval.json'
    )
  const other = Object.keys(values).find(
    k => values[k as keyof Values] !== undefined && !['json', 'summary', 'help'].includes(k)
  )
  if (other)
    throw new UsageError(
      `--${other} is not an option of review-loop eval merge (it takes --json FILE and --summary FILE). See review-loop eval --help.`
    )
  return { command: 'eval-merge', files, json: values.json, summary: values.summary }
}

/** `--shard I/N`: 1 ≤ I ≤ N ≤ 256. */
function shardOption(given: string | undefined): EvalOptions['shard'] {
  if (given === undefined) return undefined
  const m = /^(\d+)\/(\d+)$/.exec(given)
  const index = Number(m?.[1])
  const of = Number(m?.[2])
  if (!m || index < 1 || of > 256 || index > of)
    throw new UsageError(
      `--shard takes I/N, this shard's number and the number of shards (1 ≤ I ≤ N ≤ 256), for example --shard 2/4, not '${given}'.`
    )
  return { index, of }
}

/** `--context diff|tools`; it and --set review-max-turns say the same thing, so not both. */
function contextOption(given: string | undefined, inputs: Record<string, string>) {
  if (given === undefined) return undefined
  if (given !== 'diff' && given !== 'tools')
    throw new UsageError(
      `--context takes diff (the diff and the changed files only) or tools (with the read tools), not '${given}'.`
    )
  if (inputs['review-max-turns'] !== undefined)
    throw new UsageError(
      '--context and --set review-max-turns both set the read tools: give one (--context diff is review-max-turns=1).'
    )
  return given
}

/** `review-loop eval import FORMAT FILE... --out DIR [--api-url URL]`. */
function importOptions(values: Values, extra: string[]): EvalImportOptions {
  const [format, ...files] = extra
  const given = Object.keys(values).filter(
    k => values[k as keyof Values] !== undefined && !['out', 'api-url'].includes(k)
  )
  if (given.length)
    throw new UsageError(
      `--${given[0]} is not an option of review-loop eval import (it takes --out DIR and --api-url URL). See review-loop eval --help.`
    )
  if (format !== 'martian')
    throw new UsageError(
      `eval import reads Martian's Code Review Bench: review-loop eval import martian GOLDEN.json... --out DIR, not '${format ?? ''}'.`
    )
  if (!files.length || !values.out)
    throw new UsageError(
      'eval import martian takes its golden comment files and a folder to write: review-loop eval import martian offline/golden_comments/*.json --out DIR.'
    )
  return { command: 'eval-import', format, files, out: values.out, apiUrl: values['api-url'] }
}

/** `--judge-mode batch|pairwise`, which needs a judge. */
function judgeModeOption(values: Values): 'batch' | 'pairwise' {
  const judgeMode = values['judge-mode'] ?? 'batch'
  if (judgeMode !== 'batch' && judgeMode !== 'pairwise')
    throw new UsageError(`--judge-mode takes batch or pairwise, not '${judgeMode}'.`)
  if (values['judge-mode'] !== undefined && !values['judge-model'])
    throw new UsageError('--judge-mode needs a judge: add --judge-model MODEL.')
  return judgeMode
}

/** `review-loop eval [DATASET] [options]`, its numbers checked. */
function evalOptions(
  values: Values,
  extra: string[]
): EvalOptions | EvalMergeOptions | EvalImportOptions {
  if (extra[0] === 'merge') return evalMergeOptions(values, extra.slice(1))
  if (extra[0] === 'import') return importOptions(values, extra.slice(1))
  if (values['api-url'] !== undefined)
    throw new UsageError(
      '--api-url is an option of review-loop eval import (and review-loop stats). See review-loop eval --help.'
    )
  const judgeMode = judgeModeOption(values)
  if (extra.length > 1)
    throw new UsageError(
      `eval takes one dataset folder, not '${extra.join(' ')}'. See review-loop eval --help.`
    )
  const cost = values['max-cost-usd']
  const maxCostUsd = cost === undefined ? undefined : Number(cost)
  if (maxCostUsd !== undefined && !(Number.isFinite(maxCostUsd) && maxCostUsd > 0))
    throw new UsageError(`--max-cost-usd takes an amount of US dollars above 0, not '${cost}'.`)
  const tolerance = Number(values.tolerance ?? '3')
  if (!Number.isInteger(tolerance) || tolerance < 0 || tolerance > 1000)
    throw new UsageError(
      `--tolerance takes a number of lines from 0 to 1000, not '${values.tolerance}'.`
    )
  const inputs = reviewInputs({ set: values.set })
  const context = contextOption(values.context, inputs)
  // the diff alone: the reviewer answers in one turn, without its read tools
  if (context === 'diff') inputs['review-max-turns'] = '1'
  if (inputs['max-cost-usd'] !== undefined)
    throw new UsageError(
      "--set max-cost-usd: the eval's budget is --max-cost-usd USD (for the whole eval; each case gets what is left)."
    )
  return {
    command: 'eval',
    dataset: extra[0],
    inputs,
    list: values.list ?? false,
    cases: values.case ?? [],
    loop: values.loop ?? false,
    judgeModel: values['judge-model'],
    judgeMode,
    maxCostUsd,
    tolerance,
    json: values.json,
    out: values.out,
    shard: shardOption(values.shard),
    context,
    summary: values.summary
  }
}
