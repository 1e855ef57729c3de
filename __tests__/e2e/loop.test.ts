import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { git } from '../../test-support/git-fixture.js'
import { HUMAN_TOKEN, Sandbox, webhookExamples } from '../../test-support/harness.js'
import { runScenario, type Scenario } from '../../test-support/scenario.js'
import { pathWithoutSeparateUser } from '../../test-support/no-separate-user.js'

const GREET_WITH_TRAILING_SPACE = "export function greet(name) {\n  return 'Hello, ' + name   \n}\n"
const WHITESPACE_CHECK = "whitespace: grep -rnE ' +$' src && exit 1 || exit 0"
const TODO_CHECK = 'todo: grep -rn "TODO" src && exit 1 || exit 0'

function scenario(overrides: Partial<Scenario>): Scenario {
  return {
    base: {
      'package.json': '{ "name": "sample", "private": true }\n',
      'src/util.js': 'export const one = 1\n'
    },
    pr: {
      commits: [{ message: 'add greeting', files: { 'src/greet.js': GREET_WITH_TRAILING_SPACE } }]
    },
    inputs: { checks: WHITESPACE_CHECK, 'fix-commands': "sed -i -E 's/ +$//' src/*.js" },
    ...overrides
  }
}

describe('the loop through dist/ on the emulators', () => {
  it('reaches GO on iteration 2 when the fix commands fix everything, with exactly one PR comment', async () => {
    const report = await runScenario(scenario({}))
    expect(report.runs.map(r => [r.event, r.outputs['verdict'], r.outputs['status']])).toEqual([
      ['pull_request', 'NO_GO', 'running'],
      ['workflow_dispatch', 'GO', 'go']
    ])
    expect(report.runs.every(r => r.exitCode === 0)).toBe(true)
    expect(report.comments).toHaveLength(1)
    expect(report.comments[0]!.body).toContain('## Review loop: GO — iteration 2 of 3')
    expect(report.dispatches).toEqual([
      { workflow: 'review-loop.yml', ref: 'feature', inputs: { 'pr-number': '7' } }
    ])
    expect(report.pushes).toHaveLength(1)
    expect(report.checkRuns.map(c => c.conclusion)).toEqual(['failure', 'success'])
    // the first check run annotates the located finding on the reviewed commit
    expect(report.checkRuns[0]!.annotations).toMatchObject([
      { path: 'src/greet.js', start_line: 2, annotation_level: 'failure' }
    ])
    expect(report.runs[1]!.outputs['converged']).toBe('true')
    // the per-iteration budget of API calls (pagination and annotation batches aside)
    for (const run of report.runs) expect(run.coreCallCount).toBeLessThanOrEqual(10)
  })

  it('ends at max_iterations with a failing check and annotations when the fixers cannot fix it', async () => {
    // the fix command changes a file every time but never removes the TODOs
    const report = await runScenario(
      scenario({
        pr: {
          commits: [
            {
              message: 'todos',
              files: { 'src/a.js': '// TODO one\n', 'src/b.js': 'x()\n// TODO two\n' }
            }
          ]
        },
        inputs: {
          checks: TODO_CHECK,
          'fix-commands': 'date +%s%N >> src/stamp.txt',
          'max-iterations': '2'
        }
      })
    )
    const last = report.runs[report.runs.length - 1]!
    expect(report.runs).toHaveLength(2)
    expect(last.outputs['status']).toBe('max_iterations')
    expect(last.exitCode).toBe(1)
    expect(last.errors.join('\n')).toContain('max_iterations')
    const lastCheck = report.checkRuns[report.checkRuns.length - 1]!
    expect(lastCheck.conclusion).toBe('failure')
    expect(lastCheck.annotations.map(a => `${a.path}:${a.start_line}`).sort()).toEqual([
      'src/a.js:1',
      'src/b.js:2'
    ])
    expect(report.labels).toContain('review-loop: needs human')
    expect(report.comments).toHaveLength(1)
    expect(report.comments[0]!.body).toContain('Full history of findings')
  })

  it('ends as stalled after one fix attempt when the fixers change nothing', async () => {
    const report = await runScenario(
      scenario({
        inputs: { checks: TODO_CHECK, 'fix-commands': 'true' },
        pr: { commits: [{ message: 't', files: { 'src/a.js': '// TODO\n' } }] }
      })
    )
    expect(report.runs).toHaveLength(1)
    expect(report.runs[0]!.outputs['status']).toBe('stalled')
    expect(report.pushes).toHaveLength(0)
    expect(report.dispatches).toHaveLength(0)
    const state = report.finalState as { iterations: Array<{ fix?: { outcome: string } }> }
    expect(state.iterations.map(i => i.fix?.outcome)).toEqual(['no_changes'])
  })

  it('reviews a human push made between runs next', async () => {
    const report = await runScenario(
      scenario({
        humanPushes: [
          {
            beforeRun: 2,
            message: 'human adds a TODO',
            files: { 'src/c.js': '// TODO by a human\n' }
          }
        ],
        inputs: {
          checks: `${WHITESPACE_CHECK}\n${TODO_CHECK}`,
          'fix-commands': "sed -i -E 's/ +$//' src/*.js"
        }
      })
    )
    const human = report.pushes.find(p => p.by === 'human')!
    // the dispatched run reviews the human's head; the synchronize run for the same head then skips
    expect(report.runs[1]!.outputs['reviewed-sha']).toBe(human.sha)
    expect(report.runs[1]!.outputs['verdict']).toBe('NO_GO')
    expect(report.runs[2]!.outputs['skipped']).toBe('true')
    expect(report.runs[2]!.notices.join()).toContain('already reviewed')
  })

  it('changes nothing when a finished run attempt is re-run', async () => {
    const report = await runScenario(scenario({ reruns: [{ afterRun: 2 }] }))
    expect(report.runs).toHaveLength(3)
    const [, first, rerun] = report.runs
    expect(rerun!.runId).toBe(first!.runId)
    expect(rerun!.attempt).toBe(2)
    expect(rerun!.exitCode).toBe(0)
    expect(rerun!.notices.join()).toContain('re-running it changes nothing')
    expect(report.checkRuns).toHaveLength(2)
    expect(report.comments).toHaveLength(1)
    expect((report.finalState as { iterations: unknown[] }).iterations).toHaveLength(2)
    expect(Object.keys(rerun!.calls).filter(r => !r.startsWith('GET'))).toEqual([])
  })
})

