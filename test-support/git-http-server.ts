import { spawn } from 'node:child_process'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import path from 'node:path'
import { gunzipSync } from 'node:zlib'
import type { FaultSpec } from './fault.js'

/**
 * A fault (test-support/fault.ts) on one git service: 'git fetch' is upload-pack (GET
 * info/refs?service=git-upload-pack and POST /git-upload-pack: ls-remote and fetch), 'git push' is
 * receive-pack (GET info/refs?service=git-receive-pack, POST /git-receive-pack), but for 'git
 * claim', the POST that creates a claim (a ref under refs/review-loop/). A claim's discovery GET is
 * 'git push' too: nothing tells it apart. `status` defaults to 500. A `lost` fault waits for the
 * service's POST, the request that carries the pack.
 */
export type GitFault = FaultSpec & { route: 'git fetch' | 'git push' | 'git claim' }

export interface GitRequest {
  method: string
  path: string
  /** 'git fetch' or 'git push' (as in GitFault), '' for anything else */
  route: string
  /** 0 when nothing was answered */
  status: number
  authorized: boolean
  at: number
  /** the fault applied to this request: '503', 'hang', 'reset', 'lost→500', 'lost→reset', 'lost→hang' */
  fault?: string
}

type Route = GitFault['route']

/**
 * The git service a request belongs to, from `?service=` (discovery) or the POST's path; a
 * receive-pack POST whose first command creates a ref under refs/review-loop/ is 'git claim'.
 */
function routeOf(req: IncomingMessage, url: URL, body: Buffer): Route | undefined {
  const post = req.method === 'POST'
  const service = post ? path.basename(url.pathname) : url.searchParams.get('service')
  if (service === 'git-upload-pack') return 'git fetch'
  if (service !== 'git-receive-pack') return undefined
  if (!post) return 'git push'
  // git may gzip a request: the commands are read as the service reads them
  const commands = req.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body
  const claim = /^[0-9a-f]{4}0{40} [0-9a-f]{40} refs\/review-loop\//
  return claim.test(commands.subarray(0, 200).toString('latin1')) ? 'git claim' : 'git push'
}

/** A POST's body, read whole: its first command tells a claim from a push. */
async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  if (req.method !== 'POST') return Buffer.alloc(0)
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** Runs git http-backend for one request; `answer` gets its status, headers and body. */
function backend(
  req: IncomingMessage,
  body: Buffer,
  url: URL,
  bare: string,
  answer: (status: number, headers: Record<string, string>, body: Buffer) => void
): void {
  const cgi = spawn('git', ['http-backend'], {
    env: {
      PATH: process.env['PATH'],
      GIT_PROJECT_ROOT: path.dirname(bare),
      GIT_HTTP_EXPORT_ALL: '1',
      REMOTE_USER: 'x-access-token',
      REMOTE_ADDR: '127.0.0.1',
      REQUEST_METHOD: req.method,
      PATH_INFO: url.pathname,
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
      GIT_PROTOCOL: String(req.headers['git-protocol'] ?? '')
    },
    stdio: ['pipe', 'pipe', 'ignore']
  })
  cgi.stdin.on('error', () => undefined)
  cgi.stdin.end(body)
  const chunks: Buffer[] = []
  cgi.stdout.on('data', (c: Buffer) => chunks.push(c))
  cgi.on('close', () => {
    const out = Buffer.concat(chunks)
    const split = out.indexOf('\r\n\r\n')
    const head = out.subarray(0, split).toString('utf8')
    const headers: Record<string, string> = {}
    let status = 200
    for (const line of head.split('\r\n')) {
      const [name, ...rest] = line.split(':')
      const value = rest.join(':').trim()
      if (name?.toLowerCase() === 'status') status = Number(value.split(' ')[0])
      else if (name) headers[name.toLowerCase()] = value
    }
    answer(status, headers, out.subarray(split + 4))
  })
}

