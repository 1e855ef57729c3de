/**
 * A local stand-in for the GitHub Actions artifact service (v4 "results" backend) and the Azure Blob
 * storage it hands out upload URLs for.
 *
 * It speaks what `@actions/artifact` (v6) `uploadArtifact` calls, so the real client uploads to it
 * unchanged when the process has `ACTIONS_RUNTIME_TOKEN=service.runtimeToken()` and
 * `ACTIONS_RESULTS_URL=service.url + '/'`:
 *
 * - Twirp JSON `POST /twirp/github.actions.results.api.v1.ArtifactService/CreateArtifact`: checks the
 *   bearer JWT (signature, expiry, the `Actions.Results:<run>:<job>` scope and that the request's
 *   backend ids match it), the name, and that the run has no artifact of that name yet (409
 *   `already_exists`, as GitHub answers); answers `{ ok, signed_upload_url }`.
 * - Azure Blob `PUT <signed url>&comp=block&blockid=…`, `PUT <signed url>&comp=blocklist` (the XML block
 *   list) and a single-shot `PUT` with `x-ms-blob-type: BlockBlob`, with the statuses and headers the
 *   Azure SDK expects (201, etag, last-modified, x-ms-request-id, x-ms-version, …) and Azure's XML errors.
 *   The URL's `sig` is an HMAC of the upload id and expiry, so a forged or expired URL gets 403.
 * - Twirp `FinalizeArtifact`: the blob must be committed, `size` must equal its length and `hash`
 *   (when sent) its sha256; the zip is then unpacked into `artifacts[].files`.
 *
 * Twirp errors are JSON `{ code, msg }` with the matching HTTP status; 401/404/409/400 are not retried
 * by the client, so a test sees a rejection at once. Every request is recorded in `requests`.
 */
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto'
import { createServer } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { crc32, inflateRawSync } from 'node:zlib'

const TWIRP_PREFIX = '/twirp/github.actions.results.api.v1.ArtifactService/'
const UPLOAD_URL_TTL_MS = 6 * 60 * 60 * 1000

export interface UploadedArtifact {
  id: number
  name: string
  /** The blob as uploaded (a zip, since the client archives the files). */
  zip: Buffer
  /** The zip's files, path → content (UTF-8). */
  files: Record<string, string>
  runBackendId: string
  jobBackendId: string
  mimeType?: string
  /** expires_at from CreateArtifact (RFC 3339), set when the client passed retentionDays. */
  expiresAt?: string
  /** `sha256:<hex>` of the zip. */
  digest: string
}

export interface ArtifactServiceRequest {
  method: string
  /** Path and query, with the upload signature replaced by `***`. */
  path: string
  status: number
  /** Twirp code or Azure error code of a rejected request. */
  error?: string
}

interface PendingUpload {
  id: number
  name: string
  runBackendId: string
  jobBackendId: string
  mimeType?: string
  expiresAt?: string
  uncommitted: Map<string, Buffer>
  committed: Array<{ id: string; data: Buffer }>
  blob?: Buffer
  etag?: string
  finalized: boolean
}

class TwirpError extends Error {
  constructor(
    readonly code: string,
    message: string
  ) {
    super(message)
  }
  get status(): number {
    const statuses: Record<string, number> = {
      unauthenticated: 401,
      permission_denied: 403,
      not_found: 404,
      bad_route: 404,
      already_exists: 409,
      invalid_argument: 400,
      malformed: 400,
      failed_precondition: 412
    }
    return statuses[this.code] ?? 500
  }
}

class AzureError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string
  ) {
    super(message)
  }
}

const base64url = (data: Buffer | string): string => Buffer.from(data).toString('base64url')