describe('trust in the state comment', () => {
  it('halts on a state edited by another user, and ignores a state comment written by someone else', async () => {
    const sandbox = await Sandbox.create(
      scenario({ pr: { commits: [{ message: 't', files: { 'src/a.js': '// TODO\n' } }] } })
    )
    try {
      const inputs = {
        checks: TODO_CHECK,
        'fix-commands': 'date +%s%N >> src/stamp.txt',
        'max-iterations': '2'
      }
      const first = await sandbox.run({ event: 'pull_request', action: 'opened', inputs })
      expect(first.outputs['status']).toBe('running')
      // a human edits the bot's state to claim the loop already converged
      const comment = sandbox.emulator.comments[0]!
      const forged = comment.body.replace('"status":"running"', '"status":"go"')
      await fetch(`${sandbox.emulator.url}/repos/acme/widgets/issues/comments/${comment.id}`, {
        method: 'PATCH',
        headers: { authorization: `token ${HUMAN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ body: forged })
      })
      // and posts a state of their own
      await fetch(`${sandbox.emulator.url}/repos/acme/widgets/issues/7/comments`, {
        method: 'POST',
        headers: { authorization: `token ${HUMAN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ body: forged })
      })
      const second = await sandbox.run({
        event: 'workflow_dispatch',
        dispatchInputs: { 'pr-number': '7' },
        inputs: { ...inputs, 'pr-number': '7' }
      })
      expect(second.stdout).toContain('edited by hand')
      expect(second.stdout).toContain('written by octocat')
      // the forged state was neither trusted nor replaced by a fresh one: the loop halts
      expect(second.outputs['status']).toBe('needs_discussion')
      expect(second.outputs['skipped']).toBe('true')
      expect(second.exitCode).toBe(1)
      expect(sandbox.emulator.comments.find(c => c.id === comment.id)!.body).toBe(forged)
      const bot = sandbox.emulator.comments.filter(c => c.author === 'github-actions[bot]')
      expect(bot).toHaveLength(2)
      expect(bot[1]!.body).toContain('the loop state cannot be trusted')
      expect(bot[1]!.body).toContain(`#issuecomment-${comment.id}`)
    } finally {
      await sandbox.close()
    }
  })
})

