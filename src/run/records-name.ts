import path from 'node:path'
import type { Settings } from '../loop/settings.js'

type Where = Pick<Settings, 'surface' | 'artifactsDir'>

/**
 * The name of an iteration's records: the run's artifact on GitHub; on a laptop, a folder of the
 * run's output, which names the run already (there is no pull request number to tell runs apart).
 */
export function recordsName(where: Where, pr: number, n: number, attempt: number): string {
  if (where.surface === 'cli') return `iteration-${n}`
  return `review-loop-pr-${pr}-iteration-${n}${attempt > 1 ? `-attempt-${attempt}` : ''}`
}

/** Where a fix that was not pushed is kept, as a note says it: its patch in the artifact, or its path. */
export function keptPatch(where: Where, n: number): string {
  const patch = `fix-${n}.patch`
  return where.surface === 'cli' && where.artifactsDir
    ? path.join(where.artifactsDir, recordsName(where, 1, n, 1), patch)
    : `${patch} in the artifact`
}
