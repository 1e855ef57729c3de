import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'

/**
 * The runner starts the action with every secret of the step in its environment (the inputs, the
 * runtime and OIDC tokens, whatever the workflow put in `env:`), and the kernel keeps that first
 * environment for the life of the process in /proc/PID/environ, which every process of the same
 * user can read: PR code too, where no sandbox runs. Deleting from `process.env` changes only the
 * process's memory. So the action starts itself again in the same process (execve: the pid the
 * runner waits on, its output and its signals stay) with an environment that holds nothing but what
 * node needs to start, and takes the rest back over a Unix socket from a short-lived keeper process
 * that holds it in memory only until the new image has read it, before any PR code runs.
 */

/** The argument that tells the new image where the keeper waits. */
export const HANDOFF_FLAG = '--review-loop-handoff'

/** What the new image starts with: what node reads as it starts, nothing secret. */
const KEPT =
  /^(PATH|HOME|LANG|LANGUAGE|LC_[A-Z_]+|TZ|TMPDIR|NODE_OPTIONS|NODE_EXTRA_CA_CERTS|NODE_COMPILE_CACHE|SSL_CERT_FILE|SSL_CERT_DIR)$/

/**
 * The keeper (run with `node -e`, an empty environment): it reads the environment from its stdin,
 * says `ready` once it listens in the given private folder, answers one connection with it, then
 * removes the folder and exits; after a minute without one it exits all the same.
 */
const KEEPER = `
const net = require('net'), fs = require('fs'), dir = process.argv[1]
const done = code => { fs.rmSync(dir, { recursive: true, force: true }); process.exit(code) }
const chunks = []
process.stdin.on('data', c => chunks.push(c)).on('end', () => {
  const data = Buffer.concat(chunks)
  const server = net.createServer(c => { server.close(); c.end(data, () => done(0)) })
  server.on('error', () => done(1))
  server.listen(dir + '/s', () => process.stdout.write('ready\\n'))
  setTimeout(() => done(1), 60000).unref()
})`

/** Node's process.execve (22.15 and later; not in @types/node yet). */
type Execve = (file: string, args: string[], env: Record<string, string>) => never

/** The environment the new image starts with. */
export function startEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(env))
    if (value !== undefined && KEPT.test(name)) out[name] = value
  return out
}

/**
 * Starts the action again without its secrets in the environment. Never settles when it does (the
 * process image is replaced); resolves where it cannot (no `process.execve` before Node 22.15, on
 * Windows, or the keeper did not start), and the action then runs on as it is.
 */
export function handOff(script: string): Promise<void> {
  const execve = (process as unknown as { execve?: Execve }).execve?.bind(process)
  // handed off already, or no way to
  if (
    process.argv.includes(HANDOFF_FLAG) ||
    typeof execve !== 'function' ||
    process.platform === 'win32'
  )
    return Promise.resolve()
  return new Promise(resolve => {
    let dir: string
    try {
      dir = mkdtempSync(path.join(tmpdir(), 'review-loop-handoff-'))
    } catch {
      resolve()
      return
    }
    const keeper = spawn(process.execPath, ['-e', KEEPER, dir], {
      env: {},
      stdio: ['pipe', 'pipe', 'ignore']
    })
    const giveUp = (): void => {
      rmSync(dir, { recursive: true, force: true })
      resolve()
    }
    keeper.on('error', giveUp)
    keeper.on('exit', giveUp)
    keeper.stdin.on('error', () => undefined)
    keeper.stdin.end(JSON.stringify(process.env))
    keeper.stdout.once('data', () => {
      const args = [...process.execArgv, script, HANDOFF_FLAG, path.join(dir, 's')]
      try {
        execve(process.execPath, [process.execPath, ...args], startEnv(process.env))
      } catch {
        keeper.kill()
      }
    })
  })
}

/**
 * In the new image: takes the environment back from the keeper into `process.env` (the process's
 * memory, not the kernel's copy) and drops the hand-off's arguments. Nothing to do without them.
 */
export async function receiveHandoff(): Promise<void> {
  const at = process.argv.indexOf(HANDOFF_FLAG)
  if (at < 0) return
  const socket = process.argv[at + 1] ?? ''
  process.argv.splice(at, 2)
  let env: Record<string, string>
  try {
    const data = await new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = []
      connect(socket)
        .on('data', (c: Buffer) => chunks.push(c))
        .on('end', () => resolve(Buffer.concat(chunks)))
        .on('error', reject)
    })
    env = JSON.parse(data.toString('utf8')) as Record<string, string>
  } catch (e) {
    throw new Error(
      `review-loop could not take its environment back after restarting itself without secrets in it (${(e as Error).message}). Re-run the job; if it happens again, report it.`
    )
  }
  for (const [name, value] of Object.entries(env)) process.env[name] = value
}
