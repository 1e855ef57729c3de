// `review-loop` (the local loop) through the committed bundle (dist/), on a repository of its own,
// as a user runs it on a laptop.
import { spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { git, writeFiles } from './git-fixture.js'
import { defaultNode } from './harness.js'

export const BIN = path.resolve('bin/review-loop.mjs')

/** A check that fails with one located finding while src/a.js holds a TODO. */
export const TODO_CHECK =
  'todo: grep -n TODO src/a.js | sed "s|^|src/a.js:|" | grep . && exit 1 || exit 0'

export interface CliRun {
  code: number | null
  out: string
  err: string
}

/** What a test does while the command runs: sees each chunk of its output, and may Ctrl-C it. */
export interface CliWatch {
  onOutput: (out: string, ctrlC: () => void) => void
}

/**
 * `review-loop ARGS` on node 24, as npx runs it; asynchronous, so an emulator in this process keeps
 * answering. With `watch`, it runs in a process group of its own, and `ctrlC` sends SIGINT to that
 * group, as a terminal's Ctrl-C does (the checks and git get it too).
 */
export function cli(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
  watch?: CliWatch
): Promise<CliRun> {
  return new Promise(resolve => {
    const child = spawn(defaultNode(), [BIN, ...args], {
      cwd,
      detached: watch !== undefined,
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: os.homedir(),
        LANG: 'C.UTF-8',
        ...env
      }
    })
    let out = ''
    let err = ''
    const ctrlC = (): void => {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGINT')
    }
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      watch?.onOutput(out, ctrlC)
    })
    child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    child.on('close', code => resolve({ code, out, err }))
  })
}

/** A repository on `feature` with a TODO the check finds, `main` its base; `dirs` gets its folder. */
export function sampleRepo(dirs: string[], files: Record<string, string> = {}): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'review-loop-cli-'))
  dirs.push(dir)
  git(dir, ['init', '-q', '-b', 'main'])
  git(dir, ['config', 'user.name', 'Dev'])
  git(dir, ['config', 'user.email', 'dev@example.com'])
  writeFiles(dir, { 'README.md': '# sample\n', ...files })
  git(dir, ['add', '-A'])
  git(dir, ['commit', '-q', '-m', 'initial'])
  git(dir, ['switch', '-q', '-c', 'feature'])
  writeFiles(dir, { 'src/a.js': 'run()\n// TODO later\n' })
  git(dir, ['add', '-A'])
  git(dir, ['commit', '-q', '-m', 'todo'])
  return dir
}
