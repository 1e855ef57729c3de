/**
 * The eval dataset (eval/): cases made from real bug-fix commits and clean changes, each a folder
 * with `base/` (the tree the PR is made on), `fix.patch` (the PR) and `case.json` (checked against
 * eval/schema.json). eval/README.md describes the cases and how to add some.
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  accessSync,
  constants,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { ErrorObject } from 'ajv'
import type { CommandRunner } from '../ports/index.js'
import { readDiff } from '../review/batches.js'
import { validate } from './dataset-validator.generated.js'

/** Free text: the four below have a runtime probe; any other is probed by its test command's first word. */
export type CaseLanguage = 'javascript' | 'typescript' | 'python' | 'go' | (string & {})

/**
 * A labelled issue: where the bug is in the PR's (buggy) tree, and what it is. A label with no
 * place (a golden comment of an external benchmark) is matched by the judge alone.
 */
export interface LabelledIssue {
  file?: string
  /** First and last line, in the PR's tree. */
  lines?: [number, number]
  description: string
  /** As the source dataset rates it; not scored. */
  severity?: string
}

export interface EvalCase {
  id: string
  language: CaseLanguage
  /** `bug`: the PR re-introduces a real bug; `clean`: a correct change whose right verdict is GO. */
  kind: 'bug' | 'clean'
  repo: string
  commit: string
  licence: string
  commitSubject: string
  /** The PR's labelled issues; none for a clean case. */
  issues: LabelledIssue[]
  /** The case's test, run at the root of its tree; fails on the PR of a bug case, passes on its base. */
  testCommand?: string
  /** npm packages the test needs (name@major), found in node_modules above the case's tree. */
  npmDevDeps: string[]
  /** The case's folder. */
  dir: string
  /** Clean cases: what the change is and why it is right. */
  description?: string
  /** Clean cases: GO. */
  expectedVerdict?: 'GO'
  /** Bug cases: the commit that fixed the bug (the PR reverts its source change). */
  fixCommit?: string
  /** Whether the test tells the trees apart (bug) or passes on both (clean). */
  hasTest?: boolean
  /** Whether the fix added or changed the test (it is then held out in heldout.patch). */
  testAddedByFix?: boolean
  /** Fetched cases (no base/): the PR's head commit, fetched from `repo` with `commit`. */
  head?: string
  /** Whether the case ships base/; without it, it is fetched from `repo` at run time (eval/README.md). */
  fetched?: boolean
}

export class DatasetError extends Error {
  override name = 'DatasetError'
}

/** The dataset shipped with the package: eval/ beside dist/ (as prompts/ is). */
export function shippedDataset(): string {
  const script = process.argv[1] ?? ''
  return path.resolve(path.dirname(script), '..', 'eval')
}

const isDir = (p: string): boolean => existsSync(p) && statSync(p).isDirectory()

