import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { gateReaders, where } from '../../test-support/gate-read.js'

/**
 * What the text readers decide beyond the captured fixtures (gate-parity.test.ts replays those):
 * formatter checks and bare lists of paths, severity words in any shape, notes, PHP's shapes, and
 * `go test` with go.mod at the repository's root.
 */
let root: string

const { write, read } = gateReaders(() => root)

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'rl-shapes-'))
  write('src/app.go', 'package app\n')
  write('src/ok.go', 'package app\n')
  write('src/app.c', Array.from({ length: 9 }, (_, i) => `line ${i + 1}`).join('\n'))
  write('src/lib.rs', Array.from({ length: 9 }, (_, i) => `line ${i + 1}`).join('\n'))
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

const FAILED = [null, null, 'high']

describe('a bare list of paths', () => {
  it('is no finding in the output of a passing command that lists files', () => {
    expect(read('list: find src -name "*.go"', 'src/app.go\nsrc/ok.go\n', 0)).toEqual([])
    expect(read('list: git ls-files', 'src/app.go\nsrc/ok.go\n', 0)).toEqual([])
  })

  it("is each file's finding from a formatter's listing, high when the check fails", () => {
    expect(where(read('fmt: gofmt -l src', 'src/app.go\n', 0))).toEqual([
      ['src/app.go', null, 'low']
    ])
    expect(where(read('fmt: ! gofmt -s -l src | grep .', 'src/app.go\n'))).toEqual([
      ['src/app.go', null, 'high']
    ])
    // a syntax error beside the list is read as one, and a listed path outside the tree is none
    const output = 'src/ok.go:1:1: expected package\nsrc/app.go\nvendor/x.go\n'
    expect(where(read('fmt: goimports -l src', output))).toEqual([
      ['src/ok.go', 1, 'high'],
      ['src/app.go', null, 'high']
    ])
  })

  it('is read from another failing command only when it printed nothing but paths of the tree', () => {
    const [finding] = read('diff: git diff --exit-code --name-only', 'src/app.go\n')
    expect([finding?.file, finding?.line, finding?.title]).toEqual([
      'src/app.go',
      undefined,
      'diff: named by the failing check'
    ])
    expect(where(read('test: ./run-tests', 'src/app.go\nsomething broke\n'))).toEqual([FAILED])
    expect(where(read('test: ./run-tests', 'src/app.go\nsrc/gone.go\n'))).toEqual([FAILED])
  })
})

describe('formatter checks of other versions', () => {
  it('reads Ruff before 0.9 (`Would reformat: X`) and rustfmt before 1.5 (`Diff in X at line N:`)', () => {
    expect(where(read('fmt: ruff format --check', 'Would reformat: src/app.go\n'))).toEqual([
      ['src/app.go', null, 'high']
    ])
    const rustfmt = `Diff in ${root}/src/lib.rs at line 3:\n line 3\n line 4\n-line 5\n+line  5\n`
    expect(where(read('fmt: cargo fmt --check', rustfmt))).toEqual([['src/lib.rs', 5, 'high']])
  })

  it('takes a sentence that starts with "would reformat" for no file: the failure keeps its output', () => {
    const findings = read(
      'build: make',
      'would reformat the config later\nmake: *** [all] Error 2\n'
    )
    expect(where(findings)).toEqual([FAILED])
    expect(findings[0]!.description).toContain('make: *** [all] Error 2')
  })
})

