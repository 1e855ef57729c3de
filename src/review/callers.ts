import parseDiff from 'parse-diff'
import { lastIteration } from '../loop/state.js'
import type { LoopState } from '../loop/types.js'
import type { Git } from '../ports/index.js'
import type { Batch } from './batches.js'
import type { PartChoice } from './incremental.js'

/**
 * Incremental re-review reaches callers: a change since the last review that changes a definition
 * (a function, method, class, type, constant or exported name) sends again every part not sent
 * otherwise that names it anywhere in the head, through re-exports, in any language. The names are
 * read from the changed lines (removed and added) by a heuristic per language, and found by a name
 * search of the head (word match), not an import parser. Fail safe: what cannot be read or searched
 * sends every part.
 */

/** A definition changed since the last review, and the file it changed in. */
export interface ChangedName {
  name: string
  file: string
}

/** At most this many changed definitions are searched for per review. */
export const MAX_NAMES = 20

const ID = String.raw`[A-Za-z_$][\w$]*`
/** Modifiers before a definition in C-like languages, Java, C#, Kotlin, Swift, TypeScript. */
const MODS = String.raw`(?:(?:export|default|declare|public|private|protected|internal|static|final|abstract|virtual|override|async|extern|inline|sealed|partial|synchronized|native|unsafe|constexpr|open|suspend|readonly|pub(?:\([^)]*\))?)\s+)*`

/** Line patterns whose first groups are the names the line defines. */
const DEFINITIONS: readonly RegExp[] = [
  // function and method keywords: JS/TS/PHP function, Go func (with a receiver), Rust fn, Kotlin
  // fun, Python/Ruby/Elixir def, Perl sub, Nim proc
  new RegExp(
    String.raw`\b(?:function\*?|func|fn|fun|def|defp|sub|proc)\s+\*?&?\s*(?:\([^)]*\)\s*)?(?:<[^>]*>\s*)?(?:self\.)?(${ID})`
  ),
  // types and modules: class, interface, type, struct, enum, trait, union, protocol, object, record
  new RegExp(
    String.raw`\b(?:class|interface|type|struct|enum|trait|union|protocol|extension|module|defmodule|object|record|mod)\s+(${ID})`
  ),
  // Rust impl blocks: the type, and the trait it implements
  new RegExp(String.raw`\bimpl(?:\s*<[^>]*>)?\s+(${ID})(?:<[^>]*>)?(?:\s+for\s+(${ID}))?`),
  // typed signatures (C, C++, Java, C#, TypeScript declarations): modifiers, types, the name, "("
  new RegExp(String.raw`^${MODS}(?:[A-Za-z_][\w$.:<>,\[\]?]*[\s*&]+)+(${ID})\s*\(`),
  // a method without a type (a JS/TS class, an object): "name(params) {" or "name(params): T {"
  new RegExp(
    String.raw`^${MODS}(?:get\s+|set\s+)?\*?(${ID})\s*(?:<[^>]*>)?\s*\([^()'"\x60]*\)\s*(?::[^={]+)?\{\s*$`
  ),
  // fields and constants with a type: "public static final int MAX = 3;"
  new RegExp(
    String.raw`^(?:(?:public|private|protected|internal|static|final|readonly|const)\s+)+[\w$<>\[\],.?]+\s+(${ID})\s*[=;]`
  ),
  // C macros, Rust macros, JS prototype methods, CommonJS exports
  new RegExp(String.raw`^#\s*define\s+(${ID})`),
  new RegExp(String.raw`\bmacro_rules!\s*(${ID})`),
  new RegExp(String.raw`\.prototype\.(${ID})\s*=`),
  new RegExp(String.raw`^(?:module\.)?exports\.(${ID})\s*=`),
  // export default NAME
  new RegExp(String.raw`^export\s+default\s+(${ID})\s*;?\s*$`)
]

/** A line that starts with a statement's keyword: what follows is a use, not a signature. */
const STATEMENT =
  /^(?:return|new|throw|else|await|yield|case|delete|typeof|echo|print|puts|go|defer|raise|assert|not|in|is|using|import|from|with|and|or|if|while|for|switch|catch|do|goto|sizeof|lambda|let|var|const)\b/

/** Prose and data: what their lines say defines nothing code calls. */
const PROSE =
  /\.(?:md|markdown|mdx|rst|txt|adoc|json|jsonl|lock|csv|tsv|svg|ya?ml|toml|ini|cfg|xml|html?)$/i

