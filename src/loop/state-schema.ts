import { validate } from './state-validator.generated.js'
import {
  CATEGORIES,
  DECISIONS,
  EARLIER_STATUSES,
  LOOP_STATUSES,
  SEVERITIES,
  type LoopState
} from './types.js'
import { MAX_CARRIED } from './unsaved-spend.js'

/**
 * The state format this version writes; it reads this one and the one before. A higher number
 * comes from a newer review-loop. 2 added the fix outcomes `pushing` and `interrupted` and the
 * statuses `closed` and `merged`; 3 added re-raised findings, findings no longer raised (`gone`), the
 * reviewed tree, the reviewer's failed criteria, answers and dropped findings, and the fixer's
 * summary; 4 added what humans did: commands processed, an approval, dismissed findings, a round's
 * own cap, the human review feedback seen and who started an iteration; 5 added what a review covered
 * (files reviewed, ignored and not reviewed) and the true count of a check's problems; 6 added the
 * paths left out of a fix commit, with why, and the runs whose unsaved spend was carried; 7 added the
 * count of the AI findings a review set aside (not acted on), by why; 8 added the content each file
 * was reviewed at (`reviewed`) and the files a review did not send again (`unchanged`, `skipped`).
 * An older version meeting them says to upgrade.
 */
export const STATE_SCHEMA = 9

const login = { type: 'string', maxLength: 100 } as const
const nonNegative = { type: 'number', minimum: 0 } as const
const count = { type: 'integer', minimum: 0 } as const
const sha = { type: 'string', pattern: '^[0-9a-f]{7,64}$' } as const

const usage = {
  type: 'object',
  required: ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens', 'costUsd'],
  additionalProperties: false,
  properties: {
    inputTokens: count,
    outputTokens: count,
    cacheReadTokens: count,
    cacheWriteTokens: count,
    costUsd: nonNegative
  }
} as const

const findingRecord = {
  type: 'object',
  required: ['id', 'severity', 'status', 'since'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', maxLength: 64 },
    severity: { enum: SEVERITIES },
    category: { enum: CATEGORIES },
    title: { type: 'string', maxLength: 1000 },
    file: { type: 'string', maxLength: 1000 },
    line: { type: 'integer', minimum: 0 },
    source: { type: 'string', maxLength: 200 },
    status: { enum: ['open', 'fixed', 'disputed'] },
    since: { type: 'integer', minimum: 1 },
    reraised: { type: 'boolean' },
    held: { enum: ['unverified', 'refuted', 'uncertain', 'outvoted'] }
  }
} as const

const fixRecord = {
  type: 'object',
  required: ['outcome', 'filesChanged', 'commands', 'disputes', 'revertedProtected', 'durationMs'],
  additionalProperties: false,
  properties: {
    outcome: {
      enum: ['pushed', 'no_changes', 'branch_moved', 'push_failed', 'pushing', 'interrupted']
    },
    commitSha: sha,
    filesChanged: { type: 'array', items: { type: 'string' } },
    filesOmitted: count,
    commands: {
      type: 'array',
      items: {
        type: 'object',
        required: ['command', 'exitCode', 'durationMs'],
        additionalProperties: false,
        properties: {
          command: { type: 'string' },
          exitCode: { type: 'integer' },
          durationMs: count
        }
      }
    },
    disputes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'reason'],
        additionalProperties: false,
        properties: { id: { type: 'string' }, reason: { type: 'string' } }
      }
    },
    revertedProtected: { type: 'array', items: { type: 'string' } },
    leftOut: {
      type: 'array',
      maxItems: 50,
      items: {
        type: 'object',
        required: ['path', 'reason'],
        additionalProperties: false,
        properties: { path: { type: 'string' }, reason: { type: 'string', maxLength: 500 } }
      }
    },
    patch: { type: 'string' },
    durationMs: count,
    summary: { type: 'string', maxLength: 2000 },
    stopReason: { type: 'string', maxLength: 40 }
  }
} as const

