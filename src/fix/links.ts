import path from 'node:path'
import { foldPath, type Reach } from './protected-paths.js'

/**
 * Where the symbolic links of a fix commit's tree lead, followed through each other: a link into a
 * protected folder (or onto a folder holding protected paths) would let a later write land there,
 * however its target is spelled and however many links it goes through.
 */

/** Links followed before a path is taken to loop (Linux's own limit). */
const MAX_HOPS = 40

/** Where a link leads: a path from the root ('' is the root), or out (absolute, above the root, a loop). */
export type Resolved =
  { kind: 'path'; path: string; via: string[] } | { kind: 'out'; via: string[] }

/** The links of a tree by folded path (look-alike spellings find each other), with their own path. */
export type LinkIndex = ReadonlyMap<string, { path: string; target: string }>

export function indexLinks(links: Iterable<readonly [string, string]>): LinkIndex {
  return new Map([...links].map(([file, target]) => [foldPath(file), { path: file, target }]))
}

/**
 * Follows `file` as a checkout would: part by part, each link met replaced by its target (read
 * relative to the link's folder, `\\` as a separator too), `..` taking back one part. `via` is every
 * link met, in order.
 */
export function resolveLink(file: string, links: LinkIndex): Resolved {
  const done: string[] = []
  const via: string[] = []
  let todo = file.split('/')
  while (todo.length) {
    const part = todo.shift()!
    if (part === '' || part === '.') continue
    if (part === '..') {
      if (done.pop() === undefined) return { kind: 'out', via }
      continue
    }
    done.push(part)
    const link = links.get(foldPath(done.join('/')))
    if (!link) continue
    if (via.length >= MAX_HOPS) return { kind: 'out', via }
    via.push(link.path)
    const to = link.target.replace(/\\/g, '/')
    if (path.posix.isAbsolute(to) || /^[a-zA-Z]:/.test(to)) return { kind: 'out', via }
    done.pop()
    todo = [...to.split('/'), ...todo]
  }
  return { kind: 'path', path: done.join('/'), via }
}

/** Why a link is refused: the reason the "left out" list shows. */
function reasonFor(
  link: string,
  from: string,
  target: string,
  reached: string,
  reach: Reach
): string {
  const shown = JSON.stringify(target.slice(0, 200))
  const where = reached === '' ? 'the repository root' : JSON.stringify(reached)
  const how = reach.below
    ? `which holds paths protected by "${reach.pattern}"`
    : `protected by "${reach.pattern}"`
  const through = from === link ? '' : ` (the link ${JSON.stringify(from)} leads through it)`
  return `it is a link into a protected folder: ${shown} reaches ${where}, ${how}${through}`
}

/**
 * The new links (path → target) a commit may not hold: each link of the tree the commit would make
 * (the reviewed tree's `kept` links and the `added` ones) is followed, and when it reaches a
 * protected path, every added link on its way is refused. A refused link is not in the tree, so the
 * rest are followed again until no more are refused.
 */
export function linksIntoProtected(
  kept: ReadonlyMap<string, string>,
  added: ReadonlyMap<string, string>,
  reach: (reached: string) => Reach | undefined
): Map<string, string> {
  const refused = new Map<string, string>()
  for (let round = 0; round <= added.size; round++) {
    const inTree = new Map(kept)
    for (const [file, target] of added) if (!refused.has(file)) inTree.set(file, target)
    const links = indexLinks(inTree)
    const before = refused.size
    for (const from of inTree.keys()) {
      const resolved = resolveLink(from, links)
      const guard = resolved.kind === 'path' ? reach(resolved.path) : undefined
      if (!guard || resolved.kind !== 'path') continue
      for (const link of resolved.via) {
        if (!added.has(link) || inTree.get(link) !== added.get(link)) continue
        // a link's own reach is named over another's that goes through it
        if (link === from || !refused.has(link))
          refused.set(link, reasonFor(link, from, added.get(link)!, resolved.path, guard))
      }
    }
    if (refused.size === before) break
  }
  return refused
}
