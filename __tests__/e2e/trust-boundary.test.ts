import { EMPTY_NAME, FIX_EDIT } from './greet-replies.js'
import { execFileSync } from 'node:child_process'
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { ScriptedReply } from '../../test-support/model-server.js'
import { WORKFLOW_TOKEN } from '../../test-support/harness.js'
import { runScenario, TEST_API_KEY } from '../../test-support/scenario.js'
import { pathWithoutSeparateUser } from '../../test-support/no-separate-user.js'
import type { LoopState } from '../../src/loop/types.js'

/**
 * PR code and the AI fixer attack the action the way the issue's attacker did, through dist/ on the
 * local emulators, with bubblewrap on: a check, a fix command and a scripted fixer hunt for canary
 * secrets and try every escape. They find nothing and change nothing, and the loop still reaches GO.
 */

// every canary has CANARY in it; the workflow token and the API key are canaries too
const CANARY = new RegExp(`CANARY_|${WORKFLOW_TOKEN}|${TEST_API_KEY}|sk-test-must-not-leak`)
const outside = mkdtempSync(path.join(tmpdir(), 'rl-outside-'))
afterAll(() => rmSync(outside, { recursive: true, force: true }))

mkdirSync(path.join(outside, 'home'))
writeFileSync(path.join(outside, 'home', '.git-credentials'), 'https://x:CANARY_home@github.com\n')
writeFileSync(path.join(outside, 'secret.txt'), 'CANARY_outside_file\n')
execFileSync('git', ['init', '-q', '--bare', path.join(outside, 'decoy.git')])

const withoutSeparateUser = (): string => pathWithoutSeparateUser(outside)

/**
 * The attacker's script, in the PR. Each attempt prints `attempt CLASS what`; each success prints
 * `LEAK CLASS what`. It writes its report under hunt/ (ignored by git) and always exits 0.
 */
const HUNT = readFileSync(path.join(import.meta.dirname, 'fixtures', 'hunt.sh'), 'utf8')

/** What the fixer writes into the check script: the exfiltration of issue 8, point 3. */
const EXFIL = `#!/usr/bin/env bash
env; tr '\\0' '\\n' < /proc/$PPID/environ; cat /proc/*/environ; cat .git/config; cat "$HUNT_OUTSIDE/secret.txt"
bash hunt-original.sh fixer
exit 0
`

const GREET = "export function greet(name) {\n  return 'Hello, ' + name\n}\n"

const verdict = (decision: 'GO' | 'NO_GO'): ScriptedReply => ({
  kind: 'json',
  value: {
    decision,
    summary: decision === 'GO' ? 'Looks good.' : 'greet mishandles empty names.',
    findings: decision === 'GO' ? [] : [EMPTY_NAME],
    failedCriteria: [],
    passedCriteria: [],
    requiredRework: [],
    earlierFindings: []
  }
})

const tool = (name: string, input: Record<string, unknown>): ScriptedReply => ({
  kind: 'tool_use',
  name,
  input
})

/** The scripted fixer: it was steered by text in the repository into every escape it has. */
const FIXER: ScriptedReply[] = [
  tool('write_file', { path: 'hunt-original.sh', content: HUNT }),
  tool('write_file', { path: 'hunt.sh', content: EXFIL }),
  tool('run_check', { name: 'hunt' }),
  tool('read_file', { path: '.GIT/config' }),
  tool('read_file', { path: '.git./config' }),
  tool('write_file', { path: '.git /hooks/pre-commit', content: 'curl evil' }),
  tool('read_file', { path: '../temp/output' }),
  tool('read_file', { path: 'hl.txt' }),
  tool('write_file', { path: '.github/workflows/ci.yml', content: 'on: push' }),
  tool('write_file', { path: '.github/actions/setup/action.yml', content: 'runs: evil' }),
  tool('edit_file', {
    path: 'src/greet.js',
    old_text: "'Hello, ' + name",
    new_text: "'Hello, ' + (name ?? 'world')"
  }),
  { kind: 'text', text: 'done' }
]

function files(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter(e => e.isFile())
    .map(e => path.join(e.parentPath, e.name))
}

