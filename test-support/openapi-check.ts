/**
 * Checks request and response bodies against GitHub's published REST OpenAPI description
 * (@octokit/openapi, api.github.com.json) with ajv.
 *
 * The description is OpenAPI 3.0: `nullable: true` is turned into JSON Schema's `null` type (and
 * `null` added to a nullable `enum`) once when the document is loaded; nothing else is relaxed.
 * Unknown keywords (`x-github`, `discriminator`, ...) are ignored, the standard formats are
 * checked by ajv-formats, and the two formats that are GitHub's own (`timestamp`, `repo.nwo`)
 * are accepted as they come.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { Ajv, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'

type Json = Record<string, unknown>
type Formats = (ajv: Ajv) => Ajv

const DOC_ID = 'https://api.github.com/openapi.json'
const GITHUB_FORMATS = ['timestamp', 'repo.nwo']
/** JSON keys whose values are data, not schemas */
const DATA_KEYS = new Set(['example', 'examples', 'default', 'enum', 'const'])

const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

/** OpenAPI 3.0 `nullable` as JSON Schema, in place, over the whole document. */
function convertNullable(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(convertNullable)
  if (!isJson(node)) return
  for (const [key, value] of Object.entries(node)) if (!DATA_KEYS.has(key)) convertNullable(value)
  if (node.nullable !== true) return
  delete node.nullable
  if (Array.isArray(node.enum) && !node.enum.includes(null)) node.enum = [...node.enum, null]
  if (typeof node.type === 'string') node.type = [node.type, 'null']
  else if (Array.isArray(node.type)) node.type = [...new Set([...node.type, 'null'])]
  else if (Object.keys(node).some(k => k !== 'description' && k !== 'title')) {
    // a nullable $ref/oneOf/anyOf/allOf: that schema, or null
    const rest = { ...node }
    for (const k of Object.keys(node)) delete node[k]
    node.anyOf = [rest, { type: 'null' }]
  }
}

/** `#/components/...` refs made absolute, so an operation's inline schema compiles on its own. */
function absoluteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(absoluteRefs)
  if (!isJson(node)) return node
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string' && v.startsWith('#') ? DOC_ID + v : absoluteRefs(v)
    ])
  )
}

interface Loaded {
  ajv: Ajv
  doc: Json
  validators: Map<string, ValidateFunction>
}
let loaded: Loaded | undefined

function load(): Loaded {
  if (loaded) return loaded
  const require = createRequire(import.meta.url)
  const file = require.resolve('@octokit/openapi/generated/api.github.com.json')
  const doc = JSON.parse(readFileSync(file, 'utf8')) as Json
  convertNullable(doc.components)
  convertNullable(doc.paths)
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false })
  const addFormats = ((addFormatsModule as unknown as { default?: Formats }).default ??
    addFormatsModule) as unknown as Formats
  addFormats(ajv)
  for (const f of GITHUB_FORMATS) ajv.addFormat(f, true)
  ajv.addSchema({ $id: DOC_ID, components: doc.components })
  loaded = { ajv, doc, validators: new Map() }
  return loaded
}

/** Follows a `#/components/...` ref (responses and request bodies are not schemas). */
function deref(doc: Json, node: unknown): unknown {
  let current = node
  while (isJson(current) && typeof current.$ref === 'string') {
    let target: unknown = doc
    for (const part of current.$ref.replace(/^#\//, '').split('/'))
      target = isJson(target) ? target[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined
    current = target
  }
  return current
}

function operation(method: string, path: string): Json | undefined {
  const { doc } = load()
  const paths = doc.paths as Record<string, Json | undefined>
  const op = paths[path]?.[method.toLowerCase()]
  return isJson(op) ? op : undefined
}

/** The statuses GitHub documents for an operation ([] when it documents no such operation). */
export function documentedStatuses(method: string, path: string): number[] {
  const responses = operation(method, path)?.responses
  return isJson(responses) ? Object.keys(responses).map(Number).filter(Number.isInteger) : []
}

/** The JSON schema of a request body (`status` 'request') or of one documented answer. */
function schemaFor(method: string, path: string, status: number | 'request'): unknown {
  const { doc } = load()
  const op = operation(method, path)
  if (!op) throw new Error(`openapi: GitHub documents no operation ${method} ${path}`)
  const holder =
    status === 'request'
      ? deref(doc, op.requestBody)
      : deref(doc, isJson(op.responses) ? op.responses[String(status)] : undefined)
  if (!isJson(holder))
    throw new Error(
      `openapi: ${method} ${path} documents no ${status === 'request' ? 'request body' : `${status} answer`}`
    )
  const content = isJson(holder.content) ? holder.content['application/json'] : undefined
  return isJson(content) ? content.schema : undefined
}

/**
 * What is wrong with `body` as the request body (`status` 'request') or the `status` answer of
 * `method path` (a template as GitHub documents it, e.g. '/repos/{owner}/{repo}/pulls/{pull_number}'):
 * [] when it matches. A 204 must come without a body; an answer GitHub describes without its
 * content is not checked. Throws when GitHub documents no such operation, request body or status.
 */
export function openApiErrors(
  method: string,
  path: string,
  status: number | 'request',
  body: unknown
): string[] {
  const schema = schemaFor(method, path, status)
  const empty = body === undefined || body === ''
  if (status === 204) return empty ? [] : ['204 No Content came with a body']
  // GitHub describes some answers (e.g. many 422s) without their body: nothing to check then
  if (schema === undefined) return []
  const { ajv, validators } = load()
  const key = `${method.toUpperCase()} ${path} ${status}`
  let validate = validators.get(key)
  if (!validate) {
    validate = ajv.compile(absoluteRefs(schema) as Json)
    validators.set(key, validate)
  }
  if (validate(body)) return []
  return (validate.errors ?? []).map(
    e => `${e.instancePath || '(root)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`
  )
}

/** Throws, listing what is wrong, unless `body` matches (see openApiErrors). */
export function assertOpenApi(
  method: string,
  path: string,
  status: number | 'request',
  body: unknown
): void {
  const errors = openApiErrors(method, path, status, body)
  if (errors.length > 0)
    throw new Error(
      `${method} ${path} ${status}: does not match GitHub's OpenAPI description:\n  ${errors.join('\n  ')}`
    )
}

/**
 * Where GitHub's description disagrees with GitHub: POST .../requested_reviewers is described as
 * answering a pull-request-simple, whose labels have a non-nullable description, yet GitHub's
 * labels (and its own label and pull-request schemas) have `description: null` when none was given.
 */
export const KNOWN_OPENAPI_MISMATCHES = [
  'POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers 201: /labels/0/description must be string'
]

/** The problems that are not known mismatches of the description itself. */
export function unexpectedOpenApiProblems(problems: readonly string[]): string[] {
  return problems.filter(p => !KNOWN_OPENAPI_MISMATCHES.some(k => p.startsWith(k)))
}
