#!/usr/bin/env node
// `npx review-loop`: the action's bundle (dist/), run as the command line. See `review-loop --help`.
globalThis.__REVIEW_LOOP_CLI__ = true
await import('../dist/index.js')
