import { readFileSync } from 'node:fs'
import path from 'node:path'
import { changedFiles as filesOf } from '../src/eval/dataset.js'
import type { ScriptedReply } from './model-server.js'

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
}

export const readCase = (cases: string, id: string): CaseFiles =>
  JSON.parse(readFileSync(path.join(cases, id, 'case.json'), 'utf8')) as CaseFiles

/** The files a case's PR changes. */
export const changedFiles = (cases: string, id: string): string[] =>
  filesOf({ dir: path.join(cases, id) })

/** A blocking finding of the AI reviewer, as its verdict gives it. */
export function finding(file: string, line: number, title = 'A problem') {
  return {
    severity: 'high',
    category: 'logic',
    file,
    line,
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
 * The labelled issues as findings at their first line: what a perfect reviewer says. Each has its
 * own title: the loop takes one title twice in a file as one problem.
 */
export const fromLabels = (c: CaseFiles) =>
  (c.issues ?? []).map((i, n) => finding(i.file, i.lines[0], `${n + 1}. ${i.description}`))

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
