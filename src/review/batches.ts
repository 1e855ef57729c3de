import parseDiff from 'parse-diff'
import type { IgnoreMatcher } from './ignore.js'
import { OWN_FAILURES } from './own-failures.js'

/** One changed file of the PR's diff. */
export interface ChangedFile {
  path: string
  additions: number
  deletions: number
  isNew: boolean
  /** The PR deletes it: the head has no blob for it. */
  deleted?: true
  /** Why it is not reviewed by design: an `ignore` glob matched it, or git shows no text for it. */
  ignored?: 'glob' | 'binary'
  /**
   * Why it cannot be reviewed though it should be (binary content no glob ignores, a line longer
   * than a part): it counts as not reviewed, so the review cannot be GO.
   */
  unreviewable?: string
}

/** A part of the diff that one review call reads: whole files where they fit, else a file's hunks. */
export interface Batch {
  /** 1-based. */
  index: number
  /** The files whose diff is (wholly or partly) in this batch, in diff order. */
  files: string[]
  /** Files of which this batch holds only some hunks (the rest are in the batches around it). */
  partial: string[]
  /** For each partial file, the head's lines its hunks cover: which part answers on a finding. */
  lines: Record<string, Array<[number, number]>>
  text: string
}

export interface ReviewPlan {
  files: ChangedFile[]
  batches: Batch[]
}

export interface FileDiff extends ChangedFile {
  text: string
}

const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '"': '"',
  '\\': '\\',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v'
}

/** A path as git quotes it (`"a/q\\"uote.ts"`, octal for other bytes), as it is on disk. */
export function unquote(path: string): string {
  const inner = path.replace(/^"(.*)"$/, '$1')
  const bytes: number[] = []
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i]!
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'))
      continue
    }
    const octal = /^[0-7]{3}/.exec(inner.slice(i + 1))
    if (octal) {
      bytes.push(parseInt(octal[0], 8))
      i += 3
    } else {
      bytes.push(...Buffer.from(ESCAPES[inner[i + 1] ?? ''] ?? inner[i + 1] ?? '', 'utf8'))
      i += 1
    }
  }
  return Buffer.from(bytes).toString('utf8')
}

/** The diff cut into one text per file, each read by parse-diff on its own. */
export function readDiff(diff: string): FileDiff[] {
  const texts = diff.split(/^(?=diff --git )/m).filter(p => p.startsWith('diff --git '))
  return texts.map((text, i) => {
    const f = parseDiff(text)[0]
    const at = text.search(/^@@ /m)
    const header = at < 0 ? text : text.slice(0, at)
    const named = /^diff --git a\/(.+) b\/(.+)$/m.exec(header)
    const path = (f?.to && f.to !== '/dev/null' ? f.to : f?.from) ?? named?.[2] ?? `file-${i + 1}`
    return {
      // git still quotes a name with a quote, backslash or control character in it, C-style
      path: /^diff --git "/m.test(header) || /^\+\+\+ "/m.test(header) ? unquote(path) : path,
      additions: f?.additions ?? 0,
      deletions: f?.deletions ?? 0,
      isNew: f?.new === true,
      ...(f?.deleted ? { deleted: true as const } : {}),
      ...(/^(Binary files .* differ|GIT binary patch)$/m.test(header)
        ? { ignored: 'binary' as const }
        : {}),
      text
    }
  })
}

/**
 * Cuts one hunk that is larger than `budget` into hunks that fit, each with its own correct
 * `@@ -old,n +new,m @@` header, so the reviewer can still tell every line's number.
 */
