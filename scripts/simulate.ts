// npm run simulate -- FILE: runs a scenario through dist/ on the local emulators and prints one JSON document.
import { loadScenario, runScenario } from '../test-support/scenario.js'

// every run in a process of its own, as the runner starts the action (most tests run it in a warm host: test-support/action-hosts.ts)
process.env['REVIEW_LOOP_SPAWN'] ??= 'all'

const file = process.argv[2]
if (!file) {
  console.error(
    'usage: npm run simulate -- SCENARIO.yaml|json   (see "Scenario files" in the README)'
  )
  process.exit(2)
}
const report = await runScenario(loadScenario(file))
process.stdout.write(JSON.stringify(report, null, 2) + '\n')
