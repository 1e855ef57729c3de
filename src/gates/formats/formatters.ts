import type { ReadProblem } from './problem-matchers.js'

/**
 * Formatter checks: each file the formatter would change is a problem of the whole file, or of the
 * line it names. Black 26 (`would reformat X`), Ruff before 0.9 (`Would reformat: X`; 0.9+ prints a
 * location, read as its other output is), isort 5-9 (`ERROR: X Imports are incorrectly sorted …`),
 * rustfmt and `cargo fmt --check` (`Diff in X:N:` from 1.5, `Diff in X at line N:` before).
 */
// the file ends in an extension, so a sentence ("would reformat the config later") is not a file
const FILE_LINES: ReadonlyArray<{ re: RegExp; message: string }> = [
  { re: /^would reformat (\S.*\.\w+)$/, message: 'would reformat this file' },
  { re: /^Would reformat: (\S.*\.\w+)$/, message: 'would reformat this file' },
  {
    re: /^ERROR: (\S.*?) Imports are incorrectly sorted and\/or formatted\.$/,
    message: 'Imports are incorrectly sorted and/or formatted.'
  }
]
const RUSTFMT_DIFF = /^Diff in (\S.*?)(?::(\d+)| at line (\d+)):$/

/**
 * rustfmt's hunk starts with up to three lines of context: its first changed line is the first
 * `-` or `+` line after them.
 */
function firstChange(lines: readonly string[], at: number, start: number): number {
  let line = start
  for (let i = at + 1; i < lines.length && i <= at + 4; i++) {
    if (/^[-+]/.test(lines[i]!)) return line
    line++
  }
  return start
}

export function readFormatterChecks(lines: readonly string[]): ReadProblem[] {
  const out: ReadProblem[] = []
  lines.forEach((raw, at) => {
    const line = raw.trimEnd()
    const diff = RUSTFMT_DIFF.exec(line)
    if (diff) {
      const start = Number(diff[2] ?? diff[3])
      const problem = {
        file: diff[1]!,
        line: firstChange(lines, at, start),
        level: 'error' as const,
        message: 'rustfmt would change these lines'
      }
      return void out.push({ at, problem })
    }
    for (const { re, message } of FILE_LINES) {
      const m = re.exec(line)
      if (m) return void out.push({ at, problem: { file: m[1]!, level: 'error', message } })
    }
  })
  return out
}

/**
 * A formatter that lists the files it would change, one path a line: `gofmt -l`, `goimports -l`,
 * `gofumpt -l`, `prettier -l` (`--list-different`).
 */
const LISTING_COMMAND =
  /(?:^|[\s;&|(!`$])(?:gofmt|goimports|gofumpt)\s(?:[^;&|]*\s)?-[a-z]*l\b|\bprettier\s(?:[^;&|]*\s)?(?:-l|--list-different)\b/

/**
 * When a bare list of paths is read as files to fix: always for a formatter's listing command
 * (`named`); for any other command only when it failed and printed nothing but paths of the tree
 * (`only`). A command that lists files and passes (`find`, `git ls-files`) gives no findings.
 */
export type PathList = 'named' | 'only' | undefined

export function pathListMode(command: string, passed: boolean): PathList {
  if (LISTING_COMMAND.test(command)) return 'named'
  return passed ? undefined : 'only'
}

/** The lines that name a file of the tree, alone: `fmt/go/bad.go`, `./src/app.js`. */
export function readPathList(
  lines: readonly string[],
  inRepo: (file: string) => boolean,
  mode: PathList
): ReadProblem[] {
  if (!mode) return []
  const isPath = (line: string) => /^[^\s:]\S*$/.test(line) && inRepo(line)
  const texts = lines.map(l => l.trim())
  if (mode === 'only' && !texts.every(t => !t || isPath(t))) return []
  const message =
    mode === 'named' ? 'not formatted: the formatter lists this file' : 'named by the failing check'
  return texts.flatMap((t, at) =>
    t && isPath(t) ? [{ at, problem: { file: t, level: 'error' as const, message } }] : []
  )
}
