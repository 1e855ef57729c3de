import { readdirSync, statSync } from 'node:fs'
import path from 'node:path'

/** The files under `dir` whose names `keep` takes, in folders whose names `skip` does not list. */
export function filesUnder(
  dir: string,
  keep: (name: string) => boolean,
  skip: ReadonlySet<string> = new Set()
): string[] {
  return readdirSync(dir).flatMap(name => {
    const full = path.join(dir, name)
    if (statSync(full).isDirectory()) return skip.has(name) ? [] : filesUnder(full, keep, skip)
    return keep(name) ? [full] : []
  })
}
