import * as core from '@actions/core'
import { run } from './main.js'

// The only place that turns an error into a failed step.
run().catch((error: unknown) => {
  core.setFailed(error instanceof Error ? error.message : String(error))
})
