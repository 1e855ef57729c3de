import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import type { Readable } from 'node:stream'
import type { CommandRunner } from '../ports/index.js'

const MAX_CAPTURE = 4 * 1024 * 1024

/**
 * Set in each command's environment to a random value of its own, which every process it starts
 * inherits, whatever session or parent it ends up with: after the command, the processes carrying
 * it are killed (prior art: Jenkins' ProcessTreeKiller and its JENKINS_NODE_COOKIE). Knowing the
 * value gives PR code nothing: only a process started with it in its environment is killed.
 */
export const COMMAND_ID = 'REVIEW_LOOP_COMMAND_ID'

/**
 * PR code's confinement no longer holds (a process of PR code's user survived the kill): the job
 * stops, and no further command runs. Never turned into a result the loop carries on with.
 */
export class ConfinementBroken extends Error {}

/** How one command is started: bash directly, or bash inside a sandbox. */
export type Launch = (command: string, cwd: string) => { file: string; args: string[] }

const direct: Launch = command => ({ file: 'bash', args: ['-o', 'pipefail', '-c', command] })

const pause = (ms: number): Promise<void> => new Promise(resolve => setTimeout(resolve, ms))

/** Keeps at most `max` characters: the head and the tail, which is where failures are reported. */
function cap(text: string, max: number): string {
  if (text.length <= max) return text
  const half = Math.floor(max / 2)
  // cut at line ends, so no half line is read as a problem of its own
  const headEnd = text.lastIndexOf('\n', half)
  const head = text.slice(0, headEnd > 0 ? headEnd : half)
  const tailStart = text.indexOf('\n', text.length - half)
  const tail = text.slice(tailStart >= 0 ? tailStart + 1 : text.length - half)
  return `${head}\n… [${text.length - head.length - tail.length} characters cut] …\n${tail}`
}

/** Kills the command's whole process group: nothing it started outlives it. */
function killGroup(pid: number | undefined): void {
  if (!pid) return
  try {
    process.kill(-pid, 'SIGKILL')
  } catch {
    // the group is gone already
  }
}

/** The live processes (but this one) for which `test` holds; none where /proc cannot be read. */
export function processesWhere(test: (pid: number) => boolean): number[] {
  let pids: number[]
  try {
    pids = readdirSync('/proc')
      .filter(name => /^\d+$/.test(name))
      .map(Number)
  } catch {
    return []
  }
  return pids.filter(pid => {
    if (pid === process.pid) return false
    try {
      return test(pid)
    } catch {
      return false
    }
  })
}

/** The processes whose environment holds `entry` exactly. */
export function processesWith(entry: string): number[] {
  // a zombie's environment is empty; another user's cannot be read
  return processesWhere(pid =>
    readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(entry)
  )
}

/**
 * Kills every process carrying the command's marker — those that left its process group too
 * (setsid, double forks) — scanning again until a pass finds none new, so that a process forking
 * while its parent is killed is caught as well.
 */
async function killMarked(entry: string): Promise<void> {
  const killed = new Set<number>()
  for (let pass = 0; pass < 10; pass++) {
    const found = processesWith(entry).filter(pid => !killed.has(pid))
    if (found.length === 0 && pass > 0) return
    for (const pid of found) {
      killed.add(pid)
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        // gone already
      }
    }
    await pause(20)
  }
}

/** Collects stdout alone and both streams together, each capped. */
function capture(stdout: Readable, stderr: Readable): { stdout: string; output: string } {
  const seen = { stdout: '', output: '' }
  const add = (text: string): void => {
    seen.output += text
    if (seen.output.length > 2 * MAX_CAPTURE) seen.output = cap(seen.output, MAX_CAPTURE)
  }
  stdout.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8')
    if (seen.stdout.length < MAX_CAPTURE) seen.stdout += text
    add(text)
  })
  stderr.on('data', (chunk: Buffer) => add(chunk.toString('utf8')))
  return seen
}

/** What runs around each command where PR code runs as a user of its own (./pr-user.ts). */
export interface RunHooks {
  /** Before the command starts: the work tree handed to that user. `after` runs even where it throws. */
  before?: () => Promise<void>
  /** Kills what the command left: every process of that user (also at the timeout). */
  kill?: () => Promise<void>
  /** Once the command and all it started ended: the work tree handed back. */
  after?: () => Promise<void>
}

export function createCommandRunner(launch: Launch = direct, hooks: RunHooks = {}): CommandRunner {
  const once: CommandRunner['run'] = (command, { cwd, timeoutMs, env }) => {
    const started = Date.now()
    const { file, args } = launch(command, cwd)
    const marker = randomBytes(16).toString('hex')
    return new Promise((resolve, reject) => {
      const child = spawn(file, args, {
        cwd,
        env: { ...env, [COMMAND_ID]: marker },
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe']
      })
      const seen = capture(child.stdout, child.stderr)
      const closed = new Promise<void>(resolve => child.on('close', () => resolve()))
      const killTree = async (): Promise<void> => {
        child.kill('SIGKILL')
        killGroup(child.pid)
        try {
          await hooks.kill?.()
        } finally {
          await killMarked(`${COMMAND_ID}=${marker}`)
        }
      }
      let timedOut = false
      let done = false
      let failed: unknown
      const timer = setTimeout(() => {
        timedOut = true
        // the exit that follows the kill kills again, and reports what failed
        killTree().catch((e: unknown) => (failed ??= e))
      }, timeoutMs)
      const finish = (exitCode: number, extra = ''): void => {
        if (done) return
        done = true
        clearTimeout(timer)
        if (failed !== undefined) return reject(failed as Error)
        resolve({
          exitCode: timedOut ? 124 : exitCode,
          stdout: seen.stdout,
          output: cap(seen.output + extra, MAX_CAPTURE),
          timedOut,
          durationMs: Date.now() - started
        })
      }
      child.on('error', e => finish(127, `\n${e.message}`))
      // done when the command's own process exits, not when the last holder of its pipes does
      child.on('exit', async (code, signal) => {
        clearTimeout(timer)
        // what it left running ends with it; then what it wrote is read to the end
        await killTree().catch((e: unknown) => (failed ??= e))
        // a process that escaped (a cleared environment, outside a sandbox) may hold the pipes
        await Promise.race([closed, new Promise(resolve => setTimeout(resolve, 2000).unref())])
        child.stdout.destroy()
        child.stderr.destroy()
        finish(code ?? (signal ? 128 : 1))
      })
    })
  }
  return {
    async run(command, options) {
      try {
        // in the try: `after` undoes whatever of `before` was done
        await hooks.before?.()
        return await once(command, options)
      } finally {
        await hooks.after?.()
      }
    }
  }
}
