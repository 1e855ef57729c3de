import path from 'node:path'
import { DatasetError } from '../eval/dataset.js'
import { importMartian } from '../eval/martian.js'
import { counted } from '../report/eval-score.js'
import { plural } from '../report/format.js'
import { UsageError } from '../wiring/usage-error.js'
import type { CliIo, EvalImportOptions } from './args.js'

/**
 * `review-loop eval import martian GOLDEN.json... --out DIR`: a dataset of fetched cases from
 * Martian's golden comments; exit 1 when a PR could not be resolved (the others are written).
 */
export async function importDataset(options: EvalImportOptions, io: CliIo): Promise<number> {
  const out = path.resolve(io.cwd, options.out)
  const api = options.apiUrl ?? io.env['GITHUB_API_URL'] ?? 'https://api.github.com'
  let result
  try {
    result = await importMartian(
      options.files.map(f => path.resolve(io.cwd, f)),
      out,
      { api, token: io.env['GITHUB_TOKEN'] || io.env['GH_TOKEN'] || undefined, say: io.out }
    )
  } catch (e) {
    throw e instanceof DatasetError ? new UsageError(e.message) : e
  }
  io.out('')
  io.out(
    `Wrote ${counted(result.written.length, 'case')} (${counted(result.comments, 'golden comment')}) to ${out}${result.failed.length ? `; ${plural(result.failed.length, 'pull request')} not imported (above)` : ''}.`
  )
  io.out(
    `Their labels have no place: run them with a judge, for example review-loop eval ${options.out} --judge-model claude-haiku-4-5 --judge-mode pairwise`
  )
  return result.failed.length ? 1 : 0
}
