/**
 * The importer of Martian's Code Review Bench (github.com/withmartian/code-review-benchmark, MIT):
 * its golden comment files (offline/golden_comments/*.json: `[{pr_title, url, comments: [{comment,
 * severity}]}]`) become a dataset of fetched cases, one per pull request, whose labels are the
 * golden comments (no place: the judge matches them). Each PR's base and head are resolved here,
 * once, through GitHub's REST API: the PR's head sha, and the merge base of its base and head (the
 * tree GitHub diffs the PR against), as Martian's pipeline recreates the PR from them.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { DatasetError } from './dataset.js'

/** One entry of a golden comment file, as Martian writes it (other fields are kept out). */
export interface GoldenEntry {
  pr_title: string
  url: string
  original_url?: string
  comments: Array<{ comment: string; severity?: string }>
}

/** A pull request's URL taken apart. */
export interface PrRef {
  owner: string
  name: string
  number: number
}

/** What the API says of a PR: where to fetch it from, its two commits, its repository's language. */
export interface ResolvedPr {
  cloneUrl: string
  base: string
  head: string
  language: string
  licence: string
}

/** The entries of a golden comment file, their shape checked; an error names the file, the entry and the field. */
export function readGolden(file: string): GoldenEntry[] {
  let data: unknown
  try {
    data = JSON.parse(readFileSync(file, 'utf8'))
  } catch (e) {
    throw new DatasetError(`${file}: not a JSON file of golden comments (${(e as Error).message})`)
  }
  if (!Array.isArray(data))
    throw new DatasetError(
      `${file}: a golden comment file is a JSON array of {pr_title, url, comments}; this is not an array`
    )
  return data.map((entry: Partial<GoldenEntry>, n) => {
    const fail = (what: string): never => {
      throw new DatasetError(`${file}: entry ${n} (${entry?.url ?? 'no url'}): ${what}`)
    }
    if (typeof entry?.url !== 'string' || !prRef(entry.url))
      fail('"url" is not a pull request URL (https://github.com/OWNER/NAME/pull/N)')
    if (!Array.isArray(entry.comments)) fail('"comments" is not an array of {comment, severity}')
    for (const c of entry.comments!)
      if (typeof c?.comment !== 'string' || !c.comment.trim())
        fail('a golden comment has no "comment" text')
    return {
      pr_title: typeof entry.pr_title === 'string' ? entry.pr_title : '',
      url: entry.url!,
      ...(entry.original_url ? { original_url: entry.original_url } : {}),
      comments: entry.comments!
    }
  })
}

/** OWNER, NAME and N of https://github.com/OWNER/NAME/pull/N. */
export function prRef(url: string): PrRef | undefined {
  const m = /^https:\/\/github\.com\/([^/\s]+)\/([^/\s]+)\/pull\/(\d+)\/?$/.exec(url)
  return m ? { owner: m[1]!, name: m[2]!, number: Number(m[3]) } : undefined
}

/** The case's id: the repository's name and the PR's number, as a case folder is named. */
export function caseId(pr: PrRef): string {
  const name = pr.name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
  return `${name || 'repo'}-pr${pr.number}`
}

/** A GET of the REST API, its JSON; an error says the status and, for 403/429, to set a token. */
async function getJson(api: string, route: string, token: string | undefined): Promise<unknown> {
  const response = await fetch(`${api}${route}`, {
    headers: {
      accept: 'application/vnd.github+json',
      'user-agent': 'review-loop-eval-import',
      'x-github-api-version': '2022-11-28',
      ...(token ? { authorization: `Bearer ${token}` } : {})
    },
    signal: AbortSignal.timeout(60_000)
  })
  if (!response.ok) {
    const limited = [403, 429].includes(response.status) && !token
    throw new Error(
      `GET ${route}: HTTP ${response.status}${limited ? ' (rate limited: set GITHUB_TOKEN to a token that may read the repository)' : ''}`
    )
  }
  return response.json()
}

