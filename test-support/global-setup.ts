import { execFileSync } from 'node:child_process'
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/**
 * A version manager's shim on PATH (pyenv's `shims/python3` is a shell script that runs `pyenv
 * exec`) costs every start of the tool 0.2 CPU-s; the tests start Python a few hundred times. When
 * `python3` resolves to a shim, the folder of the interpreter it picks goes just before the shims
 * (as a runner's setup-python puts it on PATH), unless that folder is on PATH already.
 */
function skipShims(): void {
  const dirs = (process.env['PATH'] ?? '').split(path.delimiter).filter(Boolean)
  const found = dirs.findIndex(dir => {
    try {
      accessSync(path.join(dir, 'python3'), constants.X_OK)
      return true
    } catch {
      return false
    }
  })
  if (found < 0 || path.basename(dirs[found]!) !== 'shims') return
  try {
    const python = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], {
      encoding: 'utf8'
    }).trim()
    if (!python || dirs.includes(path.dirname(python))) return
    dirs.splice(found, 0, path.dirname(python))
    process.env['PATH'] = dirs.join(path.delimiter)
  } catch {
    // the shim picks no interpreter: PATH stays as it is
  }
}

/**
 * vitest's global setup: one folder for the repositories the sandboxes copy (harness.ts), made
 * before the test files run and removed when they are done. The workers inherit its path, and PATH
 * without a version manager's shims in front (skipShims).
 */
export default function setup(): () => void {
  skipShims()
  const dir = mkdtempSync(path.join(os.tmpdir(), 'review-loop-templates-'))
  process.env['REVIEW_LOOP_TEMPLATES'] = dir
  return () => rmSync(dir, { recursive: true, force: true })
}
