/**
 * Environments by allow-list. PR code (checks, fix commands, the fixer's run_check) gets only what a
 * build needs to find its tools; the action's own git gets that plus what reaching the remote needs.
 * Everything else — tokens, keys, action inputs, the runner's file-command paths (GITHUB_ENV,
 * GITHUB_OUTPUT, …), NODE_OPTIONS — is left out, whatever its name.
 */

/** Names PR code always gets (besides HOME and TMPDIR, which point at private folders). */
export const ALLOWED_NAMES: readonly string[] = [
  'PATH',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TERM',
  'CI',
  'GITHUB_ACTIONS',
  // with GITHUB_ACTIONS, tools such as yamllint print workflow commands, which the checks read
  'GITHUB_WORKFLOW',
  'RUNNER_OS',
  'RUNNER_ARCH'
]

/** Names a user may not pass through: the action's credentials and the runner's control channels. */
const NEVER_PASSED =
  /^(INPUT_|ACTIONS_|GITHUB_(TOKEN|ENV|OUTPUT|STATE|PATH|STEP_SUMMARY|EVENT_PATH)$|NODE_OPTIONS$|LD_PRELOAD$|LD_LIBRARY_PATH$|BASH_ENV$|ENV$)/

/** The reason an env-passthrough name is refused, or undefined when it may pass. */
export function refusedPassthrough(name: string): string | undefined {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return `'${name}' is not an environment variable name`
  if (NEVER_PASSED.test(name))
    return `'${name}' is one of the action's own credentials or the runner's control variables; PR code never gets it`
  return undefined
}

export interface PrivateDirs {
  home: string
  tmp: string
}

/** The environment of every command that runs PR code. */
export function commandEnv(
  env: Record<string, string | undefined>,
  passthrough: readonly string[],
  dirs: PrivateDirs
): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue
    if (ALLOWED_NAMES.includes(name) || name.startsWith('LC_') || passthrough.includes(name))
      out[name] = value
  }
  out['HOME'] = dirs.home
  out['TMPDIR'] = dirs.tmp
  // the private HOME is new for each command: npm would ask the registry for its own newer version
  // every time and print a notice into the check's output
  out['npm_config_update_notifier'] ??= 'false'
  // as on a runner (GitHub sets CI=true): test runners that watch for changes outside CI (Vitest,
  // Jest's --watch default) run once and exit; a CI the environment sets, even empty, is kept
  out['CI'] ??= 'true'
  return out
}

/** The environment of the action's own git: no secrets; the runner's SSH agent for SSH remotes. */
export function gitEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue
    if (
      ['PATH', 'HOME', 'LANG', 'LANGUAGE', 'TZ', 'SSH_AUTH_SOCK', 'GIT_SSH_COMMAND'].includes(
        name
      ) ||
      name.startsWith('LC_')
    )
      out[name] = value
  }
  return out
}