export function splitHunk(hunk: string, budget: number): string[] {
  const lines = hunk.split('\n')
  const head = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@(.*)$/.exec(lines[0] ?? '')
  if (!head) return [hunk]
  let oldLine = Number(head[1])
  let newLine = Number(head[2])
  const out: string[] = []
  let body: string[] = []
  let size = 0
  let start = { old: oldLine, new: newLine }
  let counts = { old: 0, new: 0 }
  const flush = () => {
    if (body.length === 0) return
    const piece = `@@ -${start.old},${counts.old} +${start.new},${counts.new} @@${head[3]}`
    out.push(`${piece}\n${body.join('\n')}\n`)
    body = []
    size = 0
    start = { old: oldLine, new: newLine }
    counts = { old: 0, new: 0 }
  }
  for (const line of lines.slice(1)) {
    // a diff line always starts with ' ', '+', '-' or '\\': an empty one is the text's last newline
    if (line === '') continue
    if (size + line.length + 1 > budget - 100 && !line.startsWith('\\')) flush()
    body.push(line)
    size += line.length + 1
    const kind = line[0]
    if (kind === ' ' || kind === '-') {
      oldLine++
      counts.old++
    }
    if (kind === ' ' || kind === '+') {
      newLine++
      counts.new++
    }
  }
  flush()
  return out
}

/** A file's diff in pieces of at most `budget` characters: its header, then as many hunks as fit. */
function pieces(file: FileDiff, budget: number): string[] {
  if (file.text.length <= budget) return [file.text]
  const at = file.text.search(/^@@/m)
  const header = at < 0 ? file.text : file.text.slice(0, at)
  const hunks = at < 0 ? [] : file.text.slice(at).split(/^(?=@@ )/m)
  const room = Math.max(1000, budget - header.length)
  const out: string[] = []
  let current = ''
  for (const hunk of hunks.flatMap(h => (h.length > room ? splitHunk(h, room) : [h]))) {
    if (current && current.length + hunk.length > room) {
      out.push(header + current)
      current = ''
    }
    current += hunk
  }
  if (current || out.length === 0) out.push(header + current)
  return out
}

/** The head lines (from, to) each hunk of a piece covers, read from its `@@ -a,b +c,d @@` headers. */
function headLines(piece: string): Array<[number, number]> {
  return [...piece.matchAll(/^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/gm)].map(m => {
    const start = Number(m[1])
    return [start, start + Math.max(0, Number(m[2] ?? 1) - 1)] as [number, number]
  })
}

/**
 * Plans the review of a whole diff: every file that is not ignored goes into a batch of at most
 * `budgetChars` characters of diff. Files are taken in path order, so files of one folder share a
 * batch where they fit; a file larger than a batch is cut by hunks (a huge hunk by lines), its
 * pieces in batches of their own. Nothing that is not ignored is left out: a file that cannot be
 * cut to fit (one line longer than a batch) is marked unreviewable.
 */
export function planBatches(
  diffs: readonly FileDiff[],
  options: { ignore: IgnoreMatcher; budgetChars: number }
): ReviewPlan {
  const all: FileDiff[] = diffs.map(f =>
    !f.ignored && !f.unreviewable && options.ignore(f.path) ? { ...f, ignored: 'glob' } : { ...f }
  )
  const batches: Batch[] = []
  let open: { files: string[]; text: string } | undefined
  const close = () => {
    if (open?.text) batches.push({ index: batches.length + 1, partial: [], lines: {}, ...open })
    open = undefined
  }
  const reviewed = all
    .filter(f => !f.ignored && !f.unreviewable)
    .sort((a, b) => (a.path < b.path ? -1 : 1))
  for (const file of reviewed) {
    const parts = pieces(file, options.budgetChars)
    if (parts.some(p => p.length > options.budgetChars * 1.05)) {
      file.unreviewable = `a line of it ${OWN_FAILURES.tooLong} (${options.budgetChars} characters); if it is a bundle or generated, add it to 'ignore'`
      continue
    }
    if (parts.length > 1) {
      close()
      for (const text of parts)
        batches.push({
          index: batches.length + 1,
          files: [file.path],
          partial: [file.path],
          lines: { [file.path]: headLines(text) },
          text
        })
      continue
    }
    if (open && open.text.length + file.text.length > options.budgetChars) close()
    open ??= { files: [], text: '' }
    open.files.push(file.path)
    open.text += file.text
  }
  close()
  return { files: all.map(({ text: _text, ...f }) => f), batches }
}

/** `planBatches` of a diff's text. */
export function planReview(
  diff: string,
  options: { ignore: IgnoreMatcher; budgetChars: number }
): ReviewPlan {
  return planBatches(readDiff(diff), options)
}