/** Names GitHub refuses (the same set `@actions/artifact` checks before it calls the service). */
const INVALID_NAME_CHARS = /["':<>|*?\r\n\\/]/

export class ArtifactService {
  readonly artifacts: UploadedArtifact[] = []
  readonly requests: ArtifactServiceRequest[] = []
  /** The backend ids `runtimeToken()` uses unless told otherwise. */
  readonly runBackendId = randomUUID()
  readonly jobBackendId = randomUUID()
  private readonly secret = randomBytes(32)
  private readonly uploads = new Map<number, PendingUpload>()
  private nextId = 1

  private constructor(
    private readonly server: Server,
    readonly url: string
  ) {}

  static async start(): Promise<ArtifactService> {
    const server = createServer()
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    const service = new ArtifactService(server, `http://127.0.0.1:${port}`)
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      service.handle(req, res).catch((e: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
        res.end(String(e))
      })
    })
    return service
  }

  /**
   * An ACTIONS_RUNTIME_TOKEN the client and this service accept: an HS256 JWT whose `scp` carries
   * `Actions.Results:<runBackendId>:<jobBackendId>`. Tokens of one run (re-run attempts included)
   * share the run backend id, so artifact names must be unique across them.
   */
  runtimeToken(
    ids: { runBackendId?: string; jobBackendId?: string; expiresInSeconds?: number } = {}
  ): string {
    const run = ids.runBackendId ?? this.runBackendId
    const job = ids.jobBackendId ?? this.jobBackendId
    const now = Math.floor(Date.now() / 1000)
    const header = base64url(JSON.stringify({ typ: 'JWT', alg: 'HS256' }))
    const payload = base64url(
      JSON.stringify({
        nameid: 'dddddddd-dddd-dddd-dddd-dddddddddddd',
        scp: `Actions.GenericRead:00000000-0000-0000-0000-000000000000 Actions.Results:${run}:${job} Actions.UploadArtifacts:00000000-0000-0000-0000-000000000000/1:Build/Build/${job}`,
        iss: 'vstoken.actions.githubusercontent.com',
        aud: 'vso:00000000-0000-0000-0000-000000000000',
        iat: now,
        nbf: now - 5,
        exp: now + (ids.expiresInSeconds ?? 6 * 60 * 60)
      })
    )
    return `${header}.${payload}.${this.sign(`${header}.${payload}`)}`
  }

  async close(): Promise<void> {
    this.server.closeAllConnections()
    await new Promise<void>(resolve => this.server.close(() => resolve()))
  }

  private sign(data: string): string {
    return createHmac('sha256', this.secret).update(data).digest('base64url')
  }

  private verifySignature(data: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(data))
    const given = Buffer.from(signature)
    return expected.length === given.length && timingSafeEqual(expected, given)
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks)
    const url = new URL(req.url ?? '/', this.url)
    const logged = `${url.pathname}${url.search.replace(/([?&]sig=)[^&]*/, '$1***')}`
    const record = (status: number, error?: string): void => {
      this.requests.push({ method: req.method ?? '', path: logged, status, error })
    }
    if (url.pathname.startsWith(TWIRP_PREFIX)) {
      try {
        const reply = this.twirp(req, url.pathname.slice(TWIRP_PREFIX.length), body)
        record(200)
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify(reply))
      } catch (e) {
        const err = e instanceof TwirpError ? e : new TwirpError('internal', String(e))
        record(err.status, err.code)
        res.writeHead(err.status, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ code: err.code, msg: err.message }))
      }
      return
    }
    const upload = /^\/upload\/(\d+)$/.exec(url.pathname)
    if (upload) {
      const headers = {
        'x-ms-request-id': randomUUID(),
        'x-ms-version': header(req, 'x-ms-version') ?? '2025-11-05',
        date: new Date().toUTCString(),
        ...(header(req, 'x-ms-client-request-id')
          ? { 'x-ms-client-request-id': header(req, 'x-ms-client-request-id')! }
          : {})
      }
      try {
        const { status, headers: extra } = this.blob(req, Number(upload[1]), url, body)
        record(status)
        res.writeHead(status, { ...headers, ...extra, 'content-length': '0' })
        res.end()
      } catch (e) {
        const err = e instanceof AzureError ? e : new AzureError(500, 'InternalError', String(e))
        record(err.status, err.code)
        const xml = `<?xml version="1.0" encoding="utf-8"?><Error><Code>${err.code}</Code><Message>${err.message}\nRequestId:${headers['x-ms-request-id']}\nTime:${new Date().toISOString()}</Message></Error>`
        res.writeHead(err.status, {
          ...headers,
          'x-ms-error-code': err.code,
          'content-type': 'application/xml'
        })
        res.end(xml)
      }
      return
    }
    record(404, 'bad_route')
    res.writeHead(404, { 'content-type': 'application/json' })
    res.end(
      JSON.stringify({ code: 'bad_route', msg: `no handler for ${req.method} ${url.pathname}` })
    )
  }

  // --- Twirp ---------------------------------------------------------------------------------------

  private twirp(req: IncomingMessage, method: string, body: Buffer): unknown {
    if (req.method !== 'POST')
      throw new TwirpError('bad_route', `unsupported method ${req.method} (only POST is allowed)`)
    if (!(header(req, 'content-type') ?? '').startsWith('application/json'))
      throw new TwirpError('bad_route', `unexpected Content-Type: ${header(req, 'content-type')}`)
    const claims = this.authenticate(header(req, 'authorization'))
    let message: Record<string, unknown>
    try {
      message = JSON.parse(body.toString('utf8')) as Record<string, unknown>
    } catch {
      throw new TwirpError('malformed', 'the request body is not valid JSON')
    }
    if (
      message['workflow_run_backend_id'] !== claims.run ||
      message['workflow_job_run_backend_id'] !== claims.job
    )
      throw new TwirpError('permission_denied', 'the backend ids do not match the token')
    const name = message['name']
    if (typeof name !== 'string' || !name || INVALID_NAME_CHARS.test(name))
      throw new TwirpError('invalid_argument', `invalid artifact name: ${JSON.stringify(name)}`)
    if (method === 'CreateArtifact') return this.createArtifact(message, claims, name)
    if (method === 'FinalizeArtifact') return this.finalizeArtifact(message, claims, name)
    throw new TwirpError('bad_route', `no handler for ArtifactService/${method}`)
  }

  private authenticate(authorization: string | undefined): { run: string; job: string } {
    const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1]
    if (!token) throw new TwirpError('unauthenticated', 'missing bearer token')
    const [head, payload, signature] = token.split('.')
    if (!head || !payload || !signature || !this.verifySignature(`${head}.${payload}`, signature))
      throw new TwirpError('unauthenticated', 'invalid token signature')
    let claims: { scp?: unknown; exp?: unknown }
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof claims
    } catch {
      throw new TwirpError('unauthenticated', 'malformed token')
    }
    if (typeof claims.exp !== 'number' || claims.exp * 1000 < Date.now())
      throw new TwirpError('unauthenticated', 'the token has expired')
    for (const scope of String(claims.scp ?? '').split(' ')) {
      const [kind, run, job, ...rest] = scope.split(':')
      if (kind === 'Actions.Results' && run && job && rest.length === 0) return { run, job }
    }
    throw new TwirpError('unauthenticated', 'the token has no Actions.Results scope')
  }

  private createArtifact(
    message: Record<string, unknown>,
    claims: { run: string; job: string },
    name: string
  ): unknown {
    if (message['version'] !== 7)
      throw new TwirpError(
        'invalid_argument',
        `unsupported artifact version ${String(message['version'])}`
      )
    const expiresAt = message['expires_at']
    if (expiresAt !== undefined && (typeof expiresAt !== 'string' || isNaN(Date.parse(expiresAt))))
      throw new TwirpError('invalid_argument', 'expires_at is not an RFC 3339 timestamp')
    if (typeof expiresAt === 'string' && Date.parse(expiresAt) <= Date.now())
      throw new TwirpError('invalid_argument', 'expires_at is in the past')
    // An artifact that was created but never finalized is not an artifact of the run yet: a second
    // CreateArtifact for its name replaces it. A finalized one makes the name taken for the whole run.
    for (const [id, u] of this.uploads) {
      if (u.runBackendId !== claims.run || u.name !== name) continue
      if (u.finalized)
        throw new TwirpError(
          'already_exists',
          'an artifact with this name already exists on the workflow run'
        )
      this.uploads.delete(id)
    }
    const id = this.nextId++
    const mimeType = message['mime_type']
    this.uploads.set(id, {
      id,
      name,
      runBackendId: claims.run,
      jobBackendId: claims.job,
      mimeType: typeof mimeType === 'string' ? mimeType : undefined,
      expiresAt: typeof expiresAt === 'string' ? expiresAt : undefined,
      uncommitted: new Map(),
      committed: [],
      finalized: false
    })
    const se = new Date(Date.now() + UPLOAD_URL_TTL_MS).toISOString().replace(/\.\d+Z$/, 'Z')
    const sig = this.sign(`${id}\n${se}`)
    const query = new URLSearchParams({ sv: '2025-11-05', se, sr: 'b', sp: 'cw', sig })
    return { ok: true, signed_upload_url: `${this.url}/upload/${id}?${query.toString()}` }
  }

  private finalizeArtifact(
    message: Record<string, unknown>,
    claims: { run: string; job: string },
    name: string
  ): unknown {
    const upload = [...this.uploads.values()].find(
      u => u.runBackendId === claims.run && u.name === name && !u.finalized
    )
    if (!upload)
      throw new TwirpError('not_found', `no artifact ${name} is being uploaded in this run`)
    if (!upload.blob)
      throw new TwirpError('failed_precondition', `artifact ${name} has no uploaded content`)
    const size = message['size']
    if (typeof size !== 'string' || !/^\d+$/.test(size))
      throw new TwirpError(
        'invalid_argument',
        `size is not an int64 string: ${JSON.stringify(size)}`
      )
    if (Number(size) !== upload.blob.length)
      throw new TwirpError(
        'invalid_argument',
        `size ${size} does not match the ${upload.blob.length} bytes uploaded`
      )
    const digest = `sha256:${createHash('sha256').update(upload.blob).digest('hex')}`
    const hash = message['hash']
    if (hash !== undefined && hash !== digest)
      throw new TwirpError('invalid_argument', `hash ${String(hash)} does not match ${digest}`)
    let files: Record<string, string>
    try {
      files = unzip(upload.blob)
    } catch (e) {
      throw new TwirpError(
        'invalid_argument',
        `the upload is not a readable zip: ${(e as Error).message}`
      )
    }
    upload.finalized = true
    this.artifacts.push({
      id: upload.id,
      name,
      zip: upload.blob,
      files,
      runBackendId: upload.runBackendId,
      jobBackendId: upload.jobBackendId,
      mimeType: upload.mimeType,
      expiresAt: upload.expiresAt,
      digest
    })
    return { ok: true, artifact_id: String(upload.id) }
  }

  // --- Azure Blob ----------------------------------------------------------------------------------

  private blob(
    req: IncomingMessage,
    id: number,
    url: URL,
    body: Buffer
  ): { status: number; headers: Record<string, string> } {
    const upload = this.uploads.get(id)
    const se = url.searchParams.get('se') ?? ''
    const sig = url.searchParams.get('sig') ?? ''
    if (!upload || !this.verifySignature(`${id}\n${se}`, sig))
      throw new AzureError(
        403,
        'AuthenticationFailed',
        'Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature.'
      )
    if (Date.parse(se) < Date.now())
      throw new AzureError(403, 'AuthenticationFailed', 'Signed expiry time has expired.')
    if (upload.finalized)
      throw new AzureError(409, 'BlobImmutableDueToPolicy', 'The artifact has been finalized.')
    if (req.method !== 'PUT')
      throw new AzureError(
        405,
        'UnsupportedHttpVerb',
        `The resource doesn't support ${req.method}.`
      )
    if (header(req, 'x-ms-structured-body'))
      throw new AzureError(400, 'UnsupportedHeader', 'structured message bodies are not emulated')
    const declared = header(req, 'content-length')
    if (declared !== undefined && Number(declared) !== body.length)
      throw new AzureError(400, 'InvalidInput', 'Content-Length does not match the body')
    const md5 = createHash('md5').update(body).digest('base64')
    const sent = header(req, 'content-md5')
    if (sent && sent !== md5)
      throw new AzureError(
        400,
        'Md5Mismatch',
        'The MD5 value specified in the request did not match.'
      )
    const comp = url.searchParams.get('comp')
    const now = new Date()
    if (comp === 'block') {
      const blockId = url.searchParams.get('blockid') ?? ''
      const raw = Buffer.from(blockId, 'base64')
      if (!blockId || raw.length === 0 || raw.length > 64 || raw.toString('base64') !== blockId)
        throw new AzureError(400, 'InvalidQueryParameterValue', `invalid blockid ${blockId}`)
      const other = [...upload.uncommitted.keys(), ...upload.committed.map(b => b.id)][0]
      if (other !== undefined && Buffer.from(other, 'base64').length !== raw.length)
        throw new AzureError(
          400,
          'InvalidBlobOrBlock',
          'all block ids of a blob must have the same length'
        )
      upload.uncommitted.set(blockId, body)
      return {
        status: 201,
        headers: { 'content-md5': md5, 'x-ms-request-server-encrypted': 'true' }
      }
    }
    if (comp === 'blocklist') {
      const list = [
        ...body.toString('utf8').matchAll(/<(Latest|Committed|Uncommitted)>([^<]*)<\/\1>/g)
      ]
      if (!/<BlockList>/.test(body.toString('utf8')))
        throw new AzureError(400, 'InvalidXmlDocument', 'the body is not a block list')
      const blocks = list.map(([, kind, blockId]) => {
        const uncommitted = upload.uncommitted.get(blockId!)
        const committed = upload.committed.find(b => b.id === blockId)?.data
        const data =
          kind === 'Uncommitted'
            ? uncommitted
            : kind === 'Committed'
              ? committed
              : (uncommitted ?? committed)
        if (!data) throw new AzureError(400, 'InvalidBlockList', `block ${blockId} is not staged`)
        return { id: blockId!, data }
      })
      upload.committed = blocks
      upload.uncommitted.clear()
      return this.commit(upload, Buffer.concat(blocks.map(b => b.data)), req, now)
    }
    if (comp === null && header(req, 'x-ms-blob-type') === 'BlockBlob') {
      upload.committed = []
      upload.uncommitted.clear()
      return this.commit(upload, body, req, now)
    }
    throw new AzureError(
      400,
      'InvalidQueryParameterValue',
      `unsupported blob operation (comp=${comp}, x-ms-blob-type=${header(req, 'x-ms-blob-type')})`
    )
  }

  private commit(
    upload: PendingUpload,
    blob: Buffer,
    req: IncomingMessage,
    now: Date
  ): { status: number; headers: Record<string, string> } {
    upload.blob = blob
    upload.mimeType = header(req, 'x-ms-blob-content-type') ?? upload.mimeType
    upload.etag = `"0x${createHash('sha256').update(blob).update(now.toISOString()).digest('hex').slice(0, 15).toUpperCase()}"`
    return {
      status: 201,
      headers: {
        etag: upload.etag,
        'last-modified': now.toUTCString(),
        'x-ms-request-server-encrypted': 'true'
      }
    }
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name]
  return Array.isArray(value) ? value.join(', ') : value
}

