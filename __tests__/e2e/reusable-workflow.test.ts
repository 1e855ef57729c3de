// The reusable workflow (.github/workflows/review-loop.yml) called as docs/examples/caller.yml calls
// it: the action (dist/) gets the inputs the step's `with:` maps from the caller's `with:` and
// `secrets:`, and the job's GITHUB_WORKFLOW_REF names the CALLER's workflow, as GitHub sets it for a
// called workflow. The loop's next iteration is a dispatch of the caller's file, and the dispatched
// run goes through the caller into the reusable workflow again.
import { afterEach, describe, expect, it } from 'vitest'
import { Sandbox, WORKFLOW_TOKEN, type RunRequest } from '../../test-support/harness.js'
import {
  actionInputs,
  callingJob,
  readWorkflow,
  type Contexts
} from '../../test-support/workflow-call.js'

const REUSABLE = readWorkflow('.github/workflows/review-loop.yml')
const CALLER = readWorkflow('docs/examples/caller.yml')
/** The file the caller lives in, in the repository that adopts review-loop. */
const CALLER_FILE = 'review.yml'
const STATE_KEY = 'state-key-of-the-calling-repository'

const GREET_WITH_TRAILING_SPACE = "export function greet(name) {\n  return 'Hello, ' + name   \n}\n"

/** The example caller, with checks this sandbox can run in place of its eslint and npm test. */
const callerJob = (() => {
  const job = callingJob(CALLER, 'review-loop.yml')
  const checks = "whitespace: grep -rnE ' +$' src && exit 1 || exit 0"
  const fix = "sed -i -E 's/ +$//' src/*.js"
  return { ...job, with: { ...job.with, checks, 'fix-commands': fix } }
})()

let sandbox: Sandbox | undefined
afterEach(async () => {
  await sandbox?.close()
  sandbox = undefined
})

async function adopt(): Promise<Sandbox> {
  sandbox = await Sandbox.create({
    base: { 'package.json': '{ "name": "sample", "private": true }\n', 'src/util.js': 'x\n' },
    pr: { commits: [{ message: 'greet', files: { 'src/greet.js': GREET_WITH_TRAILING_SPACE } }] },
    // the repository's workflows that take workflow_dispatch: the caller, not the reusable one
    workflows: [CALLER_FILE]
  })
  return sandbox
}

/**
 * Runs the loop as GitHub would: the caller's event, its `with:`/`secrets:` into the reusable
 * workflow and the step's `with:` into the action; then each dispatch of the caller's file starts
 * the caller again (a dispatch of any other file starts nothing here).
 */
async function runThroughCaller(box: Sandbox, workflowRef: (gitRef: string) => string) {
  let next: RunRequest | undefined = { event: 'pull_request', action: 'opened' }
  while (next && box.runs.length < 5) {
    const ctx: Contexts = {
      inputs: next.dispatchInputs ?? {},
      secrets: { REVIEW_LOOP_STATE_KEY: STATE_KEY },
      github: { token: WORKFLOW_TOKEN }
    }
    const gitRef =
      next.event === 'workflow_dispatch' ? `refs/heads/${box.branch}` : `refs/pull/7/merge`
    const inputs = actionInputs(callerJob, REUSABLE, ctx)
    const run = await box.run({
      ...next,
      inputs,
      env: { GITHUB_WORKFLOW_REF: workflowRef(gitRef) }
    })
    const d = run.dispatched.find(x => x.workflow === CALLER_FILE)
    next = d && { event: 'workflow_dispatch', dispatchInputs: d.inputs }
  }
  return box.runs
}

describe('the reusable workflow, called from another workflow', () => {
  it("dispatches the caller's workflow with pr-number for the next iteration, and reaches GO through it", async () => {
    const box = await adopt()
    const runs = await runThroughCaller(
      box,
      gitRef => `acme/widgets/.github/workflows/${CALLER_FILE}@${gitRef}`
    )
    expect(runs.map(r => [r.event, r.outputs['verdict'], r.outputs['status']])).toEqual([
      ['pull_request', 'NO_GO', 'running'],
      ['workflow_dispatch', 'GO', 'go']
    ])
    expect(runs[0]!.dispatched).toMatchObject([
      { workflow: CALLER_FILE, ref: 'feature', inputs: { 'pr-number': '7' } }
    ])
    expect(runs.every(r => r.exitCode === 0)).toBe(true)
    expect(runs[1]!.outputs['converged']).toBe('true')
    // the caller's state-key secret reached the action: the state is signed with it
    const comment = box.emulator.comments.find(c => c.body.includes('<!-- review-loop:state'))
    expect(comment?.body).toContain('<!-- review-loop:state hmac-sha256:')
  })

  it("does not dispatch into this repository a workflow of another one (a ruleset's required workflow)", async () => {
    const box = await adopt()
    // the required workflow lives in acme/policies; acme/widgets has a review.yml of its own
    const runs = await runThroughCaller(
      box,
      gitRef => `acme/policies/.github/workflows/${CALLER_FILE}@${gitRef}`
    )
    expect(runs).toHaveLength(1)
    expect(runs[0]!.dispatched).toEqual([])
    expect(runs[0]!.outputs['status']).toBe('running')
    expect(runs[0]!.stdout).toContain(
      `Cannot start the next iteration: the running workflow is ${CALLER_FILE} of acme/policies`
    )
    expect(runs[0]!.stdout).toContain('retrigger: push')
    // the step fails, saying so: the loop waits for a re-run
    expect(runs[0]!.exitCode).toBe(1)
  })
})
