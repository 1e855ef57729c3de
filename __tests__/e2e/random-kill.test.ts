import { afterAll, describe, it } from 'vitest'
import { botCommits } from '../../test-support/git-fixture.js'
import { runScenario, toTheCap, type Scenario } from '../../test-support/scenario.js'

/**
 * Kill the action at random moments (SIGKILL: a cancelled job, a lost runner), re-run it as a
 * person would, and count what the bot pushed. The loop never passes its cap: with max-iterations 2
 * only iteration 1 may push a fix, and every bot commit on the branch is counted in the state.
 */

/** A small seeded generator (mulberry32), so a failing trial can be replayed from its seed. */
function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const never: Scenario = { ...toTheCap(2), maxRuns: 8 }

interface Trial {
  seed: number
  kills: Array<{ run: number; afterMs: number }>
  /** Whether the kill came before the run ended on its own. */
  landed: boolean
  botPushes: number
  uncounted: number
  iterations: number
  status: string
}

/**
 * How long a run takes here now: the median of the last runs that the trials let end, a second
 * before there are three. Trials side by side slow each run down; kill times grow with it, so a
 * kill lands anywhere in a run whatever the load.
 */
const ended: number[] = []
function runMs(): number {
  if (ended.length < 3) return 1000
  const recent = ended.slice(-10).sort((a, b) => a - b)
  return recent[recent.length >> 1]!
}

async function trial(seed: number, variant: Partial<Scenario>): Promise<Trial> {
  const next = random(seed)
  // kill somewhere inside run 1 or run 2: from a tenth of a run to 1.3 runs in
  const scale = runMs() / 1000
  const run = 1 + Math.floor(next() * 2)
  const kills = [{ run, afterMs: Math.round((100 + Math.floor(next() * 1200)) * scale) }]
  let commits: string[] = []
  const report = await runScenario(
    { ...never, ...variant, inputs: { ...never.inputs, ...variant.inputs }, kills },
    {
      keep: async sandbox => {
        ended.push(...sandbox.runs.filter(r => !r.killed).map(r => r.durationMs))
        commits = botCommits(sandbox.bare)
      }
    }
  )
  const iterations = (report.finalState?.['iterations'] ?? []) as Array<{
    fix?: { commitSha?: string }
  }>
  const counted = new Set(iterations.map(i => i.fix?.commitSha))
  return {
    seed,
    kills,
    landed: report.runs.some(r => r.killed),
    botPushes: commits.length,
    uncounted: commits.filter(c => !counted.has(c)).length,
    iterations: iterations.length,
    status: String(report.finalState?.['status'] ?? 'none')
  }
}

const VARIANTS = [
  ['retrigger: dispatch', {}],
  ['retrigger: push (PAT)', { token: 'pat' as const, inputs: { retrigger: 'push' } }]
] as const
const SEEDS = Array.from({ length: 20 }, (_, i) => i + 1)

for (const [name, variant] of VARIANTS) {
  const trials: Trial[] = []
  afterAll(() => {
    trials.sort((a, b) => a.seed - b.seed)
    console.log(
      `\nRandom kills (${name}; a run that ends takes ${runMs()} ms, median of the last 10)\n| seed | kill | landed | bot pushes | uncounted | iterations | final |\n|---|---|---|---|---|---|---|\n${trials
        .map(
          t =>
            `| ${t.seed} | run ${t.kills[0]!.run} at ${t.kills[0]!.afterMs} ms | ${t.landed ? 'yes' : 'no'} | ${t.botPushes} | ${t.uncounted} | ${t.iterations} | ${t.status} |`
        )
        .join('\n')}\n`
    )
  })
  // each trial has emulators and a repository of its own: trials run side by side (maxConcurrency),
  // their kill times scaled to how long runs take meanwhile (runMs)
  describe.concurrent(`random kills never take the loop past its cap, ${name}`, () => {
    for (const seed of SEEDS)
      it(`seed ${seed}`, { timeout: 300_000 }, async ({ expect }) => {
        const t = await trial(seed, variant)
        trials.push(t)
        expect(t.botPushes, `seed ${t.seed}`).toBeLessThanOrEqual(1)
        expect(t.uncounted, `seed ${t.seed}`).toBe(0)
        expect(t.iterations, `seed ${t.seed}`).toBeLessThanOrEqual(2)
        expect(t.status, `seed ${t.seed}`).toBe('max_iterations')
      })
  })
}
