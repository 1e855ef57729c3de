import { handOff, receiveHandoff } from './action/handoff.js'
import { prefetchPull } from './action/prefetch.js'

declare global {
  /** Set by bin/review-loop.mjs: the bundle runs as the command line, not as the action. */
  var __REVIEW_LOOP_CLI__: boolean | undefined
}

async function fail(error: unknown): Promise<void> {
  const core = await import('@actions/core')
  core.setFailed(error instanceof Error ? error.message : String(error))
}

async function action(): Promise<void> {
  // the secrets leave this process's environment first: PR code may read it (./action/handoff.ts)
  await handOff(process.argv[1] ?? '')
  await receiveHandoff()
  // Start-up stays light: the first API request leaves before the action's modules are loaded.
  const prefetched = prefetchPull(process.env)
  // Loading the modules blocks the event loop, so they load once the request is on the wire.
  await prefetched?.sent
  const { run } = await import('./main.js')
  const failure = await run(prefetched)
  if (failure) await fail(failure)
}

if (globalThis.__REVIEW_LOOP_CLI__) {
  void import('./cli/main.js')
    .then(({ cli }) => cli(process.argv.slice(2)))
    .then(code => {
      process.exitCode = code
    })
} else {
  // the only place that turns an outcome or an error into a failed step
  action().catch(fail)
}
