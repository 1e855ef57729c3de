// npx tsx scripts/config-schema.ts: writes schema/review-loop.schema.json, the JSON Schema of the
// repository config file .github/review-loop.yml, from the inputs of action.yml. Each input is a key
// of the same name and meaning, except the secrets and per-run settings (WORKFLOW_ONLY_KEYS), plus
// `path-instructions`. A unit test keeps the committed schema equal to what this script generates.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import { INPUT_DEFAULTS } from '../src/inputs.js'
import { WORKFLOW_ONLY_INPUTS } from '../src/loop/settings.js'

/** Inputs that stay in the workflow's `with:` (WORKFLOW_ONLY_INPUTS, src/loop/settings.ts): left out of the schema. */
export const WORKFLOW_ONLY_KEYS = WORKFLOW_ONLY_INPUTS

/**
 * Inputs that hold a list (one item a line, or comma separated as well): the file may give them as a
 * YAML list or as one string. `instructions` and `guidelines` are single values.
 */
export const LIST_KEYS: readonly string[] = [
  'checks',
  'problem-matchers',
  'fix-commands',
  'protected-paths',
  'env-passthrough',
  'ignore',
  'fail-on',
  'escalation-reviewers'
]

/** Numeric inputs whose empty default does not show it (empty means no budget). */
export const NUMERIC_KEYS_WITHOUT_DEFAULT: readonly string[] = ['max-cost-usd']

/** Where the schema is written. */
export const SCHEMA_FILE = new URL('../schema/review-loop.schema.json', import.meta.url)

export const SCHEMA_ID = 'https://github.com/review-loop/review-loop/schema/review-loop.schema.json'

export type InputKind = 'boolean' | 'number' | 'list' | 'string'

interface ActionInput {
  description: string
  default?: string
}

/** A description that says its input is a list; such an input must be in LIST_KEYS. */
const LIST_WORDING = /\bper line\b|\bcomma (or newline )?separated\b/i

/** How the file gives an input: derived from its default and description, lists named above. */
export function inputKind(name: string, input: ActionInput): InputKind {
  const fallback = String(input.default ?? INPUT_DEFAULTS[name] ?? '').trim()
  if (LIST_KEYS.includes(name)) return 'list'
  if (LIST_WORDING.test(input.description))
    throw new Error(
      `action.yml: the description of '${name}' reads as a list; add it to LIST_KEYS in scripts/config-schema.ts (or reword it)`
    )
  if (fallback === 'true' || fallback === 'false' || /\btrue or false\b/i.test(input.description))
    return 'boolean'
  if (/^\d+(\.\d+)?$/.test(fallback) || NUMERIC_KEYS_WITHOUT_DEFAULT.includes(name)) return 'number'
  return 'string'
}

function typedDefault(kind: InputKind, fallback: string | undefined): unknown {
  if (fallback === undefined || fallback === '') return undefined
  if (kind === 'boolean') return fallback === 'true'
  if (kind === 'number') return Number(fallback)
  return fallback
}

const SHAPES: Record<InputKind, object> = {
  boolean: { anyOf: [{ type: 'boolean' }, { type: 'string', enum: ['true', 'false'] }] },
  number: {
    anyOf: [
      { type: 'number', minimum: 0 },
      { type: 'string', pattern: '^\\s*\\d+(\\.\\d+)?\\s*$' }
    ]
  },
  list: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
  string: { type: 'string' }
}

function inputProperty(name: string, input: ActionInput): object {
  const kind = inputKind(name, input)
  // action.yml declares no defaults but github-token's: the parser's are the inputs' defaults
  const fallback = typedDefault(kind, input.default ?? INPUT_DEFAULTS[name])
  return {
    description: input.description,
    ...SHAPES[kind],
    ...(fallback === undefined ? {} : { default: fallback })
  }
}

const PATH_INSTRUCTIONS = {
  description:
    'Instructions the AI reviewer and fixer get for the changed files that match a glob, added to `instructions`.',
  type: 'array',
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['path', 'instructions'],
    properties: {
      path: {
        description:
          "A glob of files relative to the repository root, for example 'src/api/**/*.ts'.",
        type: 'string',
        minLength: 1
      },
      instructions: {
        description: 'What the reviewer and fixer are told about the files the glob matches.',
        type: 'string',
        minLength: 1
      }
    }
  }
}

function actionInputs(actionYml: string): Record<string, ActionInput> {
  const inputs = (parse(actionYml) as { inputs?: Record<string, ActionInput> }).inputs
  if (!inputs) throw new Error('action.yml has no inputs')
  for (const key of [...WORKFLOW_ONLY_KEYS, ...LIST_KEYS, ...NUMERIC_KEYS_WITHOUT_DEFAULT])
    if (!(key in inputs))
      throw new Error(`scripts/config-schema.ts names '${key}', which action.yml does not declare`)
  return inputs
}

/** The JSON Schema of .github/review-loop.yml, generated from the inputs of action.yml. */
export function configSchema(actionYml: string): object {
  const inputs = actionInputs(actionYml)
  const properties: Record<string, object> = {}
  for (const [name, input] of Object.entries(inputs)) {
    if (!WORKFLOW_ONLY_KEYS.includes(name)) properties[name] = inputProperty(name, input)
  }
  properties['path-instructions'] = PATH_INSTRUCTIONS
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: SCHEMA_ID,
    title: 'review-loop repository settings (.github/review-loop.yml)',
    description: `Settings of the review-loop action kept in the repository. Each key is the action input of the same name and meaning; a value given in the workflow's \`with:\` overrides the file. Lists may be YAML lists or one string (one item a line). Secrets and per-run settings stay in the workflow: ${WORKFLOW_ONLY_KEYS.join(', ')}. Generated from action.yml by scripts/config-schema.ts.`,
    type: 'object',
    additionalProperties: false,
    properties
  }
}

/**
 * The schema file's text: the JSON formatted as prettier formats it (2 spaces, short arrays on one
 * line, a trailing newline), so `prettier --check .` passes on the generated file.
 */
export async function schemaText(actionYml: string): Promise<string> {
  const prettier = await import('prettier')
  const target = fileURLToPath(SCHEMA_FILE)
  const options = (await prettier.resolveConfig(target)) ?? {}
  return prettier.format(JSON.stringify(configSchema(actionYml), null, 2), {
    ...options,
    parser: 'json'
  })
}

if (process.argv[1]?.endsWith('config-schema.ts')) {
  const actionYml = readFileSync(new URL('../action.yml', import.meta.url), 'utf8')
  mkdirSync(new URL('.', SCHEMA_FILE), { recursive: true })
  writeFileSync(SCHEMA_FILE, await schemaText(actionYml))
  console.log('schema/review-loop.schema.json written from action.yml')
}
