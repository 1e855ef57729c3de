import { fork, type ChildProcess } from 'node:child_process'
import os from 'node:os'
import path from 'node:path'
import type { Socket } from 'node:net'
import { fileURLToPath } from 'node:url'

/**
 * Runs the built action (dist/index.js) in a warm process: each run goes to a host
 * (test-support/action-host.mjs), a small Node process that imported the bundle once with Node's
 * own loader (the code the runner runs) and runs it with the run's environment, in its workspace,
 * one run at a time. A test file's runs may overlap, as spawned ones do: each has a host of its
 * own. It gives back the step's exit code and what the action wrote.
 *
 * Why processes and not threads of the test's process: the action starts git and PR code, and a
 * process forks at a cost that grows with its memory. Threads made every fork pay for the test
 * worker's half a gigabyte (npm run profile: a third of the suite's CPU was the kernel's).
 *
 * What needs a fresh process stays spawned (test-support/harness.ts): kills, signals, the restart
 * without secrets, and what PR code could see of the action's process.
 */

export interface ProcessResult {
  code: number
  stdout: string
  stderr: string
  /** The run's CPU seconds (its host's, and the processes it waited for), as the host measured them. */
  cpuS?: number
}

/** Where Node keeps the compiled bundle between processes (the spawned runs' NODE_COMPILE_CACHE). */
export const COMPILE_CACHE = path.join(os.tmpdir(), 'review-loop-node-compile-cache')

const HOST = fileURLToPath(new URL('./action-host.mjs', import.meta.url))
/** Hosts per test worker: as many as vitest runs concurrent tests at once (vitest.config.ts). */
const MAX_HOSTS = 4

interface Host {
  child: ChildProcess
  /** False when the host ended before it could take a run. */
  ready: Promise<boolean>
  /** What Node printed as the host died (the action's own writes are collected in the host). */
  stderr: string[]
}

const idle: Host[] = []
const waiting: Array<(host: Host) => void> = []
let hosts = 0
/** What hosts printed as they died between runs (of what a run left behind): the next run fails with it. */
const deaths: string[] = []

/** An idle host keeps neither the test's process alive nor itself: it ends with its parent. */
function hold(host: Host, running: boolean): void {
  const handles = [
    host.child,
    (host.child as unknown as { channel?: { ref(): void; unref(): void } }).channel,
    host.child.stderr as Socket | null
  ]
  for (const handle of handles) {
    if (handle && running) handle.ref()
    else handle?.unref()
  }
}

function newHost(script: string): Host {
  hosts++
  const child = fork(HOST, [script, COMPILE_CACHE], {
    // plain Node, as the runner starts it: none of the test runner's loaders
    execArgv: [],
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    serialization: 'advanced'
  })
  const host: Host = {
    child,
    stderr: [],
    ready: new Promise(resolve => {
      child.on('message', (m: { ready?: boolean }) => m.ready === true && resolve(true))
      child.once('close', () => resolve(false))
    })
  }
  child.stderr?.on('data', (chunk: Buffer) => host.stderr.push(chunk.toString()))
  child.on('error', error => host.stderr.push(`${error.stack ?? String(error)}\n`))
  // a host that dies while idle leaves the pool, and what it printed is not lost
  child.once('close', () => {
    const at = idle.indexOf(host)
    if (at < 0) return
    idle.splice(at, 1)
    hosts--
    deaths.push(host.stderr.join('') || `a host ended (${child.signalCode ?? child.exitCode})\n`)
  })
  hold(host, false)
  return host
}

function take(script: string): Promise<Host> {
  const ready = idle.pop()
  if (ready) return Promise.resolve(ready)
  if (hosts < MAX_HOSTS) return Promise.resolve(newHost(script))
  return new Promise(resolve => waiting.push(resolve))
}

function giveBack(host: Host): void {
  const next = waiting.shift()
  if (next) next(host)
  else idle.push(host)
}

/** A host that died is not used again; one waiting for a host gets a new one. */
function retire(host: Host, script: string): void {
  hosts--
  host.child.kill('SIGKILL')
  const next = waiting.shift()
  if (next) next(newHost(script))
}

/** Runs `script` (dist/index.js) once in a warm host, with `env`. */
export async function runInHost(
  script: string,
  env: Record<string, string>
): Promise<ProcessResult> {
  if (deaths.length > 0) {
    const said = deaths.splice(0).join('\n')
    return { code: 1, stdout: '', stderr: `a warm host died between runs:\n${said}` }
  }
  const host = await take(script)
  hold(host, true)
  const died = (): ProcessResult => ({
    code: host.child.exitCode ?? 1,
    stdout: '',
    stderr: host.stderr.join('') || `the host ended (${host.child.signalCode ?? 'no signal'})\n`
  })
  if (!(await host.ready) || !host.child.connected) {
    retire(host, script)
    return died()
  }
  host.stderr.length = 0
  return new Promise(resolve => {
    const finish = (result: ProcessResult, healthy: boolean): void => {
      host.child.off('message', onMessage).off('close', onExit)
      hold(host, false)
      if (healthy) giveBack(host)
      else retire(host, script)
      resolve(result)
    }
    const onMessage = (m: ProcessResult & { ready?: boolean }): void => {
      if (m.ready !== true) finish(m, true)
    }
    // what a process would print as it dies of an uncaught error, and its exit code ('close': its
    // stderr read to the end)
    const onExit = (): void => finish(died(), false)
    host.child.on('message', onMessage).on('close', onExit)
    host.child.send({ env })
  })
}
