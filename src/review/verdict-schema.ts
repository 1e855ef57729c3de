import { Ajv, type ValidateFunction } from 'ajv'
import { CATEGORIES, DECISIONS, SEVERITIES, type Decision, type Finding } from '../loop/types.js'

/** The reviewer's answer, as the forced `submit_review` tool call carries it. */
export interface VerdictInput {
  decision: Decision
  summary: string
  /** A finding as the reviewer states it: the id and source are ours to add. */
  findings: Array<Omit<Finding, 'id' | 'source'>>
  failedCriteria: string[]
  passedCriteria: string[]
  requiredRework: string[]
}

const strings = { type: 'array', items: { type: 'string', maxLength: 2000 }, maxItems: 50 } as const

/** Also the tool's input_schema, so the model is held to exactly what we validate. */
export const verdictSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'decision',
    'summary',
    'findings',
    'failedCriteria',
    'passedCriteria',
    'requiredRework'
  ],
  properties: {
    decision: {
      enum: DECISIONS,
      description: 'GO only when nothing at or above the blocking severity remains.'
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
          suggestedFix: { type: 'string', maxLength: 8000 }
        }
      }
    },
    failedCriteria: strings,
    passedCriteria: strings,
    requiredRework: strings
  }
} as const

export type VerdictCheck = { ok: true; verdict: VerdictInput } | { ok: false; errors: string[] }

export function createVerdictValidator(): (value: unknown) => VerdictCheck {
  const validate: ValidateFunction<VerdictInput> = new Ajv({
    allErrors: true,
    strict: false
  }).compile<VerdictInput>(verdictSchema)
  return value => {
    if (validate(value)) return { ok: true, verdict: value }
    return {
      ok: false,
      errors: (validate.errors ?? [])
        .slice(0, 20)
        .map(e => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`)
    }
  }
}
