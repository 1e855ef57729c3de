import type { ContentBlock, Git, ToolSpec } from '../ports/index.js'
import type { ToolUse } from '../model/agent-runner.js'

/** TEMPORARY STUB (helper V replaces it). */
export function readTools(
  _git: Git,
  _sha: string
): { specs: ToolSpec[]; run(calls: ToolUse[]): Promise<ContentBlock[]> } {
  return {
    specs: [],
    run: async calls =>
      calls.map(c => ({
        type: 'tool_result' as const,
        tool_use_id: c.id,
        content: 'stub',
        is_error: true
      }))
  }
}
