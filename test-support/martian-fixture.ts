import { execFileSync, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { defaultNode } from './harness.js'

/**
 * The pull requests of __tests__/fixtures/martian/ (three pull requests in the format of Martian's
 * golden comment files) made small and local: a repository per PR whose base and head hold a few lines the golden
 * comments talk about, and a stand-in for GitHub's REST API on 127.0.0.1 that answers the two
 * routes the importer reads (the PR, and the compare of its base and head for their merge base).
 */

export const FIXTURE = path.resolve('__tests__/fixtures/martian')

/** A PR of the fixture: its repository's files at the merge base and at the head. */
export interface FixturePr {
  /** owner/name/number, as in its URL */
  route: string
  language: string
  base: Record<string, string>
  head: Record<string, string>
}

export const PRS: FixturePr[] = [
  {
    route: 'calcom/cal.com/8087',
    language: 'TypeScript',
    base: {
      'packages/app-store/index.ts':
        "import * as zoom from './zoom'\n\nexport const appStore = { zoom }\n"
    },
    head: {
      'packages/app-store/index.ts':
        "export const appStore = {\n  zoom: () => import('./zoom')\n}\n",
      'packages/features/bookings/cancel.ts':
        'export async function cancel(refs: Array<{ id: string }>) {\n  refs.forEach(async ref => {\n    await deleteEvent(ref.id)\n  })\n}\n'
    }
  },
  {
    route: 'grafana/grafana/76186',
    language: 'Go',
    base: {
      'pkg/plugins/log.go':
        'package plugins\n\nfunc (m *LoggerMiddleware) QueryData(req *Request) {\n\tif req == nil {\n\t\treturn\n\t}\n\tm.log(traceID(req), req.PluginContext)\n}\n'
    },
    head: {
      'pkg/plugins/log.go':
        'package plugins\n\nfunc (m *ContextualLoggerMiddleware) QueryData(req *Request) {\n\tm.log(req.PluginContext)\n}\n'
    }
  },
  {
    route: 'ai-code-review-evaluation/keycloak-greptile/1',
    language: 'Java',
    base: {
      'services/Passkeys.java':
        'class Passkeys {\n  boolean enabled() { return isConditionalPasskeysEnabled(); }\n}\n'
    },
    head: {
      'services/Passkeys.java':
        'class Passkeys {\n  boolean enabled(UserModel user) { return user != null && isConditionalPasskeysEnabled(user); }\n}\n'
    }
  }
]

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t.invalid', ...args], {
    cwd,
    encoding: 'utf8'
  }).trim()

function write(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true })
    writeFileSync(path.join(dir, name), text)
  }
}

/**
 * A bare repository for `pr` in `dir`, served as GitHub serves one (filters and fetches by sha
 * allowed): its main branch moved on after the PR branched, so the PR's merge base is not the base
 * branch's tip, and the PR's head is on no branch (as GitHub keeps it under refs/pull/N/head).
 */
export function prRepository(
  dir: string,
  pr: FixturePr
): { bare: string; mergeBase: string; baseTip: string; head: string } {
  const work = mkdtempSync(path.join(dir, 'work-'))
  git(work, 'init', '-q', '--initial-branch=main')
  write(work, pr.base)
  git(work, 'add', '-A')
  git(work, 'commit', '-qm', 'base')
  const mergeBase = git(work, 'rev-parse', 'HEAD')
  git(work, 'checkout', '-qb', 'feature')
  for (const name of Object.keys(pr.base)) git(work, 'rm', '-q', name)
  write(work, pr.head)
  git(work, 'add', '-A')
  git(work, 'commit', '-qm', 'the pull request')
  const head = git(work, 'rev-parse', 'HEAD')
  git(work, 'checkout', '-q', 'main')
  write(work, { 'CHANGELOG.md': 'A later change on main.\n' })
  git(work, 'add', '-A')
  git(work, 'commit', '-qm', 'later on main')
  const baseTip = git(work, 'rev-parse', 'HEAD')
  git(work, 'update-ref', `refs/pull/${pr.route.split('/')[2]}/head`, head)
  git(work, 'branch', '-qD', 'feature')
  const bare = path.join(dir, `${pr.route.split('/')[1]}.git`)
  git(dir, 'clone', '-q', '--bare', '--mirror', work, bare)
  git(bare, 'config', 'uploadpack.allowFilter', 'true')
  git(bare, 'config', 'uploadpack.allowAnySHA1InWant', 'true')
  return { bare, mergeBase, baseTip, head }
}

/** What the API stand-in answers for one PR. */
export interface ApiPr {
  cloneUrl: string
  baseTip: string
  mergeBase: string
  head: string
  language: string
}

/**
 * GitHub's REST API on 127.0.0.1, as far as the importer reads it: GET /repos/O/N/pulls/N and
 * GET /repos/O/N/compare/BASE...HEAD; anything else is 404. `requests` lists the paths asked.
 */
export async function startPullsApi(
  prs: Record<string, ApiPr>
): Promise<{ url: string; requests: string[]; close: () => Promise<void> }> {
  const requests: string[] = []
  const server = createServer((req, res) => {
    const url = req.url ?? ''
    requests.push(url)
    const pull = /^\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)$/.exec(url)
    const compare = /^\/repos\/([^/]+)\/([^/]+)\/compare\/([0-9a-f]+)\.\.\.([0-9a-f]+)$/.exec(url)
    const pr = pull ? prs[`${pull[1]}/${pull[2]}/${pull[3]}`] : undefined
    const answer = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    if (pr)
      return answer(200, {
        base: {
          sha: pr.baseTip,
          repo: { clone_url: pr.cloneUrl, language: pr.language, license: { spdx_id: 'MIT' } }
        },
        head: { sha: pr.head }
      })
    const known = compare && Object.values(prs).find(p => p.head === compare[4])
    if (known) return answer(200, { merge_base_commit: { sha: known.mergeBase } })
    answer(404, { message: 'Not Found' })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise(resolve => server.close(() => resolve()))
  }
}

/** `review-loop ARGS` through the committed bundle, with `env` (and no credentials but the model's). */
export function reviewLoop(
  args: string[],
  env: Record<string, string>,
  cwd = os.tmpdir()
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise(resolve => {
    const child = spawn(defaultNode(), [path.resolve('bin/review-loop.mjs'), ...args], {
      cwd,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', LANG: 'C.UTF-8', ...env }
    })
    let out = ''
    let err = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    child.on('close', code => resolve({ code, out, err }))
  })
}