/** Answers as the fault says: a status, nothing (the connection stays open), or a reset. */
function misbehave(f: GitFault, status: number, req: IncomingMessage, res: ServerResponse): void {
  if (f.hang) return
  if (f.reset) {
    req.socket.resetAndDestroy()
    return
  }
  const challenge = status === 401 ? { 'www-authenticate': 'Basic realm="GitHub"' } : {}
  res.writeHead(status, { ...challenge, ...f.headers }).end(`fault ${status}\n`)
}

/** Applies the first fault that matches the request; false when none does. */
function applyFault(
  faults: GitFault[],
  request: { req: IncomingMessage; body: Buffer; url: URL; route: Route | undefined },
  res: ServerResponse,
  bare: string,
  record: (status: number, fault: string) => void
): boolean {
  const { req, body, url, route } = request
  const f = faults.find(
    f => f.route === route && (!f.lost || req.method === 'POST') && (f.times ?? 1) > 0
  )
  if (!f) return false
  f.times = (f.times ?? 1) - 1
  const status = f.status ?? 500
  const what = f.hang ? 'hang' : f.reset ? 'reset' : String(status)
  const answer = (): void => {
    record(f.hang || f.reset ? 0 : status, f.lost ? `lost→${what}` : what)
    misbehave(f, status, req, res)
  }
  if (f.lost) backend(req, body, url, bare, answer)
  else answer()
  return true
}

/**
 * Git's smart HTTP protocol on 127.0.0.1 (git http-backend behind a small CGI bridge), requiring
 * the token as GitHub does: `Authorization: basic base64(x-access-token:TOKEN)`. Lets tests check
 * that the action authenticates its own fetch and push when the checkout kept no credentials, and
 * how it copes with a server that fails (`addFault`).
 */
export class GitHttpServer {
  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly requests: GitRequest[],
    private readonly faults: GitFault[]
  ) {}

  /**
   * Serves the bare repository at `bare` as `<url>/<basename of bare>`; `readOnly` tokens may fetch
   * but not push (a fork's read-only workflow token).
   */
  static async start(bare: string, token: string, readOnly: string[] = []): Promise<GitHttpServer> {
    const basic = (t: string): string =>
      `basic ${Buffer.from(`x-access-token:${t}`).toString('base64')}`.toLowerCase()
    const requests: GitRequest[] = []
    const faults: GitFault[] = []
    const server = createServer(async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1')
      const body = await bodyOf(req)
      const route = routeOf(req, url, body)
      const given = (req.headers['authorization'] ?? '').toLowerCase()
      const authorized =
        given === basic(token) || (route === 'git fetch' && readOnly.some(t => given === basic(t)))
      const record = (status: number, fault?: string): void => {
        const seen = { method: req.method ?? '', path: url.pathname, route: route ?? '' }
        requests.push({ ...seen, status, authorized, at: Date.now(), ...(fault ? { fault } : {}) })
      }
      if (applyFault(faults, { req, body, url, route }, res, bare, record)) return
      if (!authorized) {
        record(401)
        res
          .writeHead(401, { 'www-authenticate': 'Basic realm="GitHub"' })
          .end('authentication required\n')
        return
      }
      backend(req, body, url, bare, (status, headers, out) => {
        record(status)
        res.writeHead(status, headers).end(out)
      })
    })
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as { port: number }).port
    const url = `http://127.0.0.1:${port}/${path.basename(bare)}`
    return new GitHttpServer(server, url, requests, faults)
  }

  /** The next `times` requests to the fault's route (a `lost` one: its POSTs) go wrong. */
  addFault(fault: GitFault): void {
    this.faults.push({ ...fault, times: fault.times ?? 1 })
  }

  clearFaults(): void {
    this.faults.length = 0
  }

  /** Stops serving; connections still open (a hanging request) are cut. */
  close(): Promise<void> {
    return new Promise(resolve => {
      this.server.close(() => resolve())
      this.server.closeAllConnections()
    })
  }
}
