/**
 * The model server's answers to verifier calls (issue 28): the independent call that checks one
 * blocking finding of the AI reviewer and answers confirmed, refuted or uncertain, citing the code.
 *
 * A call is a verifier call when a user message's text (not a tool result) has a line that starts
 * with `# Finding to verify` or `# Earlier finding to verify`. The verifier's request is the review
 * call of the finding's part (same tools, system and `output_config.format`, so it reads the part
 * from the prompt cache) with the question as one more text block; it answers with a verdict:
 * NO_GO = confirmed (the finding restated, citing its place), GO = refuted, NEEDS_DISCUSSION =
 * uncertain, the reason in `summary` — as structured-output JSON when the request has
 * `output_config.format`, else as a `submit_review` call. Later turns of the verifier's own tool loop
 * count too (the question is still in the conversation).
 *
 * The question's lines after the header (`id: …`, `file: …`, `line: N`, `title: …`, `severity: …`,
 * `evidence:` and the quote, then the description) are read into a `VerifierQuestion`.
 *
 * The reviewer's reconsideration (issue 37, hold-go-at) is answered here too: a call whose question
 * starts with `# Finding to reconsider` (a finding set aside, shown to the reviewer with why). Its
 * answer reads the same way from the reviewer's side: `confirmed` keeps the finding (NO_GO),
 * `refuted` withdraws it (GO), `uncertain` keeps it for a person (NEEDS_DISCUSSION). So a rule that
 * refutes a finding by its title also has the reviewer withdraw it; a rule with
 * `when: ['# Finding to reconsider', TITLE]` placed before it scripts a reviewer that keeps it.
 */

/** What this module reads of a recorded call (model-server.ts's `RecordedCall`). */
export interface VerifierCall {
  messages: unknown[]
  tools: unknown[]
  outputConfig: unknown
}

/**
 * A reply as model-server.ts's `ScriptedReply` (anything with a `kind`), sent as it is; kept
 * structural here so that this module does not import the server that imports it.
 */
export interface RawReply {
  kind: string
  [key: string]: unknown
}

export type VerifierVerdict = 'confirmed' | 'refuted' | 'uncertain'

/** What the verifier says; the server puts it in the request's shape (JSON text or tool call). */
export interface VerifierAnswer {
  verdict: VerifierVerdict
  /** default: a sentence naming the verdict */
  reason?: string
  /** default: the finding's own file and line (none when the question has no file) */
  cited?: Array<{ file: string; line: number }>
}

/** The finding a verifier call asks about, read from its question. */
export interface VerifierQuestion {
  /** `# Earlier finding to verify`: is an earlier blocker still there at head? */
  earlier: boolean
  /** `# Finding to reconsider`: the reviewer is shown why its finding was set aside. */
  reconsider?: boolean
  id?: string
  file?: string
  line?: number
  title?: string
  severity?: string
  /** the question's text from its header line on (what `VerifierRule.when` looks at) */
  text: string
  /** how the request wants the answer */
  shape: 'json' | 'tool'
}

/** An answer for every verifier call whose question text contains all of `when` (never used up). */
export interface VerifierRule {
  /** text of the question (the finding's title, description, evidence, id, or the header); none: any */
  when?: string | string[]
  answer: VerifierAnswer | RawReply
}

export type VerifierResponder = (
  question: VerifierQuestion,
  call: VerifierCall,
  index: number
) => VerifierAnswer | RawReply | undefined

/**
 * How verifier calls are answered, in this order: `replies` (a FIFO, used up), the first matching
 * `rules` entry, the `responder`, then `fallback` (default: confirmed, citing the finding's line).
 * A `RawReply` (anything with `kind`) is sent as it is: an error, or a tool call to read a file.
 */
export interface VerifierOptions {
  replies?: Array<VerifierAnswer | RawReply>
  rules?: VerifierRule[]
  responder?: VerifierResponder
  fallback?: VerifierAnswer
}

export const DEFAULT_VERIFIER_REASON = 'scripted verifier: the cited code shows the problem'

const HEADER = /^# (Earlier finding|Finding) to (verify|reconsider)\b/m

type Json = Record<string, unknown>

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The texts of the user messages' text blocks (tool results left out), latest last. */
function userTexts(messages: unknown[]): string[] {
  const texts: string[] = []
  for (const m of messages) {
    if (!isObject(m) || m.role !== 'user') continue
    if (typeof m.content === 'string') texts.push(m.content)
    else if (Array.isArray(m.content))
      for (const b of m.content)
        if (isObject(b) && b.type === 'text' && typeof b.text === 'string') texts.push(b.text)
  }
  return texts
}

