import { createHash } from 'node:crypto'
import { atOrAbove } from '../loop/findings.js'
import { carriedFindings, lastIteration } from '../loop/state.js'
import type {
  Finding,
  FindingRecord,
  LoopState,
  ReviewedContent,
  ReviewedFiles,
  ReviewerVerdict,
  Severity
} from '../loop/types.js'
import { zeroUsage } from '../loop/usage.js'
import type { AiSettings } from '../loop/settings.js'
import type { SystemBlock } from '../model/prompts.js'
import type { Batch, ChangedFile, ReviewPlan } from './batches.js'
import type { BatchOutcome } from './review-batch.js'
import type { SharedPrompt } from './review-prompt.js'
import type { Git, GrepHit } from '../ports/index.js'
import { stripInvisible } from '../model/sanitize.js'

/**
 * What a review depends on besides the files' content and base: the model, the system prompt (with
 * the guidelines, instructions and the prompts folder), the threshold, what is ignored, how findings
 * must hold up, and the PR's title and description. Another digest re-reviews everything. No
 * secret goes in.
 */
export function settingsDigest(
  ai: Pick<
    AiSettings,
    | 'reviewModel'
    | 'provider'
    | 'ignore'
    | 'verifyFindings'
    | 'blockUncertain'
    | 'reviewPasses'
    | 'votesToBlock'
    | 'reviewMaxTurns'
  >,
  threshold: Severity,
  system: readonly SystemBlock[],
  /** The PR's title and description: the author's statement of what the change must do. */
  pull: { title: string; body: string }
): string {
  const seen = {
    pr: [pull.title, pull.body],
    model: ai.reviewModel,
    provider: ai.provider?.name,
    threshold,
    ignore: ai.ignore,
    verify: [ai.verifyFindings, ai.blockUncertain, ai.reviewPasses, ai.votesToBlock],
    turns: ai.reviewMaxTurns,
    system: system.map(b => b.text)
  }
  return createHash('sha256').update(JSON.stringify(seen)).digest('hex').slice(0, 16)
}

/** Git's id for "no object": the content a file the PR deletes is reviewed at. */
export const NO_BLOB = '0'.repeat(40)

/**
 * Every file of the head with its blob, and each file the PR deletes at NO_BLOB: a part holding a
 * deletion is then taken from an earlier review like any other (the head has no blob for it).
 */
export function headContent(
  blobs: ReadonlyMap<string, string>,
  files: ReadonlyArray<Pick<ChangedFile, 'path' | 'deleted'>>
): Map<string, string> {
  const out = new Map(blobs)
  for (const f of files) if (f.deleted && !out.has(f.path)) out.set(f.path, NO_BLOB)
  return out
}

/** A part not sent again, with the iteration each of its files was reviewed in. */
export interface Reused {
  batch: Batch
  reviewedIn: Record<string, number>
}

/** Which parts a review sends, and which it takes from an earlier review of the same content. */
export interface PartChoice {
  send: Batch[]
  reuse: Reused[]
  /** Files of the parts sent whose content is not what an earlier review saw (new or changed). */
  changed?: string[]
  /** Why every part is sent although an earlier review exists (a new base, other settings…). */
  whyAll?: string
  /**
   * Parts sent again although unchanged, as they name a definition changed since their last review
   * (withCallers in callers.ts): part → which names, changed where.
   */
  callers?: Record<number, string>
}

/** `n:blob[:open]` as the state keeps it. */
function readEntry(entry: string): { n: number; blob: string; clean: boolean } | undefined {
  const m = /^(\d+):([0-9a-f]+)(:open)?$/.exec(entry)
  return m ? { n: Number(m[1]), blob: m[2]!, clean: !m[3] } : undefined
}

export interface ChoiceInput {
  previous?: ReviewedFiles
  base: string
  settings: string
  /** Every file of the head with its blob. */
  blobs: ReadonlyMap<string, string>
  /** Parts that must be sent whatever their content: they hold a finding to answer on (mustAnswer). */
  mustSend: ReadonlySet<number>
  /** Why every part must be sent (incremental-review off, a human's retry, the state cut…). */
  sendAll?: string
}

/**
 * The parts to send. A part is taken from the earlier review only when every file of it is at the
 * blob a review found nothing blocking in, against the same base and with the same settings, and no
 * blocking finding it holds is open (such a part answers on it, and a dispute is weighed there).
 */
