import type { ReviewedIteration } from '../../src/loop/record.js'
import type { Finding, IterationRecord, LoopState, PullRequest } from '../../src/loop/types.js'
import { zeroUsage } from '../../src/loop/usage.js'

export const SHA_A = 'a'.repeat(40)
export const SHA_B = 'b'.repeat(40)
export const SHA_C = 'c'.repeat(40)
export const SHA_D = 'd'.repeat(40)
export const BASE = 'e'.repeat(40)

export const NOW = new Date('2025-01-02T03:04:05.000Z')

export function finding(overrides: Partial<Finding> = {}): Finding {
  return {
    id: 'RL-0000000001',
    severity: 'high',
    category: 'logic',
    file: 'src/a.ts',
    line: 3,
    title: 'Something is wrong',
    description: 'A longer explanation.',
    source: 'ai',
    ...overrides
  }
}

export function iteration(overrides: Partial<IterationRecord> = {}): IterationRecord {
  return {
    n: 1,
    round: 1,
    reviewedSha: SHA_A,
    baseSha: BASE,
    runId: '1001',
    runAttempt: 1,
    decision: 'NO_GO',
    summary: 'One problem.',
    findings: [],
    resolved: [],
    gates: [{ name: 'test', passed: false, durationMs: 1200 }],
    usage: zeroUsage(),
    startedAt: NOW.toISOString(),
    durationMs: 5000,
    ...overrides
  }
}

export function state(overrides: Partial<LoopState> = {}): LoopState {
  return {
    schema: 7,
    pr: 7,
    status: 'running',
    round: 1,
    maxIterations: 3,
    iterations: [],
    totals: zeroUsage(),
    updatedAt: NOW.toISOString(),
    ...overrides
  }
}

export function pull(overrides: Partial<PullRequest> = {}): PullRequest {
  return {
    number: 7,
    state: 'open',
    draft: false,
    merged: false,
    title: 'Add greeting',
    body: '',
    author: 'octocat',
    htmlUrl: 'https://github.com/o/r/pull/7',
    headRef: 'feature',
    headSha: SHA_A,
    baseRef: 'main',
    baseSha: BASE,
    headRepoFullName: 'o/r',
    baseRepoFullName: 'o/r',
    labels: [],
    ...overrides
  }
}

/** A review as `appendReview` takes it: iteration `n` of a NO_GO with no findings unless given. */
export function reviewed(overrides: Partial<ReviewedIteration> = {}): ReviewedIteration {
  const n = overrides.n ?? 1
  return {
    n,
    reviewedSha: SHA_A,
    baseSha: BASE,
    runId: String(n),
    runAttempt: 1,
    decision: 'NO_GO',
    summary: 's',
    findings: [],
    gates: [],
    usage: zeroUsage(),
    startedAt: NOW,
    durationMs: 1,
    ...overrides
  }
}
