/**
 * The job's secret values, so that none of them reaches a model, a transcript, an artifact or a
 * commit. The runner masks registered secrets in the log only; this covers everything else.
 */

/** Names whose values are treated as secrets (the action's own, and the usual secret names). */
const SECRET_NAME =
  /TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|CREDS|PRIVATE|API_?KEY|ACCESS_?KEY|AUTH|COOKIE|SESSION|_KEY$|^KEY$|WEBHOOK|DSN|DATABASE_URL/i

/** Shorter values are too likely to occur by chance (and too weak to be a real credential). */
const MIN_LENGTH = 8

/** Every secret value this job holds: the given ones, and environment values under secret names. */
export function collectSecrets(
  given: ReadonlyArray<string | undefined>,
  env: Record<string, string | undefined>
): string[] {
  const values = new Set<string>()
  const add = (value: string | undefined): void => {
    const v = value?.trim()
    if (v && v.length >= MIN_LENGTH) values.add(v)
  }
  for (const value of given) {
    add(value)
    // the form git sends it in (http.extraheader basic auth)
    if (value) add(Buffer.from(`x-access-token:${value.trim()}`).toString('base64'))
  }
  for (const [name, value] of Object.entries(env)) {
    // an action input counts by its own name (INPUT_GITHUB-TOKEN, not INPUT_CHECKS)
    if (SECRET_NAME.test(name.replace(/^INPUT_/, ''))) add(value)
    // a password inside a URL (postgres://user:password@host)
    const userinfo = value && /^[a-z][a-z0-9+.-]*:\/\/[^/@\s:]+:([^/@\s]+)@/i.exec(value)
    if (userinfo) add(userinfo[1])
  }
  // longest first, so a value that contains another is masked whole
  return [...values].sort((a, b) => b.length - a.length)
}

export function maskSecrets(text: string, secrets: readonly string[]): string {
  let out = text
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join('***')
  return out
}

/**
 * Credentials known by their form, whoever's they are: GitHub's tokens (`ghp_`, `gho_`, `ghu_`,
 * `ghs_`, `ghr_`, `github_pat_`) and Anthropic's API keys (`sk-ant-`).
 */
const TOKEN_FORM = /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_\w{20,}|sk-ant-[\w-]{20,})/g

/** Text for a public place (a PR comment, a check run): the job's secrets and any token masked. */
export function maskForPublic(text: string, secrets: readonly string[]): string {
  return maskSecrets(text, secrets).replace(TOKEN_FORM, '***')
}

/** Whether any of the secrets occurs in the text or bytes. */
export function containsSecret(text: string | Buffer, secrets: readonly string[]): boolean {
  return secrets.some(s => text.includes(s))
}
