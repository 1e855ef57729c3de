import { readFileSync } from 'node:fs'
import path from 'node:path'

/**
 * A ref of a repository read from its files, as `git rev-parse --verify refs/...` reads it: the
 * loose ref file first (following a symbolic `ref:`), then packed-refs. The emulators ask for refs
 * on almost every request; a git process each time was most of their CPU (npm run profile).
 * Undefined when the name is not a ref (refs/…) or is not there; the caller then asks git.
 */
export function readRef(gitDir: string, ref: string, depth = 0): string | undefined {
  if (!/^refs\/[^\s:^~]+$/.test(ref) || ref.includes('..') || depth > 5) return undefined
  let loose: string | undefined
  try {
    loose = readFileSync(path.join(gitDir, ref), 'utf8').trim()
  } catch {
    // not a loose ref: packed, or missing
  }
  if (loose?.startsWith('ref: ')) return readRef(gitDir, loose.slice(5), depth + 1)
  if (loose && /^[0-9a-f]{40}$/.test(loose)) return loose
  let packed = ''
  try {
    packed = readFileSync(path.join(gitDir, 'packed-refs'), 'utf8')
  } catch {
    return undefined
  }
  for (const line of packed.split('\n')) {
    const [sha, name] = line.split(' ')
    if (name === ref && sha && /^[0-9a-f]{40}$/.test(sha)) return sha
  }
  return undefined
}
