import { minimatch } from 'minimatch'

/** True when `file` (relative to the repository root) matches one of the protected globs. */
export function isProtected(file: string, globs: readonly string[]): boolean {
  const normalised = file.replace(/\\/g, '/').replace(/^\.\//, '')
  return globs.some(glob => minimatch(normalised, glob, { dot: true }))
}
