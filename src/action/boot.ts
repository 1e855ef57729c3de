import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Prefetched } from './prefetch.js'
import { startAndSend, type Startup } from './startup.js'

/**
 * The action's entry (`runs.main: dist/index.cjs`): a small CommonJS bundle of this file alone
 * (esbuild, in `npm run build`), because Node starts a CommonJS file about 25 ms sooner than an ES
 * module (`npm run bench -- startup`). It starts up (./startup.ts: the sandbox, the restart without
 * secrets where needed), sends the first API request, and only then loads the action's ES modules
 * (dist/index.js), handing them what it found.
 */

/** What the entry hands the action's modules. */
export type Boot = { startup: Startup; sent?: Prefetched } | { error: unknown }

declare global {
  /** Set by the entry (dist/index.cjs) before it loads dist/index.js. */
  var __REVIEW_LOOP_BOOT__: Boot | undefined
}

/** Node's own import, which a CommonJS bundle would otherwise turn into a require. */
const importModule = new Function('url', 'return import(url)') as (url: string) => Promise<unknown>

async function boot(): Promise<void> {
  try {
    globalThis.__REVIEW_LOOP_BOOT__ = await startAndSend(process.argv[1] ?? '')
  } catch (error) {
    // the action's modules fail the step with it
    globalThis.__REVIEW_LOOP_BOOT__ = { error }
  }
  await importModule(pathToFileURL(path.join(__dirname, 'index.js')).href)
}

void boot()
