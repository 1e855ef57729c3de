/** Standard report formats: JUnit XML, Code Climate / GitLab JSON, cargo JSON, mypy JSON lines, Azure logissue, ESLint json-with-metadata. */
import type { GateTool } from './gate-tool-types.js'

export const REPORT_TOOLS: GateTool[] = []
