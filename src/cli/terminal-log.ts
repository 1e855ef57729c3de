import type { Log } from '../ports/index.js'
import { logTime } from '../report/format.js'

/** The last lines of a failing check a terminal shows; --verbose shows what the action's log does. */
const TERMINAL_LINES = 40

/**
 * The run's log on a terminal: the same lines the action prints, without workflow commands (a
 * group is a heading, an annotation a `file:line: level: title` line a terminal or an editor reads).
 * Unless `verbose`, a group of detail (a passing check's output) is its heading alone, and a
 * failing check's output its last lines.
 */
export function createTerminalLog(
  write: (line: string) => void = line => process.stdout.write(`${line}\n`),
  options: { verbose?: boolean } = {}
): Log {
  const verbose = options.verbose ?? false
  let quiet = false
  let inGroup = false
  const say = (m: string): void => {
    if (!quiet) write(m)
  }
  return {
    info: say,
    notice: m => write(`notice: ${m}`),
    warning: m => write(`warning: ${m}`),
    debug: () => {},
    verbatim(text) {
      if (quiet) return
      const lines = text.split('\n')
      if (verbose || !inGroup || lines.length <= TERMINAL_LINES) return write(text)
      write(`… ${lines.length - TERMINAL_LINES} earlier lines (--verbose prints them)`)
      write(lines.slice(-TERMINAL_LINES).join('\n'))
    },
    annotate: a => write(`${a.file}:${a.startLine}: ${a.level}: ${a.title}`),
    async group(name, fn, about) {
      const started = Date.now()
      const hidden = about?.detail === true && !verbose
      // a group of detail is its heading alone, with the time of the work it tells of
      const took = hidden && about.tookMs !== undefined ? ` (${logTime(about.tookMs)})` : ''
      write(`── ${name}${took}`)
      quiet = hidden
      inGroup = true
      try {
        return await fn()
      } finally {
        quiet = false
        inGroup = false
        if (!hidden)
          write(
            `── ${name}: done in ${logTime(about?.tookMs ?? Date.now() - (about?.since ?? started))}`
          )
      }
    }
  }
}
