import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import http from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'
import { HANDOFF_FLAG, handOff, receiveHandoff, startEnv } from '../../src/action/handoff.js'
import { defaultNode } from '../../test-support/harness.js'

const CHILD = path.join(import.meta.dirname, 'fixtures', 'handoff-child.mjs')
const PATH = process.env['PATH'] ?? '/usr/bin:/bin'

type Line = {
  waiting?: number
  error?: string
  env?: Record<string, string>
  environ?: string
  comm?: string
  fetched?: string
  /** A line that is not JSON: a workflow command (::warning::) the action printed. */
  said?: string
}

/** Runs the stand-in action on Node 24; `onWaiting` runs while it waits before taking its environment back. */
function runChild(
  env: Record<string, string>,
  onWaiting?: (pid: number) => Promise<void>
): Promise<{ code: number | null; lines: Line[] }> {
  const child = spawn(defaultNode(), [CHILD], { env, stdio: ['pipe', 'pipe', 'inherit'] })
  const lines: Line[] = []
  const read = (async () => {
    for await (const text of createInterface({ input: child.stdout })) {
      const line = (text.startsWith('::') ? { said: text } : JSON.parse(text)) as Line
      lines.push(line)
      if (line.waiting !== undefined) {
        await onWaiting?.(line.waiting)
        child.stdin.end('go\n')
      }
    }
  })()
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', code => void read.then(() => resolve({ code, lines }), reject))
  })
}

describe('startEnv: what the restarted action starts with', () => {
  it('keeps what node reads only as it starts, and no secret', () => {
    const env = startEnv(
      {
        PATH: '/usr/bin',
        HOME: '/home/runner',
        NODE_USE_ENV_PROXY: '1',
        HTTPS_PROXY: 'http://proxy.corp:3128',
        http_proxy: 'http://proxy.corp:3128',
        NO_PROXY: 'localhost,.corp',
        NODE_EXTRA_CA_CERTS: '/etc/corp-ca.pem',
        OPENSSL_CONF: '/etc/ssl/openssl.cnf',
        SSL_CERT_FILE: '/etc/ssl/cert.pem',
        SSL_CERT_DIR: '/etc/ssl/certs',
        LD_LIBRARY_PATH: '/opt/lib',
        UV_THREADPOOL_SIZE: '8',
        NODE_OPTIONS: '--max-old-space-size=4096',
        GITHUB_TOKEN: 'ghs_secret',
        INPUT_ANTHROPIC_API_KEY: 'sk-ant-secret',
        ACTIONS_RUNTIME_TOKEN: 'runtime-secret',
        DEPLOY_SETTING: 'plain-named-secret'
      },
      true
    )
    expect(env).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/runner',
      NODE_USE_ENV_PROXY: '1',
      HTTPS_PROXY: 'http://proxy.corp:3128',
      http_proxy: 'http://proxy.corp:3128',
      NO_PROXY: 'localhost,.corp',
      NODE_EXTRA_CA_CERTS: '/etc/corp-ca.pem',
      OPENSSL_CONF: '/etc/ssl/openssl.cnf',
      SSL_CERT_FILE: '/etc/ssl/cert.pem',
      SSL_CERT_DIR: '/etc/ssl/certs',
      LD_LIBRARY_PATH: '/opt/lib',
      UV_THREADPOOL_SIZE: '8',
      NODE_OPTIONS: '--max-old-space-size=4096'
    })
  })

  it('leaves a proxy with credentials out when node can set it again later, and keeps it when it cannot', () => {
    const proxy = { HTTPS_PROXY: 'http://user:pa55@proxy.corp:3128', https_proxy: 'http://u@p:1' }
    expect(startEnv(proxy, true)).toEqual({})
    expect(startEnv(proxy, false)).toEqual(proxy)
  })
})

describe('handOff and receiveHandoff in this process', () => {
  const argv = [...process.argv]
  afterEach(() => {
    process.argv.splice(0, process.argv.length, ...argv)
  })

  it('runs on unchanged where node has no process.execve (before Node 22.15)', async () => {
    const execve = Object.getOwnPropertyDescriptor(process, 'execve')
    Object.defineProperty(process, 'execve', { value: undefined, configurable: true })
    try {
      const before = { ...process.env }
      await expect(handOff(CHILD)).resolves.toBeUndefined()
      await receiveHandoff()
      expect(process.env).toEqual(before)
    } finally {
      if (execve) Object.defineProperty(process, 'execve', execve)
      else delete (process as { execve?: unknown }).execve
    }
  })

  it('fails naming the restart when no keeper answers, and drops the hand-off arguments', async () => {
    process.argv.push(HANDOFF_FLAG, '@review-loop-nobody-listens-here')
    await expect(receiveHandoff()).rejects.toThrow(
      /could not take its environment back after restarting itself without secrets in it \(connect E[A-Z]+.*\)\. Re-run the job/
    )
    expect(process.argv).toEqual(argv)
  })
})

