import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runnerDirs } from '../../src/gates/paths.js'
import { gateReaders, where } from '../../test-support/gate-read.js'

/**
 * What the runners' readers decide beyond the captured fixtures (gate-parity.test.ts replays those,
 * clean runs included): the shapes no fixture of a real tool here prints, and the cases that must
 * not become findings or must stay apart.
 */
let root: string

const { write, read } = gateReaders(() => root)

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'rl-runners-'))
  write('src/app.js', 'one\ntwo\nthree\nfour\n')
  write('src/app.py', 'one\ntwo\nthree\n')
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

describe('common location shapes', () => {
  it('places a relative stack frame, a quoted path with `line N`, `path(N): warning:` and a file:// URI', () => {
    const frame = 'TypeError: x is not a function\n    at f (src/app.js:3:1)\n'
    expect(where(read('run: node x', frame))).toEqual([['src/app.js', 3, 'high']])
    expect(where(read('run: cc', '"src/app.js", line 3: undefined symbol x\n'))).toEqual([
      ['src/app.js', 3, 'high']
    ])
    expect(where(read('run: cc', '"src/app.js", line 2, column 4: warning: unused\n'))).toEqual([
      ['src/app.js', 2, 'medium'],
      [null, null, 'high']
    ])
    expect(where(read('run: build', 'src/app.js(3): warning: implicit any\n', 0))).toEqual([
      ['src/app.js', 3, 'low']
    ])
    expect(where(read('run: deno', `file://${root}/src/app.js:4:2: uncaught error\n`))).toEqual([
      ['src/app.js', 4, 'high']
    ])
  })

  it('places a Python traceback without `in` on its last frame in the repository', () => {
    const output = [
      'Traceback (most recent call last):',
      '  File "src/app.py", line 3, in <module>',
      '    main()',
      '  File "/usr/lib/python3.11/json/__init__.py", line 346, in loads',
      '    return _default_decoder.decode(s)',
      'json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)',
      '  File "src/app.py", line 2',
      '    x = = 1',
      '        ^',
      'SyntaxError: invalid syntax'
    ].join('\n')
    const findings = read('run: python3 src/app.py', output)
    expect(where(findings)).toEqual([
      ['src/app.py', 3, 'high'],
      ['src/app.py', 2, 'high']
    ])
    expect(findings[1]!.description).toBe('SyntaxError: invalid syntax')
  })

  it('takes no stack that is not a crash for a finding: logged output, a URL, a time', () => {
    const output = [
      '  ● Console',
      '',
      '    console.error',
      '      Error: expected in this test',
      '',
      '      at Object.<anonymous> (src/app.js:2:11)',
      'see https://example.com/a.js:3:1 for more',
      'started 12:30:01'
    ].join('\n')
    expect(read('test: jest', output, 0)).toEqual([])
  })

  it("reads a crash's stack and a traceback only when the check failed: a passing run logged them", () => {
    const output = [
      'Error: expected in this test',
      '    at check (src/app.js:2:11)',
      'Traceback (most recent call last):',
      '  File "src/app.py", line 3, in <module>',
      'ValueError: also logged on purpose',
      'ok 1 - everything passed'
    ].join('\n')
    expect(read('test: npm test', output, 0)).toEqual([])
    expect(where(read('test: npm test', output, 1))).toEqual([
      ['src/app.js', 2, 'high'],
      ['src/app.py', 3, 'high']
    ])
  })
})

