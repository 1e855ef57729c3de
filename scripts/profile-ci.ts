// `npm run profile [-- VITEST_ARGS]`: where CI's CPU goes. Runs CI's steps after the install (lint,
// typecheck, the build, the tests) one after another, each step's wall and CPU time (its processes
// and theirs), then the test files by CPU, with the runs of dist/ they made (spawned, or in a warm host)
// and what those cost. Arguments go to vitest (a file filter, say); with them only the tests run.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { cpuSeconds, machineBusySeconds } from '../test-support/cpu.js'

interface Step {
  name: string
  wallS: number
  cpuS: number
  /** The machine's busy CPU seconds meanwhile (with what no parent waited for: the warm hosts). */
  machineS?: number
  ok: boolean
}

function step(name: string, command: string, args: string[], env = process.env): Step {
  const before = cpuSeconds().children
  const busy = machineBusySeconds()
  const t0 = performance.now()
  const result = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'inherit'], env })
  const busyAfter = machineBusySeconds()
  return {
    name,
    wallS: (performance.now() - t0) / 1000,
    cpuS: cpuSeconds().children - before,
    machineS: busy === undefined || busyAfter === undefined ? undefined : busyAfter - busy,
    ok: result.status === 0
  }
}

interface FileRecord {
  file: string
  startedAt: number
  endedAt: number
  wallS: number
  selfS: number
  childrenS: number
}
interface RunRecord {
  file?: string
  how: 'spawned' | 'host'
  wallS: number
  cpuS: number
}

function readLines<T>(file: string): T[] {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map(line => JSON.parse(line) as T)
  } catch {
    return []
  }
}

const s = (n: number): string => n.toFixed(1).padStart(7)

function printFiles(files: FileRecord[], runs: RunRecord[], testCpu: number): void {
  const byFile = new Map<string, RunRecord[]>()
  for (const r of runs) byFile.set(r.file ?? '?', [...(byFile.get(r.file ?? '?') ?? []), r])
  const rows = files
    .map(f => {
      const runs = byFile.get(f.file) ?? []
      // a warm host's CPU is no child's of the file's worker: the host measured it (action-host.mjs)
      const hosts = runs.filter(r => r.how === 'host').reduce((t, r) => t + r.cpuS, 0)
      return { ...f, cpu: f.selfS + f.childrenS + hosts, runs }
    })
    .sort((a, b) => b.cpu - a.cpu)
  console.log(
    '\ntest files by CPU (s: the worker itself, its children, the runs in warm hosts; runs of dist/: spawned + in hosts, their CPU):'
  )
  console.log('    CPU   itself children    wall  runs  run CPU  file')
  for (const f of rows.slice(0, Number(process.env['PROFILE_TOP'] ?? 30))) {
    const spawned = f.runs.filter(r => r.how === 'spawned').length
    const runCpu = f.runs.reduce((t, r) => t + r.cpuS, 0)
    console.log(
      `${s(f.cpu)} ${s(f.selfS)} ${s(f.childrenS)} ${s(f.wallS)} ${`${spawned}+${f.runs.length - spawned}`.padStart(5)} ${s(runCpu)}  ${f.file}`
    )
  }
  const inFiles = rows.reduce((t, f) => t + f.cpu, 0)
  const sum = (how: RunRecord['how']) => {
    const these = runs.filter(r => r.how === how)
    const cpu = these.reduce((t, r) => t + r.cpuS, 0)
    return `${these.length} (${cpu.toFixed(0)} CPU-s, ${these.length ? ((cpu / these.length) * 1000).toFixed(0) : 0} ms each)`
  }
  console.log(
    `\n${rows.length} files: ${inFiles.toFixed(0)} CPU-s in the files' workers and what they started`
  )
  console.log(`  runs of dist/ spawned: ${sum('spawned')}; in warm hosts: ${sum('host')}`)
  console.log(
    `  outside the files (vitest's start, workers' start-up, transforms): ${(testCpu - inFiles).toFixed(0)} CPU-s`
  )
  console.log(
    '  (runs that overlap in one worker share their CPU figures: treat them as estimates)'
  )
  const t0 = Math.min(...files.map(f => f.startedAt))
  console.log("\nthe files that ended last (s from the first file's start: started → ended):")
  for (const f of [...files].sort((a, b) => b.endedAt - a.endedAt).slice(0, 6))
    console.log(
      `  ${((f.startedAt - t0) / 1000).toFixed(0).padStart(5)} → ${((f.endedAt - t0) / 1000).toFixed(0).padStart(4)}  ${f.file}`
    )
}

const vitestArgs = process.argv.slice(2)
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const steps: Step[] = []
if (vitestArgs.length === 0)
  for (const name of ['lint', 'typecheck', 'build'])
    steps.push(step(name, npm, ['run', '-s', name]))
const dir = mkdtempSync(path.join(os.tmpdir(), 'review-loop-profile-'))
const test = step('test', npm, ['test', '--', '--reporter=dot', ...vitestArgs], {
  ...process.env,
  REVIEW_LOOP_PROFILE: dir
})
steps.push(test)
console.log(`\nCI's steps after the install, one after another, on ${os.cpus().length} cores:`)
console.log('   wall      CPU  machine  step   (machine: all the machine was busy meanwhile)')
for (const st of steps)
  console.log(
    `${s(st.wallS)}  ${s(st.cpuS)}  ${st.machineS === undefined ? '      ?' : s(st.machineS)}  ${st.name}${st.ok ? '' : ' (failed)'}`
  )
printFiles(
  readLines<FileRecord>(path.join(dir, 'files.jsonl')),
  readLines<RunRecord>(path.join(dir, 'runs.jsonl')),
  test.machineS ?? test.cpuS
)
rmSync(dir, { recursive: true, force: true })
