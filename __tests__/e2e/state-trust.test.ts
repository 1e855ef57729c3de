import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { HUMAN_TOKEN, Sandbox, type RunRecord } from '../../test-support/harness.js'
import type { Scenario } from '../../test-support/scenario.js'

const TODO_CHECK = 'todo: grep -rn "TODO" src && exit 1 || exit 0'
const KEY = 'state-key-for-the-e2e-test-0123456789'
const UNTRUSTED_TITLE = 'The loop state cannot be trusted'

// the fix command changes a file every time but never removes the TODO
const INPUTS = {
  checks: TODO_CHECK,
  'fix-commands': 'date +%s%N >> src/stamp.txt',
  'max-iterations': '2'
}
const never: Scenario = {
  base: { 'README.md': '# sample\n' },
  pr: { commits: [{ message: 'todo', files: { 'src/a.js': '// TODO\n' } }] },
  inputs: INPUTS
}

/** A human with write access edits the bot's state comment. */
async function edit(sandbox: Sandbox, id: number, body: string): Promise<void> {
  const res = await fetch(`${sandbox.emulator.url}/repos/acme/widgets/issues/comments/${id}`, {
    method: 'PATCH',
    headers: { authorization: `token ${HUMAN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ body })
  })
  expect(res.status).toBe(200)
}

function stateComment(sandbox: Sandbox) {
  return sandbox.emulator.comments.find(c => c.body.startsWith('<!-- review-loop:state'))!
}

function dispatch(sandbox: Sandbox, inputs: Record<string, string>): Promise<RunRecord> {
  return sandbox.run({
    event: 'workflow_dispatch',
    dispatchInputs: { 'pr-number': '7' },
    inputs: { ...inputs, 'pr-number': '7' }
  })
}

/** The digest anyone can compute, over a JSON changed at will. */
function recomputed(body: string, edit: (json: string) => string): string {
  const json = edit(/ (\{.*?\}) -->/s.exec(body)![1]!)
  const sum = createHash('sha256').update(json).digest('hex').slice(0, 16)
  return `<!-- review-loop:state sha256:${sum} ${json} -->\n## Review loop: GO`
}

describe('a state the action cannot trust halts the loop, through dist/', () => {
  it('with max-iterations 2, an edited state ends every run as needs_discussion instead of reviewing again', async () => {
    const sandbox = await Sandbox.create(never)
    try {
      const first = await sandbox.run({
        event: 'pull_request',
        action: 'opened',
        inputs: INPUTS
      })
      expect(first.outputs['status']).toBe('running')
      const comment = stateComment(sandbox)
      const evidence = comment.body.replace('"maxIterations":2', '"maxIterations":20')
      await edit(sandbox, comment.id, evidence)

      for (const _ of [1, 2, 3]) {
        const run = await dispatch(sandbox, INPUTS)
        expect(run.outputs['status']).toBe('needs_discussion')
        expect(run.outputs['skipped']).toBe('true')
        expect(run.exitCode).toBe(1)
        expect(run.pushed).toBeUndefined()
        expect(run.dispatched).toEqual([])
        expect(run.stdout).toContain('edited by hand')
      }
      // one review in all; the evidence kept; one notice, updated in place
      const reviews = sandbox.emulator.checkRuns.filter(c => c.title !== UNTRUSTED_TITLE)
      expect(reviews).toHaveLength(1)
      const halts = sandbox.emulator.checkRuns.filter(c => c.title === UNTRUSTED_TITLE)
      expect(halts.map(c => c.conclusion)).toEqual(['failure', 'failure', 'failure'])
      expect(stateComment(sandbox).body).toBe(evidence)
      const notices = sandbox.emulator.comments.filter(c =>
        c.body.startsWith('<!-- review-loop:untrusted -->')
      )
      expect(notices).toHaveLength(1)
      expect(notices[0]!.author).toBe('github-actions[bot]')
      expect(notices[0]!.body).toContain(`#issuecomment-${comment.id}`)
      expect(notices[0]!.body).toContain('Delete the state comment')
      expect(sandbox.emulator.pulls.get(7)!.labels).toContain('review-loop: needs human')

      // the deliberate reset: a maintainer deletes the state comment
      sandbox.emulator.comments.splice(sandbox.emulator.comments.indexOf(stateComment(sandbox)), 1)
      const fresh = await dispatch(sandbox, INPUTS)
      expect(fresh.outputs['status']).toBe('running')
      expect(fresh.outputs['iteration']).toBe('1')
    } finally {
      await sandbox.close()
    }
  })

  it('with state-key, halts on a state recomputed without the key, and on a keyed state read without it', async () => {
    const sandbox = await Sandbox.create(never)
    try {
      const keyed = { ...INPUTS, 'state-key': KEY }
      const first = await sandbox.run({ event: 'pull_request', action: 'opened', inputs: keyed })
      expect(first.outputs['status']).toBe('running')
      const comment = stateComment(sandbox)
      expect(comment.body).toMatch(/^<!-- review-loop:state hmac-sha256:[0-9a-f]{64} \{/)
      const signed = comment.body

      // the key is masked, never printed
      for (const text of [first.stdout, first.stderr])
        expect(text.replaceAll(`::add-mask::${KEY}`, '')).not.toContain(KEY)

      // read without the key: a clear reason, not a fresh loop
      const unkeyed = await dispatch(sandbox, INPUTS)
      expect(unkeyed.outputs['status']).toBe('needs_discussion')
      expect(unkeyed.stdout).toContain('set the input state-key')

      // someone without the key raises the cap and recomputes the digest
      await edit(
        sandbox,
        comment.id,
        recomputed(signed, j => j.replace('"maxIterations":2', '"maxIterations":20'))
      )
      const forged = await dispatch(sandbox, keyed)
      expect(forged.outputs['status']).toBe('needs_discussion')
      expect(forged.exitCode).toBe(1)
      expect(forged.stdout).toContain('plain sha256 digest')

      // the intact signed state goes on with the key
      await edit(sandbox, comment.id, signed)
      const resumed = await dispatch(sandbox, keyed)
      expect(resumed.outputs['iteration']).toBe('2')
      expect(resumed.outputs['status']).toBe('max_iterations')
    } finally {
      await sandbox.close()
    }
  })
})
