import os from 'node:os'
import path from 'node:path'
import { Worker } from 'node:worker_threads'

/**
 * Runs the built action (dist/index.js) in this process, as the runner would run it in its own:
 * each run goes to a thread (test-support/action-thread.mjs) that imported the bundle once with
 * Node's own loader (the code the runner runs) and runs it with the run's environment, which is the
 * thread's own copy, so runs of a test file may overlap as spawned ones do. It gives back the step's
 * exit code and what the action wrote.
 *
 * What needs a process of its own stays spawned (test-support/harness.ts): kills, signals, the
 * restart without secrets, and what PR code could see of the action's process. The workspace is
 * GITHUB_WORKSPACE (a thread has no working directory of its own).
 */

export interface ProcessResult {
  code: number
  stdout: string
  stderr: string
}

/** Where Node keeps the compiled bundle between processes (the spawned runs' NODE_COMPILE_CACHE). */
export const COMPILE_CACHE = path.join(os.tmpdir(), 'review-loop-node-compile-cache')

/** Threads per process (a worker of the e2e tests runs one file after another): as many as vitest runs concurrent tests at once (vitest.config.ts). */
const MAX_THREADS = 4
const idle: Worker[] = []
const waiting: Array<(thread: Worker) => void> = []
let threads = 0

function newThread(script: string): Worker {
  threads++
  const thread = new Worker(new URL('./action-thread.mjs', import.meta.url), {
    workerData: { script, compileCache: COMPILE_CACHE },
    // plain Node, as the runner starts it: none of the test runner's loaders
    execArgv: [],
    // what the action writes is collected in the thread, never printed
    stdout: true,
    stderr: true
  })
  // an idle thread does not keep the test file's process alive
  thread.unref()
  return thread
}

function take(script: string): Promise<Worker> {
  const ready = idle.pop()
  if (ready) return Promise.resolve(ready)
  if (threads < MAX_THREADS) return Promise.resolve(newThread(script))
  return new Promise(resolve => waiting.push(resolve))
}

function giveBack(thread: Worker): void {
  const next = waiting.shift()
  if (next) next(thread)
  else idle.push(thread)
}

/** Runs `script` (dist/index.js) once in a thread of this process, with `env`. */
export async function runInProcess(
  script: string,
  env: Record<string, string>
): Promise<ProcessResult> {
  const thread = await take(script)
  thread.ref()
  return new Promise(resolve => {
    const done = (result: ProcessResult, healthy: boolean): void => {
      thread.off('message', onMessage).off('error', onError)
      thread.unref()
      if (healthy) giveBack(thread)
      else {
        // a thread the action crashed is not used again
        threads--
        void thread.terminate()
        const next = waiting.shift()
        if (next) void take(script).then(next)
      }
      resolve(result)
    }
    const onMessage = (result: ProcessResult): void => done(result, true)
    // what a process would print as it dies of an uncaught error, and its exit code
    const onError = (error: Error): void =>
      done({ code: 1, stdout: '', stderr: `${error.stack ?? String(error)}\n` }, false)
    thread.on('message', onMessage).on('error', onError)
    thread.postMessage({ env })
  })
}
