/**
 * The eval dataset (eval/): cases made from real bug-fix commits and clean changes, each a folder
 * with `base/` (the tree the PR is made on), `fix.patch` (the PR) and `case.json` (checked against
 * eval/schema.json). STUB: the bodies are written on the dataset branch.
 */
import type { CommandRunner } from '../ports/index.js'

export type CaseLanguage = 'javascript' | 'typescript' | 'python' | 'go'

/** A labelled issue: where the bug is in the PR's (buggy) tree, and what it is. */
export interface LabelledIssue {
  file: string
  /** First and last line, in the PR's tree. */
  lines: [number, number]
  description: string
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
}

export class DatasetError extends Error {}

/** The dataset shipped with the package: eval/ beside dist/ (as prompts/ is). */
export function shippedDataset(): string {
  throw new Error('not yet')
}

/** Every case of the dataset at `dir` (sorted by id), each case.json checked against the schema. */
export function loadDataset(_dir: string): EvalCase[] {
  throw new Error('not yet')
}

/**
 * A git repository at `into` (a new folder): `main` holds base/, branch `pr` adds fix.patch (one
 * commit each, a fixed author and date), checked out on `pr`. Returns both commits.
 */
export function buildCaseRepo(_c: EvalCase, _into: string): { base: string; head: string } {
  throw new Error('not yet')
}

export interface CaseTestResult {
  /** `unavailable`: a runtime or tool the test needs is missing (named in `detail`). */
  status: 'passed' | 'failed' | 'unavailable'
  detail: string
}

/** What the case's test needs that this machine lacks (python3 with pytest, go, an npm tool), if any. */
export function missingRuntime(_c: EvalCase, _tools: string): string | undefined {
  throw new Error('not yet')
}

/**
 * The case's test on the tree at `tree`. `tools` is a node_modules folder holding the npm tools
 * (its .bin on PATH, resolvable from the tree); a run that ran no test counts as failed.
 */
export async function runCaseTest(
  _c: EvalCase,
  _tree: string,
  _how: {
    runner: CommandRunner
    env: Record<string, string | undefined>
    tools: string
    timeoutMs?: number
  }
): Promise<CaseTestResult> {
  throw new Error('not yet')
}
