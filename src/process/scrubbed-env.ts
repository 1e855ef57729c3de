const SECRET_NAME =
  /TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|CREDS|PRIVATE|API_?KEY|ACCESS_?KEY|AUTH|COOKIE|SESSION/i

/**
 * The environment for commands that run PR code (checks, fix commands, the fixer's run_check):
 * the runner's environment without tokens, keys, action inputs or the runtime's credentials.
 */
export function scrubbedEnv(env: Record<string, string | undefined>): Record<string, string> {
  const clean: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue
    if (name.startsWith('INPUT_') || name.startsWith('ACTIONS_') || SECRET_NAME.test(name)) continue
    clean[name] = value
  }
  return clean
}