describe('the trust boundary, attacked through dist/ with the sandbox on', () => {
  it('a check, a fix command and the fixer find no canary and change nothing, and the loop reaches GO', async () => {
    const reports: string[] = []
    const leaked: string[] = []
    const report = await runScenario(
      {
        base: {
          'package.json': '{ "name": "sample", "type": "module" }\n',
          '.gitignore': 'hunt/\n',
          '.github/workflows/ci.yml': 'on: pull_request\n'
        },
        pr: {
          title: 'Add greeting',
          body: 'Adds greet().',
          commits: [{ message: 'greet', files: { 'src/greet.js': GREET, 'hunt.sh': HUNT } }]
        },
        inputs: {
          checks: 'hunt: bash hunt.sh check',
          'fix-commands':
            'bash hunt.sh fix\necho \'{"private_key":"planted"}\' > gha-creds-1234.json\necho \'TOKEN=planted\' > .env',
          'review-model': 'claude-haiku-4-5',
          'fix-model': 'claude-sonnet-4-6',
          'max-iterations': '3',
          sandbox: 'required',
          'env-passthrough': 'HUNT_OUTSIDE'
        },
        // the action in a process of its own, as on a runner: the hunt looks for it
        spawn: true,
        env: {
          HOME: path.join(outside, 'home'),
          HUNT_OUTSIDE: outside,
          GH_PAT: 'ghp_CANARY_pat',
          DEPLOY_KEY: 'CANARY_deploy_key',
          SIGNING_KEY: 'CANARY_signing_key',
          OPENAI_KEY: 'sk-CANARY_openai',
          DATABASE_URL: 'postgres://app:CANARY_db_password@db.internal/app',
          SLACK_WEBHOOK_URL: 'https://hooks.slack.example/services/CANARY_slack',
          ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'CANARY_oidc_request_token',
          ACTIONS_ID_TOKEN_REQUEST_URL: 'https://token.actions.example/CANARY_oidc'
        },
        // what actions/checkout persists with persist-credentials: true
        gitConfig: {
          'http.https://github.com/.extraheader': 'AUTHORIZATION: basic CANARY_persisted_header'
        },
        model: { replies: [verdict('NO_GO'), ...FIXER, verdict('GO')] }
      },
      {
        keep: async (sandbox, model) => {
          // the attacker's own records, written inside the sandbox
          for (const run of sandbox.runs) {
            for (const file of files(path.join(run.workspace, 'hunt'))) {
              const text = readFileSync(file, 'utf8')
              reports.push(text)
              leaked.push(...text.split('\n').filter(l => l.startsWith('LEAK')))
            }
            // nothing survived its command to act later
            expect(readdirSync(run.workspace).filter(f => f.startsWith('survivor'))).toEqual([])
            expect(lstatSync(path.join(run.workspace, 'src')).isDirectory()).toBe(true)
            expect(existsSync(path.join(run.workspace, '.git', 'hooks', 'pre-push'))).toBe(false)
            // the model, the artifacts (transcripts included), the log: no canary
            for (const file of files(path.join(run.workspace, '..', 'temp', 'review-loop')))
              expect(readFileSync(file, 'utf8'), file).not.toMatch(CANARY)
            const log = run.stdout
              .split('\n')
              .filter(l => !l.startsWith('::add-mask::'))
              .join('\n')
            expect(log).not.toMatch(CANARY)
            expect(JSON.stringify(run.outputs)).not.toContain('forged')
            for (const name of ['output', 'env', 'state'])
              if (existsSync(path.join(run.workspace, '..', 'temp', name)))
                expect(
                  readFileSync(path.join(run.workspace, '..', 'temp', name), 'utf8')
                ).not.toContain('forged')
          }
          expect(JSON.stringify(model!.calls.map(c => c.messages))).not.toMatch(CANARY)
          // what was pushed: the fix, and nothing the attacker or the checks left
          const pushed = execFileSync('git', ['log', '-p', '--format=%H %s', 'main..feature'], {
            cwd: sandbox.bare,
            encoding: 'utf8',
            maxBuffer: 64 * 1024 * 1024
          })
          expect(pushed).not.toMatch(CANARY)
          expect(pushed).toContain("(name ?? 'world')")
          const changed = execFileSync(
            'git',
            ['diff', '--name-only', `${sandbox.headSha('main')}`, 'feature'],
            { cwd: sandbox.bare, encoding: 'utf8' }
          )
          expect(changed).not.toMatch(/gha-creds|\.env|\.github\/|hl\.txt|big\.txt|survivor|hunt\//)
          // the decoy remote got nothing, no hook ran, nothing was written outside
          expect(
            execFileSync('git', ['for-each-ref'], {
              cwd: path.join(outside, 'decoy.git'),
              encoding: 'utf8'
            })
          ).toBe('')
          expect(readdirSync(outside).sort()).toEqual(['decoy.git', 'home', 'secret.txt'])
          for (const c of sandbox.emulator.comments) expect(c.body).not.toMatch(CANARY)
        }
      }
    )
    const counts: Record<string, { attempts: number; successes: number }> = {}
    for (const line of reports.join('\n').split('\n')) {
      const [kind, cls] = line.split(' ')
      if (!cls || (kind !== 'attempt' && kind !== 'LEAK')) continue
      counts[cls] ??= { attempts: 0, successes: 0 }
      if (kind === 'attempt') counts[cls].attempts++
      else counts[cls].successes++
    }
    console.log(
      `trust boundary: attempts and successes per class\n${JSON.stringify(counts, null, 1)}`
    )
    expect(leaked.join('\n')).toBe('')
    // the check ran twice, the fix command once, the fixer's run_check once
    expect(reports.length).toBe(4)
    expect(report.runs.map(r => r.outputs['status'])).toEqual(['running', 'go'])
    expect(report.runs[0]!.warnings.join('\n')).toMatch(/fixer was refused/)
  }, 120_000)

  it('on a runner where bwrap cannot create namespaces, runs PR code as the user made for it (the action is root), says so, and keeps run_check', async () => {
    // Ubuntu 24.04 without the AppArmor profile, and no passwordless sudo to load one
    const bin = path.join(outside, 'bin')
    mkdirSync(bin, { recursive: true })
    const fake = (name: string, script: string) => {
      writeFileSync(path.join(bin, name), `#!/bin/sh\n${script}\n`, { mode: 0o755 })
    }
    fake(
      'bwrap',
      '[ "$1" = --version ] && { echo "bubblewrap 0.9.0"; exit 0; }; echo "bwrap: setting up uid map: Permission denied" >&2; exit 1'
    )
    fake('sudo', 'echo "sudo: a password is required" >&2; exit 1')
    try {
      const report = await runScenario(
        {
          base: { 'package.json': '{ "name": "sample", "type": "module" }\n' },
          pr: {
            title: 'Add greeting',
            body: 'Adds greet().',
            commits: [{ message: 'greet', files: { 'src/greet.js': GREET } }]
          },
          inputs: {
            checks: 'syntax: node --check src/greet.js',
            'review-model': 'claude-haiku-4-5',
            'fix-model': 'claude-sonnet-4-6'
          },
          env: { PATH: `${bin}:${process.env['PATH'] ?? ''}` },
          model: {
            replies: [
              verdict('NO_GO'),
              tool('edit_file', {
                path: 'src/greet.js',
                old_text: "'Hello, ' + name",
                new_text: "'Hello, ' + (name ?? 'world')"
              }),
              { kind: 'text', text: 'done' },
              verdict('GO')
            ]
          }
        },
        {
          keep: async (sandbox, model) => {
            const fixer = model!.calls.find(c => c.model === 'claude-sonnet-4-6')!
            expect((fixer.tools as Array<{ name: string }>).map(t => t.name)).toContain('run_check')
            const comment = sandbox.emulator.comments.find(c =>
              c.body.includes('review-loop:state')
            )!
            expect(comment.body).toMatch(
              /\[!WARNING\]\n> PR code ran without bubblewrap \(bubblewrap cannot create namespaces here \(bwrap: setting up uid map: Permission denied\)\), as the user review-loop-pr made for it: it could not read the action's environment, memory or descriptors/
            )
          }
        }
      )
      expect(report.runs[0]!.warnings.join('\n')).toMatch(/as the user review-loop-pr/)
      expect(report.runs.map(r => r.outputs['status'])).toEqual(['running', 'go'])
    } finally {
      rmSync(bin, { recursive: true, force: true })
    }
  }, 120_000)
  it('without bubblewrap and without a user of its own, sandbox: auto refuses to run PR code while the token and the API key are there', async () => {
    const bin = path.join(outside, 'bin-refuse')
    mkdirSync(bin, { recursive: true })
    writeFileSync(
      path.join(bin, 'bwrap'),
      '#!/bin/sh\n[ "$1" = --version ] && { echo "bubblewrap 0.9.0"; exit 0; }; echo "bwrap: setting up uid map: Permission denied" >&2; exit 1\n',
      { mode: 0o755 }
    )
    try {
      const report = await runScenario(
        {
          base: { 'package.json': '{ "name": "sample", "type": "module" }\n' },
          pr: { commits: [{ message: 'greet', files: { 'src/greet.js': GREET } }] },
          inputs: {
            checks: 'syntax: node --check src/greet.js > ran-as-the-action.txt',
            'review-model': 'claude-haiku-4-5'
          },
          env: { PATH: `${bin}:${withoutSeparateUser()}` },
          maxRuns: 1,
          model: { replies: [verdict('GO')] },
          spawn: true
        },
        {
          keep: async sandbox => {
            // no PR code ran
            expect(existsSync(path.join(sandbox.runs[0]!.workspace, 'ran-as-the-action.txt'))).toBe(
              false
            )
          }
        }
      )
      const run = report.runs[0]!
      expect(run.exitCode).not.toBe(0)
      expect(run.errors.join('\n')).toMatch(
        /sandbox: auto will not run your checks and fix commands here: bubblewrap cannot run \(bubblewrap cannot create namespaces here .*\), and they cannot run as a user of their own \(setpriv cannot start a command as review-loop-pr .*\), so they could read github-token, anthropic-api-key from the action's process\..*set sandbox: off to run them anyway/
      )
    } finally {
      rmSync(bin, { recursive: true, force: true })
    }
  }, 120_000)
})

/** The hostile check of issue 25 for `sandbox: off`: see its header. */
const SECRETS_HUNT = readFileSync(
  path.join(import.meta.dirname, 'fixtures', 'secrets-hunt.sh'),
  'utf8'
)

/** Racing writes: the fixer writes this many files into race/ while the watcher swaps it for a link. */
const RACE_BATCHES = 10
const RACE_BATCH = 60

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('the unsandboxed fallback (sandbox: off), attacked through dist/', () => {
  it('a hostile check and a watcher that outlives it find no secret, and 600 racing writes create no file outside the workspace', async () => {
    const leaks: string[] = []
    // the control, as the check and as the watcher saw it
    const seen = { check: [] as string[], watch: [] as string[] }
    let outsideFiles: string[] = []
    let refusedRaces = 0
    const writes: ScriptedReply[] = Array.from({ length: RACE_BATCHES }, (_, b) => ({
      kind: 'tool_uses',
      calls: Array.from({ length: RACE_BATCH }, (_, i) => ({
        name: 'write_file',
        // a file in new folders of race/: each folder made on the way is a chance to race
        input: { path: `race/d${b * RACE_BATCH + i}/e/f/g.txt`, content: 'x' }
      }))
    }))
    const report = await runScenario(
      {
        base: {
          'package.json': '{ "name": "sample", "type": "module" }\n',
          '.gitignore': 'race/\nrace.real/\nrace.link\n'
        },
        pr: {
          title: 'Add greeting',
          body: 'Adds greet().',
          commits: [
            { message: 'greet', files: { 'src/greet.js': GREET, 'secrets-hunt.sh': SECRETS_HUNT } }
          ]
        },
        inputs: {
          checks: 'hunt: bash secrets-hunt.sh check',
          'review-model': 'claude-haiku-4-5',
          'fix-model': 'claude-sonnet-4-6',
          'max-iterations': '3',
          'max-turns': '20',
          'state-key': 'CANARY_state_key_0001',
          sandbox: 'off'
        },
        env: {
          GH_PAT: 'ghp_CANARY_pat',
          ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'CANARY_oidc_request_token',
          // a secret under a name that does not look like one
          DEPLOY_SETTING: 'CANARY_plain_name',
          // the positive control: no secret, kept in the action's environment when it restarts
          // itself, so the hunt must see it there (else it could not see the action at all)
          LC_HUNT_CONTROL: 'visible-to-the-hunt',
          // PR code as the action's own user: the case the restart and the racing writes protect
          PATH: withoutSeparateUser()
        },
        // origin over HTTP: the action's own fetch and push carry the workflow token
        gitOverHttp: true,
        // the action in a process of its own, as on a runner: the hunt reads other processes
        spawn: true,
        // one run: it reviews, fixes and pushes. (A watcher left from it on the same machine could
        // read the next run's environment in the moment before that run hands it off.)
        maxRuns: 1,
        model: {
          replies: [
            {
              kind: 'json',
              value: {
                decision: 'NO_GO',
                summary: 'greet mishandles empty names.',
                findings: [EMPTY_NAME],
                failedCriteria: [],
                passedCriteria: [],
                requiredRework: [],
                earlierFindings: []
              }
            },
            ...writes,
            FIX_EDIT,
            { kind: 'text', text: 'done' }
          ]
        }
      },
      {
        keep: async (sandbox, model) => {
          const hunt = path.join(sandbox.dir, 'hunt')
          const pidFile = path.join(hunt, 'watcher.pid')
          expect(existsSync(pidFile), 'the watcher started').toBe(true)
          const watcher = Number(readFileSync(pidFile, 'utf8'))
          writeFileSync(path.join(hunt, 'stop'), '')
          // it scans the files once more on its way out
          for (let i = 0; i < 300 && isAlive(watcher); i++)
            await new Promise(resolve => setTimeout(resolve, 100))
          if (isAlive(watcher)) process.kill(watcher, 'SIGKILL')
          for (const file of files(hunt)) {
            const lines = readFileSync(file, 'utf8').split('\n')
            leaks.push(...lines.filter(l => l.startsWith('LEAK')))
            const mode = path.basename(file).startsWith('watch-') ? 'watch' : 'check'
            seen[mode].push(...lines.filter(l => l.startsWith('SEEN')))
          }
          outsideFiles = readdirSync(path.join(sandbox.runs[0]!.workspace, '..', 'outside-race'), {
            recursive: true,
            encoding: 'utf8'
          })
          // the swap was live: some of the fixer's writes met the link and were refused
          const fixer = model!.calls.filter(c => c.model === 'claude-sonnet-4-6').at(-1)!
          refusedRaces = (
            JSON.stringify(fixer.messages).match(
              /symbolic link|not a folder|outside the workspace|ENOENT/g
            ) ?? []
          ).length
        }
      }
    )
    console.log(
      `unsandboxed fallback: ${leaks.length} secrets found; ${outsideFiles.length} of ${RACE_BATCHES * RACE_BATCH} racing writes created a file or folder outside the workspace (${refusedRaces} refused)\n${leaks.slice(0, 40).join('\n')}\ncontrol seen by the check: ${seen.check.join('; ')}\ncontrol seen by the watcher: ${seen.watch.join('; ')}`
    )
    // the scans could read the action's own environment (it runs dist/index.js), so the 0 below counts
    expect(seen.check.join('\n')).toMatch(/^SEEN \/proc\/\d+\/environ \(.*dist\/index\.cjs/m)
    expect(seen.watch.join('\n')).toMatch(/^SEEN \/proc\/\d+\/environ \(.*dist\/index\.cjs/m)
    // the run fetched and pushed its fix with the token while the watcher ran
    expect(report.pushes.map(p => p.by)).toEqual(['workflow'])
    expect(refusedRaces).toBeGreaterThan(0)
    expect(leaks).toEqual([])
    expect(outsideFiles).toEqual([])
    // and the log says plainly what PR code could have read
    expect(report.runs[0]!.warnings.join('\n')).toMatch(
      /PR code ran unsandboxed \(sandbox: off\), as the action's own user \(setpriv cannot start a command as review-loop-pr .*\)\. It could read the job's secrets/
    )
  }, 300_000)
})

/** The hostile check of issue 41: environ, memory and descriptors of every other process. */
const PROCESS_HUNT = readFileSync(
  path.join(import.meta.dirname, 'fixtures', 'process-hunt.py'),
  'utf8'
)

/** The uid of the user made for PR code, or undefined before any run made it. */
function prUserUid(): number | undefined {
  try {
    return Number(execFileSync('id', ['-u', 'review-loop-pr'], { encoding: 'utf8' }))
  } catch {
    return undefined
  }
}

/** Whether `pid` is a live process of the user made for PR code (not a zombie, not a reused pid). */
function runsAsPrUser(pid: number): boolean {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    return (
      Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]) === prUserUid() && !/^State:\s+Z/m.test(status)
    )
  } catch {
    return false
  }
}

