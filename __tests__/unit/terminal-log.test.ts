import { describe, expect, it } from 'vitest'
import { createTerminalLog } from '../../src/cli/terminal-log.js'

/** The closing line of a group whose work took `ms`, as a terminal shows it. */
async function closing(ms: number): Promise<string | undefined> {
  const lines: string[] = []
  await createTerminalLog(l => lines.push(l)).group('check lint: exit 1', async () => {}, {
    tookMs: ms
  })
  return lines.at(-1)
}

describe('the terminal log', () => {
  it('says a quick step took under a tenth of a second, never 0.0s; minutes past one', async () => {
    expect(await closing(0)).toBe('── check lint: exit 1: done in <0.1s')
    expect(await closing(49)).toBe('── check lint: exit 1: done in <0.1s')
    expect(await closing(100)).toBe('── check lint: exit 1: done in 0.1s')
    expect(await closing(12_340)).toBe('── check lint: exit 1: done in 12.3s')
    expect(await closing(125_000)).toBe('── check lint: exit 1: done in 2m 5s')
  })

  it('counts a group from `since`, the start of the work before it opened', async () => {
    const lines: string[] = []
    const since = Date.now() - 90_000
    await createTerminalLog(l => lines.push(l)).group('[1/3] review abc1234', async () => {}, {
      since
    })
    expect(lines.at(-1)).toMatch(/^── \[1\/3\] review abc1234: done in 1m 3\ds$/)
  })
})