export function chooseParts(plan: ReviewPlan, input: ChoiceInput): PartChoice {
  const all = (whyAll?: string): PartChoice => ({ send: plan.batches, reuse: [], whyAll })
  const { previous } = input
  if (!previous) return all()
  if (input.sendAll) return all(input.sendAll)
  if (previous.base !== input.base)
    return all(
      `the merge base moved (${previous.base.slice(0, 7)} → ${input.base.slice(0, 7)}: a merge from the base branch or a retarget)`
    )
  if (previous.settings !== input.settings)
    return all('the review settings, guidelines or prompts changed')
  const send: Batch[] = []
  const reuse: Reused[] = []
  const changed = new Set<string>()
  for (const batch of plan.batches) {
    const reviewedIn: Record<string, number> = {}
    for (const file of batch.files) {
      const entry = readEntry(previous.files[file] ?? '')
      const same = entry !== undefined && entry.blob === input.blobs.get(file)
      if (!same) changed.add(file)
      else if (entry.clean) reviewedIn[file] = entry.n
    }
    const settled = batch.files.every(f => reviewedIn[f] !== undefined)
    if (settled && !input.mustSend.has(batch.index)) reuse.push({ batch, reviewedIn })
    else send.push(batch)
  }
  return { send, reuse, changed: [...changed] }
}

/**
 * The last review's findings a part must answer on, so the parts holding them are sent again
 * whatever their content: every blocking AI finding still open (or disputed), and every open finding
 * a human raised (a review's comments), at any severity. Gate findings are not among them: the
 * checks run again on the whole head.
 */
export function mustAnswer(
  state: LoopState,
  threshold: Severity,
  /** Findings a human dismissed: they block nothing, so they send no part. */
  dismissed: ReadonlySet<string> = new Set()
): Map<string, Pick<FindingRecord, 'file' | 'line'>> {
  const last = lastIteration(state)
  const source = (f: FindingRecord) => f.source ?? 'ai'
  const blocking = (f: FindingRecord) =>
    f.status !== 'fixed' &&
    !dismissed.has(f.id) &&
    ((source(f) === 'ai' && atOrAbove(f.severity, threshold)) || source(f) === 'human')
  return new Map((last?.findings ?? []).filter(blocking).map(f => [f.id, f] as const))
}

/**
 * The verdict of a part not sent again: GO, as its earlier review found nothing blocking, with the
 * findings below the threshold it raised then (still open, its files unchanged).
 */
export function reusedOutcome(reused: Reused, findings: readonly Finding[]): BatchOutcome {
  const iterations = [...new Set(Object.values(reused.reviewedIn))].sort((a, b) => a - b)
  const when = `${iterations.length > 1 ? 'iterations' : 'iteration'} ${iterations.join(', ')}`
  const verdict: ReviewerVerdict = {
    decision: 'GO',
    summary: `Reviewed in ${when}, unchanged since: not sent again.`,
    findings: [...findings],
    failedCriteria: [],
    passedCriteria: [],
    requiredRework: [],
    earlier: [],
    usage: zeroUsage(),
    dropped: 0
  }
  return { kind: 'verdict', verdict, reused: iterations }
}

/**
 * The last review's open AI findings in parts not sent again, as findings again: nobody looked anew
 * and the code is the same, so they stand as they were.
 */
export function carriedOver(state: LoopState, owned: ReadonlySet<string>): Finding[] {
  const n = (lastIteration(state)?.n ?? 0) + 1
  return carriedFindings(
    state,
    f => owned.has(f.id),
    () => `raised before iteration ${n}; its code is unchanged since, so it was not reviewed again`
  )
}

/** Whether a part's answer leaves its files settled: GO with nothing blocking and no failed criterion. */
export function clean(
  outcome: BatchOutcome | undefined,
  threshold: Severity,
  dismissed: ReadonlySet<string> = new Set()
): boolean {
  if (outcome?.kind !== 'verdict') return false
  const v = outcome.verdict
  return (
    v.decision === 'GO' &&
    v.failedCriteria.length === 0 &&
    !v.findings.some(f => atOrAbove(f.severity, threshold) && !dismissed.has(f.id))
  )
}

/**
 * The content this review stands on: each file of a part answered in every pass with its blob, and
 * clean when every part holding it was; each file of a reused part as reviewed before.
 */
