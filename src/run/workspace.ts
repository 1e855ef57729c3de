import type { ProblemMatcher } from '../gates/formats/problem-matchers.js'
import { loadMatchers } from '../gates/run-gates.js'
import { realpathSync } from 'node:fs'
import path from 'node:path'
import { InputError } from '../action/input-error.js'
import type { Settings } from '../loop/settings.js'
import type { PullRequest } from '../loop/types.js'
import type { Confine, Confined, Git } from '../ports/index.js'
import { collectSecrets } from '../process/secrets.js'

/** Where PR code runs: the checkout on the PR head, the working directory, the confined runner. */
export interface Workspace extends Confined {
  git: Git
  cwd: string
  /** The job's secret values, kept out of prompts, transcripts, artifacts and commits. */
  secrets: string[]
  /** The `problem-matchers` input's matchers, read from the base branch. */
  matchers: ProblemMatcher[]
}

/** The job's secret values: the action's own (token, API key, state key) and the environment's. */
export function jobSecrets(settings: Settings, env: Record<string, string | undefined>): string[] {
  return collectSecrets([settings.githubToken, settings.ai.apiKey, settings.stateKey], env)
}

/** The working directory, which must be a folder inside the repository (links resolved). */
function workingDirectory(root: string, given: string): string {
  const cwd = path.resolve(root, given)
  let real: string
  try {
    real = realpathSync(cwd)
  } catch {
    throw new InputError('working-directory', `'${given}' does not exist in the repository.`)
  }
  const realRoot = realpathSync(root)
  if (real !== realRoot && !real.startsWith(`${realRoot}${path.sep}`))
    throw new InputError(
      'working-directory',
      `'${given}' leads outside the repository (to ${real}); name a folder inside it.`
    )
  return cwd
}

export async function openWorkspace(
  deps: {
    settings: Settings
    workspace: string
    openGit: (dir: string) => Promise<Git>
    confine: Confine
    env: Record<string, string | undefined>
  },
  pull: PullRequest
): Promise<Workspace> {
  const git = await deps.openGit(deps.workspace)
  await git.checkoutPullHead(pull.headRef, pull.headSha)
  const cwd = workingDirectory(git.root, deps.settings.workingDirectory)
  const confined = await deps.confine({
    root: git.root,
    gitDir: git.gitDir,
    gitConfig: await git.configForPrCode()
  })
  const secrets = jobSecrets(deps.settings, deps.env)
  const matchers = await loadMatchers(git, pull.baseSha, deps.settings.problemMatchers)
  return { ...confined, git, cwd, secrets, matchers }
}
