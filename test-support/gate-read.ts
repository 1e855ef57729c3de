/** The text readers' unit tests: a repository's files written under a root, a check's output read. */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { readGateOutput } from '../src/gates/run-gates.js'
import { parseChecks } from '../src/inputs.js'

/** `write` a file of the repository at `rootOf()`, and `read` a check's output as the gates do. */
export function gateReaders(rootOf: () => string) {
  return {
    write(file: string, content: string): void {
      const target = path.join(rootOf(), file)
      mkdirSync(path.dirname(target), { recursive: true })
      writeFileSync(target, content)
    },
    read(check: string, output: string, exitCode = 1) {
      return readGateOutput(
        parseChecks(check)[0]!,
        { exitCode, stdout: output, output, timedOut: false },
        { repoRoot: rootOf(), cwd: rootOf() }
      ).findings
    }
  }
}

/** Findings as [file, line, severity]. */
export const where = (
  findings: ReadonlyArray<{ file?: string; line?: number; severity: string }>
) => findings.map(f => [f.file ?? null, f.line ?? null, f.severity])
