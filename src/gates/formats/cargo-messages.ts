import path from 'node:path'
import { toolLevel, type GateProblem } from '../problem.js'
import { isObject, num, str, type Json } from './json-values.js'

/**
 * cargo's JSON messages (`cargo build|check|clippy --message-format=json`), one object a line:
 * `{ reason: "compiler-message", manifest_path, message: { level, message, code, spans, children } }`
 * (cargo 1.95, rustc's diagnostics). A message is one problem at its primary span, error or
 * warning; its `note` and `help` children belong to it (they are its description). Other reasons
 * (`compiler-artifact`, `build-finished`) and span-less summaries (`aborting due to …`, rustc's
 * `failure-note`) are none.
 */
export function isCargoMessage(item: Json): boolean {
  return (
    typeof item['reason'] === 'string' &&
    (item['reason'] !== 'compiler-message' || isObject(item['message']))
  )
}

/**
 * rustc names a file relative to the workspace root: the package's folder or one above it. The
 * root is the highest folder above the package whose join with the name lands in the package.
 */
function inPackage(file: string, manifest: string | undefined): string {
  if (!manifest || path.posix.isAbsolute(file) || !path.posix.isAbsolute(manifest)) return file
  const pkg = path.posix.dirname(manifest)
  const parents = pkg.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/') || '/')
  const root = parents.find(dir => path.posix.join(dir, file).startsWith(`${pkg}/`))
  return root ? path.posix.join(root, file) : file
}

export function readCargoMessage(item: Json): GateProblem[] {
  const m = item['message']
  if (item['reason'] !== 'compiler-message' || !isObject(m)) return []
  const level = str(m['level']) ?? ''
  if (!/^(error|warning)\b/.test(level)) return []
  const spans = Array.isArray(m['spans']) ? m['spans'].filter(isObject) : []
  const span = spans.find(s => s['is_primary'] === true) ?? spans[0]
  const message = str(m['message']) ?? 'rustc diagnostic'
  if (!span && /^aborting due to\b/.test(message)) return []
  const children = (Array.isArray(m['children']) ? m['children'].filter(isObject) : [])
    .map(c => `${str(c['level']) ?? 'note'}: ${str(c['message']) ?? ''}`)
    .filter(c => !c.endsWith(': '))
  const file = str(span?.['file_name'])
  return [
    {
      file: file && inPackage(file, str(item['manifest_path'])),
      line: num(span?.['line_start']),
      column: num(span?.['column_start']),
      endLine: num(span?.['line_end']),
      endColumn: num(span?.['column_end']),
      level: toolLevel(level.replace(/:.*/, '')),
      rule: isObject(m['code']) ? str(m['code']['code']) : undefined,
      message: [message, ...children].join('\n')
    }
  ]
}