describe('events', () => {
  it('runs or ends cleanly with a notice for every pull_request and workflow_dispatch example payload', async () => {
    const sandbox = await Sandbox.create(scenario({ inputs: {} }))
    try {
      const inputs = { checks: 'ok: true', retrigger: 'none' }
      const payloads = [
        ...webhookExamples('pull_request').map(p => ['pull_request', p] as const),
        ...webhookExamples('workflow_dispatch').map(p => ['workflow_dispatch', p] as const)
      ]
      const outcomes: string[] = []
      for (const [event, example] of payloads) {
        const action = example['action'] as string | undefined
        const payload = sandbox.payload(event, action)
        Object.assign(
          payload,
          { action },
          event === 'pull_request' ? {} : { inputs: example['inputs'] }
        )
        if (event === 'pull_request') {
          const pr = payload['pull_request'] as Record<string, unknown>
          const src = example['pull_request'] as Record<string, unknown>
          Object.assign(pr, { state: src['state'], draft: src['draft'], merged: src['merged'] })
          const pull = sandbox.emulator.pulls.get(7)!
          pull.state = src['state'] === 'closed' ? 'closed' : 'open'
          pull.draft = src['draft'] === true
          pull.merged = src['merged'] === true
        }
        const run = await sandbox.run({ event, action, payload, inputs })
        expect(run.exitCode, `${event} ${action}: ${run.stdout}`).toBe(0)
        const ran = run.outputs['skipped'] === 'false'
        expect(ran || run.stdout.includes('::notice::'), `${event} ${action}`).toBe(true)
        outcomes.push(`${event}:${action ?? '-'}:${ran ? 'ran' : 'notice'}`)
      }
      expect(outcomes).toContain('pull_request:opened:ran')
      expect(outcomes).toContain('pull_request:closed:notice')
      expect(outcomes).toContain('pull_request:converted_to_draft:notice')
      expect(outcomes).toContain('workflow_dispatch:-:notice')
    } finally {
      await sandbox.close()
    }
  }, 180_000)
})

describe('safety', () => {
  it('keeps secrets out of checks and reverts changes to protected paths', async () => {
    const sandbox = await Sandbox.create(scenario({}))
    try {
      const inputs = {
        checks: `env: env > env-seen.txt; ${WHITESPACE_CHECK.slice('whitespace: '.length)}`,
        'fix-commands':
          "sed -i -E 's/ +$//' src/*.js\nmkdir -p .github/workflows && echo hacked > .github/workflows/x.yml\necho 'x' > secret.cfg",
        'protected-paths': 'secret.cfg'
      }
      const run = await sandbox.run({ event: 'pull_request', action: 'opened', inputs })
      const seen = readFileSync(path.join(run.workspace, 'env-seen.txt'), 'utf8')
      expect(seen).toMatch(/^PATH=/m)
      expect(seen).not.toContain('GITHUB_REPOSITORY')
      expect(seen).not.toContain('sk-test-must-not-leak')
      expect(seen).not.toContain('ghs_')
      expect(seen).not.toMatch(/^INPUT_/m)
      expect(run.outputs['status']).toBe('running')
      const files = sandbox.headSha()
      expect(files).toBe(run.outputs['head-sha'])
      const state = sandbox.stateJson() as {
        iterations: Array<{ fix: { filesChanged: string[]; revertedProtected: string[] } }>
      }
      expect(state.iterations[0]!.fix.revertedProtected.sort()).toEqual([
        '.github/workflows/x.yml',
        'secret.cfg'
      ])
      expect(state.iterations[0]!.fix.filesChanged).toEqual(['src/greet.js'])
    } finally {
      await sandbox.close()
    }
  })
})

