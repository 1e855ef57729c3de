import { afterAll, describe, it } from 'vitest'
import { HTTP_KINDS, runCell, table, type CellResult } from '../../test-support/fault-matrix.js'

/**
 * The fault matrix, part 1: every write the action makes in the fix lifecycle × every fault kind,
 * through the built dist/ on the local emulators. Each cell must end with no uncounted push, no
 * duplicate object, no lost fix, runs that end by themselves, and a loop that still reaches GO.
 */
const ROUTES = [
  'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
  'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}',
  'POST /repos/{owner}/{repo}/check-runs',
  'PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}',
  'POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches'
]

const cells: CellResult[] = []
afterAll(() =>
  console.log(
    `\nFault matrix (writes, ${cells.length} cells)\n${table(
      cells,
      ROUTES.flatMap(route => HTTP_KINDS.map(kind => [route, kind] as [string, string]))
    )}\n`
  )
)

// each cell has emulators, a repository and runs of its own: cells run side by side (maxConcurrency
// in vitest.config.ts), as most of a cell's time is its runs waiting on timeouts and retries
describe.concurrent(
  'faults on every write never break the cap, duplicate an object or lose a fix',
  () => {
    for (const route of ROUTES)
      for (const kind of HTTP_KINDS)
        it(`${route} × ${kind}`, { timeout: 180_000 }, async ({ expect }) => {
          const cell = await runCell('fix', route, kind)
          cells.push(cell)
          expect(cell.faultsApplied, 'the fault was injected').toBeGreaterThan(0)
          expect(cell.uncountedPushes).toBe(0)
          expect(cell.duplicates).toEqual([])
          expect(cell.lostFixes).toBe(0)
          expect(cell.finalStatus).toBe('go')
          expect(cell.exitCodes.at(-1)).toBe(0)
          expect(cell.iterations).toBeLessThanOrEqual(3)
        })
  }
)