function asksVerification(call: VerifierCall): 'json' | 'tool' | undefined {
  const format = isObject(call.outputConfig) ? call.outputConfig.format : undefined
  if (isObject(format)) return 'json'
  const offered = call.tools.some(t => isObject(t) && t.name === 'submit_review')
  return offered ? 'tool' : undefined
}

/** The question of a verifier call, or undefined for any other call. */
export function verifierQuestion(call: VerifierCall): VerifierQuestion | undefined {
  const shape = asksVerification(call)
  if (!shape) return undefined
  const asked = userTexts(call.messages).filter(t => HEADER.test(t))
  const last = asked[asked.length - 1]
  if (last === undefined) return undefined
  const match = HEADER.exec(last)!
  const text = last.slice(match.index)
  const field = (key: string): string | undefined =>
    new RegExp(`^${key}:[ \\t]*(.*)$`, 'm').exec(text)?.[1]?.trim() || undefined
  const line = Number(field('line'))
  return {
    earlier: match[1] === 'Earlier finding',
    reconsider: match[2] === 'reconsider',
    id: field('id'),
    file: field('file'),
    line: Number.isInteger(line) && line > 0 ? line : undefined,
    title: field('title'),
    severity: field('severity'),
    text,
    shape
  }
}

const asList = (v: string | string[] | undefined): string[] =>
  v === undefined ? [] : Array.isArray(v) ? v : [v]

const DECISION: Record<VerifierVerdict, string> = {
  confirmed: 'NO_GO',
  refuted: 'GO',
  uncertain: 'NEEDS_DISCUSSION'
}

/** The evidence lines of the question (between the fences after `evidence:`). */
function questionEvidence(text: string): string {
  return /^evidence:\n```\n([\s\S]*?)\n```/m.exec(text)?.[1] ?? ''
}

/**
 * The answer as the request wants it: a verdict as structured-output JSON, or a `submit_review`
 * call. Confirmed restates the finding once per cited place (its own by default).
 */
export function verifierReply(question: VerifierQuestion, answer: VerifierAnswer): RawReply {
  const reason =
    answer.reason ??
    (answer.verdict === 'confirmed'
      ? DEFAULT_VERIFIER_REASON
      : `scripted verifier: ${answer.verdict}`)
  const cited =
    answer.cited ??
    (question.file && question.line ? [{ file: question.file, line: question.line }] : [])
  const findings =
    answer.verdict === 'confirmed'
      ? cited.map(c => ({
          severity: question.severity ?? 'high',
          category: 'logic',
          file: c.file,
          line: c.line,
          title: question.title ?? 'confirmed',
          description: reason,
          evidence: questionEvidence(question.text)
        }))
      : []
  const value = {
    decision: DECISION[answer.verdict],
    summary: reason,
    findings,
    failedCriteria: [],
    passedCriteria: [],
    requiredRework: [],
    earlierFindings: []
  }
  return question.shape === 'json'
    ? { kind: 'json', value }
    : { kind: 'tool_use', name: 'submit_review', input: value }
}

/** Checks options written by hand (a scenario file, say) instead of letting a typo pass. */
export function checkVerifierOptions(where: string, opts: VerifierOptions): void {
  const verdicts = ['confirmed', 'refuted', 'uncertain']
  const check = (at: string, a: unknown): void => {
    if (isObject(a) && typeof a.kind === 'string') return
    if (!isObject(a) || !verdicts.includes(String(a.verdict)))
      throw new Error(`${at}: needs \`verdict\`: ${verdicts.join(', ')} (got ${JSON.stringify(a)})`)
  }
  opts.replies?.forEach((a, i) => check(`${where}.replies[${i}]`, a))
  opts.rules?.forEach((r, i) => check(`${where}.rules[${i}].answer`, r.answer))
  if (opts.fallback) check(`${where}.fallback`, opts.fallback)
}

/** Answers verifier calls from `VerifierOptions`; keeps the FIFO of `replies`. */
export class Verifier {
  private readonly queue: Array<VerifierAnswer | RawReply>

  constructor(private readonly opts: VerifierOptions) {
    checkVerifierOptions('ModelServer verifier', opts)
    this.queue = [...(opts.replies ?? [])]
  }

  /** The reply to a call, or undefined when it is not a verifier call. */
  reply(call: VerifierCall, index: number): RawReply | undefined {
    const question = verifierQuestion(call)
    if (!question) return undefined
    const answer = this.queue.shift() ??
      this.opts.rules?.find(r => asList(r.when).every(s => question.text.includes(s)))?.answer ??
      this.opts.responder?.(question, call, index) ??
      this.opts.fallback ?? { verdict: 'confirmed' }
    return 'kind' in answer ? answer : verifierReply(question, answer)
  }
}