describe('what a fix commit leaves out', () => {
  it('keeps protected paths (.gitignore semantics, any letter case) and links out of the repository out, and the comment says why', async () => {
    const report = await runScenario(
      scenario({
        base: {
          'package.json': '{ "name": "sample", "private": true }\n',
          'config/settings.json': '{ "a": 1 }\n',
          'packages/app/yarn.lock': '# yarn lockfile v1\n',
          'src/util.js': 'export const one = 1\n'
        },
        inputs: {
          checks: WHITESPACE_CHECK,
          'protected-paths': 'config/, *.lock, secrets',
          'fix-commands': [
            "sed -i -E 's/ +$//' src/*.js",
            'echo changed >> config/settings.json && echo changed >> packages/app/yarn.lock',
            'mkdir -p secrets && echo x > secrets/new.txt',
            'mkdir -p .GITHUB/workflows .github/Workflows',
            "echo 'on: push' > .GITHUB/workflows/x.yml && echo 'on: push' > .github/Workflows/x.yml",
            'ln -s ../../../../etc/passwd src/passwd-rel && ln -s /etc/passwd src/passwd-abs',
            'ln -s util.js src/util-link.js'
          ].join('\n')
        }
      })
    )
    const state = report.finalState as {
      iterations: Array<{ fix?: { filesChanged: string[] } }>
    }
    // only the whitespace fix and the link within the repository are committed
    expect(state.iterations[0]!.fix!.filesChanged).toEqual(['src/greet.js', 'src/util-link.js'])
    const body = report.comments[0]!.body
    expect(body).toContain('**Left out of the fix commit of iteration 1:**')
    for (const line of [
      '- `config/settings.json`: it is protected by "config/"',
      '- `packages/app/yarn.lock`: it is protected by "\\*.lock"',
      '- `secrets/new.txt`: it is protected by "secrets"',
      '- `.GITHUB/workflows/x.yml`: it is protected by ".github/workflows/"',
      '- `.github/Workflows/x.yml`: it is protected by ".github/workflows/"',
      '- `src/passwd-rel`: it is a symbolic link out of the repository ("../../../../etc/passwd")',
      '- `src/passwd-abs`: it is a symbolic link to an absolute path ("/etc/passwd")'
    ])
      expect(body).toContain(line)
    expect(report.runs[0]!.warnings.join('\n')).toContain(
      'Left src/passwd-rel out of the fix commit: it is a symbolic link out of the repository'
    )
  })
})

describe('links into protected folders', () => {
  it("leaves a fix command's links to protected folders out of the pushed commit, however spelled, and lists each", async () => {
    const sandbox = await Sandbox.create(
      scenario({
        base: {
          'package.json': '{ "name": "sample", "private": true }\n',
          'config/settings.json': '{ "a": 1 }\n',
          'src/util.js': 'export const one = 1\n'
        }
      })
    )
    try {
      const links: Array<[file: string, target: string]> = [
        ['src/wf', '../.github/workflows'],
        ['src/conf', '../config'],
        ['src/wf-case', '../.GITHUB/Workflows'],
        ['src/wf-dots', './../.github/./workflows/'],
        ['src/gh', '../.github'],
        ['src/deep/er/wf', '../../../.github/workflows'],
        // a link to a link to a protected folder
        ['src/chain', 'deep/er/wf']
      ]
      const run = await sandbox.run({
        event: 'pull_request',
        action: 'opened',
        inputs: {
          checks: WHITESPACE_CHECK,
          'protected-paths': 'config/',
          'fix-commands': [
            "sed -i -E 's/ +$//' src/*.js",
            'mkdir -p src/deep/er',
            ...links.map(([file, target]) => `ln -s '${target}' ${file}`),
            'ln -s "$PWD/.github/workflows" src/abs',
            'ln -s util.js src/util-link.js'
          ].join('\n')
        }
      })
      expect(run.exitCode).toBe(0)
      // the fix was pushed, with the whitespace fix and the harmless link only
      const pushed = sandbox.headSha()
      expect(pushed).toBe(run.outputs['head-sha'])
      const tree = git(sandbox.bare, ['ls-tree', '-r', '--name-only', pushed]).split('\n')
      expect(tree).toContain('src/util-link.js')
      expect(tree.filter(f => f.startsWith('src/')).sort()).toEqual([
        'src/greet.js',
        'src/util-link.js',
        'src/util.js'
      ])
      const body = sandbox.emulator.comments.find(c => c.body.includes('Left out of the fix'))!.body
      for (const [file] of links)
        expect(body).toContain(`- \`${file}\`: it is a link into a protected folder`)
      expect(body).toContain('- `src/abs`: it is a symbolic link to an absolute path')
    } finally {
      await sandbox.close()
    }
  })
})