/** The files of a zip, from its central directory (stored or deflated entries; no zip64). */
export function unzip(zip: Buffer): Record<string, string> {
  let eocd = -1
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i
      break
    }
  }
  if (eocd < 0) throw new Error('no end of central directory record')
  const count = zip.readUInt16LE(eocd + 10)
  let offset = zip.readUInt32LE(eocd + 16)
  if (count === 0xffff || offset === 0xffffffff) throw new Error('zip64 archives are not supported')
  const files: Record<string, string> = {}
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(offset) !== 0x02014b50) throw new Error('bad central directory entry')
    const method = zip.readUInt16LE(offset + 10)
    const crc = zip.readUInt32LE(offset + 16)
    const compressedSize = zip.readUInt32LE(offset + 20)
    const size = zip.readUInt32LE(offset + 24)
    const nameLength = zip.readUInt16LE(offset + 28)
    const extraLength = zip.readUInt16LE(offset + 30)
    const commentLength = zip.readUInt16LE(offset + 32)
    const local = zip.readUInt32LE(offset + 42)
    const name = zip.toString('utf8', offset + 46, offset + 46 + nameLength)
    offset += 46 + nameLength + extraLength + commentLength
    if (name.endsWith('/')) continue
    if (zip.readUInt32LE(local) !== 0x04034b50) throw new Error(`bad local header for ${name}`)
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28)
    const raw = zip.subarray(start, start + compressedSize)
    const data = method === 0 ? raw : method === 8 ? inflateRawSync(raw) : undefined
    if (!data) throw new Error(`unsupported compression method ${method} for ${name}`)
    if (data.length !== size || crc32(data) !== crc) throw new Error(`corrupt entry ${name}`)
    files[name] = data.toString('utf8')
  }
  return files
}