/** One schema error as a sentence: the field, what is wrong, what to change. */
function describe(e: ErrorObject, kind: unknown): string | undefined {
  const field = e.instancePath.replace(/^\//, '').replace(/\//g, '.') || '(top level)'
  const p = e.params as Record<string, unknown>
  switch (e.keyword) {
    case 'if':
      return undefined // the failing `then` part says it
    case 'required':
      return `field "${String(p.missingProperty)}" is missing${kind === 'bug' || kind === 'clean' ? ` (a ${kind} case needs it)` : ''}: add it`
    case 'additionalProperties':
      return `field "${String(p.additionalProperty)}" is not one eval/schema.json knows: remove it or fix its spelling`
    case 'false schema':
      return `field "${field}" is not allowed in a ${String(kind)} case: remove it`
    case 'minItems':
      return field === 'issues'
        ? 'a bug case needs at least one labelled issue in "issues": add one, or make it a clean case'
        : `field "${field}" ${e.message}`
    case 'maxItems':
      return field === 'issues'
        ? 'a clean case has no labelled issues: remove "issues", or make it a bug case'
        : `field "${field}" ${e.message}`
    case 'enum':
      return `field "${field}" ${e.message}: ${(p.allowedValues as unknown[]).map(v => JSON.stringify(v)).join(', ')}`
    default:
      return `field "${field}" ${e.message ?? 'is wrong'}`
  }
}

/** The first entry of `base` that is a .git or a link leading out of it, if any. */
function unsafeEntry(base: string): string | undefined {
  const root = path.resolve(base)
  for (const entry of readdirSync(base, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name)
    const rel = path.relative(base, full)
    if (entry.name === '.git') return rel
    if (entry.isSymbolicLink()) {
      const target = path.resolve(path.dirname(full), readlinkSync(full))
      if (target !== root && !target.startsWith(`${root}${path.sep}`))
        return `${rel} (a link to ${target})`
    }
  }
  return undefined
}

/** The case.json of `folder`, checked; a DatasetError naming the folder, the field and the fix. */
function readCase(folder: string): EvalCase {
  const name = path.basename(folder)
  const fail = (what: string): never => {
    throw new DatasetError(`eval case ${folder}: ${what}`)
  }
  const file = path.join(folder, 'case.json')
  if (!existsSync(file))
    fail('has no case.json: write one (eval/schema.json says what it holds; eval/README.md how)')
  let data: Record<string, unknown>
  try {
    data = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
  } catch (e) {
    return fail(`case.json is not JSON (${(e as Error).message}): fix its syntax`)
  }
  // ajv's code for eval/schema.json, generated at build time (scripts/validators.ts)
  if (!validate(data)) {
    const problems = (validate.errors ?? []).map(e => describe(e, data.kind)).filter(Boolean)
    fail(`case.json: ${[...new Set(problems)].join('; ')}`)
  }
  if (data.id !== name)
    fail(
      `case.json: field "id" is ${JSON.stringify(data.id)} but the folder is ${name}: make them the same`
    )
  for (const issue of (data.issues ?? []) as LabelledIssue[])
    if (issue.lines && issue.lines[0] > issue.lines[1])
      fail(
        `case.json: an issue of ${issue.file} has lines [${issue.lines.join(', ')}]: give [first, last]`
      )
  const fetched = !isDir(path.join(folder, 'base'))
  if (fetched) return fetchedCase(folder, data as unknown as EvalCase, fail)
  for (const field of ['licenceFile', ...(data.kind === 'bug' ? ['fixCommit'] : [])])
    if (data[field] === undefined)
      fail(`field "${field}" is missing (a case with base/ needs it): add it`)
  const unsafe = unsafeEntry(path.join(folder, 'base'))
  if (unsafe)
    fail(
      `base/ holds ${unsafe}: a case's tree has no .git and no link out of base/ (git would run what a .git/config says); remove it`
    )
  if (!existsSync(path.join(folder, 'fix.patch')))
    fail('has no fix.patch: put the PR there (a git diff that `git apply` applies inside base/)')
  if (data.head !== undefined)
    fail('has base/ and "head": "head" is for a case fetched from its repo; remove one of them')
  return {
    ...(data as unknown as EvalCase),
    issues: (data.issues ?? []) as LabelledIssue[],
    dir: folder
  }
}

/**
 * A case without base/: fetched from its repo at run time, its PR `head` or fix.patch on `commit`.
 * Checked here: what it needs to be built, and that only a label of such a case may lack a place
 * (a shipped tree's labels are checked against its files).
 */
function fetchedCase(folder: string, data: EvalCase, fail: (what: string) => never): EvalCase {
  const patch = existsSync(path.join(folder, 'fix.patch'))
  if (data.head === undefined && !patch)
    fail(
      `has no base/, no "head" and no fix.patch: ship the tree in base/, or name the PR's head commit of ${data.repo} in "head" (or put the PR in fix.patch)`
    )
  if (data.head !== undefined && patch)
    fail('has both "head" and fix.patch: the PR is one of them; remove the other')
  return { ...data, issues: data.issues ?? [], dir: folder, fetched: true }
}

/**
 * What a dataset holds, in one sha-256: each case's id, case.json, fix.patch and heldout.patch (what
 * is reviewed, how it is scored and tested). Two runs of the same dataset, from any folder, agree.
 */
export function datasetDigest(cases: readonly Pick<EvalCase, 'id' | 'dir'>[]): string {
  const hash = createHash('sha256')
  for (const c of cases)
    for (const file of ['case.json', 'fix.patch', 'heldout.patch']) {
      const full = path.join(c.dir, file)
      hash.update(`${c.id}/${file}\0`)
      if (existsSync(full)) hash.update(readFileSync(full))
      hash.update('\0')
    }
  return hash.digest('hex')
}

/**
 * Every case of the dataset at `dir` (sorted by id), each case.json checked against the schema.
 * `dir` is the dataset (holding `cases/`) or its `cases/` folder itself.
 */
export function loadDataset(dir: string): EvalCase[] {
  if (!isDir(dir))
    throw new DatasetError(
      `eval dataset ${dir}: no such folder; give the folder that holds cases/ (the shipped one is eval/)`
    )
  const root = isDir(path.join(dir, 'cases')) ? path.join(dir, 'cases') : dir
  const folders = readdirSync(root)
    .filter(name => isDir(path.join(root, name)))
    .sort()
  if (folders.length === 0)
    throw new DatasetError(
      `eval dataset ${dir}: no case folders in ${root}; each case is a folder with case.json, base/ and fix.patch`
    )
  return folders.map(name => readCase(path.join(root, name)))
}

const IDENTITY = { name: 'review-loop eval', email: 'eval@review-loop.invalid' }
const DATE = '2000-01-01T00:00:00Z'

/** git's environment that reads none of the user's or the system's settings. */
export const ISOLATED_GIT = { GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } as const

/**
 * git in `cwd`, reading none of the user's settings, hooks or templates (`more`: further
 * environment); its output trimmed.
 */
function git(cwd: string, args: string[], more: Record<string, string> = {}): string {
  return execFileSync(
    'git',
    [
      '-c',
      `user.name=${IDENTITY.name}`,
      '-c',
      `user.email=${IDENTITY.email}`,
      '-c',
      'core.hooksPath=/dev/null',
      '-c',
      'commit.gpgSign=false',
      '-c',
      'core.autocrlf=false',
      ...args
    ],
    {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        ...ISOLATED_GIT,
        GIT_AUTHOR_NAME: IDENTITY.name,
        GIT_AUTHOR_EMAIL: IDENTITY.email,
        GIT_AUTHOR_DATE: DATE,
        GIT_COMMITTER_NAME: IDENTITY.name,
        GIT_COMMITTER_EMAIL: IDENTITY.email,
        GIT_COMMITTER_DATE: DATE,
        ...more
      }
    }
  ).trim()
}

