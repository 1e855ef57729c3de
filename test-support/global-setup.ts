import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/**
 * vitest's global setup: one folder for the repositories the sandboxes copy (harness.ts), made
 * before the test files run and removed when they are done. The workers inherit its path.
 */
export default function setup(): () => void {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'review-loop-templates-'))
  process.env['REVIEW_LOOP_TEMPLATES'] = dir
  return () => rmSync(dir, { recursive: true, force: true })
}
