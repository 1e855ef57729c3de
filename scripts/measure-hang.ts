// npm run -s measure-hang -- FILE.yaml...: runs each scenario through dist/ (as `npm run simulate`
// does) and prints, for each run a hang reached: the requests on each hung route, the time from the
// route's first timeout to the run's end, and the run's exit code and errors.
import { loadScenario, runScenario } from '../test-support/scenario.js'

process.env['REVIEW_LOOP_SPAWN'] ??= 'all'

const files = process.argv.slice(2)
if (files.length === 0) {
  console.error('usage: npm run -s measure-hang -- SCENARIO.yaml...')
  process.exit(2)
}
for (const file of files) {
  const scenario = loadScenario(file)
  const timeoutS = Number(scenario.inputs?.['request-timeout-seconds'] ?? 30)
  const started = Date.now()
  const report = await runScenario(scenario, {
    keep: async sandbox => {
      for (const [k, run] of sandbox.runs.entries()) {
        const end = run.startedAt + run.durationMs
        const during = sandbox.emulator.requests.filter(r => r.at >= run.startedAt && r.at <= end)
        const hung = during.filter(r => r.fault?.endsWith('hang'))
        if (hung.length === 0) continue
        const perRoute = new Map<string, number>()
        for (const r of hung)
          perRoute.set(`${r.method} ${r.path}`, (perRoute.get(`${r.method} ${r.path}`) ?? 0) + 1)
        const firstTimeout = hung[0]!.at + timeoutS * 1000
        console.log(
          `${file} run ${k + 1}: hung requests ${JSON.stringify(Object.fromEntries(perRoute))}; first timeout → end ${((end - firstTimeout) / 1000).toFixed(1)} s; run ${(run.durationMs / 1000).toFixed(1)} s`
        )
      }
    }
  })
  for (const run of report.runs)
    console.log(
      `${file} run ${run.run} (${run.event}, attempt ${run.attempt}): exit ${run.exitCode}; errors: ${run.errors.join(' | ').slice(0, 600)}`
    )
  console.log(`${file}: ${((Date.now() - started) / 1000).toFixed(1)} s in all`)
}
