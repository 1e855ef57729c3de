import { prefetchPull, type Prefetched } from './action/prefetch.js'
import { startAndSend, type Startup } from './action/startup.js'
import type {} from './action/boot.js'

declare global {
  /** Set by bin/review-loop.mjs: the bundle runs as the command line, not as the action. */
  var __REVIEW_LOOP_CLI__: boolean | undefined
  /** Set by a host that imports the bundle to call runInProcess: nothing runs on import. */
  var __REVIEW_LOOP_IN_PROCESS__: boolean | undefined
}

async function fail(error: unknown): Promise<void> {
  const core = await import('@actions/core')
  core.setFailed(error instanceof Error ? error.message : String(error))
}

/**
 * One run of the action in this process, as it started (`startup`, with the first API request
 * maybe sent already) or as a host drives it.
 */
async function iteration(startup?: Startup, sent?: Prefetched): Promise<void> {
  // Start-up stays light: the first API request leaves before the action's modules are loaded.
  const prefetched = sent ?? prefetchPull(process.env)
  // Loading the modules blocks the event loop, so they load once the request is on the wire.
  await prefetched?.sent
  const { run } = await import('./main.js')
  const failure = await run(prefetched, startup)
  if (failure) await fail(failure)
}

async function action(): Promise<void> {
  // the secrets leave this process's environment first where PR code could read it
  // (./action/startup.ts, ./action/handoff.ts); the first API request leaves while it looks
  const { startup, sent } = await startAndSend(process.argv[1] ?? '')
  await iteration(startup, sent)
}

/**
 * The action run by a host that imported the bundle once (the end-to-end tests, test-support/
 * action-host.mjs): the host sets `process.env` to the run's (GITHUB_WORKSPACE names the checkout) and waits; the
 * step's outcome is `process.exitCode` and what was written to stdout. No start-up: no sandbox is
 * looked for before the run and nothing restarts, for the host's environment is its own.
 */
export async function runInProcess(): Promise<void> {
  await iteration().catch(fail)
}

const booted = globalThis.__REVIEW_LOOP_BOOT__
if (globalThis.__REVIEW_LOOP_CLI__) {
  void import('./cli/main.js')
    .then(({ cli }) => cli(process.argv.slice(2)))
    .then(code => {
      process.exitCode = code
    })
} else if (booted) {
  // started by the entry, dist/index.cjs (./action/boot.ts), which did the start-up
  ;('error' in booted
    ? Promise.reject(booted.error)
    : iteration(booted.startup, booted.sent)
  ).catch(fail)
} else if (!globalThis.__REVIEW_LOOP_IN_PROCESS__) {
  // started as `node dist/index.js`: the start-up is done here
  action().catch(fail)
}