describe('test runners', () => {
  it('keeps two failing tests whose names differ only in case as two findings, on one helper line', () => {
    write('test/helper.js', 'module.exports = v => { if (!v) throw new Error("no") }\n')
    const output = [
      '✖ Parses input (1.2ms)',
      '  Error: no',
      `      at module.exports (file://${root}/test/helper.js:1:38)`,
      '✖ parses input (0.4ms)',
      '  Error: no',
      `      at module.exports (file://${root}/test/helper.js:1:38)`
    ].join('\n')
    const findings = read('test: node --test', output)
    expect(findings.map(f => [f.title, f.file, f.line])).toEqual([
      ['Parses input', 'test/helper.js', 1],
      ['parses input', 'test/helper.js', 1]
    ])
    expect(new Set(findings.map(f => f.id)).size).toBe(2)
  })

  it("shows a TAP failure located outside the repository as its own finding, with the test's error", () => {
    const output = [
      'TAP version 13',
      '# Subtest: reads the config',
      'not ok 1 - reads the config',
      '  ---',
      "  location: '/elsewhere/config.test.js:3:1'",
      "  failureType: 'testCodeFailure'",
      '  error: |-',
      '    ENOENT: no such file',
      '  ...',
      '# Subtest: skipped',
      'not ok 2 - skipped # SKIP',
      '1..2',
      '# pass 0'
    ].join('\n')
    const findings = read('test: node --test', output)
    expect(findings.map(f => [f.title, f.file ?? null, f.description])).toEqual([
      ['reads the config', null, 'ENOENT: no such file']
    ])
  })

  it("places `go test -v` logs printed before `--- FAIL` in their package, not a passing test's", () => {
    write('go.mod', 'module example.com/m\n\ngo 1.22\n')
    write(
      'pkg/a/a_test.go',
      'package a\n\nfunc TestA(t *testing.T) {\n\tt.Log("x")\n\tt.Error("y")\n}\n'
    )
    const output = [
      '=== RUN   TestOK',
      '    a_test.go:4: only a log',
      '--- PASS: TestOK (0.00s)',
      '=== RUN   TestA',
      '    a_test.go:5: y',
      '--- FAIL: TestA (0.00s)',
      'FAIL',
      'FAIL\texample.com/m/pkg/a\t0.002s',
      '?   \texample.com/m/pkg/b\t[no test files]'
    ].join('\n')
    const findings = read('test: go test -v ./...', output)
    expect(findings.map(f => [f.title, f.file, f.line])).toEqual([['TestA', 'pkg/a/a_test.go', 5]])
  })

  it("reads an older cargo panic (`panicked at 'msg', path:l:c`) in a workspace run from a member", () => {
    write('Cargo.toml', '[workspace]\nmembers = ["crates/a"]\n')
    write('crates/a/Cargo.toml', '[package]\nname = "a"\n')
    write('crates/a/src/lib.rs', 'one\ntwo\nthree\n')
    const output = "thread 'tests::one' panicked at 'boom', crates/a/src/lib.rs:2:5\n"
    const findings = read('test: cd crates/a && cargo test', output)
    expect(findings.map(f => [f.title, f.file, f.line, f.description])).toEqual([
      ['tests::one', 'crates/a/src/lib.rs', 2, 'boom']
    ])
  })

  it('gives a failing go test one finding, on its last log line, its t.Log lines in its description', () => {
    write('go.mod', 'module example.com/gotest\n\ngo 1.19\n')
    write('calc/calc_test.go', 'package calc\n'.repeat(24))
    // go 1.19.8, test-support/gate-sample/gotest (fixture go-test.json)
    const output = [
      '--- FAIL: TestAddLogs (0.00s)',
      '    calc_test.go:18: adding 2 and 2',
      '    calc_test.go:20: computed 5',
      '    calc_test.go:22: Add(2, 2) = 5, want 4',
      'FAIL',
      'FAIL\texample.com/gotest/calc\t0.013s',
      'FAIL'
    ].join('\n')
    const findings = read('test: go test ./...', output)
    expect(findings.map(f => [f.title, f.file, f.line])).toEqual([
      ['TestAddLogs', 'calc/calc_test.go', 22]
    ])
    expect(findings[0]!.description).toContain('Add(2, 2) = 5, want 4')
    expect(findings[0]!.description).toContain('calc_test.go:18: adding 2 and 2')
  })

  it("leaves a passing `#[should_panic]` test's panic out though its `... ok` is printed after the next binary's lines", () => {
    // cargo 1.95.0, `cargo test --offline --no-fail-fast -- --nocapture` on test-support/gate-sample
    // (cargo-ws), run through the command runner: its stdout (`test … ok`) and stderr (`Running …`,
    // the panics) merged as they came, the ok crate's result after the text crate's `Running` line
    cpSync(
      path.join(import.meta.dirname, '../../test-support/gate-sample/cargo-ws'),
      path.join(root, 'cargo-ws'),
      {
        recursive: true
      }
    )
    const output = readFileSync(
      path.join(import.meta.dirname, '../fixtures/runner-output/cargo-nocapture-merged.txt'),
      'utf8'
    ).replaceAll('${ROOT}', root)
    const findings = read(
      'test: cd cargo-ws && cargo test --offline --no-fail-fast -- --nocapture',
      output,
      101
    )
    expect(findings.map(f => [f.title, f.file, f.line])).toEqual([
      ['tests::adds_two_numbers', 'cargo-ws/crates/calc/src/lib.rs', 11],
      ['shouts', 'cargo-ws/crates/text/tests/shout.rs', 5],
      ['shouts_nothing', 'cargo-ws/crates/text/tests/shout.rs', 10]
    ])
  })
})

