/** The state comment could not be written because GitHub withheld the token's write permission. */
export class WritesWithheld extends Error {
  constructor(
    message: string,
    /** Where the iteration's records went (the artifact's name, or a folder on the runner). */
    readonly artifact?: string
  ) {
    super(message)
    this.name = 'WritesWithheld'
  }
}

/** GitHub's 403 for a permission the token lacks (not a rate limit, not a PAT's check-run refusal). */
export function writeWithheld(e: unknown): boolean {
  const status = (e as { status?: unknown }).status
  const message = e instanceof Error ? e.message : ''
  return status === 403 && /not accessible by (integration|personal access token)/i.test(message)
}
