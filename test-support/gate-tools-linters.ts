/** Linters' default and JSON formats (oxlint, rubocop, Biome), severities (prettier, stylelint) and two-channel duplicates. */
import type { GateTool } from './gate-tool-types.js'

export const LINTER_TOOLS: GateTool[] = []
