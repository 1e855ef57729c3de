import { filesChangedCount } from '../loop/state.js'
import type { IterationRecord, LoopState } from '../loop/types.js'

function fixLabel(it: IterationRecord): string | undefined {
  if (!it.fix) return undefined
  switch (it.fix.outcome) {
    case 'pushed':
      return `fix ${it.n}: ${filesChangedCount(it.fix)} file${filesChangedCount(it.fix) === 1 ? '' : 's'}`
    case 'no_changes':
      return `fix ${it.n}: no change`
    case 'branch_moved':
      return `fix ${it.n}: not pushed, branch moved`
    case 'push_failed':
      return `fix ${it.n}: push failed`
    case 'pushing':
      return `fix ${it.n}: pushing`
    case 'interrupted':
      return `fix ${it.n}: interrupted, not pushed`
  }
}

const TERMINAL_NODE: Record<string, string> = {
  go: 'GO',
  max_iterations: 'iteration cap',
  needs_discussion: 'needs discussion',
  stalled: 'stalled',
  budget_exhausted: 'budget exhausted',
  stopped: 'stopped',
  error: 'error',
  closed: 'PR closed',
  merged: 'PR merged'
}

/** The path the loop took, as a Mermaid flowchart GitHub renders: review → fix → review → GO. */
export function renderMermaid(state: LoopState, maxNodes = 40): string {
  const nodes: string[] = []
  for (const it of state.iterations.slice(-Math.floor(maxNodes / 2))) {
    nodes.push(`review ${it.n}: ${it.decision} (${it.findings.length + (it.omitted ?? 0)})`)
    const fix = fixLabel(it)
    if (fix) nodes.push(fix)
  }
  if (state.status !== 'running') nodes.push(TERMINAL_NODE[state.status] ?? state.status)
  const lines = ['```mermaid', 'flowchart LR']
  nodes.forEach((label, i) => {
    const id = `n${i}`
    const shape =
      i === nodes.length - 1 && state.status !== 'running'
        ? `((${JSON.stringify(label)}))`
        : `[${JSON.stringify(label)}]`
    lines.push(i === 0 ? `  ${id}${shape}` : `  n${i - 1} --> ${id}${shape}`)
  })
  lines.push('```')
  return lines.join('\n')
}
