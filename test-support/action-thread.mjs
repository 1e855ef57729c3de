/* global process, console, Buffer */
// One thread of test-support/in-process.ts: imports the built action (dist/index.js) with Node's
// own loader, as the runner does, and runs it once per message with the environment the message
// gives, which is this thread's own copy. What the action writes is collected, not printed.
import module from 'node:module'
import { pathToFileURL } from 'node:url'
import { format } from 'node:util'
import { parentPort, workerData } from 'node:worker_threads'

// the compiled bundle is kept on disk, as the harness keeps it for the runs it spawns
module.enableCompileCache?.(workerData.compileCache)
globalThis.__REVIEW_LOOP_IN_PROCESS__ = true
// the bundle finds its prompts beside itself from the running script, as under the runner
process.argv[1] = workerData.script
const { runInProcess } = await import(pathToFileURL(workerData.script).href)

let out = []
let err = []
const into =
  which =>
  (chunk, ...rest) => {
    ;(which === 'out' ? out : err).push(
      typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString()
    )
    rest.find(r => typeof r === 'function')?.()
    return true
  }
process.stdout.write = into('out')
process.stderr.write = into('err')
for (const name of ['log', 'info', 'debug'])
  console[name] = (...args) => out.push(`${format(...args)}\n`)
for (const name of ['warn', 'error']) console[name] = (...args) => err.push(`${format(...args)}\n`)

parentPort.on('message', async ({ env }) => {
  out = []
  err = []
  for (const name of Object.keys(process.env)) delete process.env[name]
  Object.assign(process.env, env)
  process.exitCode = undefined
  await runInProcess()
  const code = Number(process.exitCode ?? 0)
  process.exitCode = undefined
  parentPort.postMessage({ code, stdout: out.join(''), stderr: err.join('') })
})
