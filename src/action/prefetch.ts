import { ROUTED_EVENTS } from '../loop/routed-events.js'
import { prNumberFromInput, prNumberFromPayload, readPayloadFile } from './event.js'

/** The pull request, fetched before the heavy modules load. */
export interface Prefetched {
  pr: number
  response: Promise<{ status: number; body: unknown } | undefined>
  /** Settles once the request is on the wire (or failed, or after 100 ms at most). */
  sent: Promise<void>
}

type Env = Record<string, string | undefined>

function prNumber(env: Env): number | undefined {
  const input = prNumberFromInput(env['INPUT_PR-NUMBER'])
  if (input) return input
  try {
    return prNumberFromPayload(readPayloadFile(env['GITHUB_EVENT_PATH'] ?? ''))
  } catch {
    return undefined // no readable payload: the main path reports it
  }
}

/** The request-timeout-seconds input, read before the input parser loads (it checks it later). */
function requestTimeoutMs(env: Env): number {
  const seconds = Number((env['INPUT_REQUEST-TIMEOUT-SECONDS'] ?? '').trim())
  return Number.isInteger(seconds) && seconds >= 1 && seconds <= 600 ? seconds * 1000 : 30_000
}

/**
 * Start-up: the first API call (GET the pull request) goes out at once on node:http, while the
 * action's modules (Octokit, ajv, the toolkit) load. Anything unusual is left to the main path,
 * which fetches again through Octokit with its retries and error messages.
 */
export function prefetchPull(env: Env): Prefetched | undefined {
  const event = env['GITHUB_EVENT_NAME'] ?? ''
  if (!(ROUTED_EVENTS as readonly string[]).includes(event)) return undefined
  const token = (env['INPUT_GITHUB-TOKEN'] ?? '').trim()
  const repository = env['GITHUB_REPOSITORY'] ?? ''
  const pr = prNumber(env)
  if (!token || !pr || !/^[\w.-]+\/[\w.-]+$/.test(repository)) return undefined
  const base = (env['GITHUB_API_URL'] ?? 'https://api.github.com').replace(/\/$/, '')
  const url = new URL(`${base}/repos/${repository}/pulls/${pr}`)
  let markSent: () => void = () => {}
  const sent = new Promise<void>(resolve => {
    markSent = resolve
    setTimeout(resolve, 100).unref()
  })
  const response = new Promise<{ status: number; body: unknown } | undefined>(resolve => {
    // only the module the URL needs is loaded, as the action starts (./boot.ts)
    const send =
      url.protocol === 'http:'
        ? process.getBuiltinModule('node:http').request
        : process.getBuiltinModule('node:https').request
    const req = send(
      url,
      {
        method: 'GET',
        headers: {
          authorization: `token ${token}`,
          accept: 'application/vnd.github+json',
          'x-github-api-version': '2022-11-28',
          'user-agent': 'review-loop'
        },
        timeout: requestTimeoutMs(env)
      },
      res => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (text += chunk))
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown })
          } catch {
            resolve(undefined)
          }
        })
        res.on('error', () => resolve(undefined))
      }
    )
    req.on('timeout', () => req.destroy())
    req.on('error', () => {
      markSent()
      resolve(undefined)
    })
    req.on('finish', () => markSent())
    req.end()
  })
  return { pr, response, sent }
}
