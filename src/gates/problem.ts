/**
 * What a gate's output says, before it becomes a finding: a problem a tool reported, in the tool's
 * own words (its path as printed, its level), and the output line it was read from.
 */
import type { ToolLevel } from '../loop/settings.js'

/** A tool's level (ToolLevel), reduced to three: what fails a build, what it warns about, and advice. */
export const TOOL_LEVELS: readonly ToolLevel[] = ['error', 'warning', 'note']

export interface GateProblem {
  /** The path as the tool printed it: relative to where it ran, absolute, a file:// URI, Windows. */
  file?: string
  line?: number
  column?: number
  endLine?: number
  endColumn?: number
  level: ToolLevel
  rule?: string
  message: string
  /** A failing test's name: the finding's title (else the rule and the message make one). */
  testName?: string
  /** Read from a `::error` workflow command: a tool that also prints the problem otherwise says it twice. */
  workflowCommand?: boolean
  /**
   * Loose matches (the generic `path:line: message` form) name a file only when it is in the tree:
   * what merely looks like a location (a URL, a time) is dropped instead of becoming a finding.
   */
  loose?: boolean
  /**
   * A stack printed outside any test (a JavaScript crash, a Python traceback): in the output of a
   * check that passed, or beside failing tests, it is something the run logged, not a problem, and
   * is not read.
   */
  crash?: boolean
}

const WORDS: Record<string, ToolLevel> = {
  error: 'error',
  err: 'error',
  fatal: 'error',
  failure: 'error',
  failed: 'error',
  critical: 'error',
  blocker: 'error',
  major: 'error',
  e: 'error',
  f: 'error',
  '✖': 'error',
  '×': 'error',
  // oxlint's and Biome's marks when not on a terminal
  x: 'error',
  warning: 'warning',
  warn: 'warning',
  w: 'warning',
  minor: 'warning',
  // cppcheck's: implementation-defined behaviour, which may differ elsewhere
  portability: 'warning',
  '⚠': 'warning',
  '‼': 'warning',
  '!': 'warning',
  note: 'note',
  notice: 'note',
  info: 'note',
  information: 'note',
  informational: 'note',
  hint: 'note',
  help: 'note',
  style: 'note',
  performance: 'note',
  deprecated: 'note',
  convention: 'note',
  refactor: 'note',
  suggestion: 'note',
  none: 'note',
  c: 'note',
  r: 'note',
  i: 'note',
  ℹ: 'note'
}

/**
 * A tool's level word (`error`, `Warning`, `info`, Pylint's `convention` or its message-id letter,
 * stylelint's ✖ and ⚠, SARIF's `note`) as a ToolLevel; `fallback` when the word is none of them.
 */
export function toolLevel(word: unknown, fallback: ToolLevel = 'error'): ToolLevel {
  return knownLevel(word) ?? fallback
}

/** The level a word names, or undefined when it names none (a report's number, `constructor`). */
export function knownLevel(word: unknown): ToolLevel | undefined {
  if (typeof word !== 'string') return undefined
  const key = word.trim().toLowerCase()
  return Object.hasOwn(WORDS, key) ? WORDS[key] : undefined
}
