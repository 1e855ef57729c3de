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