/** git's last words of a failed call, for an error that says what did not apply. */
const gitStderr = (e: unknown): string =>
  String((e as { stderr?: unknown }).stderr ?? (e as Error).message)
    .trim()
    .split('\n')
    .slice(-3)
    .join(' ')

/**
 * A bug case's held-out test changes (heldout.patch: the fix's own test and test data, applied only
 * to run the test, so the reviewed tree does not hold them), if it has any.
 */
export function heldOutPatch(c: Pick<EvalCase, 'dir'>): string | undefined {
  const file = path.resolve(c.dir, 'heldout.patch')
  return existsSync(file) ? file : undefined
}

/**
 * The tree a case's test runs on: a copy of `tree`'s files (not its .git) at `into` (a new or empty
 * folder), with heldout.patch applied, so the reviewed repository stays as it is. Returns `into`.
 */
export function testTree(c: EvalCase, tree: string, into: string): string {
  if (existsSync(into) && readdirSync(into).length > 0)
    throw new DatasetError(`eval case ${c.id}: ${into} is not empty; give a new folder`)
  const dotGit = path.join(path.resolve(tree), '.git')
  cpSync(tree, into, { recursive: true, filter: src => path.resolve(src) !== dotGit })
  const patch = heldOutPatch(c)
  if (!patch) return into
  try {
    // the copy is no repository: never apply inside one that holds it
    git(into, ['apply', '--whitespace=nowarn', patch], {
      GIT_CEILING_DIRECTORIES: path.dirname(path.resolve(into))
    })
  } catch (e) {
    throw new DatasetError(
      `eval case ${c.dir}: heldout.patch does not apply to the case's tree (${gitStderr(e)}): make it a git diff of the tree's test files`
    )
  }
  return into
}

/** The files a case's PR changes, as its fix.patch (or `patch`) names them (the project's diff reader). */
export function changedFiles(c: Pick<EvalCase, 'dir'>, patch = 'fix.patch'): string[] {
  return readDiff(readFileSync(path.join(c.dir, patch), 'utf8')).map(f => f.path)
}

/** A bug case's PR title: the files it changes, nothing about what the change does. */
function neutralSubject(files: string[]): string {
  const shown = files.slice(0, 3).join(', ')
  return files.length > 3 ? `Change ${shown} and ${files.length - 3} more files` : `Change ${shown}`
}

/** A repository URL (or any text holding URLs) as it may be shown: no user or password in it. */
export const shownRepo = (repo: string): string => repo.replace(/(\w+:\/\/)[^/@\s]*@/g, '$1')

/** Where a case's trees come from: base/ and fix.patch, unless a fetched case gives them. */
export interface CaseTrees {
  /** Writes the tree the PR is made on into the repository's folder (holding .git alone). */
  base: (into: string) => void
  /** Writes the PR's tree into the folder, emptied but for .git; without it, fix.patch is applied. */
  head?: (into: string) => void
}

