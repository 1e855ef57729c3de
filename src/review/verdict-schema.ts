import { validate } from './verdict-validator.generated.js'
import {
  CATEGORIES,
  DECISIONS,
  EARLIER_STATUSES,
  SEVERITIES,
  type Decision,
  type EarlierAnswer,
  type Finding
} from '../loop/types.js'

/** The reviewer's answer, as the structured output (or its `submit_review` tool call) carries it. */
export interface VerdictInput {
  decision: Decision
  summary: string
  /**
   * A finding as the reviewer states it: the id and source are ours to add. `previousId` names the
   * earlier finding it raises again.
   */
  findings: Array<Omit<Finding, 'id' | 'source'> & { previousId?: string }>
  failedCriteria: string[]
  passedCriteria: string[]
  requiredRework: string[]
  /** The reviewer's word on earlier findings: fixed, still open, a dispute accepted or rejected. */
  earlierFindings: EarlierAnswer[]
}

const strings = { type: 'array', items: { type: 'string', maxLength: 2000 }, maxItems: 50 } as const

/**
 * The verdict's schema, validated with ajv. The model is sent `wireSchema(verdictSchema)`: the same
 * shape without the length and count limits structured outputs do not support (they answer 400 for
 * minLength, maxLength, maxItems, minimum; https://platform.claude.com/docs/en/build-with-claude/structured-outputs).
 */
export const verdictSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'decision',
    'summary',
    'findings',
    'failedCriteria',
    'passedCriteria',
    'requiredRework',
    'earlierFindings'
  ],
  properties: {
    decision: {
      enum: DECISIONS,
      description:
        'GO only when nothing at or above the blocking severity remains, no criterion failed and no rework is required.'
    },
    summary: { type: 'string', minLength: 1, maxLength: 4000 },
    findings: {
      type: 'array',
      maxItems: 200,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['severity', 'category', 'title', 'description'],
        properties: {
          severity: { enum: SEVERITIES },
          category: { enum: CATEGORIES },
          file: {
            type: 'string',
            minLength: 1,
            maxLength: 1000,
            description: 'Path relative to the repository root.'
          },
          line: {
            type: 'integer',
            minimum: 1,
            description: 'Line in the current (head) version of the file.'
          },
          endLine: { type: 'integer', minimum: 1 },
          title: { type: 'string', minLength: 1, maxLength: 300 },
          description: { type: 'string', minLength: 1, maxLength: 8000 },
          suggestedFix: { type: 'string', maxLength: 8000 },
          evidence: {
            type: 'string',
            maxLength: 4000,
            description:
              'The exact lines of the head version of the file that the finding rests on, copied verbatim (at or next to line..endLine). Required for a finding at or above the blocking severity: one whose evidence is not in the file does not block.'
          },
          previousId: {
            type: 'string',
            maxLength: 40,
            description:
              'The id (RL-...) of the earlier finding this one raises again, when it is the same problem.'
          }
        }
      }
    },
    failedCriteria: strings,
    passedCriteria: strings,
    requiredRework: strings,
    earlierFindings: {
      type: 'array',
      maxItems: 200,
      description:
        'One entry per finding of the earlier iterations: fixed, still_open, or your answer to a dispute.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'status', 'note'],
        properties: {
          id: { type: 'string', maxLength: 40 },
          status: { enum: EARLIER_STATUSES },
          note: { type: 'string', maxLength: 2000 }
        }
      }
    }
  }
} as const

const UNSUPPORTED = new Set([
  'minLength',
  'maxLength',
  'maxItems',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf'
])

/** A schema without the keywords structured outputs and strict tools reject; ajv still checks them. */
export function wireSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(wireSchema)
  if (typeof schema !== 'object' || schema === null) return schema
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(schema)) {
    if (UNSUPPORTED.has(key) && typeof value === 'number') continue
    out[key] = key === 'enum' ? value : wireSchema(value)
  }
  return out
}

export type VerdictCheck = { ok: true; verdict: VerdictInput } | { ok: false; errors: string[] }

/** Enum values in another case ("go", "High"): structured outputs do not guarantee their case. */
function normaliseCase(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value
  const v = value as Record<string, unknown>
  const upper = (x: unknown) => (typeof x === 'string' ? x.toUpperCase() : x)
  const lower = (x: unknown) => (typeof x === 'string' ? x.toLowerCase() : x)
  return {
    ...v,
    decision: upper(v.decision),
    ...(Array.isArray(v.findings)
      ? {
          findings: v.findings.map(f =>
            typeof f === 'object' && f !== null
              ? { ...f, severity: lower(f.severity), category: lower(f.category) }
              : f
          )
        }
      : {})
  }
}

export function createVerdictValidator(): (value: unknown) => VerdictCheck {
  return value => {
    const normalised = normaliseCase(value)
    if (validate(normalised)) return { ok: true, verdict: normalised as VerdictInput }
    return {
      ok: false,
      errors: (validate.errors ?? [])
        .slice(0, 20)
        .map(e => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`)
    }
  }
}
