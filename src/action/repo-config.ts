import { CONFIG_PATH, parseConfigFile, withConfig, type RepoConfig } from '../config/config-file.js'
import { parseSettings, type Settings } from '../inputs.js'
import { InputError } from './input-error.js'
import type { GitHubPort } from '../ports/index.js'
import type { RunContext } from './context.js'
import type { Prefetched } from './prefetch.js'

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

/** `.github/review-loop.yml` at `ref`, parsed and validated; undefined when the file is not there. */
export async function readRepoConfig(
  github: Pick<GitHubPort, 'readFile'>,
  ref: string | undefined
): Promise<RepoConfig | undefined> {
  const text = await github.readFile(CONFIG_PATH, ref)
  if (text === undefined) return undefined
  const at = ref ? `the base commit ${ref.slice(0, 7)}` : 'the default branch'
  return parseConfigFile(text, `\`${CONFIG_PATH}\` on ${at}`)
}

/**
 * The settings: the workflow's inputs, else the file's, else the defaults. A wrong value the file
 * gave is said to come from the file.
 */
export function settingsFrom(
  given: (name: string) => string,
  config: RepoConfig | undefined,
  env: Record<string, string | undefined>
): Settings {
  try {
    return parseSettings(withConfig(given, config), env, config?.pathInstructions)
  } catch (e) {
    const fromFile =
      e instanceof InputError &&
      config &&
      given(e.input).trim() === '' &&
      Object.hasOwn(config.inputs, e.input)
    if (fromFile)
      e.message += ` (It is set in ${CONFIG_PATH}; change it there, or set it in the workflow.)`
    throw e
  }
}
