import { readdirSync, readFileSync } from 'node:fs'

/**
 * Running processes whose command line is `text` (`sleep 98765`) or whose environment holds the
 * entry `text`; a zombie, killed but not yet reaped, has neither.
 */
export function alive(text: string): string[] {
  return readdirSync('/proc').filter(pid => {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) return false
    const read = (file: string): string[] =>
      readFileSync(`/proc/${pid}/${file}`, 'latin1').split('\0').filter(Boolean)
    try {
      return read('cmdline').join(' ') === text || read('environ').includes(text)
    } catch {
      return false
    }
  })
}
