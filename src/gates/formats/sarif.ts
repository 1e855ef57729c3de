import type { Log, Result, Run } from 'sarif'
import type { ToolLevel } from '../../loop/settings.js'
import { toolLevel, type GateProblem } from '../problem.js'
import { isObject } from './json-values.js'

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

/**
 * A result counts unless it is suppressed (an `eslint-disable` comment, a baseline), gone from the
 * baseline, or of a kind other than `fail` (a pass or a review note: level `none`).
 */
function counts(result: Result): boolean {
  if (Array.isArray(result.suppressions) && result.suppressions.length > 0) return false
  return result.baselineState !== 'absent'
}

export function readSarif(log: Log): GateProblem[] {
  return log.runs
    .filter(isObject)
    .flatMap(run =>
      (Array.isArray(run.results) ? run.results : [])
        .filter(r => isObject(r) && counts(r))
        .map(r => fromResult(run, r))
    )
}

const n = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined)

function decoded(uri: string): string {
  try {
    return decodeURI(uri)
  } catch {
    return uri
  }
}

function ruleLevel(run: Run, result: Result): string | undefined {
  const rules = Array.isArray(run.tool?.driver?.rules) ? run.tool.driver.rules : []
  const rule =
    result.ruleIndex !== undefined
      ? rules[result.ruleIndex]
      : rules.find(r => r.id === result.ruleId)
  return rule?.defaultConfiguration?.level
}

function fromResult(run: Run, result: Result): GateProblem {
  const level: ToolLevel =
    result.kind !== undefined && result.kind !== 'fail'
      ? 'note'
      : toolLevel(result.level ?? ruleLevel(run, result), 'warning')
  const physical = result.locations?.[0]?.physicalLocation
  const artifact = physical?.artifactLocation
  let uri = artifact?.uri
  if (uri === undefined && artifact?.index !== undefined)
    uri = run.artifacts?.[artifact.index]?.location?.uri
  const base = artifact?.uriBaseId ? run.originalUriBaseIds?.[artifact.uriBaseId]?.uri : undefined
  if (uri && base && !/^[a-z]+:/i.test(uri)) uri = `${base.replace(/\/?$/, '/')}${uri}`
  const region = physical?.region
  return {
    file: uri ? decoded(uri) : undefined,
    line: n(region?.startLine),
    column: n(region?.startColumn),
    endLine: n(region?.endLine),
    endColumn: n(region?.endColumn),
    level,
    rule: result.ruleId ?? result.rule?.id,
    message: String(
      result.message?.text ?? result.message?.markdown ?? result.ruleId ?? 'SARIF result'
    )
  }
}
