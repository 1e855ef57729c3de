import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'

// Node's modules that a run which does not restart never needs are loaded when used
// (process.getBuiltinModule): the action's first request leaves before them (./boot.ts).
const builtin = process.getBuiltinModule

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

/**
 * What the new image starts with: what node (or the loader, or OpenSSL) reads only as it starts,
 * nothing secret. Everything else is put back into `process.env` after the start, where it works
 * as before.
 */
const KEPT =
  /^(PATH|HOME|LANG|LANGUAGE|LC_[A-Z_]+|TZ|TMPDIR|NODE_OPTIONS|NODE_EXTRA_CA_CERTS|NODE_USE_ENV_PROXY|NODE_USE_SYSTEM_CA|NODE_COMPILE_CACHE|SSL_CERT_FILE|SSL_CERT_DIR|OPENSSL_CONF|OPENSSL_MODULES|LD_LIBRARY_PATH|UV_THREADPOOL_SIZE)$/

/** The proxy settings node reads as it starts (with NODE_USE_ENV_PROXY=1 or --use-env-proxy). */
const PROXY = /^(https?_proxy|no_proxy)$/i

/** Whether a proxy URL carries a user name or password (`http://user:pass@proxy:3128`). */
function hasCredentials(value: string): boolean {
  try {
    const url = new URL(value)
    return url.username !== '' || url.password !== ''
  } catch {
    return value.includes('@')
  }
}

/** Whether this node can set the proxy again after the start (Node 24.14 and later). */
function canSetProxy(): boolean {
  const http = builtin('node:http') as { setGlobalProxyFromEnv?: unknown }
  return typeof http.setGlobalProxyFromEnv === 'function'
}

/**
 * The environment the new image starts with. A proxy that carries credentials stays out of it
 * when this node can set the proxy again once the environment is back (`restoreProxy`);
 * otherwise it is kept, so that the action still reaches the network.
 */
export function startEnv(
  env: NodeJS.ProcessEnv,
  proxyLater: boolean = canSetProxy()
): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue
    const proxy = PROXY.test(name)
    if (proxy ? !(proxyLater && hasCredentials(value)) : KEPT.test(name)) out[name] = value
  }
  return out
}

/** Whether node routes its own requests through the environment's proxy (Node 24). */
function usesEnvProxy(env: NodeJS.ProcessEnv): boolean {
  const flag = /(^|\s)--use-env-proxy\b/
  return (
    env['NODE_USE_ENV_PROXY'] === '1' ||
    process.execArgv.includes('--use-env-proxy') ||
    flag.test(env['NODE_OPTIONS'] ?? '')
  )
}

/**
 * After the hand-off: a proxy that was left out of the start (it carries credentials) is set
 * again for fetch and node:http(s), as node would have set it at the start.
 */
function restoreProxy(started: NodeJS.ProcessEnv): void {
  const withheld = Object.keys(process.env).some(
    name => PROXY.test(name) && process.env[name] !== started[name]
  )
  if (!withheld || !usesEnvProxy(process.env) || !canSetProxy()) return
  ;(
    builtin('node:http') as unknown as { setGlobalProxyFromEnv: (env: NodeJS.ProcessEnv) => void }
  ).setGlobalProxyFromEnv(process.env)
}

/** How long the keeper waits for the new image to come for the environment. */
const KEEPER_WAIT_MS = 15_000
/** How many connections may wait for the keeper's word at once; the oldest goes first. */
const KEEPER_PENDING = 32
/** How often the action asks the keeper, should a flood of strangers push its own connection out. */
const KEEPER_ASKS = 5

