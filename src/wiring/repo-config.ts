import { CONFIG_PATH, parseConfigFile, withConfig, type RepoConfig } from '../config/config-file.js'
import { parseSettings } from '../inputs.js'
import type { Settings } from '../loop/settings.js'
import { InputError } from '../action/input-error.js'
import type { GitHubPort } from '../ports/index.js'
import type { RunContext } from '../action/context.js'
import type { Prefetched } from '../action/prefetch.js'

/**
 * The commit the settings file is read from: the PR's base commit (as the guidelines are), so a PR
 * cannot change the settings it is reviewed by. The pull request fetched at start-up names it, else
 * the event's payload, else the pull request asked for (a dispatch whose early fetch failed);
 * without a PR in sight, the default branch.
 */
export async function settingsRef(
  ctx: Pick<RunContext, 'payload' | 'eventPrNumber' | 'owner' | 'repo'>,
  github: Pick<GitHubPort, 'getPull'>,
  options: { prefetched?: Prefetched; prNumber?: number }
): Promise<string | undefined> {
  const baseSha = (pull: unknown): string | undefined => {
    const sha = (pull as { base?: { sha?: unknown } } | undefined)?.base?.sha
    return typeof sha === 'string' && /^[0-9a-f]{40}$/.test(sha) ? sha : undefined
  }
  const early = await options.prefetched?.response
  const known =
    (early?.status === 200 ? baseSha(early.body) : undefined) ??
    baseSha(ctx.payload['pull_request'])
  if (known) return known
  const pr = options.prNumber ?? ctx.eventPrNumber
  if (!pr) return undefined
  try {
    return (await github.getPull(pr)).baseSha
  } catch (e) {
    // the number came from the pr-number input (or a dispatch's input of that name)
    const inputs = ctx.payload['inputs'] as Record<string, unknown> | undefined
    const named = options.prNumber !== undefined || inputs?.['pr-number'] !== undefined
    if (!named || (e as { status?: number }).status !== 404) throw e
    throw new Error(
      `pr-number: PR #${pr} does not exist in ${ctx.owner}/${ctx.repo} (or the token cannot see it). Set pr-number to the number of a pull request of this repository.`
    )
  }
}

/** Where the settings file is read from, in words. */
export const settingsAt = (ref: string | undefined): string =>
  ref ? `the base commit ${ref.slice(0, 7)}` : 'the default branch'

/**
 * `.github/review-loop.yml` at `ref`, parsed and validated; undefined when the file is not there.
 * A read that fails says so, with the file, the commit and what GitHub answered.
 */
export async function readRepoConfig(
  github: Pick<GitHubPort, 'readFile'>,
  ref: string | undefined
): Promise<RepoConfig | undefined> {
  const at = settingsAt(ref)
  let text: string | undefined
  try {
    text = await github.readFile(CONFIG_PATH, ref)
  } catch (e) {
    throw new Error(
      `Could not read the settings file ${CONFIG_PATH} on ${at}: ${(e as Error).message}`,
      { cause: e }
    )
  }
  if (text === undefined) return undefined
  return parseConfigFile(text, `\`${CONFIG_PATH}\` on ${at}`)
}

/**
 * The settings: the workflow's inputs, else the file's, else the defaults. A wrong value the file
 * gave is said to come from the file; an input left empty while no settings file was found (at
 * `lookedAt`, in words) says first that the file was not found, as it may be there unread.
 */
export function settingsFrom(
  given: (name: string) => string,
  config: RepoConfig | undefined,
  env: Record<string, string | undefined>,
  lookedAt?: string
): Settings {
  try {
    return parseSettings(withConfig(given, config), env, config?.pathInstructions)
  } catch (e) {
    if (!(e instanceof InputError) || given(e.input).trim() !== '') throw e
    if (config && Object.hasOwn(config.inputs, e.input))
      e.message += ` (It is set in ${CONFIG_PATH}; change it there, or set it in the workflow.)`
    if (!config && lookedAt)
      e.message = `Reading the settings file ${CONFIG_PATH} on ${lookedAt} found no file: GitHub answered 404, which it answers for a file that is not there and for one the token may not read. If the file is there, grant the workflow 'contents: read' under permissions: (see the README) and check that ${lookedAt} has it, then re-run the job. Without the file: ${e.message}`
    throw e
  }
}
