#!/usr/bin/env node
// `review-loop`: the action's bundle (dist/), run as the command line. See `review-loop --help`.
import process from 'node:process'
import { fileURLToPath } from 'node:url'
globalThis.__REVIEW_LOOP_CLI__ = true
// the bundle finds its prompts beside dist/ from the running script, which for an installed
// command is a link in npm's bin folder: name the real one
process.argv[1] = fileURLToPath(new globalThis.URL('../dist/index.js', import.meta.url))
await import('../dist/index.js')
