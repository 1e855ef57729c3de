import type { ToolSpec } from '../ports/index.js'

const str = (description: string) => ({ type: 'string', description })

/**
 * The read tools every agent gets, as the model sees them: the fixer over its workspace
 * (src/fix/workspace-tools.ts), the reviewer and the verifier over the pull request's head commit
 * (src/review/read-tools.ts), which give them their own descriptions. One name and input schema each.
 */
export const READ_TOOL_SPECS: readonly ToolSpec[] = [
  {
    name: 'read_file',
    description: 'Read a text file of the workspace, with line numbers.',
    input_schema: {
      type: 'object',
      required: ['path'],
      properties: {
        path: str('Path relative to the repository root.'),
        offset: { type: 'integer', minimum: 0 },
        limit: { type: 'integer', minimum: 1 }
      }
    }
  },
  {
    name: 'list_files',
    description:
      'List files under a folder of the workspace (recursively, without .git and node_modules).',
    input_schema: {
      type: 'object',
      properties: { path: str('Folder relative to the repository root; default the root.') }
    }
  },
  {
    name: 'search',
    description: 'Find lines containing a text (not a regex) in the workspace files.',
    input_schema: {
      type: 'object',
      required: ['text'],
      properties: { text: str('Text to find.'), path: str('Folder to search; default the root.') }
    }
  }
]

/** Lines `offset + 1` to `offset + limit` of `text`, each after its line number (as read_file shows them). */
export function numbered(text: string, offset: number, limit: number): string {
  const lines = text.split('\n')
  return lines
    .slice(offset, offset + limit)
    .map((l, i) => `${String(offset + i + 1).padStart(5)}  ${l}`)
    .join('\n')
}
