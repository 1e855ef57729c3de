import { spawn } from 'node:child_process'
import type { CommandRunner } from '../ports/index.js'

const MAX_CAPTURE = 4 * 1024 * 1024

/** Keeps at most `max` characters: the head and the tail, which is where failures are reported. */
function cap(text: string, max: number): string {
  if (text.length <= max) return text
  const half = Math.floor(max / 2)
  return `${text.slice(0, half)}\n… [${text.length - max} characters cut] …\n${text.slice(-half)}`
}

export function createCommandRunner(): CommandRunner {
  return {
    run(command, { cwd, timeoutMs, env }) {
      const started = Date.now()
      return new Promise(resolve => {
        const child = spawn('bash', ['-o', 'pipefail', '-c', command], {
          cwd,
          env,
          detached: true,
          stdio: ['ignore', 'pipe', 'pipe']
        })
        let stdout = ''
        let output = ''
        let timedOut = false
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
          try {
            // the whole process group: a test runner's children must not outlive the timeout
            process.kill(-(child.pid ?? 0), 'SIGKILL')
          } catch {
            child.kill('SIGKILL')
          }
        }, timeoutMs)
        const finish = (exitCode: number, extra = ''): void => {
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
        child.on('close', (code, signal) => finish(code ?? (signal ? 128 : 1)))
      })
    }
  }
}