/**
 * A git repository at `into` (a new folder): `main` holds base/, branch `pr` adds fix.patch (one
 * commit each, a fixed author and date), checked out on `pr`. Returns both commits. A PR given as
 * a head tree carries the case's subject (a pull request's title).
 */
export function buildCaseRepo(
  c: EvalCase,
  into: string,
  trees: CaseTrees = { base: dir => cpSync(path.join(c.dir, 'base'), dir, { recursive: true }) }
): { base: string; head: string } {
  if (existsSync(into) && readdirSync(into).length > 0)
    throw new DatasetError(`eval case ${c.id}: ${into} is not empty; give a new folder`)
  mkdirSync(into, { recursive: true })
  git(into, ['init', '-q', '--template=', '--initial-branch=main', '.'])
  trees.base(into)
  git(into, ['add', '--all', '--force', '.'])
  git(into, [
    'commit',
    '-q',
    '--no-verify',
    '-m',
    `base: ${shownRepo(c.repo).replace(/^https:\/\/github\.com\//, '')}@${c.commit.slice(0, 10)}`
  ])
  const base = git(into, ['rev-parse', 'HEAD'])
  git(into, ['checkout', '-q', '-b', 'pr'])
  try {
    if (trees.head) trees.head(into)
    else git(into, ['apply', '--whitespace=nowarn', path.resolve(c.dir, 'fix.patch')])
  } catch (e) {
    if (e instanceof DatasetError) throw e
    throw new DatasetError(
      `eval case ${c.dir}: fix.patch does not apply to ${c.fetched ? `the tree of ${c.commit.slice(0, 12)}` : 'base/'} (${gitStderr(e)}): make it a git diff of base/'s files`
    )
  }
  git(into, ['add', '--all', '--force', '.'])
  const changed = git(into, ['diff', '--cached', '--name-only']).split('\n').filter(Boolean)
  const subject = c.kind === 'clean' || trees.head ? c.commitSubject : neutralSubject(changed)
  git(into, ['commit', '-q', '--no-verify', '--allow-empty', '-m', subject])
  return { base, head: git(into, ['rev-parse', 'HEAD']) }
}

export interface CaseTestResult {
  /** `unavailable`: a runtime or tool the test needs is missing (named in `detail`). */
  status: 'passed' | 'failed' | 'unavailable'
  detail: string
}

const probes = new Map<string, boolean>()

/** Whether `file args` runs and exits 0 here (asked once per process). */
function works(file: string, args: string[]): boolean {
  const key = [file, ...args].join(' ')
  let ok = probes.get(key)
  if (ok === undefined) {
    try {
      execFileSync(file, args, { stdio: 'ignore', timeout: 30_000 })
      ok = true
    } catch {
      ok = false
    }
    probes.set(key, ok)
  }
  return ok
}

/** The npm packages of `deps` (name@major) not found at that major in `tools`. */
function missingPackages(deps: string[], tools: string): string[] {
  return deps.filter(dep => {
    const at = dep.lastIndexOf('@')
    const manifest = path.join(tools, dep.slice(0, at), 'package.json')
    if (!existsSync(manifest)) return true
    const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }
    return version?.split('.')[0] !== dep.slice(at + 1)
  })
}

/** What the case's test needs that this machine lacks (python3 with pytest, go, an npm tool), if any. */
export function missingRuntime(c: EvalCase, tools: string): string | undefined {
  if (c.language === 'python') {
    if (!works('python3', ['--version']))
      return 'python3 is not on PATH: install Python 3 with pytest (apt-get install -y python3-pytest)'
    if (/\bpytest\b/.test(c.testCommand ?? '') && !works('python3', ['-c', 'import pytest']))
      return 'python3 cannot import pytest: install it (apt-get install -y python3-pytest, or pip install pytest)'
    return undefined
  }
  if (c.language === 'go')
    return works('go', ['version'])
      ? undefined
      : 'go is not on PATH: install Go (apt-get install -y golang-go, or https://go.dev/dl/)'
  if (c.language !== 'javascript' && c.language !== 'typescript') return missingCommand(c)
  const lacking = missingPackages(c.npmDevDeps, tools)
  return lacking.length
    ? `npm packages missing from ${tools}: ${lacking.join(', ')}; install them there (cd ${path.dirname(tools)} && npm install --no-save ${lacking.join(' ')})`
    : undefined
}

/**
 * A language with no probe of its own (ruby, java, …): the test command's first word (after any
 * VAR=value) must be on PATH, else the case is unavailable, naming it.
 */
