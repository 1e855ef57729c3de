import { Minimatch } from 'minimatch'

/**
 * Protected paths, matched as git matches `.gitignore` patterns (gitignore(5)): a name protects a
 * file or folder of that name at any depth, and a folder protects everything in it; a `/` at the
 * start or in the middle anchors the pattern at the repository root; a trailing `/` matches folders
 * only; `*` and `?` stay within one path part, `**` spans parts; `!pattern` takes back what an
 * earlier pattern protected, but never a file inside a protected folder (as in git) nor anything
 * ALWAYS_PROTECTED protects.
 *
 * Unlike git, the match ignores letter case and look-alike spellings: both sides are NFKC-normalised
 * (fullwidth letters, ligatures), lower-cased, stripped of invisible characters and of the dots and
 * spaces that Windows drops at the end of a name. So `.GITHUB/Workflows/x.yml` and `.github./workflows`
 * are as protected as `.github/workflows/x.yml`.
 */

/**
 * Always protected: pushing workflow files needs the `workflows` permission the token lacks, the
 * repository's own actions run with the workflow's secrets, and .github/review-loop.yml says which
 * commands run and where the model key goes. No `!pattern` takes them back.
 */
export const ALWAYS_PROTECTED: readonly string[] = [
  '.github/workflows/',
  '.github/actions/',
  '.github/review-loop.yml'
]

/** One path part, spelled so that look-alikes compare equal. */
function foldPart(part: string): string {
  const folded = part
    .normalize('NFKC')
    .replace(/\p{Default_Ignorable_Code_Point}/gu, '')
    .toLowerCase()
  if (folded === '.' || folded === '..') return folded
  return folded.replace(/[. ]+$/, '') || folded
}

/** A path (or pattern) with every part folded: the form both sides are compared in. */
export function foldPath(file: string): string {
  return file.split('/').map(foldPart).join('/')
}

interface Rule {
  /** The pattern as the user wrote it, to name in reasons. */
  source: string
  negate: boolean
  dirOnly: boolean
  /** Matched against the whole path from the root, else against each path part's name. */
  anchored: boolean
  glob: Minimatch
}

const GLOB_OPTIONS = { dot: true, nobrace: true, noext: true, nonegate: true, nocomment: true }

function compile(source: string): Rule | undefined {
  let body = source.trim()
  if (body === '' || body.startsWith('#')) return undefined
  const negate = body.startsWith('!')
  if (negate) body = body.slice(1)
  const dirOnly = body.endsWith('/')
  body = foldPath(body.replace(/\/+$/, ''))
  const anchored = body.includes('/')
  body = body.replace(/^\/+/, '')
  if (body === '') return undefined
  return { source, negate, dirOnly, anchored, glob: new Minimatch(body, GLOB_OPTIONS) }
}

/**
 * The rule that decides `parts` as git decides it: each folder on the way first (a protected folder
 * protects all below it), then the path itself; for each, the last rule that matches wins.
 */
function decide(
  rules: readonly Rule[],
  parts: readonly string[],
  folder = false
): Rule | undefined {
  for (let i = 1; i <= parts.length; i++) {
    const isDir = folder || i < parts.length
    const prefix = parts.slice(0, i).join('/')
    const last = rules.findLast(
      r => (!r.dirOnly || isDir) && r.glob.match(r.anchored ? prefix : parts[i - 1]!)
    )
    if (last && !last.negate) return last
  }
  return undefined
}

/** A path relative to the repository root, as its parts. */
function partsOf(file: string): string[] {
  const normal = file
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/\/+$/, '')
  return foldPath(normal)
    .split('/')
    .filter(p => p !== '' && p !== '.')
}

const ALWAYS_RULES = ALWAYS_PROTECTED.map(compile).filter(r => r !== undefined)

/** The pattern that protects a path, or undefined: built once for a list of patterns. */
export type ProtectedMatcher = (file: string) => string | undefined

export function protectedMatcher(patterns: readonly string[]): ProtectedMatcher {
  const rules = patterns.map(compile).filter(r => r !== undefined)
  return file => {
    const parts = partsOf(file)
    return (decide(ALWAYS_RULES, parts) ?? decide(rules, parts))?.source
  }
}

/** What a link that reaches a path would open to writes there: how that path is protected. */
export interface Reach {
  /** The pattern, as its author wrote it. */
  pattern: string
  /** The path itself is protected (as a file or a folder), or only paths below it are. */
  below: boolean
}

/**
 * How a path a link reaches (from the root; '' is the root) is protected: as a file or a folder, or
 * as a folder that holds protected paths — one of `files` (the tree's), or one an anchored pattern
 * names (`.github` holds `.github/workflows/`; a pattern that starts with `**` names no folder).
 */
export function reachMatcher(
  patterns: readonly string[],
  files: Iterable<string>
): (reached: string) => Reach | undefined {
  const rules = patterns.map(compile).filter(r => r !== undefined)
  const all = [...ALWAYS_RULES, ...rules]
  const isProtected = protectedMatcher(patterns)
  const held: Array<{ at: string; pattern: string }> = []
  for (const file of files) {
    const pattern = isProtected(file)
    if (pattern) held.push({ at: partsOf(file).join('/'), pattern })
  }
  return reached => {
    const parts = partsOf(reached)
    if (parts.length === 0) return { pattern: ALWAYS_PROTECTED[0]!, below: true }
    const self = decide(ALWAYS_RULES, parts, true) ?? decide(rules, parts, true)
    if (self) return { pattern: self.source, below: false }
    const at = parts.join('/')
    const named = all.find(
      r => !r.negate && r.anchored && !r.glob.pattern.startsWith('**') && r.glob.match(at, true)
    )
    if (named) return { pattern: named.source, below: true }
    const inside = held.find(h => h.at.startsWith(`${at}/`))
    return inside && { pattern: inside.pattern, below: true }
  }
}

/** True when `file` (relative to the repository root) is protected by one of the patterns. */
export function isProtected(file: string, patterns: readonly string[]): boolean {
  return protectedMatcher(patterns)(file) !== undefined
}

/** A protected-paths pattern that cannot mean what its author meant: the reason, for the input error. */
export function badPattern(pattern: string): string | undefined {
  const body = pattern.startsWith('!') ? pattern.slice(1) : pattern
  if (body.replace(/\//g, '').trim() === '') return 'it names no path'
  if (/(^|\/)\.\.?(\/|$)/.test(body))
    return "patterns are relative to the repository root, without '.' or '..' parts"
  return undefined
}
