/**
 * What a human can tell the loop: `/review-loop <command>` at the start of a line of a PR
 * conversation comment or a review body (case-insensitive), or a button of the loop's check run.
 * Pure: parsing, and which commands fit the loop's state.
 */
import { CONTINUABLE, allowed } from './transitions.js'
import type { LoopState } from './types.js'
import { visibleCode } from './untrusted.js'

export const COMMAND_NAMES = [
  'status',
  'retry',
  'continue',
  'stop',
  'approve',
  'fix',
  'dismiss',
  'help'
] as const
export type CommandName = (typeof COMMAND_NAMES)[number]

export type Command =
  | { name: 'status' | 'stop' | 'help' }
  | { name: 'retry' }
  /** `iterations` absent: the cap (max-iterations). */
  | { name: 'continue'; iterations?: number }
  | { name: 'approve'; reason: string }
  | { name: 'fix'; instructions: string }
  | { name: 'dismiss'; id: string; reason: string }
  /** A command that cannot be done as written: `error` says what to write instead. */
  | { name: 'invalid'; error: string }

/** The most iterations one `continue` may add. */
export const MAX_CONTINUE = 20

/** The reason or instructions kept from a command (the state keeps them short). */
const MAX_TEXT = 500

/** At the start of a line, indented less than a Markdown code block (four spaces). */
const PREFIX = /^ {0,3}\/review-loop(?=\s|$)(.*)$/i

function clipText(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim()
  return one.length > MAX_TEXT ? `${one.slice(0, MAX_TEXT - 1)}…` : one
}

/** One command line's words after `/review-loop`. */
function parseWords(rest: string): Command {
  const [word = 'help', ...more] = rest.trim().split(/\s+/).filter(Boolean)
  const text = clipText(more.join(' '))
  switch (word.toLowerCase()) {
    case 'retry':
      return { name: 'retry' }
    case 'status':
    case 'stop':
    case 'help':
      return { name: word.toLowerCase() as 'status' | 'stop' | 'help' }
    case 'continue': {
      if (!text) return { name: 'continue' }
      const n = /^\d+$/.test(more[0] ?? '') ? Number(more[0]) : NaN
      if (n >= 1 && n <= MAX_CONTINUE) return { name: 'continue', iterations: n }
      return {
        name: 'invalid',
        error: `\`continue\` takes a number of iterations from 1 to ${MAX_CONTINUE}, as in \`/review-loop continue 2\`, or none for the cap.`
      }
    }
    case 'approve':
      return { name: 'approve', reason: text }
    case 'fix':
      return { name: 'fix', instructions: text }
    case 'dismiss': {
      const id = (more[0] ?? '').toUpperCase()
      if (!/^RL-[0-9A-Z]{1,60}$/.test(id))
        return {
          name: 'invalid',
          error:
            '`dismiss` needs the id of a finding, as shown in the review-loop comment: `/review-loop dismiss RL-0123456789 reason`.'
        }
      return {
        name: 'dismiss',
        id: `RL-${id.slice(3).toLowerCase()}`,
        reason: clipText(more.slice(1).join(' '))
      }
    }
    default:
      return {
        name: 'invalid',
        error: `\`${visibleCode(word.slice(0, 40)).replace(/`/g, "'")}\` is not a review-loop command.`
      }
  }
}

/**
 * The first `/review-loop` command of a comment or review body: a line that starts with it, outside
 * code blocks and quotes. Undefined when there is none.
 */
export function parseCommand(body: string): Command | undefined {
  let fenced = false
  for (const line of body.split(/\r?\n/)) {
    if (/^[ \t]*(```|~~~)/.test(line)) fenced = !fenced
    if (fenced) continue
    const match = PREFIX.exec(line)
    if (match) return parseWords(match[1] ?? '')
  }
  return undefined
}

/** Identifiers of the check run's buttons (at most 20 characters, GitHub's limit). */
export const BUTTONS = {
  retry: { label: 'Retry', description: 'Review the head again now' },
  continue: { label: 'Continue', description: 'More iterations, as a new round' },
  approve: { label: 'Approve anyway', description: 'GO as is, recorded as your call' },
  stop: { label: 'Stop', description: 'Stop the loop (as the stop label)' }
} as const
export type ButtonId = keyof typeof BUTTONS

/** A check-run button as the command it stands for. */
export function buttonCommand(identifier: string, login: string): Command | undefined {
  switch (identifier) {
    case 'retry':
      return { name: 'retry' }
    case 'stop':
      return { name: 'stop' }
    case 'continue':
      return { name: 'continue' }
    case 'approve':
      return { name: 'approve', reason: `approved with the check run's button by @${login}` }
    default:
      return undefined
  }
}

/** The buttons that fit the loop's state (GitHub shows at most three). */
export function buttonsFor(status: LoopState['status']): ButtonId[] {
  if (status === 'running') return ['stop']
  if (status === 'go' || status === 'closed' || status === 'merged') return []
  return CONTINUABLE.includes(status) ? ['retry', 'continue', 'approve'] : ['retry', 'approve']
}

/** The commands that fit the loop's state, for the comment's "What you can do" line. */
export function commandsFor(state: LoopState | undefined): string[] {
  const status = state?.status
  if (status === 'closed' || status === 'merged') return []
  const reviewed = Boolean(state?.iterations.length)
  const can: string[] = ['status']
  if (!status || allowed(status, 'human_retry')) can.push('retry')
  if (status && CONTINUABLE.includes(status as never)) can.push('continue [N]')
  if (status && status !== 'stopped') can.push('stop')
  if (!status || allowed(status, 'human_approve')) can.push('approve [reason]')
  if (reviewed) can.push('fix [instructions]', 'dismiss RL-… [reason]')
  can.push('help')
  return can
}

/** The text of `/review-loop help`. */
export function helpText(): string {
  return [
    'Commands (people with write access; at the start of a line of a comment or review):',
    '',
    '- `/review-loop status`: where the loop stands and what you can do',
    '- `/review-loop retry`: review the current head again now',
    `- \`/review-loop continue [N]\`: N more iterations (default the cap, at most ${MAX_CONTINUE}) as a new round, after the loop stopped short of GO`,
    '- `/review-loop stop`: stop the loop (adds the stop label)',
    '- `/review-loop approve [reason]`: end the loop as GO as it is, recorded as your call',
    '- `/review-loop fix [instructions]`: one fix of the latest review, with your instructions',
    '- `/review-loop dismiss RL-… [reason]`: settle a finding as won’t-fix; it no longer blocks (not from the PR’s author, as with approve)',
    '- `/review-loop help`: this list',
    '',
    'A review that requests changes is fixed in the next iteration, and its threads are answered.'
  ].join('\n')
}
