import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { InputError } from '../action/input-error.js'
import { ConfigError } from '../config/config-file.js'
import { createGitHubAdapter } from '../github/octokit-adapter.js'
import { plural } from '../report/format.js'
import { statsReport } from '../run/stats.js'
import pkg from '../../package.json' with { type: 'json' }
import { EVAL_HELP, HELP, parseCli, type CliIo, type StatsOptions } from './args.js'
import { reviewLocally, type ReviewOptions } from '../wiring/local-review.js'
import { UsageError } from '../wiring/usage-error.js'
import { createTerminalLog } from './terminal-log.js'

const defaultIo = (): CliIo => ({
  cwd: process.cwd(),
  env: process.env,
  out: line => process.stdout.write(`${line}\n`),
  err: line => process.stderr.write(`${line}\n`)
})

/** `review-loop [stats] [options]`: returns the exit status (0 GO or done, 1 a failing end, 2 usage). */
export async function cli(argv: readonly string[], io: CliIo = defaultIo()): Promise<number> {
  try {
    const options = parseCli(argv)
    switch (options.command) {
      case 'help':
        io.out(HELP)
        return 0
      case 'version':
        io.out(pkg.version)
        return 0
      case 'stats':
        return await stats(options, io)
      case 'eval-help':
        io.out(EVAL_HELP)
        return 0
      case 'eval':
        return await (await import('./eval.js')).evaluate(options, io)
      case 'eval-merge':
        return await (await import('./eval-merge.js')).mergeReports(options, io)
      case 'eval-import':
        return await (await import('./eval-import.js')).importDataset(options, io)
      default:
        return await review(options, io)
    }
  } catch (e) {
    const usage = e instanceof UsageError || e instanceof InputError || e instanceof ConfigError
    io.err(`review-loop: ${(e as Error).message}`)
    return usage ? 2 : 1
  }
}

async function review(options: ReviewOptions, io: CliIo): Promise<number> {
  const log = createTerminalLog(io.out, { verbose: options.verbose })
  const result = await reviewLocally(options, { cwd: io.cwd, env: io.env, log })
  if (result.nothing) {
    io.out(`review-loop: not reviewed — ${result.nothing}`)
    return 0
  }
  const { state, decision, findings = [] } = result.outcome ?? {}
  io.out('')
  if (options.dryRun)
    io.out(
      `review-loop (dry run, nothing fixed): ${decision ?? 'not reviewed'}, ${plural(findings.length, 'finding') || 'no findings'}`
    )
  else
    io.out(
      `review-loop: ${state?.status ?? 'not reviewed'}${state?.reason ? ` — ${state.reason}` : ''}`
    )
  if (result.outcome?.notice) io.out(result.outcome.notice)
  io.out(`The comment, the check results and each iteration's records are in ${result.out}`)
  io.out(`  comment: ${path.join(result.out, 'comment.md')}`)
  if (result.left) io.err(result.left)
  else if (!options.dryRun)
    io.out(`Your branch is at ${result.head.slice(0, 12)} (nothing was pushed).`)
  if (options.dryRun) return decision === 'GO' ? 0 : 1
  return result.outcome?.failure || result.left ? 1 : 0
}

async function stats(options: StatsOptions, io: CliIo): Promise<number> {
  const token = io.env['GITHUB_TOKEN'] || io.env['GH_TOKEN']
  if (!token)
    throw new UsageError(
      'stats reads GitHub: set GITHUB_TOKEN (or GH_TOKEN) to a token that may read pull requests and issues.'
    )
  const repository = options.repo ?? io.env['GITHUB_REPOSITORY'] ?? ''
  const [owner, repo] = repository.split('/')
  if (!owner || !repo) throw new UsageError('Name the repository: --repo OWNER/NAME.')
  const log = createTerminalLog(io.err)
  const github = createGitHubAdapter({
    token,
    owner,
    repo,
    baseUrl: (options.apiUrl ?? io.env['GITHUB_API_URL'] ?? 'https://api.github.com').replace(
      /\/$/,
      ''
    ),
    log
  })
  const report = await statsReport(github, {
    last: options.last,
    author: options.stateAuthor,
    key: io.env['REVIEW_LOOP_STATE_KEY'],
    repository
  })
  for (const line of report.lines) io.out(line)
  if (options.summary) writeFileSync(options.summary, report.markdown)
  return 0
}
