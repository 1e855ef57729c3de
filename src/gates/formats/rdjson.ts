import { toolLevel, type GateProblem } from '../problem.js'

/**
 * reviewdog's Diagnostic Format (rdjson: `{ diagnostics: [...] }`; rdjsonl: one diagnostic a line),
 * as reviewdog/reviewdog proto/rdf/jsonschema describes it: `location.path`, `location.range.start`
 * `{line, column}` (1-based), `severity` ERROR | WARNING | INFO (a result's own severity is the
 * default of its diagnostics), `code.value`.
 */
interface Diagnostic {
  message?: string
  location?: {
    path?: string
    range?: { start?: { line?: number; column?: number }; end?: { line?: number; column?: number } }
  }
  severity?: string
  code?: { value?: string }
}

export function isRdjsonDiagnostic(json: unknown): boolean {
  return (
    typeof json === 'object' &&
    json !== null &&
    typeof (json as Diagnostic).message === 'string' &&
    typeof (json as Diagnostic).location?.path === 'string'
  )
}

export function isRdjson(json: unknown): boolean {
  const diagnostics = (json as { diagnostics?: unknown } | null)?.diagnostics
  return Array.isArray(diagnostics) && diagnostics.every(isRdjsonDiagnostic)
}

const n = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined)

export function readRdjson(diagnostics: readonly unknown[], severity?: string): GateProblem[] {
  return (diagnostics as Diagnostic[]).map(d => ({
    file: d.location?.path,
    line: n(d.location?.range?.start?.line),
    column: n(d.location?.range?.start?.column),
    endLine: n(d.location?.range?.end?.line),
    endColumn: n(d.location?.range?.end?.column),
    level: toolLevel(d.severity ?? severity, 'error'),
    rule: typeof d.code?.value === 'string' ? d.code.value : undefined,
    message: d.message ?? 'reviewdog diagnostic'
  }))
}
