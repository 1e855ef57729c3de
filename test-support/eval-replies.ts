import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { changedFiles as filesOf } from '../src/eval/dataset.js'
import type { ScriptedReply, VerifierOptions } from './model-server.js'

/**
 * Scripted reviewer and fixer answers for `review-loop eval` on a dataset's cases, made from the
 * cases' own files: the labels as findings, and the real fix (the fixed tree's files).
 */

export interface Label {
  file: string
  lines: [number, number]
  description: string
}

export interface CaseFiles {
  id: string
  kind: 'bug' | 'clean'
  issues?: Label[]
  /** the case's folder (set by readCase): findings made from it quote its PR head */
  dir?: string
}

export const readCase = (cases: string, id: string): CaseFiles => ({
  ...(JSON.parse(readFileSync(path.join(cases, id, 'case.json'), 'utf8')) as CaseFiles),
  dir: path.join(cases, id)
})

/** The files a case's PR changes. */
export const changedFiles = (cases: string, id: string): string[] =>
  filesOf({ dir: path.join(cases, id) })

const heads = new Map<string, Map<string, string[]>>()

/**
 * The lines of `file` in a case's PR head: its base/ with fix.patch applied (what buildCaseRepo in
 * src/eval/dataset.ts commits on the `pr` branch); [] for a file the head does not hold.
 */
export function headLines(dir: string, file: string): string[] {
  let files = heads.get(dir)
  if (!files) {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'eval-head-'))
    try {
      cpSync(path.join(dir, 'base'), tmp, { recursive: true })
      execFileSync('git', ['apply', '--whitespace=nowarn', path.resolve(dir, 'fix.patch')], {
        cwd: tmp
      })
      files = new Map(
        filesOf({ dir }).map(f => {
          let text = ''
          try {
            text = readFileSync(path.join(tmp, f), 'utf8')
          } catch {
            // deleted by the PR
          }
          return [f, text.split('\n')]
        })
      )
    } finally {
      rmSync(tmp, { recursive: true, force: true })
    }
    heads.set(dir, files)
  }
  return files.get(file) ?? readFileSync(path.join(dir, 'base', file), 'utf8').split('\n')
}

/**
 * A finding's evidence: the non-blank head lines `from`..`to` (1-based) of a case's file, or, when
 * they are all blank (a label on removed code), the nearest non-blank line within 5 lines (the
 * evidence check's reach); undefined without a case folder.
 */
export function evidenceAt(
  c: CaseFiles,
  file: string,
  from: number,
  to = from
): string | undefined {
  if (!c.dir) return undefined
  const lines = headLines(c.dir, file)
  const at = (n: number) => (n >= 1 && n <= lines.length ? (lines[n - 1] ?? '') : '')
  const quoted = lines.slice(from - 1, to).filter(l => l.trim() !== '')
  if (quoted.length) return quoted.join('\n')
  for (let d = 1; d <= 5; d++)
    for (const n of [to + d, from - d]) if (at(n).trim() !== '') return at(n)
  return undefined
}

/** A blocking finding of the AI reviewer, as its verdict gives it, quoting `evidence` if given. */
export function finding(file: string, line: number, title = 'A problem', evidence?: string) {
  return {
    severity: 'high',
    category: 'logic',
    file,
    line,
    ...(evidence === undefined ? {} : { evidence }),
    title: title.slice(0, 200),
    description: `${title}.`,
    suggestedFix: 'Change it.'
  }
}

/** A structured-output verdict with these findings: NO_GO when there is one, else GO. */
export function verdict(findings: unknown[]): ScriptedReply {
  return {
    kind: 'json',
    value: {
      decision: findings.length ? 'NO_GO' : 'GO',
      summary: findings.length ? 'Problems found.' : 'Looks good.',
      findings,
      failedCriteria: findings.length ? ['correctness'] : [],
      passedCriteria: ['style'],
      requiredRework: findings.length ? ['fix it'] : [],
      earlierFindings: []
    }
  }
}

/**
 * The labelled issues as findings at their first line, quoting the labelled lines of the PR head:
 * what a perfect reviewer says. Each has its own title: the loop takes one title twice in a file as
 * one problem.
 */
export const fromLabels = (c: CaseFiles) =>
  (c.issues ?? []).map((i, n) =>
    finding(
      i.file,
      i.lines[0],
      `${n + 1}. ${i.description}`,
      evidenceAt(c, i.file, i.lines[0], i.lines[1])
    )
  )

/** The title of the noisy reviewer's false finding. */
export const NOT_REAL = 'Not a real problem'

/**
 * The noisy reviewer's false finding: line 1 of the first file the PR changes (a place the action
 * can cite, away from the labels), quoting that line.
 */
export function falseFinding(c: CaseFiles) {
  const file = filesOf({ dir: c.dir! })[0]!
  return finding(file, 1, NOT_REAL, evidenceAt(c, file, 1))
}

/**
 * A verifier (model-server.ts `verifier`) that knows the labels of `cases`: it confirms a finding
 * whose file and line are at a labelled issue of one of them (3 lines either side, as
 * `review-loop eval` matches by place) and refutes every other one, so verification takes the
 * noisy reviewer's false findings out and keeps its true ones.
 */
export function labelVerifier(cases: CaseFiles[]): VerifierOptions {
  const labels = cases.flatMap(c => c.issues ?? [])
  return {
    responder: q => {
      const at = labels.find(
        l =>
          l.file === q.file &&
          q.line !== undefined &&
          q.line >= l.lines[0] - 3 &&
          q.line <= l.lines[1] + 3
      )
      return at
        ? { verdict: 'confirmed', reason: `scripted verifier: a labelled issue: ${at.description}` }
        : {
            verdict: 'refuted',
            reason: `scripted verifier: no labelled issue at ${q.file ?? '?'}:${q.line ?? '?'}`
          }
    }
  }
}

/** The fixer writing the real fix: each file the PR changed, as the fixed tree (base/) has it. */
export function realFix(cases: string, id: string): ScriptedReply {
  return {
    kind: 'tool_uses',
    calls: changedFiles(cases, id).map(f => ({
      name: 'write_file',
      input: { path: f, content: readFileSync(path.join(cases, id, 'base', f), 'utf8') }
    }))
  }
}
