import path from 'node:path'
import type { Settings } from '../inputs.js'
import type { PullRequest } from '../loop/types.js'
import type { Git } from '../ports/index.js'
import { scrubbedEnv } from '../process/scrubbed-env.js'

/** Where PR code runs: the checkout on the PR head, the working directory, the scrubbed environment. */
export interface Workspace {
  git: Git
  cwd: string
  env: Record<string, string>
}

export async function openWorkspace(
  deps: {
    settings: Settings
    workspace: string
    openGit: (dir: string) => Promise<Git>
    env: Record<string, string | undefined>
  },
  pull: PullRequest
): Promise<Workspace> {
  const git = await deps.openGit(deps.workspace)
  await git.checkoutPullHead(pull.headRef, pull.headSha)
  return {
    git,
    cwd: path.resolve(git.root, deps.settings.workingDirectory),
    env: scrubbedEnv(deps.env)
  }
}
