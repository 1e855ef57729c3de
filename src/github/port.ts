/** What the loop needs from GitHub, as plain data. The Octokit adapter implements it. */
export interface PullInfo {
  number: number
  state: 'open' | 'closed'
  draft: boolean
  merged: boolean
  title: string
  body: string
  author: string
  htmlUrl: string
  headRef: string
  headSha: string
  baseRef: string
  baseSha: string
  headRepoFullName: string
  baseRepoFullName: string
  labels: string[]
}

export interface CommentInfo {
  id: number
  body: string
  author: string
  htmlUrl: string
}

export interface Annotation {
  path: string
  start_line: number
  end_line: number
  annotation_level: 'notice' | 'warning' | 'failure'
  message: string
  title?: string
  raw_details?: string
}

export interface CheckRunInput {
  name: string
  headSha: string
  conclusion: 'success' | 'failure' | 'neutral'
  title: string
  summary: string
  text?: string
  annotations: Annotation[]
  externalId: string
  detailsUrl?: string
  startedAt: string
}

export interface GitHubPort {
  /** Login of the identity the token acts as (`github-actions[bot]` for the workflow token). */
  whoAmI(): Promise<string>
  getPull(pr: number): Promise<PullInfo>
  listComments(pr: number): Promise<CommentInfo[]>
  createComment(pr: number, body: string): Promise<CommentInfo>
  updateComment(id: number, body: string): Promise<CommentInfo>
  /** Creates the check run with the first 50 annotations and appends the rest in batches of 50. */
  createCheckRun(input: CheckRunInput): Promise<{ id: number; htmlUrl: string }>
  dispatchWorkflow(workflowFile: string, ref: string, inputs: Record<string, string>): Promise<void>
  addLabels(pr: number, labels: string[]): Promise<void>
  removeLabel(pr: number, label: string): Promise<void>
  requestReviewers(pr: number, users: string[], teams: string[]): Promise<void>
  createReview(
    pr: number,
    event: 'APPROVE' | 'COMMENT' | 'REQUEST_CHANGES',
    body: string,
    commitId: string
  ): Promise<void>
}

/** An HTTP error from GitHub, reduced to what the loop acts on. */
export class GitHubError extends Error {
  constructor(
    readonly status: number,
    readonly operation: string,
    message: string
  ) {
    super(`${operation}: ${message} (HTTP ${status})`)
    this.name = 'GitHubError'
  }
}
