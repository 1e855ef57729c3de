import type { Scenario } from './scenario.js'

/**
 * A PR whose one check prints `problems` located errors, on lines 1 to `problems` of a three-line
 * file, and fails: the noisy check of issue 12, shared by its test and `npm run bench -- noisy`.
 */
export function noisyCheckScenario(problems: number): Scenario {
  return {
    base: { 'src/a.js': 'ok()\n' },
    pr: { commits: [{ message: 'b', files: { 'src/b.js': 'one()\ntwo()\nthree()\n' } }] },
    inputs: {
      checks: `noise: node -e "for (let i = 0; i < ${problems}; i++) console.log('src/b.js:' + (i + 1) + ':1: error: problem ' + i)"; exit 1`,
      'max-iterations': '1'
    },
    maxRuns: 1
  }
}