describe.runIf(process.getuid?.() === 0)(
  'sandbox: off as root on a host without Yama: PR code runs as the user made for it, attacked through dist/',
  () => {
    it('a hostile check finds no secret through /proc environ, memory or fd duplication, its watcher is killed, and what PR code wrote is committed', async () => {
      const reports: Record<string, string> = {}
      let leftToPrUser: string[] = []
      let watcher = 0
      let pushed = ''
      let configAfter = ''
      const report = await runScenario(
        {
          base: {
            'package.json': '{ "name": "sample", "type": "module" }\n',
            '.gitignore': 'hunt/\n'
          },
          pr: {
            title: 'Add greeting',
            body: 'Adds greet().',
            commits: [
              {
                message: 'greet',
                files: { 'src/greet.js': GREET, 'process-hunt.py': PROCESS_HUNT }
              }
            ]
          },
          inputs: {
            // git works for PR code in a .git the action owns, and its config holds no credential
            checks:
              'hunt: python3 process-hunt.py check\ngit: git status --short\nconfig: grep -qF CANARY .git/config; test $? = 1',
            'fix-commands': 'mkdir -p gen && echo "export const made = 1" > gen/made.js',
            'review-model': 'claude-haiku-4-5',
            'fix-model': 'claude-sonnet-4-6',
            'max-iterations': '3',
            'state-key': 'CANARY_state_key_0002',
            sandbox: 'off'
          },
          env: {
            GH_PAT: 'ghp_CANARY_pat',
            ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'CANARY_oidc_request_token',
            DEPLOY_SETTING: 'CANARY_plain_name'
          },
          // origin over HTTP: the action's git fetches and pushes with the token on its fd 3
          gitOverHttp: true,
          // a credential persisted in the repository's config (the action's own git resets helpers,
          // so its fetch and push still take the token on fd 3)
          gitConfig: { 'credential.helper': '!echo password=CANARY_persisted_helper' },
          spawn: true,
          maxRuns: 1,
          model: {
            replies: [
              verdict('NO_GO'),
              // the fixer runs the hostile check itself: as the same user
              tool('run_check', { name: 'hunt' }),
              FIX_EDIT,
              { kind: 'text', text: 'done' }
            ]
          }
        },
        {
          keep: async sandbox => {
            const ws = sandbox.runs[0]!.workspace
            for (const file of files(path.join(ws, 'hunt')))
              reports[path.basename(file)] = readFileSync(file, 'utf8')
            watcher = Number(readFileSync(path.join(ws, 'hunt', 'watcher.pid'), 'utf8'))
            configAfter = readFileSync(path.join(ws, '.git', 'config'), 'utf8')
            pushed = execFileSync('git', ['log', '-p', '--format=%H %s', 'main..feature'], {
              cwd: sandbox.bare,
              encoding: 'utf8'
            })
            const uid = prUserUid()
            leftToPrUser = readdirSync(ws, { recursive: true, encoding: 'utf8' }).filter(
              f => lstatSync(path.join(ws, f)).uid === uid
            )
          }
        }
      )
      const all = Object.values(reports).join('\n')
      const checks = Object.entries(reports).filter(([name]) => name.startsWith('check-'))
      console.log(
        `user made for PR code: ${all.split('\n').filter(l => l.startsWith('DENIED')).length} reads refused; finds:\n${all
          .split('\n')
          .filter(l => /^(LEAK|OPENED|SEEN)/.test(l))
          .join('\n')}`
      )
      // the review's check, and the fixer's run_check
      expect(checks.length).toBe(2)
      for (const [, text] of checks) {
        // the attacks work: each of them found the control in a process of PR code's own user
        expect(text).toMatch(/^SEEN \/proc\/\d+\/environ$/m)
        expect(text).toMatch(/^SEEN \/proc\/\d+\/mem \(\d+ bytes\)$/m)
        expect(text).toMatch(/^SEEN pidfd_getfd \d+:\d+$/m)
        // and the kernel refused each of them on the action
        const action = /^ACTION (\d+)$/m.exec(text)![1]
        expect(text).toContain(`DENIED /proc/${action}/environ Permission denied`)
        expect(text).toContain(`DENIED /proc/${action}/mem Permission denied`)
        expect(text).toMatch(
          new RegExp(`^DENIED pidfd_getfd ${action}:\\d+ Operation not permitted$`, 'm')
        )
      }
      expect(all.split('\n').filter(l => /^(LEAK|OPENED)/.test(l))).toEqual([])
      // the watcher left the command's process tree and its marker, and was killed all the same
      expect(watcher).toBeGreaterThan(0)
      expect(runsAsPrUser(watcher)).toBe(false)
      // what the fix command wrote was handed back and committed, beside the fixer's edit
      expect(pushed).toContain('+export const made = 1')
      expect(pushed).toContain("(name ?? 'world')")
      expect(pushed).not.toMatch(CANARY)
      expect(leftToPrUser).toEqual([])
      // the persisted credentials were out of PR code's sight, and are back for the job's later steps
      const gates = (report.finalState as unknown as LoopState).iterations[0]!.gates
      expect(gates.find(g => g.name === 'config')).toMatchObject({ passed: true })
      expect(gates.find(g => g.name === 'git')).toMatchObject({ passed: true })
      expect(configAfter).toContain('CANARY_persisted_helper')
      expect(report.runs[0]!.outputs['status']).toBe('running')
      expect(report.runs[0]!.warnings.join('\n')).toMatch(
        /PR code ran without bubblewrap \(sandbox: off\), as the user review-loop-pr made for it/
      )
    }, 300_000)
  }
)