/** Constants and variables: only top-level ones (unindented, or exported), not a function's locals. */
const VARIABLE = new RegExp(
  String.raw`^${MODS}(?:const|let|var|val|static)\s+(?:mut\s+)?(${ID})(?=\s*(?:[:=;,]|$))`
)
/** An unindented assignment (a Python or shell module's constant), or a Haskell signature. */
const TOP_LEVEL = new RegExp(String.raw`^(${ID})\s*(?:(?::[^=]*)?=(?!=)|::)`)
/** export { a, b as c } (from …), module.exports = { a, b }: every name listed. */
const LISTS = /^(?:export\s+(?:type\s+)?\{([^}]*)\}|module\.exports\s*=\s*\{([^}]*)\})/

/** A constructor changes its class: the enclosing definition (the hunk's header) stands for it. */
export const CONSTRUCTORS = new Set(['constructor', '__init__', 'initialize', '__construct', 'new'])

/** Keywords, built-in types and very common words: a search for them finds everything. */
const COMMON = new Set(
  (
    'if for while switch catch return function class new else elif with try do await yield typeof ' +
    'sizeof delete import export from default const let var static public private protected void ' +
    'int char long short float double bool boolean string String number object Object any unknown ' +
    'never null true false None True False nil self this super main init test tests setup setUp ' +
    'tearDown run get set value values data name type types key keys item items list result ' +
    'results error err args argv kwargs options opts config props state index length size ' +
    'toString equals hashCode render describe expect print println printf puts echo console log ' +
    'Error Exception Promise Array Map Set not and or use mut impl pub struct enum trait where ' +
    'unsigned signed auto final override async virtual goto case break continue throw throws raise ' +
    'assert lambda pass global local end then fun def func val std'
  ).split(' ')
)

const worth = (name: string): boolean => name.length >= 3 && !COMMON.has(name)

/** The names a line of code seems to define, in the common languages (a heuristic). */
export function definedNames(line: string): string[] {
  const text = line.trim()
  // comments say nothing about what a file defines (a C macro's # is not one)
  if (!text || /^(\/\/|\/\*|\*|--|;|#(?!\s*define\b))/.test(text)) return []
  const indented = /^\s/.test(line)
  const out: string[] = []
  const add = (...names: Array<string | undefined>) => {
    for (const n of names) if (n && !out.includes(n)) out.push(n)
  }
  const statement = STATEMENT.test(text)
  for (const pattern of DEFINITIONS)
    if (!statement || !pattern.source.startsWith('^')) add(...(pattern.exec(text)?.slice(1) ?? []))
  if (!indented || /^(export|pub|public|internal)\b/.test(text)) add(VARIABLE.exec(text)?.[1])
  if (!indented) add(TOP_LEVEL.exec(line)?.[1])
  const list = LISTS.exec(text)
  for (const entry of (list?.[1] ?? list?.[2] ?? '').split(','))
    add(
      ...entry
        .trim()
        .split(/\s+as\s+|\s*:\s*/)
        .map(n => /^[A-Za-z_$][\w$]*$/.exec(n.trim())?.[0])
    )
  return out.filter(n => worth(n) || CONSTRUCTORS.has(n))
}

/**
 * Per file of a unified diff, the definitions its removed and added lines change, in order. A file
 * the diff adds is left out: it changes no definition an unchanged part could name before. A
 * constructor stands for its class, named by the hunk's header (git's enclosing line).
 */
export function changedDefinitions(diff: string): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const file of parseDiff(diff)) {
    const path = file.to && file.to !== '/dev/null' ? file.to : file.from
    if (!path || file.new || PROSE.test(path)) continue
    const names: string[] = []
    for (const chunk of file.chunks) {
      const context = chunk.content.replace(/^@@[^@]*@@\s?/, '')
      for (const change of chunk.changes) {
        if (change.type === 'normal') continue
        for (const name of definedNames(change.content.slice(1)))
          for (const n of CONSTRUCTORS.has(name) ? definedNames(context) : [name])
            if (worth(n) && !CONSTRUCTORS.has(n) && !names.includes(n)) names.push(n)
      }
    }
    if (names.length) out.set(path, names)
  }
  return out
}

/** Where the earlier review read a file: the commit of the iteration that reviewed its blob. */
function reviewedAt(state: LoopState, file: string): string | undefined {
  const n = /^(\d+):/.exec(state.reviewed?.files[file] ?? '')?.[1]
  const it = n ? state.iterations.find(i => i.n === Number(n)) : lastIteration(state)
  return it?.reviewedSha
}

/**
 * The definitions the changed files changed since the earlier review read them (a diff from the
 * commit it reviewed each at to the head), at most MAX_NAMES; `unreadable` when a diff cannot be had.
 */
