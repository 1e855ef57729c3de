/**
 * Text that came from PR code, a tool's output or a model, made fit to leave for GitHub: the one
 * place that says what such text may hold. Renderers add what their format needs on top (Markdown
 * escapes and HTML neutralised in `src/report/format.ts`), and the state comment stores only this.
 */

/**
 * Terminal sequences: CSI (`ESC [ … final`, colours and cursor moves), OSC (`ESC ] … BEL` or
 * `ESC ] … ESC \`, hyperlinks and window titles; an unterminated one runs to the line's end), and the
 * two-character ESC sequences.
 */
// eslint-disable-next-line no-control-regex
const TERMINAL = /\u001b(?:\[[0-?]*[ -/]*[@-~]?|\][^\u0007\u001b\n]*(?:\u0007|\u001b\\)?|[ -~])/g

/** C0 and C1 controls and DEL, but tab and line feed (carriage returns are made line feeds first). */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g

/**
 * Untrusted text as plain text: terminal sequences and control characters removed (NUL, ESC, BEL,
 * ...), a carriage return made a line end (`a\rb`, a progress line redrawn, shows both parts), tab
 * and line feed kept. Every text that came from PR code, a tool or a model goes through it before
 * GitHub sees it: annotations, check runs, comments, summaries, replies and the stored state.
 */
export function plainText(text: string): string {
  return text.replace(TERMINAL, '').replace(/\r\n?/g, '\n').replace(CONTROL, '')
}

/**
 * Text for the runner's log: plain, and no line holds a workflow command: none starts one
 * (`::add-mask::`, `::set-output`, `::stop-commands::`; the runner reads them at a line's start,
 * after spaces), and no `##[` is left anywhere (the older form, `##[set-output name=x;]y`, which
 * the runner finds anywhere in a line).
 */
export function logText(text: string): string {
  return plainText(text)
    .replace(/^(\s*):(?=:)/gm, '$1:\u200b')
    .replace(/##\[/g, '##\u200b[')
}

/**
 * Characters that render as nothing: zero-width and direction controls, Unicode tag characters
 * that spell hidden ASCII, variation selectors, Hangul fillers, ... and control characters (tab,
 * line feed and carriage return stay). The Unicode property catches the default-ignorable
 * characters the explicit list does not name. Text for the model drops them
 * (`src/model/sanitize.ts`); text for GitHub shows them as markers (`visibleText`).
 */
export const INVISIBLE = new RegExp(
  // eslint-disable-next-line no-misleading-character-class -- single code points, on purpose
  [
    '[',
    '\\u00AD\\u034F\\u061C\\u115F\\u1160\\u17B4\\u17B5\\u180B-\\u180F',
    '\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u206F\\u3164',
    '\\uFE00-\\uFE0F\\uFEFF\\uFFA0\\uFFF0-\\uFFFB',
    '\\u{1BCA0}-\\u{1BCA3}\\u{1D173}-\\u{1D17A}\\u{E0000}-\\u{E0FFF}',
    '\\p{Default_Ignorable_Code_Point}',
    '\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F',
    ']+'
  ].join(''),
  'gu'
)

/** Direction controls (Trojan Source): embeddings, overrides, isolates and the marks. */
export const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu

/** The invisible characters that change what code means to a reader: direction controls and tags. */
export const DECEPTIVE = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u{E0000}-\u{E007F}]/u
const TAG = /[\u{E0000}-\u{E007F}]/u

function codePoint(c: string): string {
  return `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`
}

/**
 * A visible stand-in for a run of hidden characters: which ones, and how many tag characters, but
 * never the text the tags spell (`⟦hidden: U+202E⟧`, `⟦hidden: 28 tag characters⟧`).
 */
export function hiddenMarker(run: string): string {
  const chars = [...run]
  const tags = chars.filter(c => TAG.test(c)).length
  const others = [...new Set(chars.filter(c => !TAG.test(c)).map(codePoint))]
  const parts = [
    ...(tags ? [`${tags} tag character${tags > 1 ? 's' : ''}`] : []),
    ...others.slice(0, 3),
    ...(others.length > 3 ? ['…'] : [])
  ]
  return `⟦hidden: ${parts.join(', ')}⟧`
}

