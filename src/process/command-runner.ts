import { spawn } from 'node:child_process'
import type { CommandRunner } from '../ports/index.js'

const MAX_CAPTURE = 4 * 1024 * 1024

/** How one command is started: bash directly, or bash inside a sandbox. */
export type Launch = (command: string, cwd: string) => { file: string; args: string[] }

const direct: Launch = command => ({ file: 'bash', args: ['-o', 'pipefail', '-c', command] })

/** Keeps at most `max` characters: the head and the tail, which is where failures are reported. */
function cap(text: string, max: number): string {
  if (text.length <= max) return text
  const half = Math.floor(max / 2)
  return `${text.slice(0, half)}\n… [${text.length - max} characters cut] …\n${text.slice(-half)}`
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

export function createCommandRunner(launch: Launch = direct): CommandRunner {
  return {
    run(command, { cwd, timeoutMs, env }) {
      const started = Date.now()
      const { file, args } = launch(command, cwd)
      return new Promise(resolve => {
        const child = spawn(file, args, {
          cwd,
          env,
          detached: true,
          stdio: ['ignore', 'pipe', 'pipe']
        })
        let stdout = ''
        let output = ''
        let timedOut = false
        let done = false
        child.stdout.on('data', (chunk: Buffer) => {
          const text = chunk.toString('utf8')
          if (stdout.length < MAX_CAPTURE) stdout += text
          output += text
          if (output.length > 2 * MAX_CAPTURE) output = cap(output, MAX_CAPTURE)
        })
        child.stderr.on('data', (chunk: Buffer) => {
          output += chunk.toString('utf8')
          if (output.length > 2 * MAX_CAPTURE) output = cap(output, MAX_CAPTURE)
        })
        const timer = setTimeout(() => {
          timedOut = true
          killGroup(child.pid)
          child.kill('SIGKILL')
        }, timeoutMs)
        const finish = (exitCode: number, extra = ''): void => {
          if (done) return
          done = true
          clearTimeout(timer)
          resolve({
            exitCode: timedOut ? 124 : exitCode,
            stdout,
            output: cap(output + extra, MAX_CAPTURE),
            timedOut,
            durationMs: Date.now() - started
          })
        }
        child.on('error', e => finish(127, `\n${e.message}`))
        child.on('exit', (code, signal) => {
          // what the command left running in its group ends with it
          killGroup(child.pid)
          // a process that left the group may still hold the pipes open: do not wait for it
          setTimeout(() => {
            child.stdout.destroy()
            child.stderr.destroy()
            finish(code ?? (signal ? 128 : 1))
          }, 2000).unref()
        })
        child.on('close', (code, signal) => finish(code ?? (signal ? 128 : 1)))
      })
    }
  }
}
