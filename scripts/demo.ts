// npm run demo: the whole lifecycle of the real dist/ on the local emulators, printed as a user would
// see it, with the final comment, check annotations, job summaries and outputs written to out/demo/.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { loadScenario, runScenario } from '../test-support/scenario.js'

// every run in a process of its own, as the runner starts the action (most tests run it in a warm host: test-support/action-hosts.ts)
process.env['REVIEW_LOOP_SPAWN'] ??= 'all'

const out = path.resolve(process.argv[2] ?? 'out/demo')
rmSync(out, { recursive: true, force: true })
mkdirSync(out, { recursive: true })
const scenario = loadScenario(path.resolve('scenarios/demo.yaml'))

const progress = /^(\[\d+\/\d+\]|::(notice|warning|error)::)/
console.log(
  `review-loop demo: PR #7 "${scenario.pr.title}" on the local GitHub emulator (no API key: checks review, fix commands fix)\n`
)
const report = await runScenario(scenario, {
  onRun: (run, sandbox) => {
    const what = run.event === 'pull_request' ? `pull_request ${run.action}` : run.event
    console.log(`── run ${run.index + 1}: ${what} (run id ${run.runId}, exit ${run.exitCode})`)
    for (const line of run.stdout.split('\n')) {
      if (progress.test(line))
        console.log(`   ${line.replace(/^::(\w+)::/, '$1: ').replace(/%0A/g, ' ')}`)
    }
    writeFileSync(path.join(out, `summary-run-${run.index + 1}.md`), run.summary)
    const sticky = sandbox.emulator.comments.find(c => c.body.includes('review-loop:state'))
    writeFileSync(path.join(out, `comment-run-${run.index + 1}.md`), sticky?.body ?? '')
    writeFileSync(
      path.join(out, `outputs-run-${run.index + 1}.json`),
      JSON.stringify(run.outputs, null, 2) + '\n'
    )
  }
})
const comment = report.comments.find(c => c.body.includes('review-loop:state'))
writeFileSync(path.join(out, 'comment.md'), comment?.body ?? '')
writeFileSync(path.join(out, 'check-runs.json'), JSON.stringify(report.checkRuns, null, 2) + '\n')
writeFileSync(path.join(out, 'report.json'), JSON.stringify(report, null, 2) + '\n')
const last = report.runs[report.runs.length - 1]
console.log(
  `\nfinal status: ${last?.outputs['status']} after ${report.runs.length} runs; ${report.pushes.length} pushes; ${report.dispatches.length} dispatches; ${report.comments.length} PR comment(s); ${report.checkRuns.length} check runs with ${report.checkRuns.reduce((n, c) => n + c.annotations.length, 0)} annotations`
)
for (const a of report.artifacts) console.log(`artifact ${a.name}: ${a.files.join(', ')}`)
console.log(
  `wrote ${out}/: comment.md (final), comment-run-N.md, check-runs.json, summary-run-N.md, outputs-run-N.json, report.json`
)
