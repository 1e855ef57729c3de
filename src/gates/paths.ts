import { lstatSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Where a check's command really runs: its working directory, moved by a leading `cd DIR &&` (or
 * `cd DIR;`), as a tool prints paths relative to where it runs. Undefined when a `cd` leaves the
 * repository: the relative paths printed there name no file of it.
 */
export function commandDir(command: string, cwd: string, repoRoot: string): string | undefined {
  let dir = cwd
  let rest = command.trim()
  for (;;) {
    const cd = /^cd\s+("([^"]+)"|'([^']+)'|([^\s;&|'"$`]+))\s*(&&|;)\s*/.exec(rest)
    if (!cd) return dir
    dir = path.resolve(dir, cd[2] ?? cd[3] ?? cd[4]!)
    if (!isInside(repoRoot, dir)) return undefined
    rest = rest.slice(cd[0].length)
  }
}

/** Whether an absolute path is the root or inside it (`..config` is inside; `../x` is not). */
export function isInside(root: string, absolute: string): boolean {
  const relative = path.relative(root, absolute)
  return (
    relative === '' ||
    (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative))
  )
}

const WINDOWS_ABSOLUTE = /^[A-Za-z]:\//

/** Windows separators and `file://` URIs made plain; a Windows drive path stays one. */
function plain(reported: string): string {
  let p = reported.trim().replace(/^["']|["']$/g, '')
  if (/^file:\/\//i.test(p)) {
    try {
      p = /^file:\/\/\/[A-Za-z]:/i.test(p)
        ? decodeURIComponent(p.replace(/^file:\/\/\//i, ''))
        : fileURLToPath(p)
    } catch {
      return ''
    }
  }
  return p.replace(/\\/g, '/')
}

/** A reported path placed in the repository, or why it could not be. */
export type Placement = { file: string } | { unplaced: string }

/**
 * Places the paths a tool prints: relative to the directory the command ran in, absolute, `file://`
 * URIs, Windows separators and drive letters. A path outside the repository, or naming no file of
 * the work tree, is not placed, so a problem never lands on another file. Each path is looked up once.
 */
export class PathPlacer {
  private readonly seen = new Map<string, Placement>()

  /** `dir`: where the command ran; undefined when that is outside the repository. */
  constructor(
    private readonly repoRoot: string,
    private readonly dir: string | undefined
  ) {}

  place(reported: string): Placement {
    let placed = this.seen.get(reported)
    if (!placed) {
      placed = this.lookUp(reported)
      this.seen.set(reported, placed)
    }
    return placed
  }

  private lookUp(reported: string): Placement {
    const p = plain(reported)
    if (!p) return { unplaced: reported }
    let absolute: string
    if (WINDOWS_ABSOLUTE.test(p)) {
      // a Windows runner's absolute path: compared with the root case-insensitively, as Windows does
      const root = plain(this.repoRoot).replace(/\/$/, '')
      if (!WINDOWS_ABSOLUTE.test(root) || !p.toLowerCase().startsWith(`${root.toLowerCase()}/`))
        return { unplaced: reported }
      absolute = path.join(this.repoRoot, p.slice(root.length + 1))
    } else if (path.isAbsolute(p)) {
      absolute = p
    } else if (this.dir) {
      absolute = path.resolve(this.dir, p)
    } else {
      return { unplaced: reported }
    }
    if (!isInside(this.repoRoot, absolute) || !isRegularFile(absolute))
      return { unplaced: reported }
    return { file: path.relative(this.repoRoot, absolute).split(path.sep).join('/') }
  }
}

/** A file of the checkout: a link is not one (it may lead out of the repository). */
function isRegularFile(absolute: string): boolean {
  try {
    return lstatSync(absolute).isFile()
  } catch {
    return false
  }
}
