import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/**
 * A version manager's shim on PATH (pyenv's `shims/python3` is a shell script that runs `pyenv
 * exec`) costs every start of the tool 0.2 CPU-s; the tests start Python a few hundred times. The
 * interpreter the shim picks goes first on PATH instead, as a runner's setup-python puts it.
 */
function skipShims(): void {
  const PATH = process.env['PATH'] ?? ''
  const shimmed = PATH.split(path.delimiter).find(dir => /[/\\]shims$/.test(dir))
  if (!shimmed) return
  try {
    const python = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], {
      encoding: 'utf8'
    }).trim()
    if (python && !python.includes(`${path.sep}shims${path.sep}`))
      process.env['PATH'] = [path.dirname(python), PATH].join(path.delimiter)
  } catch {
    // no python3: nothing to resolve
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
