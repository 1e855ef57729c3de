import { afterAll, describe, it } from 'vitest'
import {
  HTTP_KINDS,
  runCell,
  table,
  type CellResult,
  type FaultKind
} from '../../test-support/fault-matrix.js'

/**
 * The fault matrix, part 2: the reads, the escalation writes (label, reviewers, review), git's
 * fetch and push, and the model, × the fault kinds that apply, through the built dist/.
 */
const CELLS: Array<{ variant: 'fix' | 'escalate' | 'model'; route: string; kinds: FaultKind[] }> = [
  { variant: 'fix', route: 'GET /repos/{owner}/{repo}/pulls/{pull_number}', kinds: HTTP_KINDS },
  {
    variant: 'fix',
    route: 'GET /repos/{owner}/{repo}/issues/{issue_number}/comments',
    kinds: HTTP_KINDS
  },
  {
    variant: 'escalate',
    route: 'POST /repos/{owner}/{repo}/issues/{issue_number}/labels',
    kinds: HTTP_KINDS
  },
  {
    variant: 'escalate',
    route: 'POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers',
    kinds: HTTP_KINDS
  },
  {
    variant: 'escalate',
    route: 'POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews',
    kinds: HTTP_KINDS
  },
  {
    variant: 'fix',
    route: 'git fetch',
    kinds: ['500', '503', 'reset', '403', 'hang', 'lost answer', '500 persistent']
  },
  {
    variant: 'fix',
    route: 'git push',
    kinds: ['500', '503', 'reset', '403 persistent', 'hang', 'lost answer', '500 persistent']
  },
  // a claim that cannot be made never stops the loop: the run goes on without it
  {
    variant: 'fix',
    route: 'git claim',
    kinds: ['500', '403', 'hang', 'lost answer', '500 persistent']
  },
  {
    variant: 'model',
    route: 'POST /v1/messages',
    kinds: ['500', '529 overloaded', '429 retry-after', 'reset', 'lost answer']
  }
]
const EXPECTED = { fix: 'go', model: 'go', escalate: 'max_iterations' }
/** Git refusing the token, or failing past the retries, ends the loop as error with the fix kept. */
const GIT_FAILS: FaultKind[] = ['403', '403 persistent', '500 persistent']

const cells: CellResult[] = []
afterAll(() =>
  console.log(
    `\nFault matrix (reads, escalation, git, model; ${cells.length} cells)\n${table(
      cells,
      CELLS.flatMap(({ route, kinds }) => kinds.map(kind => [route, kind] as [string, string]))
    )}\n`
  )
)

// cells run side by side, as in fault-matrix-writes.test.ts
describe.concurrent('faults on reads, escalation, git and the model never break the loop', () => {
  for (const { variant, route, kinds } of CELLS)
    for (const kind of kinds)
      it(`${route} × ${kind}`, { timeout: 180_000 }, async ({ expect }) => {
        const cell = await runCell(variant, route, kind)
        cells.push(cell)
        expect(cell.faultsApplied, 'the fault was injected').toBeGreaterThan(0)
        expect(cell.uncountedPushes).toBe(0)
        expect(cell.duplicates).toEqual([])
        expect(cell.lostFixes).toBe(0)
        const gitFails =
          route.startsWith('git ') && route !== 'git claim' && GIT_FAILS.includes(kind)
        expect(cell.finalStatus).toBe(gitFails ? 'error' : EXPECTED[variant])
        if (gitFails && kind.startsWith('403'))
          expect(cell.messages.join('\n')).toMatch(/github-token.*contents: write/s)
        expect(cell.iterations).toBeLessThanOrEqual(3)
      })
})
