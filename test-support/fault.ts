/**
 * A fault the local servers inject (the GitHub emulator, the git server, the model server), for the
 * next `times` matching requests (default 1). Without `lost` the request is not carried out: it is
 * answered `status` (with `headers`), never answered (`hang`), or its connection is reset
 * (`reset`). With `lost` it is carried out (the object is created, the push lands, the model
 * answers) and then the answer is lost: `status` is answered instead, or the connection is reset
 * (`reset`) or left hanging (`hang`).
 */
export interface FaultSpec {
  /** the route: 'POST /repos/{owner}/{repo}/check-runs', 'git push', 'POST /v1/messages' */
  route: string
  status?: number
  /** answer headers, e.g. retry-after, x-ratelimit-remaining, x-ratelimit-reset */
  headers?: Record<string, string>
  hang?: boolean
  reset?: boolean
  lost?: boolean
  /** how many matching requests it applies to; default 1 */
  times?: number
}