describe('severity words in any shape', () => {
  it("reads the unix format's `[Warning/rule]` and `[Error/rule]` as the levels they name", () => {
    const output = [
      'src/app.c:1:1: Expected === [Warning/eqeqeq]',
      'src/app.c:2:1: Unused x [Error/no-unused-vars]',
      'src/app.c:3:1: Prefer const [Info/prefer-const]'
    ].join('\n')
    const findings = read('lint: eslint -f unix src', output)
    expect(where(findings)).toEqual([
      ['src/app.c', 1, 'medium'],
      ['src/app.c', 2, 'high'],
      ['src/app.c', 3, 'low']
    ])
    expect(findings[0]?.title).toBe('eqeqeq: Expected ===')
  })

  it("reads cppcheck's levels, and a check's level options over them", () => {
    const output = [
      'src/app.c:1:1: style: Scope can be reduced. [variableScope]',
      'src/app.c:2:1: performance: Pass by reference. [passedByValue]',
      'src/app.c:3:1: portability: Not portable. [CastAddressToIntegerAtReturn]',
      'src/app.c:4:1: information: Include not found. [missingInclude]',
      'src/app.c:5:1: warning: Format mismatch. [invalidPrintfArgType_s]',
      'src/app.c:6:1: error: Out of bounds. [arrayIndexOutOfBounds]'
    ].join('\n')
    expect(where(read('lint: cppcheck src', output))).toEqual([
      ['src/app.c', 1, 'low'],
      ['src/app.c', 2, 'low'],
      ['src/app.c', 3, 'medium'],
      ['src/app.c', 4, 'low'],
      ['src/app.c', 5, 'medium'],
      ['src/app.c', 6, 'high']
    ])
    expect(where(read('lint[note=medium]: cppcheck src', output)).slice(0, 2)).toEqual([
      ['src/app.c', 1, 'medium'],
      ['src/app.c', 2, 'medium']
    ])
  })
})

describe('notes', () => {
  it('belong to the error above them, across the source lines it quotes', () => {
    const output = [
      "src/app.c: In function 'main':",
      "src/app.c:6:16: error: passing argument 1 of 'twice' makes integer from pointer",
      '    6 |   return twice(s);',
      '      |                ^',
      "src/app.c:1:15: note: expected 'int' but argument is of type 'char *'",
      '    1 | int twice(int n);',
      'src/app.c:6:16: note: another note'
    ].join('\n')
    const findings = read('build: gcc -c src/app.c', output)
    expect(where(findings)).toEqual([['src/app.c', 6, 'high']])
    expect(findings[0]?.description).toContain("src/app.c:1:15: note: expected 'int'")
    expect(findings[0]?.description).toContain('src/app.c:6:16: note: another note')
  })

  it('stand alone after a blank line, with nothing above, or with a rule of their own', () => {
    const alone = 'src/app.c:1:1: note: a note alone\n'
    expect(where(read('build: cc src/app.c', alone, 0))).toEqual([['src/app.c', 1, 'low']])
    const output = [
      'src/app.c:2:1: warning: a warning',
      'src/app.c:3:1: note: Double quote this. [SC2086]',
      '',
      'src/app.c:4:1: note: after a blank line'
    ].join('\n')
    expect(where(read('lint: shellcheck -f gcc src/app.c', output, 0))).toEqual([
      ['src/app.c', 2, 'low'],
      ['src/app.c', 3, 'low'],
      ['src/app.c', 4, 'low']
    ])
  })
})

describe('PHP', () => {
  it("reads `php -l` on stdout and stderr as one finding, and a script's warning as medium", () => {
    const error = 'syntax error, unexpected token "}" in src/app.c on line 5'
    const output = `PHP Parse error:  ${error}\nParse error: ${error}\nErrors parsing src/app.c\n`
    expect(where(read('lint: php -l src/app.c', output))).toEqual([['src/app.c', 5, 'high']])
    const warning = 'PHP Warning:  Undefined variable $x in src/app.c on line 3\n'
    expect(where(read('run: php src/app.c', warning, 0))).toEqual([['src/app.c', 3, 'low']])
    expect(where(read('run[warning=medium]: php src/app.c', warning, 0))).toEqual([
      ['src/app.c', 3, 'medium']
    ])
  })
})

describe('go test', () => {
  it("places a test's line in its package's folder with go.mod at the repository's root", () => {
    write('go.mod', 'module example.com/m\n\ngo 1.19\n')
    write('pkg/x_test.go', Array.from({ length: 8 }, () => '//').join('\n'))
    const output = [
      '--- FAIL: TestAdd (0.00s)',
      '    x_test.go:6: got 1, want 2',
      'FAIL',
      'FAIL\texample.com/m/pkg\t0.002s',
      'FAIL'
    ].join('\n')
    expect(where(read('test: go test ./...', output))).toEqual([['pkg/x_test.go', 6, 'high']])
  })
})
