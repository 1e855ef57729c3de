// The reusable workflow hands every input and secret it declares to the action, the caller example
// adopts it with what the re-trigger needs, the dispatch target is the caller's workflow for each
// shape of GITHUB_WORKFLOW_REF GitHub documents, and docs/reusable-workflow.md shows the caller's call
// (docs.test.ts resolves its links, as every page's).
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { dispatchTarget } from '../../src/action/context.js'
import {
  actionInputs,
  actionStep,
  callingJob,
  callSpec,
  readWorkflow,
  type Workflow
} from '../../test-support/workflow-call.js'

const REUSABLE = readWorkflow('.github/workflows/review-loop.yml')
const CALLER = readWorkflow('docs/examples/caller.yml')
const ACTION_INPUTS = Object.keys(
  (parse(readFileSync('action.yml', 'utf8')) as { inputs: Record<string, unknown> }).inputs
)

/** Which action input each input and secret of the reusable workflow reaches (marker → input). */
function reached(workflow: Workflow): Record<string, string[]> {
  const spec = callSpec(workflow)
  const mark = (name: string): string => `<${name}>`
  const job = {
    with: Object.fromEntries(Object.keys(spec.inputs).map(k => [k, mark(k)])),
    secrets: Object.fromEntries(Object.keys(spec.secrets).map(k => [k, mark(k)]))
  }
  const inputs = actionInputs(job, workflow, { inputs: {}, secrets: {}, github: { token: 'T' } })
  const names = [...Object.keys(spec.inputs), ...Object.keys(spec.secrets)]
  return Object.fromEntries(
    names.map(n => [n, Object.keys(inputs).filter(k => inputs[k] === mark(n))])
  )
}

describe('the reusable workflow', () => {
  it("maps each input and secret it takes to the action's input of that name (the token to github-token)", () => {
    const expected = Object.fromEntries(
      Object.keys(reached(REUSABLE)).map(n => [n, [n === 'token' ? 'github-token' : n]])
    )
    // runs-on is the job's runner, not an input of the action
    expected['runs-on'] = []
    expect(reached(REUSABLE)).toEqual(expected)
    for (const key of Object.keys(actionStep(REUSABLE).with ?? {}))
      expect(ACTION_INPUTS).toContain(key)
  })

  it('fails that test when the step drops an input', () => {
    const dropped = structuredClone(REUSABLE)
    delete actionStep(dropped).with!['max-cost-usd']
    expect(reached(dropped)['max-cost-usd']).toEqual([])
  })

  it('falls back to the workflow token when the caller passes no token secret', () => {
    const inputs = actionInputs({}, REUSABLE, { inputs: {}, secrets: {}, github: { token: 'T' } })
    expect(inputs['github-token']).toBe('T')
    expect(inputs['pr-number']).toBe('')
  })

  it('is adopted by the caller example with the dispatch trigger, pr-number and actions: write', () => {
    const on = CALLER.on as { workflow_dispatch?: { inputs?: Record<string, unknown> } }
    expect(on.workflow_dispatch?.inputs).toHaveProperty('pr-number')
    expect(
      (CALLER as unknown as { permissions: Record<string, string> }).permissions
    ).toMatchObject({
      actions: 'write',
      contents: 'write',
      checks: 'write'
    })
    const job = callingJob(CALLER, 'review-loop.yml')
    const inputs = actionInputs(job, REUSABLE, {
      inputs: { 'pr-number': '42' },
      secrets: { ANTHROPIC_API_KEY: 'sk-ant', REVIEW_LOOP_STATE_KEY: 'key' },
      github: { token: 'T' }
    })
    expect(inputs).toMatchObject({
      'pr-number': '42',
      'anthropic-api-key': 'sk-ant',
      'state-key': 'key'
    })
  })
})

describe('the workflow a dispatch starts again (GITHUB_WORKFLOW_REF)', () => {
  const here = 'acme/app'
  it.each([
    ['a branch', 'acme/app/.github/workflows/review.yml@refs/heads/main'],
    ["a pull request's merge ref", 'acme/app/.github/workflows/review.yml@refs/pull/7/merge'],
    ['a tag', 'acme/app/.github/workflows/review.yml@refs/tags/v2'],
    ['another letter case of the repository', 'Acme/App/.github/workflows/review.yml@refs/heads/x']
  ])("is the caller's file for %s", (_, ref) => {
    expect(dispatchTarget(ref, here)).toEqual({ file: 'review.yml' })
  })

  it('is none for a workflow of another repository, saying why and what to do', () => {
    const target = dispatchTarget(
      'acme/policies/.github/workflows/review.yml@refs/heads/main',
      here
    )
    expect(target.file).toBeUndefined()
    expect(target.missing).toContain('review.yml of acme/policies')
    expect(target.missing).toContain('retrigger: push')
  })

  it.each([undefined, '', 'acme/app/dynamic/github-code-scanning/codeql@refs/heads/main'])(
    'is none when the ref names no workflow file (%s)',
    ref => {
      expect(dispatchTarget(ref, here)).toEqual({
        missing: 'GITHUB_WORKFLOW_REF names no workflow file.'
      })
    }
  )
})

describe('docs/reusable-workflow.md', () => {
  const doc = readFileSync('docs/reusable-workflow.md', 'utf8')
  it("shows the caller example's call", () => {
    expect(doc).toContain(callingJob(CALLER, 'review-loop.yml').uses)
  })
})