describe.runIf(process.platform === 'linux')('the restart, in a real process', () => {
  it('takes every variable back while the kernel copy of its environment holds no secret', async () => {
    const { code, lines } = await runChild({
      PATH,
      SECRET_TOKEN: 'sekrit-0001',
      INPUT_STATE_KEY: 'state-key-0001',
      LC_HANDOFF_TEST: 'plain'
    })
    expect(code).toBe(0)
    const [line] = lines
    expect(line!.env).toMatchObject({
      SECRET_TOKEN: 'sekrit-0001',
      INPUT_STATE_KEY: 'state-key-0001'
    })
    expect(line!.environ).not.toMatch(/sekrit|state-key/)
    // the word it wrote for the keeper is gone from its name
    expect(line!.comm).toBe('MainThread')
  }, 30_000)

  it('hands nothing to another process that connects first, and takes its environment all the same, warning of it', async () => {
    let stranger = ''
    const { code, lines } = await runChild(
      { PATH, SECRET_TOKEN: 'sekrit-0002', LC_HANDOFF_TEST: 'wait' },
      async pid => {
        // what a process left from an earlier step sees: the keeper's address in the command line
        const address = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').at(-2)!
        const socket: Socket = connect(address.replace(/^@/, '\0'))
        socket.setEncoding('utf8')
        socket.on('data', (chunk: string) => {
          stranger += chunk
          // it claims to be the action
          if (stranger.endsWith('\n')) socket.write('ok\n')
        })
        socket.on('error', () => undefined)
        await new Promise(resolve => socket.on('close', resolve))
      }
    )
    // it got the word it was asked to prove itself with, and nothing else
    expect(stranger).toMatch(/^[\w-]{15}\n$/)
    // the stranger could not stop the job: the action has its environment
    expect(code).toBe(0)
    expect(lines.find(l => l.env)!.env).toMatchObject({ SECRET_TOKEN: 'sekrit-0002' })
    expect(lines.find(l => l.said)!.said).toMatch(
      /^::warning::review-loop: 1 other process\(es\) connected to the keeper .*were refused: they got none of it/
    )
  }, 30_000)

  it('drops strangers that hold their connection open without a word, and takes its environment', async () => {
    let dropped = 0
    const { code, lines } = await runChild(
      { PATH, SECRET_TOKEN: 'sekrit-0003', LC_HANDOFF_TEST: 'wait' },
      async pid => {
        const address = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').at(-2)!
        // more than the keeper lets wait at once, each silent: it must not wait on them
        const closed = Array.from({ length: 40 }, () => {
          const socket: Socket = connect(address.replace(/^@/, '\0'))
          socket.on('error', () => undefined)
          // it reads (what the keeper says, then its end) but never answers
          socket.resume()
          return new Promise(resolve => socket.on('close', () => resolve(dropped++)))
        })
        await Promise.all(closed)
      }
    )
    expect(dropped).toBe(40)
    expect(code).toBe(0)
    expect(lines.find(l => l.env)!.env).toMatchObject({ SECRET_TOKEN: 'sekrit-0003' })
    expect(lines.find(l => l.said)!.said).toMatch(
      /^::warning::review-loop: 40 other process\(es\) connected to the keeper/
    )
  }, 30_000)

  it.each([
    ['without credentials', 'http://127.0.0.1'],
    ['with credentials', 'http://agent:s3cret-proxy@127.0.0.1']
  ])(
    'with NODE_USE_ENV_PROXY=1, fetch goes through the proxy set before the start (%s)',
    async (_, base) => {
      const seen: string[] = []
      const proxy = http.createServer((_req, res) => res.end('origin'))
      proxy.on('connect', (req: http.IncomingMessage, socket: Socket) => {
        seen.push(`${req.url} ${req.headers['proxy-authorization'] ?? 'no auth'}`)
        socket.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n')
      })
      proxy.on('request', (req: http.IncomingMessage) => seen.push(`${req.method} ${req.url}`))
      await new Promise<void>(resolve => proxy.listen(0, '127.0.0.1', resolve))
      try {
        const url = `${base}:${(proxy.address() as AddressInfo).port}`
        const { code, lines } = await runChild({
          PATH,
          NODE_USE_ENV_PROXY: '1',
          HTTPS_PROXY: url,
          LC_HANDOFF_TEST: 'fetch=https://api.anthropic.invalid/v1/messages'
        })
        expect(code).toBe(0)
        expect(lines[0]!.environ).not.toContain('s3cret-proxy')
        expect(lines[0]!.env!['HTTPS_PROXY']).toBe(url)
        // the request asked the proxy for a tunnel, with the proxy's credentials where it has some
        const auth = base.includes('@')
          ? `Basic ${Buffer.from('agent:s3cret-proxy').toString('base64')}`
          : 'no auth'
        expect(seen).toEqual([`api.anthropic.invalid:443 ${auth}`])
      } finally {
        proxy.close()
      }
    },
    30_000
  )
})
