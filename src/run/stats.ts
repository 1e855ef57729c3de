import Bottleneck from 'bottleneck/light.js'
import { computeStats, renderStats, statsLines } from '../report/stats.js'
import { decodeState, hasStateMarker } from '../loop/state-comment.js'
import type { LoopState, PullRequest } from '../loop/types.js'
import type { GitHubPort } from '../ports/index.js'

export interface CollectedStates {
  /** The loop state of each PR that has one, newest PR first. */
  states: LoopState[]
  /** How many pull requests were read. */
  pulls: number
  /** States found that could not be read (signed with a key not given, or broken). */
  unreadable: number
}

/**
 * The loop states of the newest `last` pull requests, read only: the state comment of each, written
 * by `author` (the identity the action posts as), decoded and checked as a run would (a signed
 * state needs its `key`). Nothing is written.
 */
export async function collectStates(
  github: Pick<GitHubPort, 'recentPulls' | 'listComments'>,
  options: { last: number; author: string; key?: string; concurrency?: number }
): Promise<CollectedStates> {
  const pulls = await github.recentPulls(options.last)
  // a few at a time, with the limiter the reviewer's batches use
  const limiter = new Bottleneck({ maxConcurrent: options.concurrency ?? 4 })
  const found = await Promise.all(
    pulls.map(pull => limiter.schedule(() => stateOf(github, pull, options)))
  )
  return {
    states: found.filter((s): s is LoopState => typeof s === 'object'),
    pulls: pulls.length,
    unreadable: found.filter(s => s === 'unreadable').length
  }
}

async function stateOf(
  github: Pick<GitHubPort, 'listComments'>,
  pull: PullRequest,
  options: { author: string; key?: string }
): Promise<LoopState | 'unreadable' | undefined> {
  const comments = await github.listComments(pull.number)
  const comment = comments.find(c => c.author === options.author && hasStateMarker(c.body))
  if (!comment) return undefined
  const decoded = decodeState(comment.body, options.key)
  return decoded.kind === 'ok' && decoded.state.pr === pull.number ? decoded.state : 'unreadable'
}

/** The analytics of the newest `last` pull requests: lines for a log, markdown for a summary. */
export async function statsReport(
  github: Pick<GitHubPort, 'recentPulls' | 'listComments'>,
  options: { last: number; author: string; key?: string; repository: string }
): Promise<{ lines: string[]; markdown: string }> {
  const collected = await collectStates(github, options)
  const stats = computeStats(collected.states)
  const window = `the last ${collected.pulls} pull requests of ${options.repository}`
  const unreadable = collected.unreadable
    ? [
        `${collected.unreadable} state comments could not be read (signed with a state-key that was not given, or broken).`
      ]
    : []
  return {
    lines: [`Over ${window}:`, ...statsLines(stats), ...unreadable],
    markdown: [renderStats(stats, { window }), ...unreadable.map(u => `\n> ${u}`)].join('\n')
  }
}
