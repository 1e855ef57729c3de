/* global process, console, Buffer */
// One host of test-support/action-hosts.ts: a Node process that imports the built action
// (dist/index.js) once with Node's own loader, as the runner does, then runs it once per message,
// with the message's environment and in its workspace, one run at a time. What the action writes
// is collected and sent back with the exit code, never printed. The host ends with its parent.
import module from 'node:module'
import os from 'node:os'
import { pathToFileURL } from 'node:url'
import { format } from 'node:util'
import { cpuSeconds } from './cpu.ts'

const [script, compileCache] = process.argv.slice(2)
// the compiled bundle is kept on disk, as the harness keeps it for the runs it spawns
module.enableCompileCache?.(compileCache)
globalThis.__REVIEW_LOOP_IN_PROCESS__ = true
// the bundle finds its prompts beside itself from the running script, as under the runner
process.argv[1] = script
const { runInProcess } = await import(pathToFileURL(script).href)

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

/** This process's CPU seconds and its waited-for children's (Node 24 strips cpu.ts's types). */
function cpuTotal() {
  const { self, children } = cpuSeconds()
  return self + children
}

process.on('message', async ({ env }) => {
  out = []
  err = []
  const before = cpuTotal()
  for (const name of Object.keys(process.env)) delete process.env[name]
  Object.assign(process.env, env)
  // the runner starts the step in the workspace
  try {
    process.chdir(env.GITHUB_WORKSPACE ?? os.tmpdir())
  } catch {
    process.chdir(os.tmpdir())
  }
  process.exitCode = undefined
  await runInProcess()
  const code = Number(process.exitCode ?? 0)
  process.exitCode = undefined
  process.send({ code, stdout: out.join(''), stderr: err.join(''), cpuS: cpuTotal() - before })
})
process.on('disconnect', () => process.exit())
process.send({ ready: true })
