// How GitHub hands a caller's `with:` and `secrets:` to a reusable workflow, and that workflow's step
// `with:` to the action: just the expressions these workflows use (`${{ inputs.x }}`,
// `${{ secrets.x }}`, `${{ github.x }}`, string literals, joined by `||`), no more.
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'

export type Contexts = Record<'inputs' | 'secrets' | 'github', Record<string, string>>

interface Step {
  id?: string
  uses?: string
  with?: Record<string, unknown>
}
interface Job {
  uses?: string
  with?: Record<string, unknown>
  secrets?: Record<string, unknown>
  steps?: Step[]
}
export interface Workflow {
  on: Record<string, unknown>
  jobs: Record<string, Job>
}

interface CallSpec {
  inputs?: Record<string, { default?: unknown }>
  secrets?: Record<string, unknown>
}

export function readWorkflow(file: string): Workflow {
  return parse(readFileSync(file, 'utf8')) as Workflow
}

/** One term: a context's property (missing: ''), or a quoted literal. */
function term(text: string, ctx: Contexts): string {
  const literal = /^'(.*)'$/s.exec(text)
  if (literal) return literal[1]!.replace(/''/g, "'")
  const ref = /^(inputs|secrets|github)\.([A-Za-z_][\w-]*)$/.exec(text)
  if (!ref) throw new Error(`the test's evaluator does not know the expression: ${text}`)
  return ctx[ref[1] as keyof Contexts][ref[2]!] ?? ''
}

/** `a || b`: the first term that is not empty (GitHub's falsy string is ''). */
function expression(text: string, ctx: Contexts): string {
  const values = text.split('||').map(t => term(t.trim(), ctx))
  return values.find(v => v !== '') ?? ''
}

/** A `with:` value: its `${{ }}` expressions evaluated; a scalar YAML value as its string. */
export function evaluate(value: unknown, ctx: Contexts): string {
  return String(value ?? '').replace(/\$\{\{(.*?)\}\}/gs, (_, e: string) => expression(e, ctx))
}

export function evaluateAll(map: Record<string, unknown> | undefined, ctx: Contexts) {
  return Object.fromEntries(Object.entries(map ?? {}).map(([k, v]) => [k, evaluate(v, ctx)]))
}

/** The reusable workflow's declared inputs and secrets (on.workflow_call). */
export function callSpec(reusable: Workflow): Required<CallSpec> {
  const spec = (reusable.on['workflow_call'] ?? {}) as CallSpec
  return { inputs: spec.inputs ?? {}, secrets: spec.secrets ?? {} }
}

/** The caller's job that calls the reusable workflow. */
export function callingJob(caller: Workflow, file: string): Job {
  const job = Object.values(caller.jobs).find(j => j.uses?.includes(`/.github/workflows/${file}@`))
  if (!job) throw new Error(`no job of the caller uses ${file}`)
  return job
}

/** The step of the reusable workflow that runs the action (`uses: OWNER/review-loop@REF`). */
export function actionStep(reusable: Workflow): Step {
  const steps = Object.values(reusable.jobs).flatMap(j => j.steps ?? [])
  const step = steps.find(s => /^[^/]+\/review-loop@/.test(s.uses ?? ''))
  if (!step) throw new Error('no step of the reusable workflow uses the review-loop action')
  return step
}

/**
 * The action's inputs for one run: the caller's `with:`/`secrets:` under the caller's contexts (its
 * event's inputs, the repository's secrets), into the reusable workflow's inputs (declared defaults
 * first) and secrets, then the action step's `with:` under those.
 */
export function actionInputs(
  caller: Job,
  reusable: Workflow,
  callerCtx: Contexts
): Record<string, string> {
  const spec = callSpec(reusable)
  const given = evaluateAll(caller.with, callerCtx)
  for (const name of Object.keys(given))
    if (!(name in spec.inputs)) throw new Error(`the reusable workflow has no input ${name}`)
  const defaults = Object.entries(spec.inputs).map(([k, v]) => [k, String(v.default ?? '')])
  const inputs = { ...Object.fromEntries(defaults), ...given }
  const secrets = evaluateAll(caller.secrets, callerCtx)
  for (const name of Object.keys(secrets))
    if (!(name in spec.secrets)) throw new Error(`the reusable workflow has no secret ${name}`)
  return evaluateAll(actionStep(reusable).with, { inputs, secrets, github: callerCtx.github })
}