export async function changedNames(
  git: Pick<Git, 'diff'>,
  state: LoopState,
  head: string,
  changed: readonly string[]
): Promise<{ names: ChangedName[]; left: number; unreadable?: string }> {
  const since = new Map<string, string[]>()
  for (const file of changed.filter(f => !PROSE.test(f))) {
    const sha = reviewedAt(state, file)
    if (!sha)
      return { names: [], left: 0, unreadable: `no commit of the earlier review of ${file}` }
    since.set(sha, [...(since.get(sha) ?? []), file])
  }
  const all: ChangedName[] = []
  for (const [sha, files] of since) {
    const diff = await git.diff(sha, head, files).catch((e: Error) => e)
    if (diff instanceof Error)
      return {
        names: [],
        left: 0,
        unreadable: `the change to ${files[0]} since ${sha.slice(0, 7)} could not be read (${diff.message.slice(0, 200)})`
      }
    for (const [file, names] of changedDefinitions(diff))
      for (const name of names) if (!all.some(c => c.name === name)) all.push({ name, file })
  }
  return { names: all.slice(0, MAX_NAMES), left: Math.max(0, all.length - MAX_NAMES) }
}

/** Whether a line names `name` as a whole word (not inside a longer identifier). */
export function namesWord(text: string, name: string): boolean {
  const escaped = name.replace(/\$/g, '\\$')
  return new RegExp(`(?<![\\w$])${escaped}(?![\\w$])`).test(text)
}

/**
 * The parts among `parts` whose files name a changed definition anywhere in the head, each with the
 * names it holds; `failed` when a name search fails (then nobody knows who names it).
 */
export async function partsNaming(
  git: Pick<Git, 'grep'>,
  head: string,
  names: readonly ChangedName[],
  parts: readonly Batch[]
): Promise<{ parts: Map<number, ChangedName[]>; failed?: string }> {
  const out = new Map<number, ChangedName[]>()
  for (const changed of names) {
    const hits = await git.grep(head, changed.name).catch((e: Error) => e)
    if (hits instanceof Error)
      return {
        parts: out,
        failed: `the search for ${changed.name} failed (${hits.message.slice(0, 200)})`
      }
    const files = new Set(hits.filter(h => namesWord(h.text, changed.name)).map(h => h.file))
    for (const part of parts)
      if (part.files.some(f => files.has(f)))
        out.set(part.index, [...(out.get(part.index) ?? []), changed])
  }
  return { parts: out }
}

/** "a and b, changed in x; c, changed in y" */
export function namedIn(names: readonly ChangedName[]): string {
  const byFile = new Map<string, string[]>()
  for (const c of names) byFile.set(c.file, [...(byFile.get(c.file) ?? []), c.name])
  return [...byFile]
    .map(
      ([file, ns]) =>
        `${ns.length > 1 ? `${ns.slice(0, -1).join(', ')} and ${ns.at(-1)}` : ns[0]}, changed in ${file}`
    )
    .join('; ')
}

/**
 * The choice with the parts that name a definition changed since the last review sent again (each
 * said in the log, and in `callers` for the prompt), or every part when the change cannot be placed.
 * `choose` chooses again with more parts that must be sent.
 */
export async function withCallers(
  git: Pick<Git, 'diff' | 'grep'>,
  log: { info(m: string): void },
  scope: { state: LoopState; head: string; all: readonly Batch[] },
  choice: PartChoice,
  choose: (more: ReadonlySet<number>) => PartChoice
): Promise<PartChoice> {
  if (!choice.reuse.length || !choice.changed?.length) return choice
  const { names, left, unreadable } = await changedNames(
    git,
    scope.state,
    scope.head,
    choice.changed
  )
  if (names.length)
    log.info(
      `review: definitions changed since the last review, searched for in the parts not sent: ${namedIn(names)}${left ? ` (${left} more left out)` : ''}`
    )
  const reused = choice.reuse.map(r => r.batch)
  const found = unreadable ? undefined : await partsNaming(git, scope.head, names, reused)
  const why = unreadable ?? found?.failed
  if (why) {
    log.info(`review: every part is sent again: ${why}`)
    return choose(new Set(scope.all.map(b => b.index)))
  }
  if (!found?.parts.size) return choice
  const callers: Record<number, string> = {}
  for (const [part, named] of [...found.parts].sort(([a], [b]) => a - b)) {
    callers[part] = namedIn(named)
    log.info(`review: part ${part} sent again: it names ${callers[part]}`)
  }
  return { ...choose(new Set(found.parts.keys())), callers }
}
