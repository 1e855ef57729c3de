/** Text shapes: formatter checks, severity words, notes, two-channel test runners, go test packages. */
import type { GateTool } from './gate-tool-types.js'

export const SHAPE_TOOLS: GateTool[] = []