describe('a branch that moves during the run', () => {
  it('is not pushed over: the fix is kept as a patch and the new head is left to the next run', async () => {
    const sandbox = await Sandbox.create(scenario({}))
    try {
      const concurrent =
        '(cd "$HUMAN_CLONE" && git fetch -q origin && git checkout -q -B feature origin/feature && git -c user.name=h -c user.email=h@example.com commit -q --allow-empty -m concurrent && git push -q origin feature)'
      const run = await sandbox.run({
        event: 'pull_request',
        action: 'opened',
        inputs: {
          checks: WHITESPACE_CHECK,
          'fix-commands': `sed -i -E 's/ +$//' src/*.js\n${concurrent}`,
          // the concurrent push reaches a clone outside the workspace: not possible in the sandbox
          sandbox: 'off',
          'env-passthrough': 'HUMAN_CLONE'
        },
        // as the action's own user: the user made for PR code cannot reach the clone either
        env: { HUMAN_CLONE: sandbox.humanClone, PATH: pathWithoutSeparateUser(sandbox.dir) }
      })
      expect(run.exitCode).toBe(0)
      expect(run.stdout).toContain('was not pushed')
      expect(run.dispatched).toEqual([])
      // the branch holds the human's commit, not ours
      expect(git(sandbox.bare, ['log', '-1', '--format=%s', 'feature'])).toBe('concurrent')
      const state = sandbox.stateJson() as {
        status: string
        iterations: Array<{ fix: { outcome: string; patch?: string } }>
      }
      expect(state.status).toBe('running')
      expect(state.iterations[0]!.fix).toMatchObject({
        outcome: 'branch_moved',
        patch: 'fix-1.patch'
      })
      const patch = readFileSync(
        path.join(path.dirname(run.outputs['review-json']!), 'fix-1.patch'),
        'utf8'
      )
      expect(patch).toContain('review-loop: address review (iteration 1)')
      expect(patch).toContain("-  return 'Hello, ' + name   ")
    } finally {
      await sandbox.close()
    }
  })
})

describe('runtimes', () => {
  it("also runs on the machine's own Node (outside node_modules), not only the runners' Node 24", async () => {
    const system = (process.env['PATH'] ?? '')
      .split(':')
      .filter(dir => dir && !dir.includes('node_modules'))
      .map(dir => path.join(dir, 'node'))
      .find(file => existsSync(file))
    expect(system, 'a node on PATH outside node_modules').toBeTruthy()
    const version = execFileSync(system!, ['--version'], { encoding: 'utf8' }).trim()
    const sandbox = await Sandbox.create(scenario({}))
    try {
      const run = await sandbox.run({
        event: 'pull_request',
        action: 'opened',
        node: system,
        inputs: { checks: WHITESPACE_CHECK, 'fix-commands': "sed -i -E 's/ +$//' src/*.js" }
      })
      expect(run.exitCode, `${version}: ${run.stdout}${run.stderr}`).toBe(0)
      expect(run.outputs['status']).toBe('running')
      expect(run.dispatched).toHaveLength(1)
    } finally {
      await sandbox.close()
    }
  })
})

describe('a human stops the loop', () => {
  it('marks the loop stopped when the PR carries the stop label, without reviewing or failing the step', async () => {
    const sandbox = await Sandbox.create(scenario({}))
    try {
      const inputs = { checks: WHITESPACE_CHECK, 'fix-commands': "sed -i -E 's/ +$//' src/*.js" }
      await sandbox.run({ event: 'pull_request', action: 'opened', inputs })
      sandbox.emulator.pulls.get(7)!.labels.push('review-loop: stop')
      const checksBefore = sandbox.emulator.checkRuns.length
      const run = await sandbox.run({
        event: 'workflow_dispatch',
        dispatchInputs: { 'pr-number': '7' },
        inputs: { ...inputs, 'pr-number': '7' }
      })
      expect(run.exitCode).toBe(0)
      expect(run.stdout).toContain("has the label 'review-loop: stop'")
      expect(run.outputs['status']).toBe('stopped')
      expect(run.dispatched).toEqual([])
      expect(sandbox.emulator.checkRuns.length).toBe(checksBefore)
      expect(sandbox.emulator.comments).toHaveLength(1)
      expect(sandbox.emulator.comments[0]!.body).toContain('## Review loop: stopped by a human')
    } finally {
      await sandbox.close()
    }
  })
})
