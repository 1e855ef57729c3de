// The relative links of our Markdown, checked as GitHub resolves them: a path relative to the file
// that holds the link, and a #fragment that names a heading of the target (GitHub's anchors).
import { existsSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'

/** A file's text; '' for a file that is not Markdown or a folder; undefined when there is none. */
export type Reader = (file: string) => string | undefined

const readRepo: Reader = file => {
  if (!existsSync(file)) return undefined
  return statSync(file).isFile() && file.endsWith('.md') ? readFileSync(file, 'utf8') : ''
}

/** The text without fenced code blocks, which hold neither headings nor links. */
const unfenced = (text: string): string =>
  text.replace(/^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^ {0,3}\1[^\n]*$|(?![\s\S]))/gm, '')

/** The text GitHub renders as prose: code spans hold no links either. */
const prose = (text: string): string => unfenced(text).replace(/(`+)[^`][\s\S]*?\1/g, '')

/**
 * Link and image targets: `[x](target "title")` (a title in single quotes or brackets too, the
 * target in `<…>` when it holds spaces, brackets nested in the text), `![x](target)`, `[x]: target`
 * definitions, and the `href` and `src` of HTML `<a>` and `<img>`.
 */
export function linkTargets(text: string): string[] {
  const body = prose(text)
  const inline = body.matchAll(
    /!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*(?:<([^>\n]*)>|([^)\s]+))(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g
  )
  const defined = body.matchAll(/^ {0,3}\[[^\]]+\]:\s*(?:<([^>\n]*)>|(\S+))/gm)
  const html = body.matchAll(/<(?:a|img)\s[^>]*?\b(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)
  return [...inline, ...defined, ...html].map(m => m[1] ?? m[2] ?? '')
}

/** GitHub's anchor of a heading: its text lower-cased, punctuation dropped, spaces as hyphens. */
export function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\p{Pc} -]/gu, '')
    .replace(/ /g, '-')
}

/**
 * Every anchor of a Markdown text: its headings', a repeated one numbered as github-slugger numbers
 * it (`dup`, `dup-1`, then `dup-2` after a heading `Dup-1`), and HTML ids.
 */
export function anchors(text: string): Set<string> {
  const out = new Set<string>()
  const counts = new Map<string, number>()
  for (const m of unfenced(text).matchAll(/^ {0,3}#{1,6}[ \t]+(.*?)[ \t#]*$/gm)) {
    const base = slug(m[1]!)
    let anchor = base
    while (out.has(anchor)) {
      const n = (counts.get(base) ?? 0) + 1
      counts.set(base, n)
      anchor = `${base}-${n}`
    }
    out.add(anchor)
  }
  for (const m of text.matchAll(/<a\s[^>]*(?:name|id)="([^"]+)"/g)) out.add(m[1]!)
  return out
}

/** The links of `file` that lead nowhere, as `file: target (why)`. External links are not checked. */
export function brokenLinks(file: string, read: Reader = readRepo): string[] {
  const text = read(file) ?? ''
  const broken: string[] = []
  for (const target of linkTargets(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue // https:, mailto:
    const [rawPath = '', fragment] = target.split('#', 2)
    const to = rawPath
      ? path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURIComponent(rawPath)))
      : file
    const why =
      to.startsWith('../') || to === '..' || path.posix.isAbsolute(rawPath)
        ? 'outside the repository'
        : read(to.replace(/\/$/, '')) === undefined
          ? 'no such file'
          : fragment !== undefined && fragment !== '' && to.endsWith('.md')
            ? anchors(read(to) ?? '').has(decodeURIComponent(fragment))
              ? undefined
              : 'no such heading'
            : undefined
    if (why) broken.push(`${file}: ${target} (${why})`)
  }
  return broken
}
