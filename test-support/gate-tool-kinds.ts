/**
 * The docs' tool table (docs/checks.md) groups the rows of GATE_TOOLS by tool: what each tool is,
 * and which of its rows the table recommends.
 */
import type { GateTool, ToolKind } from './gate-tool-types.js'

/** A tool's name without what a row adds in brackets: `tsc (npm run -w)` is tsc. */
export const toolName = (t: GateTool): string => t.tool.replace(/\s+\(.*\)$/, '')

/** The kind a check's name says (`test: …`, `types: …`), unless the row names its own. */
const KIND_OF_CHECK: ReadonlyArray<[RegExp, ToolKind]> = [
  [/^test/, 'test runner'],
  [/^types?/, 'type checker'],
  [/^(format|fmt)/, 'formatter'],
  [/^(build|compile)/, 'build'],
  [/^run/, 'runtime']
]

export function toolKind(rows: readonly GateTool[]): ToolKind {
  const own = rows.find(r => r.kind)?.kind
  if (own) return own
  const name = rows[0]!.check.split(/[[:]/)[0]!.trim()
  return KIND_OF_CHECK.find(([re]) => re.test(name))?.[1] ?? 'linter'
}

/** Structured reports first, then workflow commands; a tool's default output last. */
const PREFERRED = [/sarif/i, /junit|xml|checkstyle/i, /json/i, /github|workflow/i, /rdjson/i]

/** The row the table recommends: the one marked `best`, else the most structured format. */
export function bestRow(rows: readonly GateTool[]): GateTool {
  const marked = rows.find(r => r.best)
  if (marked) return marked
  const rank = (r: GateTool): number => {
    const i = PREFERRED.findIndex(re => re.test(r.format))
    return i < 0 ? PREFERRED.length : i
  }
  return [...rows].sort((a, b) => rank(a) - rank(b))[0]!
}

/** GATE_TOOLS grouped by tool, in the order the tools first appear. */
export function byTool(tools: readonly GateTool[]): Map<string, GateTool[]> {
  const groups = new Map<string, GateTool[]>()
  for (const t of tools) groups.set(toolName(t), [...(groups.get(toolName(t)) ?? []), t])
  return groups
}
