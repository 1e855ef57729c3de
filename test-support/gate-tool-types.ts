/** What a tool the gates are tested against is: see gate-tools.ts. */
import type { Severity } from '../src/loop/types.js'

export type ToolKind = 'linter' | 'type checker' | 'test runner' | 'formatter' | 'build' | 'runtime'

export type Planted = [file: string | null, line: number | null, severity: Severity]

export interface GateTool {
  /** The fixture's name. */
  id: string
  tool: string
  format: string
  /** The check as a user writes it in the `checks` input. */
  check: string
  /** How to run it here: the program it needs, how to ask its version, where it installs from. */
  run?: { bin: string; version: string; from: 'npm' | 'apt' | 'rustup' }
  /**
   * For a tool CI does not install: how its fixture was captured here (the capture script runs it
   * when `version` answers, with CAPTURE_PATH first on PATH; nothing runs it live), and how to
   * install it.
   */
  capture?: { version: string; install: string }
  /** For a fixture copied from elsewhere: where from. */
  source?: string
  /** Text in a copied fixture that stands for a folder of the sample (its temp path, a test's file name). */
  replace?: Record<string, string>
  planted: Planted[]
  /** What the tool is, where the check's name does not say it (see gate-tool-kinds.ts). */
  kind?: ToolKind
  /**
   * The row the docs' tool table recommends for this tool: the check whose output reads best (one
   * per tool).
   */
  best?: true
}

export const npm = (bin: string, version = `${bin} --version`) => ({
  bin,
  version,
  from: 'npm' as const
})
export const apt = (bin: string, version = `${bin} --version | grep -m1 -E '[0-9]+[.][0-9]+'`) => ({
  bin,
  version,
  from: 'apt' as const
})