/** A joiner and a presentation selector that belong to an emoji (`⚠️`, `👩‍💻`): seen, not hidden. */
const EMOJI_PART = /^[\uFE0E\uFE0F]?\u200D?$/
const PICTOGRAPH = /\p{Extended_Pictographic}/u

function partOfEmoji(run: string, first: boolean, after: string): boolean {
  if (!EMOJI_PART.test(run) || first) return false
  return !run.includes('\u200D') || PICTOGRAPH.test(after)
}

/** Every run of invisible characters as a marker, but the parts of emoji; `drop` runs go instead. */
function markHidden(text: string, drop?: RegExp): string {
  return text.replace(INVISIBLE, (run: string, at: number, whole: string) => {
    const kept = drop ? run.replace(drop, '') : run
    if (!kept) return ''
    const after = String.fromCodePoint(whole.codePointAt(at + run.length) ?? 0)
    return partOfEmoji(kept, at === 0, after) ? kept : hiddenMarker(kept)
  })
}

/**
 * Untrusted prose as a reader should see it on GitHub (`plainText`, then): direction controls
 * removed (they only reorder the text around them, and legitimately mark right-to-left words), and
 * every other character that renders as nothing (zero-width spaces and joiners, word joiners, byte
 * order marks, tag characters, variation selectors, ...) shown as a marker, `⟦hidden: U+200B⟧`,
 * so no text hides in what a reader does not see. An emoji's joiner and presentation selector stay.
 * Run before `inertText`: every zero-width space in the output is then one `inertText` put there.
 */
export function visibleText(text: string): string {
  return markHidden(plainText(text), BIDI)
}

/**
 * Untrusted code (a quoted line, a path) as a reader should see it: `visibleText`, but a direction
 * control is shown as a marker too, `⟦hidden: U+202E⟧`: in code it makes the code read otherwise
 * than it runs (Trojan Source), which is what a reviewer must see. Every other character is kept.
 */
export function visibleCode(text: string): string {
  return markHidden(plainText(text))
}

/**
 * The one way untrusted text is kept from acting on GitHub: a zero-width space (U+200B) after the
 * character that starts what GitHub would link or notify. Inside a word it changes nothing a reader
 * sees, it works in every field alike (Markdown, code spans, HTML, plain text), and copy and paste
 * of the text is all it costs. A backslash does not do it (`\#12` renders as `#12`, which GitHub
 * links), nor does an HTML entity (GitHub links the decoded text). What it breaks:
 * - mentions, `@user` and `@org/team`, and `owner/repo@sha` (after every `@`);
 * - issue and PR references, `#12` and `owner/repo#12` (after `#` before a digit) and `GH-12`;
 * - commit SHAs, 7 to 40 hex digits on their own: GitHub links any such run that names a commit,
 *   so the run is cut into parts of six at most;
 * - the URL of an issue, a PR, a discussion or a commit (`…/issues/12`, `…/pull/3`), which GitHub
 *   shows as a reference and tells the other side of (after the path part that names the kind: the
 *   link, if one is made, leads nowhere; other URLs stay as they are).
 * Our own links (`commitLink`, `fileLink`, `fixLink`) are made from trusted values and never pass
 * through it.
 */
export function inertText(text: string): string {
  return text
    .replace(
      /@(?=[\w-])|#(?=\d)|\bgh-(?=\d)|\/(?:issues|pulls?|discussions|commits?)\/(?=\w)/gi,
      m => `${m}${INERT}`
    )
    .replace(/(?<![0-9A-Za-z])[0-9a-fA-F]{7,}(?![0-9A-Za-z])/g, run =>
      (run.match(/.{1,6}/g) ?? []).join(INERT)
    )
}

/** The character `inertText` inserts. */
export const INERT = '\u200b'

/**
 * Untrusted text for a field GitHub shows as plain text (an annotation's title, message and
 * details, a check run's title): shown (`visibleText`) and inert (`inertText`). GitHub renders no
 * Markdown or HTML there, so `<img>` is shown as written; it links nothing there either today, but
 * the one sanitiser keeps every field alike.
 */
export function plainField(text: string): string {
  return inertText(visibleText(text))
}
