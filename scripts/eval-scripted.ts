/**
 * `npm run -s eval-scripted -- REVIEWER [eval options]`: `review-loop eval` through dist/ against
 * the local model server (test-support/model-server.ts), with a reviewer whose answers are scripted
 * from the dataset's own labels, so its scores are known before the run:
 *
 * - `labels`: each bug case's labelled issues as findings (NO_GO), GO on clean cases: P = R = 1;
 * - `blind`: GO with no finding on every case: R = 0;
 * - `noisy`: the labels plus one false finding on line 1 of a changed file, on every case;
 *
 * Every finding quotes the PR head's lines it rests on (`evidence`). `--verifier labels` (default)
 * answers the action's verifier calls (issue 28) from the labels: a finding at a labelled issue is
 * confirmed, any other refuted, so with verification on the noisy reviewer's false findings are set
 * aside (precision 1); `--verifier confirm` confirms every finding (the model server's default).
 *
 * With `--loop`, the fixer writes the case's real fix (each changed file as its base/ has it), so
 * every case whose test failed before passes after: fix rate 1 (a fixer that changes nothing, fix
 * rate 0, is __tests__/e2e/eval.test.ts's).
 * `--shard I/N` is passed on, and the script answers that shard's cases.
 * Cases run in the dataset's order (by id), one review each (bug cases with --loop: a review, the
 * fix, its closing turn: the fix takes the branch back to its base, leaving nothing to review).
 */
import { spawn } from 'node:child_process'
import { readdirSync } from 'node:fs'
import path from 'node:path'
import {
  falseFinding,
  fromLabels,
  labelVerifier,
  readCase,
  realFix,
  verdict
} from '../test-support/eval-replies.js'
import { ModelServer, type ScriptedReply } from '../test-support/model-server.js'
import { TEST_API_KEY } from '../test-support/scenario.js'

const [reviewer = '', ...rest] = process.argv.slice(2)
const v = rest.indexOf('--verifier')
const verifier = v < 0 ? 'labels' : (rest[v + 1] ?? '')
if (!['labels', 'blind', 'noisy'].includes(reviewer) || !['labels', 'confirm'].includes(verifier)) {
  process.stderr.write(
    'usage: npm run -s eval-scripted -- labels|blind|noisy [--verifier labels|confirm] [eval options]\n'
  )
  process.exit(2)
}
/** what `review-loop eval` gets: the options without this script's own --verifier */
const args = v < 0 ? rest : [...rest.slice(0, v), ...rest.slice(v + 2)]
const loop = args.includes('--loop')
const chosen = args.flatMap((a, i) => (a === '--case' ? [args[i + 1]!] : []))
const dataset = path.resolve(args.find((a, i) => i === 0 && !a.startsWith('-')) ?? 'eval')
const casesDir = path.join(dataset, 'cases')
const shard = /^(\d+)\/(\d+)$/.exec(args[args.indexOf('--shard') + 1] ?? '')
// --shard I/N: the eval takes every Nth case from the Ith, so the script answers those
const ids = readdirSync(casesDir)
  .filter(id => !chosen.length || chosen.includes(id))
  .sort()
  .filter((_, k) => !shard || k % Number(shard[2]) === Number(shard[1]) - 1)

function repliesFor(id: string): ScriptedReply[] {
  const c = readCase(casesDir, id)
  const labels = fromLabels(c)
  const wrong = falseFinding(c)
  const findings = reviewer === 'blind' ? [] : reviewer === 'noisy' ? [...labels, wrong] : labels
  const review = verdict(findings)
  if (!loop || !findings.length) return [review]
  return [review, realFix(casesDir, id), { kind: 'text', text: 'Restored the fixed code.' }]
}

const server = await ModelServer.start({
  apiKey: TEST_API_KEY,
  script: ids.flatMap(repliesFor),
  verifier: verifier === 'labels' ? labelVerifier(ids.map(id => readCase(casesDir, id))) : {}
})
const child = spawn(
  process.execPath,
  ['bin/review-loop.mjs', 'eval', ...args, '--set', `anthropic-base-url=${server.url}`],
  { stdio: 'inherit', env: { ...process.env, ANTHROPIC_API_KEY: TEST_API_KEY } }
)
const code = await new Promise<number | null>(resolve => child.on('close', resolve))
const checked = server.calls.filter(c => c.verifier).length
process.stdout.write(
  `model calls: ${server.calls.length} (${checked} verifier, --verifier ${verifier})\n`
)
await server.close()
process.exit(code ?? 1)