/** The PR's head, the merge base of its base and head, where to fetch them, and its language and licence. */
export async function resolvePr(
  api: string,
  pr: PrRef,
  token: string | undefined
): Promise<ResolvedPr> {
  const repo = `/repos/${pr.owner}/${pr.name}`
  const pull = (await getJson(api, `${repo}/pulls/${pr.number}`, token)) as {
    base: {
      sha: string
      repo: { clone_url: string; language?: string | null; license?: { spdx_id?: string } | null }
    }
    head: { sha: string }
  }
  const compare = (await getJson(
    api,
    `${repo}/compare/${pull.base.sha}...${pull.head.sha}`,
    token
  )) as { merge_base_commit?: { sha?: string } }
  return {
    cloneUrl: pull.base.repo.clone_url,
    base: compare.merge_base_commit?.sha ?? pull.base.sha,
    head: pull.head.sha,
    language: (pull.base.repo.language ?? 'unknown').toLowerCase(),
    licence: pull.base.repo.license?.spdx_id || 'NOASSERTION'
  }
}

/** The case.json of one golden entry: a bug case fetched from the PR's repository, its labels placeless. */
export function martianCase(entry: GoldenEntry, pr: PrRef, at: ResolvedPr) {
  return {
    id: caseId(pr),
    language: at.language,
    kind: 'bug',
    repo: at.cloneUrl,
    commit: at.base,
    head: at.head,
    url: entry.url,
    commitSubject: entry.pr_title.trim() || `Pull request ${pr.number}`,
    licence: at.licence,
    issues: entry.comments.map(c => ({
      description: c.comment.trim(),
      ...(c.severity ? { severity: c.severity.toLowerCase() } : {})
    })),
    hasTest: false,
    npmDevDeps: [],
    generatedFiles: []
  }
}

const README = `# Imported from Martian's Code Review Bench

The cases of this folder were written by \`review-loop eval import martian\` from the golden comment
files of Martian's Code Review Bench (https://github.com/withmartian/code-review-benchmark,
MIT licence, Copyright (c) 2025 Martian (withmartian.com)). Each case is one pull request: its
repository and commits are fetched when the eval runs, and its labels are the golden comments,
which have no place: run it with a judge.

    review-loop eval . --judge-model claude-haiku-4-5 --judge-mode pairwise
`

/**
 * Every golden entry of `files` written as `out/cases/<id>/case.json` (an existing one is
 * replaced); `say` is told each one. An entry whose PR cannot be resolved is left out, named in
 * `failed`; one with no golden comment is left out too (nothing to find), as Martian's judge skips it.
 */
export async function importMartian(
  files: readonly string[],
  out: string,
  how: { api: string; token?: string; say: (line: string) => void }
): Promise<{ written: string[]; comments: number; failed: string[] }> {
  const entries = files.flatMap(file => readGolden(file))
  const result = { written: [] as string[], comments: 0, failed: [] as string[] }
  for (const entry of entries) {
    const pr = prRef(entry.url)!
    if (!entry.comments.length) {
      how.say(`${entry.url}: no golden comment, left out`)
      continue
    }
    try {
      const at = await resolvePr(how.api.replace(/\/$/, ''), pr, how.token)
      const c = martianCase(entry, pr, at)
      // two repositories of one name (a fork and its source): the owner tells them apart
      if (result.written.includes(c.id))
        c.id = `${caseId({ ...pr, name: `${pr.owner}-${pr.name}` })}`
      const dir = path.join(out, 'cases', c.id)
      mkdirSync(dir, { recursive: true })
      writeFileSync(path.join(dir, 'case.json'), `${JSON.stringify(c, null, 2)}\n`)
      result.written.push(c.id)
      result.comments += c.issues.length
      how.say(`${c.id}: ${entry.url}, ${c.issues.length} golden comments (${c.language})`)
    } catch (e) {
      result.failed.push(`${entry.url}: ${(e as Error).message}`)
      how.say(`${entry.url}: not imported: ${(e as Error).message}`)
    }
  }
  mkdirSync(out, { recursive: true })
  writeFileSync(path.join(out, 'README.md'), README)
  return result
}
