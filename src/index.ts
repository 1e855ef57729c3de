import { prefetchPull } from './action/prefetch.js'

declare global {
  /** Set by bin/review-loop.mjs: the bundle runs as the command line, not as the action. */
  var __REVIEW_LOOP_CLI__: boolean | undefined
}

async function fail(error: unknown): Promise<void> {
  const core = await import('@actions/core')
  core.setFailed(error instanceof Error ? error.message : String(error))
}

function action(): void {
  // Start-up stays light: the first API request leaves before the action's modules are loaded.
  const prefetched = prefetchPull(process.env)
  // Loading the modules blocks the event loop, so they load once the request is on the wire.
  // The only place that turns an outcome or an error into a failed step.
  Promise.resolve(prefetched?.sent)
    .then(() => import('./main.js'))
    .then(({ run }) => run(prefetched))
    .then(failure => (failure ? fail(failure) : undefined))
    .catch(fail)
}

if (globalThis.__REVIEW_LOOP_CLI__) {
  void import('./cli/main.js')
    .then(({ cli }) => cli(process.argv.slice(2)))
    .then(code => {
      process.exitCode = code
    })
} else {
  action()
}
