import { prefetchPull } from './action/prefetch.js'

// Start-up stays light: the first API request leaves before the action's modules are loaded.
const prefetched = prefetchPull(process.env)

async function fail(error: unknown): Promise<void> {
  const core = await import('@actions/core')
  core.setFailed(error instanceof Error ? error.message : String(error))
}

// Loading the modules blocks the event loop, so they load once the request is on the wire.
// The only place that turns an outcome or an error into a failed step.
Promise.resolve(prefetched?.sent)
  .then(() => import('./main.js'))
  .then(({ run }) => run(prefetched))
  .then(failure => (failure ? fail(failure) : undefined))
  .catch(fail)