/**
 * The keeper (run with `node -e`, an empty environment): it reads the environment from its stdin,
 * says `ready` once it listens, and answers a connection only once it knows that the connection
 * is the action's. On Linux it sends each connection a random word, and the client writes it into
 * its own /proc/self/comm, which only the process itself can write (the kernel refuses every other
 * process, root included): the keeper then reads /proc/<action>/comm. Any other connection is
 * dropped with nothing said, as is one that does not answer within a second, or the oldest of
 * more than KEEPER_PENDING waiting at once, and the keeper waits on for the action (which asks
 * again, KEEPER_ASKS times, should its own connection be pushed out): a stranger can neither take
 * the environment nor stop the job. The action is told how many it dropped (`{"refused":n,"env":…}`).
 * The keeper exits after KEEPER_WAIT_MS without the action.
 */
const KEEPER = `
const net = require('net'), fs = require('fs'), crypto = require('crypto')
const [name, action, dir] = process.argv.slice(1)
const address = name.replace(/^@/, '\\0')
const linux = process.platform === 'linux'
const done = code => { if (dir) fs.rmSync(dir, { recursive: true, force: true }); process.exit(code) }
const comm = () => { try { return fs.readFileSync('/proc/' + action + '/comm', 'utf8').trim() } catch { return '' } }
const chunks = []
let refused = 0, given = false
process.stdin.on('data', c => chunks.push(c)).on('end', () => {
  const data = Buffer.concat(chunks)
  const pending = new Set()
  const drop = c => { if (pending.delete(c)) { refused++; c.destroy() } }
  const server = net.createServer(c => {
    const word = crypto.randomBytes(11).toString('base64url')
    let said = ''
    // a connection that does not answer within a second, or the oldest of too many, is dropped
    if (pending.size >= ${KEEPER_PENDING}) drop(pending.values().next().value)
    pending.add(c)
    c.setTimeout(1000, () => drop(c))
    c.on('error', () => undefined)
    c.on('close', () => pending.delete(c))
    c.on('data', d => {
      said += d
      if (!said.includes('\\n')) return
      c.removeAllListeners('data')
      const theAction = !given && (!linux || (process.ppid === Number(action) && comm() === word))
      if (!theAction) return void drop(c)
      pending.delete(c)
      given = true
      server.close()
      c.end('{"refused":' + refused + ',"env":' + data + '}', () => done(0))
    })
    c.write(word + '\\n')
  })
  server.on('error', () => done(1))
  server.listen(address, () => process.stdout.write('ready\\n'))
  setTimeout(() => done(1), ${KEEPER_WAIT_MS}).unref()
})`

/** Node's process.execve (22.15 and later; not in @types/node yet). */
type Execve = (file: string, args: string[], env: Record<string, string>) => never

/** The process's name in /proc/self/comm ('' without /proc). */
function ownComm(): string {
  try {
    return readFileSync('/proc/self/comm', 'utf8').trim()
  } catch {
    return ''
  }
}

function setComm(name: string): void {
  try {
    writeFileSync('/proc/self/comm', name)
  } catch {
    // no /proc: the keeper does not check there either
  }
}

/**
 * Where the keeper listens: on Linux an abstract socket (`@` stands for its leading NUL byte, which
 * no argument can carry), which no other process can remove or take over while the keeper holds
 * it; elsewhere a socket in a private folder. Undefined when there is none to be had.
 */
function keeperAddress(): { address: string; dir?: string } | undefined {
  if (process.platform === 'linux')
    return ownComm() === ''
      ? undefined
      : { address: `@review-loop-${builtin('node:crypto').randomBytes(12).toString('hex')}` }
  try {
    const dir = mkdtempSync(path.join(builtin('node:os').tmpdir(), 'review-loop-handoff-'))
    return { address: path.join(dir, 's'), dir }
  } catch {
    return undefined
  }
}

/**
 * Starts the action again without its secrets in the environment (`extraArgs` after the hand-off's
 * own, for the new image to read). Never settles when it does (the
 * process image is replaced); resolves where it cannot (no `process.execve` before Node 22.15, on
 * Windows, no /proc on Linux, or the keeper did not start), and the action then runs on as it is.
 */
