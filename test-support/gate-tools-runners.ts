/** Test runners (mocha, cargo test, go test, node --test, tsc in workspaces) and common location shapes. */
import type { GateTool } from './gate-tool-types.js'

export const RUNNER_TOOLS: GateTool[] = []
