import type { ReviewedIteration } from '../../src/loop/record.js'
import type {
  Finding,
  IterationRecord,
  LoopState,
  PullRequest,
  ReviewerVerdict
} from '../../src/loop/types.js'
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
    schema: 9,
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

/**
 * A review that raised five blockers: two the verifier confirmed (one by 2 of 3 passes), one that
 * quotes code not in its file, two the verifier refuted; and one it could not tell, set aside.
 */
export function verifiedReview(): { findings: Finding[]; setAside: Finding[] } {
  const findings = [
    finding({
      id: 'RL-CONFIRMED1',
      title: 'Division by zero on an empty list',
      file: 'src/stats.ts',
      line: 12,
      evidence: 'const mean = total / items.length\nreturn mean',
      verification: {
        status: 'confirmed',
        by: 'verifier',
        why: 'average() is called with [] from report.ts',
        cited: [
          { file: 'src/stats.ts', line: 12 },
          { file: 'src/report.ts', line: 40 }
        ],
        blocks: true
      },
      votes: { count: 2, passes: 3 }
    }),
    finding({
      id: 'RL-CONFIRMED2',
      title: 'Token logged in clear',
      file: 'src/auth.ts',
      line: 5,
      evidence: 'console.log(token)',
      verification: { status: 'confirmed', by: 'verifier', why: 'the log is public', blocks: true },
      votes: { count: 1, passes: 1 }
    })
  ]
  const setAside = [
    finding({
      id: 'RL-UNVERIFIED',
      title: 'Unchecked null in parse',
      file: 'src/parse.ts',
      line: 8,
      evidence: 'if (x.value.length)',
      description: 'x may be null.',
      verification: {
        status: 'unverified',
        by: 'evidence',
        why: 'the quoted code is not in src/parse.ts at lines 3-13',
        blocks: false
      }
    }),
    finding({
      id: 'RL-REFUTED1',
      title: 'Off-by-one in the loop',
      file: 'src/loop.ts',
      line: 20,
      evidence: 'for (let i = 0; i <= n; i++)',
      verification: {
        status: 'refuted',
        by: 'verifier',
        why: 'n is the last index, not the length',
        cited: [{ file: 'src/loop.ts', line: 18 }],
        blocks: false
      }
    }),
    finding({
      id: 'RL-REFUTED2',
      severity: 'critical',
      title: 'SQL injection in search',
      file: 'src/db.ts',
      line: 31,
      evidence: 'db.query(sql, [term])',
      verification: {
        status: 'refuted',
        by: 'verifier',
        why: 'the term is a bound parameter',
        blocks: false
      }
    })
  ]
  return { findings, setAside }
}

/** A reviewer's verdict: GO with nothing found, unless `overrides` say otherwise. */
export function reviewerVerdict(overrides: Partial<ReviewerVerdict> = {}): ReviewerVerdict {
  return {
    decision: 'GO',
    summary: 'ok',
    findings: [],
    failedCriteria: [],
    passedCriteria: [],
    requiredRework: [],
    usage: zeroUsage(),
    dropped: 0,
    ...overrides
  }
}
