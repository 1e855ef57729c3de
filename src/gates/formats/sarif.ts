import type { Log, Result, Run } from 'sarif'
import { toolLevel, type GateProblem, type ToolLevel } from '../problem.js'

/**
 * SARIF 2.1.0 (ESLint's @microsoft/eslint-formatter-sarif, staticcheck -f sarif, Ruff, CodeQL…).
 * A result's level comes from the result, else its rule's default configuration, else `warning`
 * (the spec's default); `none` is advice. Paths are `artifactLocation.uri`, resolved against
 * `originalUriBaseIds` where a `uriBaseId` names one.
 */
export function isSarif(json: unknown): json is Log {
  return (
    typeof json === 'object' &&
    json !== null &&
    Array.isArray((json as Log).runs) &&
    typeof (json as Log).version === 'string'
  )
}

export function readSarif(log: Log): GateProblem[] {
  return log.runs.flatMap(run => (run.results ?? []).map(r => fromResult(run, r)))
}

function ruleLevel(run: Run, result: Result): string | undefined {
  const rules = run.tool?.driver?.rules ?? []
  const rule =
    result.ruleIndex !== undefined
      ? rules[result.ruleIndex]
      : rules.find(r => r.id === result.ruleId)
  return rule?.defaultConfiguration?.level
}

function fromResult(run: Run, result: Result): GateProblem {
  const level: ToolLevel = toolLevel(result.level ?? ruleLevel(run, result), 'warning')
  const physical = result.locations?.[0]?.physicalLocation
  const artifact = physical?.artifactLocation
  let uri = artifact?.uri
  if (uri === undefined && artifact?.index !== undefined)
    uri = run.artifacts?.[artifact.index]?.location?.uri
  const base = artifact?.uriBaseId ? run.originalUriBaseIds?.[artifact.uriBaseId]?.uri : undefined
  if (uri && base && !/^[a-z]+:/i.test(uri)) uri = `${base.replace(/\/?$/, '/')}${uri}`
  const region = physical?.region
  return {
    file: uri ? decodeURI(uri) : undefined,
    line: region?.startLine,
    column: region?.startColumn,
    endLine: region?.endLine,
    endColumn: region?.endColumn,
    level,
    rule: result.ruleId ?? result.rule?.id,
    message: result.message?.text ?? result.message?.markdown ?? result.ruleId ?? 'SARIF result'
  }
}