describe("where runners' paths start", () => {
  it("follows no link of the PR's out of the repository, nor a workspace pattern with `..`", () => {
    const outside = mkdtempSync(path.join(tmpdir(), 'rl-outside-'))
    try {
      mkdirSync(path.join(outside, 'pkg'))
      writeFileSync(path.join(outside, 'pkg/package.json'), '{"name":"elsewhere"}')
      writeFileSync(path.join(outside, 'leaf.json'), '{"name":"leaf"}')
      writeFileSync(path.join(outside, 'go.mod'), 'module example.com/out\n')
      const workspaces = ['packages/*', '../*/pkg', 'vendored']
      write('package.json', JSON.stringify({ name: 'root', workspaces }))
      write('packages/app/package.json', '{"name":"app"}')
      mkdirSync(path.join(root, 'packages/leaf'))
      symlinkSync(path.join(outside, 'leaf.json'), path.join(root, 'packages/leaf/package.json'))
      symlinkSync(path.join(outside, 'pkg'), path.join(root, 'vendored'))
      mkdirSync(path.join(root, 'mod/a'), { recursive: true })
      symlinkSync(path.join(outside, 'go.mod'), path.join(root, 'mod/go.mod'))
      const dirs = runnerDirs(root, root)
      expect(dirs.npmPackage('app')).toBe(path.join(root, 'packages/app'))
      expect(['elsewhere', 'leaf'].map(name => dirs.npmPackage(name))).toEqual([
        undefined,
        undefined
      ])
      expect(
        runnerDirs(root, path.join(root, 'mod')).goPackage('example.com/out/a')
      ).toBeUndefined()
    } finally {
      rmSync(outside, { recursive: true, force: true })
    }
  })
})

describe('PHPUnit', () => {
  it('reads every failure of a section, though a diff quotes a line such as `OK`', () => {
    write('tests/CliTest.php', '<?php\n'.repeat(30))
    // PHPUnit 9's diff of two strings: its context lines start with a space, its summary does not
    const output = [
      'There were 2 failures:',
      '',
      '1) CliTest::testCheck',
      'Failed asserting that two strings are identical.',
      '--- Expected',
      '+++ Actual',
      '@@ @@',
      " 'Checking\\n",
      ' OK\\n',
      "-Done'",
      "+Failed'",
      '',
      `${root}/tests/CliTest.php:12`,
      '',
      '2) CliTest::testHelp',
      'Failed asserting that false is true.',
      '',
      `${root}/tests/CliTest.php:20`,
      '',
      'FAILURES!',
      'Tests: 2, Assertions: 2, Failures: 2.'
    ].join('\n')
    expect(where(read('test: phpunit tests', output))).toEqual([
      ['tests/CliTest.php', 12, 'high'],
      ['tests/CliTest.php', 20, 'high']
    ])
  })
})
