import { spawn } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import path from 'node:path'

/**
 * Git's smart HTTP protocol on 127.0.0.1 (git http-backend behind a small CGI bridge), requiring
 * the token as GitHub does: `Authorization: basic base64(x-access-token:TOKEN)`. Lets tests check
 * that the action authenticates its own fetch and push when the checkout kept no credentials.
 */
export class GitHttpServer {
  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly requests: Array<{ method: string; path: string; status: number; authorized: boolean }>
  ) {}

  /** Serves the bare repository at `bare` as `<url>/<basename of bare>`. */
  static async start(bare: string, token: string): Promise<GitHttpServer> {
    const expected = `basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`
    const requests: GitHttpServer['requests'] = []
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1')
      const authorized =
        (req.headers['authorization'] ?? '').toLowerCase() === expected.toLowerCase()
      if (!authorized) {
        requests.push({
          method: req.method ?? '',
          path: url.pathname,
          status: 401,
          authorized
        })
        res
          .writeHead(401, { 'www-authenticate': 'Basic realm="GitHub"' })
          .end('authentication required\n')
        return
      }
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
      req.pipe(cgi.stdin)
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
        requests.push({ method: req.method ?? '', path: url.pathname, status, authorized })
        res.writeHead(status, headers).end(out.subarray(split + 4))
      })
    })
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as { port: number }).port
    return new GitHttpServer(server, `http://127.0.0.1:${port}/${path.basename(bare)}`, requests)
  }

  close(): Promise<void> {
    return new Promise(resolve => this.server.close(() => resolve()))
  }
}
