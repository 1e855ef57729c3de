import { randomUUID } from 'node:crypto'
import * as core from '@actions/core'
import { logText, plainText } from '../loop/untrusted.js'
import type { Log } from '../ports/index.js'
import { logTime } from '../report/format.js'

/** The runner's log, through the toolkit: groups close with how long they took. */
export function createActionsLog(): Log {
  return {
    // PR code's and tools' words reach the log in these: no line of theirs is a workflow command
    info: m => core.info(logText(m)),
    notice: m => core.notice(m),
    warning: m => core.warning(m),
    debug: m => core.debug(logText(m)),
    annotate(a) {
      const properties: core.AnnotationProperties = {
        title: a.title,
        file: a.file,
        startLine: a.startLine,
        endLine: a.endLine,
        // the runner takes columns only on a one-line annotation, as the check-run API does
        ...(a.startColumn !== undefined && a.startLine === a.endLine
          ? { startColumn: a.startColumn, endColumn: a.endColumn }
          : {})
      }
      const say =
        a.level === 'failure' ? core.error : a.level === 'warning' ? core.warning : core.notice
      say(a.message, properties)
    },
    verbatim(text) {
      // the runner's own escape: nothing between stop-commands and its token is a command
      const token = randomUUID()
      core.info(`::stop-commands::${token}`)
      core.info(plainText(text))
      core.info(`::${token}::`)
    },
    async group(name, fn, about) {
      const started = Date.now()
      const title = logText(name)
      core.startGroup(title)
      try {
        return await fn()
      } finally {
        const ms = about?.tookMs ?? Date.now() - (about?.since ?? started)
        core.info(`${title}: done in ${logTime(ms)}`)
        core.endGroup()
      }
    }
  }
}