function missingCommand(c: EvalCase): string | undefined {
  const words = (c.testCommand ?? '').trim().split(/\s+/)
  const first = words.find(w => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w))
  if (!first || first.includes('/') || onPath(first)) return undefined
  return `${first} is not on PATH (the ${c.language} case's test runs \`${c.testCommand}\`): install it`
}

/** Whether an executable `name` is in a folder of PATH. */
function onPath(name: string): boolean {
  return (process.env.PATH ?? '').split(path.delimiter).some(dir => {
    try {
      accessSync(path.join(dir || '.', name), constants.X_OK)
      return true
    } catch {
      return false
    }
  })
}

const writable = (dir: string | undefined): boolean => {
  if (!dir) return false
  try {
    accessSync(dir, constants.W_OK)
    return true
  } catch {
    return false
  }
}

/** The test's environment: the npm tools on PATH and NODE_PATH, Go offline, no bytecode files in the tree. */
function testEnv(
  env: Record<string, string | undefined>,
  tools: string
): Record<string, string | undefined> {
  const join = (...parts: Array<string | undefined>): string =>
    parts.filter(Boolean).join(path.delimiter)
  const out: Record<string, string | undefined> = {
    ...env,
    PATH: join(path.join(tools, '.bin'), path.dirname(process.execPath), env.PATH),
    NODE_PATH: join(tools, env.NODE_PATH),
    PYTHONDONTWRITEBYTECODE: '1',
    // the case's test needs pytest alone: plugins installed here would slow it and may change it
    PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1',
    CI: '1',
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    // -trimpath: the build cache's keys leave out the tree's folder, so a case built again in
    // another folder (each eval run and self-check has its own) reuses what was compiled before
    GOFLAGS: '-mod=mod -trimpath',
    GOPROXY: 'off',
    GO111MODULE: 'on',
    GOTOOLCHAIN: 'local'
  }
  // go writes its build cache and module folder under HOME; elsewhere when HOME cannot be written
  if (!writable(env.HOME)) {
    const go = path.join(tmpdir(), 'review-loop-eval-go')
    out.GOCACHE ??= path.join(go, 'cache')
    out.GOPATH ??= path.join(go, 'path')
  }
  return out
}

/** A run that exited 0 but ran no test, said the way each runner says it (pytest exits 5). */
function ranNoTest(output: string): boolean {
  return (
    /\[no tests to run\]|\[no test files\]|no tests to run/.test(output) || // go test
    /(^|\n)\s*0 passing\b/.test(output) || // mocha
    /# tests 0\b/.test(output) || // tape
    /no tests ran/.test(output) // pytest
  )
}

/** The last lines of the output, without colour codes. */
function tail(output: string, lines = 20): string {
  // eslint-disable-next-line no-control-regex
  const plain = output.replace(/\u001b\[[0-9;]*m/g, '').trimEnd()
  return plain.split('\n').slice(-lines).join('\n')
}

/**
 * The case's test on the tree at `tree`, run on a copy of it made at `how.copy` (a new or empty
 * folder) with the case's heldout.patch applied (testTree): `tree` itself is never written to.
 * `tools` is a node_modules folder holding the npm tools (its .bin on PATH, resolvable from the
 * tree); a run that ran no test counts as failed.
 */
export async function runCaseTest(
  c: EvalCase,
  tree: string,
  how: {
    runner: CommandRunner
    env: Record<string, string | undefined>
    tools: string
    copy: string
    timeoutMs?: number
  }
): Promise<CaseTestResult> {
  if (!c.testCommand) return { status: 'unavailable', detail: `case ${c.id} has no test` }
  const missing = missingRuntime(c, how.tools)
  if (missing) return { status: 'unavailable', detail: missing }
  const result = await how.runner.run(c.testCommand, {
    cwd: testTree(c, tree, how.copy),
    timeoutMs: how.timeoutMs ?? 300_000,
    env: testEnv(how.env, path.resolve(how.tools))
  })
  if (result.timedOut)
    return {
      status: 'failed',
      detail: `timed out after ${Math.round(result.durationMs / 1000)} s\n${tail(result.output)}`
    }
  if (result.exitCode !== 0) {
    const none =
      result.exitCode === 5 && /\bpytest\b/.test(c.testCommand) ? ' (pytest ran no test)' : ''
    return { status: 'failed', detail: `exit ${result.exitCode}${none}\n${tail(result.output)}` }
  }
  if (ranNoTest(result.output))
    return { status: 'failed', detail: `ran no test\n${tail(result.output)}` }
  return { status: 'passed', detail: tail(result.output) }
}