const iterationRecord = {
  type: 'object',
  required: [
    'n',
    'round',
    'reviewedSha',
    'baseSha',
    'runId',
    'runAttempt',
    'decision',
    'summary',
    'findings',
    'resolved',
    'gates',
    'usage',
    'startedAt',
    'durationMs'
  ],
  additionalProperties: false,
  properties: {
    n: { type: 'integer', minimum: 1 },
    round: { type: 'integer', minimum: 1 },
    reviewedSha: sha,
    baseSha: sha,
    runId: { type: 'string', maxLength: 40 },
    runAttempt: { type: 'integer', minimum: 1 },
    decision: { enum: DECISIONS },
    summary: { type: 'string', maxLength: 4000 },
    findings: { type: 'array', items: findingRecord },
    omitted: count,
    resolved: { type: 'array', items: { type: 'string' } },
    resolvedOmitted: count,
    gone: { type: 'array', items: { type: 'string' } },
    refuted: {
      type: 'array',
      maxItems: 30,
      items: {
        type: 'object',
        required: ['id', 'why'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', maxLength: 64 },
          why: { type: 'string', maxLength: 500 }
        }
      }
    },
    tree: sha,
    failedCriteria: { type: 'array', maxItems: 20, items: { type: 'string', maxLength: 300 } },
    error: { type: 'string', maxLength: 1000 },
    dropped: {
      type: 'array',
      maxItems: 20,
      items: {
        type: 'object',
        required: ['severity', 'title', 'why'],
        additionalProperties: false,
        properties: {
          severity: { enum: SEVERITIES },
          title: { type: 'string', maxLength: 300 },
          file: { type: 'string', maxLength: 500 },
          line: { type: 'integer', minimum: 0 },
          why: { type: 'string', maxLength: 300 }
        }
      }
    },
    answers: {
      type: 'array',
      maxItems: 30,
      items: {
        type: 'object',
        required: ['id', 'status', 'note'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', maxLength: 64 },
          status: { enum: EARLIER_STATUSES },
          note: { type: 'string', maxLength: 500 }
        }
      }
    },
    gates: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'passed', 'durationMs'],
        additionalProperties: false,
        properties: {
          name: { type: 'string' },
          passed: { type: 'boolean' },
          durationMs: count,
          problems: count,
          kept: count
        }
      }
    },
    coverage: {
      type: 'object',
      required: ['files', 'reviewed', 'ignored', 'batches'],
      additionalProperties: false,
      properties: {
        files: count,
        reviewed: count,
        ignored: count,
        batches: count,
        ignoredFiles: { type: 'array', maxItems: 50, items: { type: 'string', maxLength: 500 } },
        unreviewed: { type: 'array', maxItems: 50, items: { type: 'string', maxLength: 500 } },
        unreviewedOmitted: count,
        failures: { type: 'array', maxItems: 5, items: { type: 'string', maxLength: 300 } },
        unchanged: count,
        skipped: count
      }
    },
    setAside: {
      type: 'object',
      additionalProperties: false,
      properties: { unverified: count, refuted: count, uncertain: count, outvoted: count }
    },
    fix: fixRecord,
    trigger: {
      type: 'object',
      required: ['by', 'command'],
      additionalProperties: false,
      properties: {
        by: login,
        command: { enum: ['retry', 'continue', 'fix', 'feedback'] },
        instructions: { type: 'string', maxLength: 2000 },
        carried: { type: 'integer', minimum: 1 }
      }
    },
    usage,
    startedAt: { type: 'string' },
    durationMs: count
  }
} as const

export const stateSchema = {
  $id: 'https://github.com/review-loop/state.json',
  type: 'object',
  required: [
    'schema',
    'pr',
    'status',
    'round',
    'maxIterations',
    'iterations',
    'totals',
    'updatedAt'
  ],
  additionalProperties: false,
  properties: {
    schema: { enum: [1, 2, 3, 4, 5, 6, 7, 8, STATE_SCHEMA] },
    pr: { type: 'integer', minimum: 1 },
    status: { enum: LOOP_STATUSES },
    round: { type: 'integer', minimum: 1 },
    maxIterations: { type: 'integer', minimum: 1 },
    iterations: { type: 'array', items: iterationRecord },
    lastReviewedSha: sha,
    lastPushedSha: sha,
    totals: usage,
    carriedSpend: {
      type: 'array',
      maxItems: MAX_CARRIED,
      items: { type: 'string', pattern: '^[0-9]{1,20}:[0-9]{1,6}$' }
    },
    reason: { type: 'string', maxLength: 4000 },
    roundCap: {
      type: 'object',
      required: ['round', 'max'],
      additionalProperties: false,
      properties: { round: { type: 'integer', minimum: 1 }, max: { type: 'integer', minimum: 1 } }
    },
    override: {
      type: 'object',
      required: ['by', 'at', 'reason', 'sha'],
      additionalProperties: false,
      properties: {
        by: login,
        at: { type: 'string' },
        reason: { type: 'string', maxLength: 500 },
        sha
      }
    },
    dismissed: {
      type: 'array',
      maxItems: 100,
      items: {
        type: 'object',
        required: ['id', 'by', 'at'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', maxLength: 64 },
          by: login,
          at: { type: 'string' },
          reason: { type: 'string', maxLength: 500 }
        }
      }
    },
    processed: {
      type: 'array',
      maxItems: 200,
      items: { type: 'string', pattern: '^[crtb][0-9]{1,20}$' }
    },
    feedbackSeen: {
      type: 'object',
      required: ['review', 'comment'],
      additionalProperties: false,
      properties: { review: count, comment: count }
    },
    reviewed: {
      type: 'object',
      required: ['base', 'settings', 'files'],
      additionalProperties: false,
      properties: {
        base: sha,
        settings: { type: 'string', pattern: '^[0-9a-f]{16}$' },
        files: {
          type: 'object',
          propertyNames: { maxLength: 1000 },
          additionalProperties: {
            type: 'string',
            pattern: '^[0-9]{1,6}:[0-9a-f]{40}([0-9a-f]{24})?(:open)?$'
          }
        }
      }
    },
    updatedAt: { type: 'string' }
  }
} as const

/**
 * Validates a parsed state against the schema (with ajv's code for it, generated at build time by
 * scripts/validators.ts); the error is one readable line.
 */
export function checkState(value: unknown): { state: LoopState } | { error: string } {
  if (validate(value)) return { state: value as LoopState }
  const error = (validate.errors ?? [])
    .slice(0, 5)
    .map(e => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`)
    .join('; ')
  return { error }
}