export function handOff(script: string, extraArgs: readonly string[] = []): Promise<void> {
  const execve = (process as unknown as { execve?: Execve }).execve?.bind(process)
  // handed off already, or no way to
  if (
    process.argv.includes(HANDOFF_FLAG) ||
    typeof execve !== 'function' ||
    process.platform === 'win32'
  )
    return Promise.resolve()
  const at = keeperAddress()
  if (!at) return Promise.resolve()
  return new Promise(resolve => {
    const keeper = builtin('node:child_process').spawn(
      process.execPath,
      ['-e', KEEPER, at.address, String(process.pid), ...(at.dir ? [at.dir] : [])],
      {
        env: {},
        stdio: ['pipe', 'pipe', 'ignore']
      }
    )
    const giveUp = (): void => {
      if (at.dir) rmSync(at.dir, { recursive: true, force: true })
      resolve()
    }
    keeper.on('error', giveUp)
    keeper.on('exit', giveUp)
    keeper.stdin.on('error', () => undefined)
    keeper.stdin.end(JSON.stringify(process.env))
    keeper.stdout.once('data', () => {
      const args = [...process.execArgv, script, HANDOFF_FLAG, at.address, ...extraArgs]
      try {
        execve(process.execPath, [process.execPath, ...args], startEnv(process.env))
      } catch {
        keeper.kill()
      }
    })
  })
}

/**
 * Asks the keeper for the environment: it sends a word, which this process writes into its own
 * /proc/self/comm for the keeper to check (its name is set back after); then the keeper answers
 * with the environment, and how many other connections it refused.
 */
function askKeeper(address: string): Promise<string> {
  const own = ownComm()
  return new Promise((resolve, reject) => {
    let got = ''
    let asked = false
    const socket = builtin('node:net').connect(address.replace(/^@/, '\0'))
    socket.setEncoding('utf8')
    socket
      .on('data', (chunk: string) => {
        got += chunk
        if (asked || !got.includes('\n')) return
        asked = true
        setComm(got.slice(0, got.indexOf('\n')))
        got = got.slice(got.indexOf('\n') + 1)
        socket.write('ok\n')
      })
      .on('end', () => {
        setComm(own)
        resolve(got)
      })
      .on('error', e => {
        setComm(own)
        reject(e)
      })
  })
}

/** What the action says when other processes went for its environment (they got none of it). */
function refusedWarning(refused: number): string {
  return `::warning::review-loop: ${refused} other process(es) connected to the keeper that held the job's environment while the action restarted itself, and were refused: they got none of it. A process left running on this runner (by an earlier step, or another job on a self-hosted runner) is after the job's secrets; find and stop it, or run the job on a fresh runner.\n`
}

/**
 * In the new image: takes the environment back from the keeper into `process.env` (the process's
 * memory, not the kernel's copy) and drops the hand-off's arguments; true once it has. Nothing to
 * do without them (false).
 */
export async function receiveHandoff(): Promise<boolean> {
  const at = process.argv.indexOf(HANDOFF_FLAG)
  if (at < 0) return false
  const address = process.argv[at + 1] ?? ''
  process.argv.splice(at, 2)
  const started = { ...process.env }
  let env: Record<string, string>
  try {
    let answer = ''
    for (let ask = 1; answer === '' && ask <= KEEPER_ASKS; ask++)
      answer = await askKeeper(address).catch((e: Error) => {
        if (ask === KEEPER_ASKS) throw e
        return ''
      })
    if (answer === '') throw new Error('the keeper did not answer')
    const got = JSON.parse(answer) as { refused: number; env: Record<string, string> }
    if (got.refused > 0) process.stdout.write(refusedWarning(got.refused))
    env = got.env
  } catch (e) {
    throw new Error(
      `review-loop could not take its environment back after restarting itself without secrets in it (${(e as Error).message}). Re-run the job; if it happens again, report it.`
    )
  }
  for (const [name, value] of Object.entries(env)) process.env[name] = value
  restoreProxy(started)
  return true
}
