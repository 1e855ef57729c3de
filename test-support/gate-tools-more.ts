/** Further linters, type checkers and test runners, for the docs tool table. */
import type { GateTool } from './gate-tool-types.js'

export const MORE_TOOLS: GateTool[] = []
