import { parseArgs } from 'node:util'
import { suggestKey } from '../config/config-file.js'

export const HELP = `review-loop: the review → fix loop of the review-loop GitHub Action, on a local repository.

Usage:
  review-loop [options]          review the current branch against its base, fix, review again
  review-loop stats [options]    loop analytics over the last pull requests of a GitHub repository
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

export class UsageError extends Error {}

export interface ReviewOptions {
  command: 'review'
  /** The base branch given with --base; without it, the one origin/HEAD names (else main). */
  base?: string
  inputs: Record<string, string>
  out?: string
  dryRun: boolean
  verbose: boolean
  /** Lend the checks your installed dependency folders (off with --no-lend). */
  lend: boolean
}

export interface StatsOptions {
  command: 'stats'
  repo?: string
  last: number
  apiUrl?: string
  summary?: string
  stateAuthor: string
}

export type CliOptions = ReviewOptions | StatsOptions | { command: 'help' | 'version' }

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
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' }
} as const

/** The command line, read into typed options; a wrong one is a UsageError that says what to type. */
export function parseCli(argv: readonly string[]): CliOptions {
  let parsed
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true })
  } catch (e) {
    throw new UsageError(`${optionError(e as Error)} See review-loop --help.`)
  }
  const { values, positionals } = parsed
  if (values.help) return { command: 'help' }
  if (values.version) return { command: 'version' }
  const [command = 'review', ...extra] = positionals
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
