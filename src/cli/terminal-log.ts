import type { Log } from '../ports/index.js'

/**
 * The run's log on a terminal: the same lines the action prints, without workflow commands (a
 * group is a heading, an annotation a `file:line: level: title` line a terminal or an editor reads).
 */
export function createTerminalLog(
  write: (line: string) => void = line => process.stdout.write(`${line}\n`)
): Log {
  return {
    info: m => write(m),
    notice: m => write(`notice: ${m}`),
    warning: m => write(`warning: ${m}`),
    debug: () => {},
    verbatim: text => write(text),
    annotate: a => write(`${a.file}:${a.startLine}: ${a.level}: ${a.title}`),
    async group(name, fn) {
      const started = Date.now()
      write(`── ${name}`)
      try {
        return await fn()
      } finally {
        write(`── ${name}: done in ${((Date.now() - started) / 1000).toFixed(1)}s`)
      }
    }
  }
}