describe('a settings file that turns the sandbox off', () => {
  it('restarts the action without its secrets before any PR code runs, though the workflow left the sandbox on', async () => {
    const found: string[] = []
    const report = await runScenario(
      {
        base: {
          '.github/review-loop.yml': 'sandbox: off\n',
          '.gitignore': 'hunt/\n'
        },
        pr: {
          commits: [{ message: 'hunt', files: { 'secrets-hunt.sh': SECRETS_HUNT } }]
        },
        // the workflow's inputs leave the sandbox on, so the action found bubblewrap as it started
        // and did not restart then
        inputs: { checks: 'hunt: bash secrets-hunt.sh scan' },
        env: {
          GH_PAT: 'ghp_CANARY_pat',
          LC_HUNT_CONTROL: 'visible-to-the-hunt',
          PATH: withoutSeparateUser()
        },
        spawn: true,
        maxRuns: 1
      },
      {
        keep: async sandbox => {
          for (const file of files(path.join(sandbox.dir, 'hunt')))
            found.push(...readFileSync(file, 'utf8').split('\n').filter(Boolean))
        }
      }
    )
    // the scan read the action's own first environment, and no secret was in it
    expect(found.join('\n')).toMatch(/^SEEN \/proc\/\d+\/environ \(.*dist\/index\.cjs/m)
    expect(found.filter(l => l.startsWith('LEAK'))).toEqual([])
    expect(report.runs[0]!.warnings.join('\n')).toContain('PR code ran unsandboxed (sandbox: off)')
    expect(report.runs[0]!.outputs['verdict']).toBe('GO')
  }, 120_000)
})
