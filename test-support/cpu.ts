import { appendFileSync, readFileSync } from 'node:fs'
import path from 'node:path'

/**
 * CPU time, for `npm run profile` (scripts/profile-ci.ts): this process's own, and that of the
 * children it has waited for (with theirs), from /proc/self/stat; 0 for the children without /proc.
 */
export function cpuSeconds(): { self: number; children: number } {
  const own = process.cpuUsage()
  let children = 0
  try {
    // the fields after the command's name, which is in parentheses and may hold spaces
    const stat = readFileSync('/proc/self/stat', 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // cutime and cstime (fields 16 and 17 of proc(5)), in clock ticks of 1/100 s on Linux
    children = (Number(fields[13]) + Number(fields[14])) / 100
  } catch {
    // no /proc
  }
  return { self: (own.user + own.system) / 1e6, children }
}

/**
 * CPU seconds the whole machine has been busy (user, nice, system, irq, softirq, steal in the first
 * line of /proc/stat, in clock ticks of 1/100 s); undefined without /proc. It counts what no parent
 * waits for, such as the tests' warm hosts (test-support/action-hosts.ts), which outlive their
 * worker's wait: measure on an otherwise idle machine.
 */
export function machineBusySeconds(): number | undefined {
  try {
    const [, user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
      .split('\n', 1)[0]!
      .trim()
      .split(/\s+/)
      .map(Number)
    return (
      ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) / 100
    )
  } catch {
    return undefined
  }
}

/** Where `npm run profile` collects its records; undefined when the suite is not profiled. */
export function profileDir(): string | undefined {
  return process.env['REVIEW_LOOP_PROFILE'] || undefined
}

/** The test file running in this worker, as the profile's setup file names it. */
declare global {
  var __REVIEW_LOOP_TEST_FILE__: string | undefined
}

/** Appends one record to the profile's file `name` (one JSON object a line). */
export function record(name: 'files' | 'runs', value: Record<string, unknown>): void {
  const dir = profileDir()
  if (!dir) return
  const file = globalThis.__REVIEW_LOOP_TEST_FILE__
  appendFileSync(path.join(dir, `${name}.jsonl`), JSON.stringify({ file, ...value }) + '\n')
}