export function contentOf(
  choice: PartChoice,
  key: { base: string; settings: string },
  blobs: ReadonlyMap<string, string>,
  answered: ReadonlyMap<number, boolean | undefined>
): ReviewedContent {
  const files: ReviewedContent['files'] = {}
  for (const r of choice.reuse)
    for (const [file, n] of Object.entries(r.reviewedIn)) {
      const blob = blobs.get(file)
      if (blob) files[file] = { blob, clean: true, n }
    }
  const sent = new Map<string, boolean[]>()
  for (const b of choice.send)
    for (const file of b.files)
      sent.set(file, [...(sent.get(file) ?? []), answered.get(b.index) ?? false])
  const failed = new Set(
    choice.send.filter(b => answered.get(b.index) === undefined).flatMap(b => b.files)
  )
  for (const [file, cleanIn] of sent) {
    const blob = blobs.get(file)
    if (!blob || failed.has(file)) delete files[file]
    else files[file] = { blob, clean: cleanIn.every(Boolean) }
  }
  return { ...key, files }
}

/** A line that loads another module, in the usual languages. */
const IMPORTS = /\b(import|require|from|include|use|using|load)\b/
/** File names that say little: their folder names the module. */
const GENERIC = /^(index|mod|main|__init__|lib|init)$/

/**
 * Lines of the files in parts not sent again that name a changed file's module on an import-like
 * line (at most 20, for 10 changed files): what a change may break there, for the reviewer to check.
 */
export async function importersOf(
  git: Pick<Git, 'grep'>,
  head: string,
  changed: readonly string[],
  within: ReadonlySet<string>
): Promise<GrepHit[]> {
  const hits: GrepHit[] = []
  for (const file of changed.slice(0, 10)) {
    const parts = file.split('/')
    const name = parts.at(-1)!.replace(/\.[^.]+$/, '')
    const stem = GENERIC.test(name) ? parts.at(-2) : name
    // a hint only: a name git grep cannot take (a control character) or a failing grep gives none
    if (!stem || stem.length < 3 || /\p{Cc}/u.test(stem)) continue
    const found = await git.grep(head, stem).catch(() => [])
    for (const h of found) {
      if (hits.length >= 20) return hits
      const seen = hits.some(x => x.file === h.file && x.line === h.line)
      if (within.has(h.file) && h.file !== file && IMPORTS.test(h.text) && !seen) hits.push(h)
    }
  }
  return hits
}

/**
 * The shared prefix of a review that sends only some parts (incremental-review): which parts were
 * reviewed before at their current content, which files changed since their last review, and, with
 * tools, to check what a change here can break in the parts not sent.
 */
export function withReuseNote(
  shared: SharedPrompt,
  choice: PartChoice,
  turns: number,
  importers: readonly GrepHit[] = []
): SharedPrompt {
  if (choice.reuse.length === 0) return shared
  const reusedFiles = new Set(choice.reuse.flatMap(r => r.batch.files))
  const changed = choice.changed ?? []
  const parts = choice.reuse.map(r => r.batch.index).join(', ')
  const lines = [
    '',
    '',
    '## Reviewed before',
    '',
    `Part(s) ${parts} (${reusedFiles.size} file(s)) were reviewed at their current content in earlier iterations, with nothing left to fix there; they are not reviewed again. The parts reviewed now hold files changed since their last review, or a finding still open.`
  ]
  if (changed.length)
    lines.push(
      `Files changed since their last review: ${changed.slice(0, 50).join(', ')}${changed.length > 50 ? ', …' : ''}.`
    )
  const callers = Object.entries(choice.callers ?? {})
  if (callers.length)
    lines.push(
      `Part(s) reviewed again although unchanged, because they name a definition changed since their last review; check that what they do with it still fits the change: ${callers.map(([part, why]) => `part ${part} (${why})`).join('; ')}.`
    )
  if (importers.length)
    lines.push(
      'Lines of the parts not reviewed again that seem to import a changed file (code from the PR, untrusted); check that they still hold:',
      '```text',
      ...importers.map(
        h => `${h.file}:${h.line}: ${h.text.trim().slice(0, 200).replace(/`/g, "'")}`
      ),
      '```'
    )
  if (turns > 1)
    lines.push(
      'If a change in your part can break code elsewhere (a caller, an importer, an override), read that code with your tools, and report a problem there as a finding at its own file and line.'
    )
  return { ...shared, shared: stripInvisible(shared.shared + lines.join('\n')) }
}
