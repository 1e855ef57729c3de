import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { gateReaders, where } from '../../test-support/gate-read.js'

/**
 * The standard report formats in the shapes a user meets beyond the captured fixtures (parity
 * test): JUnit XML's escapes, failures with no place, passing reports, cargo's and mypy's extra
 * messages.
 */
let root: string

const { write, read } = gateReaders(() => root)

const junit = (cases: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites><testsuite name="s">${cases}</testsuite></testsuites>\n`

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'rl-reports-'))
  write('tests/test_app.py', 'import app\n\n\ndef test_one():\n    assert app.one() == 2\n')
  write('src/test/java/com/example/AppTest.java', 'package com.example;\n'.repeat(12))
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

describe('JUnit XML', () => {
  it('reads entities, character references and CDATA in a failure as the text they stand for', () => {
    const xml = junit(
      `<testcase classname="t" name="compares &lt;a&gt; &amp; b" file="tests/test_app.py" line="5">` +
        `<failure message="expected &quot;2&quot;&#10;got 1"><![CDATA[raise <Boom> & more]]></failure></testcase>`
    )
    const [f] = read('test: pytest --junitxml=/dev/stdout', xml)
    expect(where([f!])).toEqual([['tests/test_app.py', 5, 'high']])
    expect(f!.title).toBe('compares <a> & b')
    expect(f!.description).toContain('expected "2"\ngot 1')
    expect(f!.description).toContain('raise <Boom> & more')
  })

  it('keeps a failure that names no place as its own finding, without a location', () => {
    const xml = junit(`<testcase classname=" suite" name="adds"><failure>boom</failure></testcase>`)
    const findings = read('test: jest --ci', xml)
    expect(where(findings)).toEqual([[null, null, 'high']])
    expect(findings[0]!.title).toBe('adds')
  })

  it("gives no finding for a report whose tests passed or were skipped (pytest names the skip's line)", () => {
    const xml = junit(
      `<testcase classname="t" name="a"/><testcase classname="t" name="b"><skipped message="later">\ntests/test_app.py:5: not yet</skipped></testcase>`
    )
    expect(read('test: pytest --junitxml=/dev/stdout', xml, 0)).toEqual([])
  })

  it('reads a failing test as text when its output merely quotes JUnit tags inside a line', () => {
    // pytest 8's failure of a test that compares XML: the tags are in its assertion, not a report
    const output = [
      '=================================== FAILURES ===================================',
      '___________________________________ test_one ___________________________________',
      '',
      '    def test_one():',
      '>       assert report() == "<testsuite></testsuite>"',
      "E       AssertionError: assert '<testsuite><testcase/></testsuite>' == '<testsuite></testsuite>'",
      '',
      'tests/test_app.py:5: AssertionError',
      '=========================== short test summary info ============================',
      "FAILED tests/test_app.py::test_one - AssertionError: assert '<testsuite><tes...",
      '============================== 1 failed in 0.01s ==============================='
    ].join('\n')
    expect(where(read('test: pytest', output))).toEqual([['tests/test_app.py', 5, 'high']])
  })

  it("reads a failure's text as the text reader reads a line: up to its first 4000 characters", () => {
    // a PR's test prints what it likes: Rust's panic pattern took ~56 s over one line of a million
    // characters (`thread '` then `a' panicked at '` again and again); a place past the cut is unread
    write('src/lib.rs', 'fn a() {}\n'.repeat(5))
    const panic = `thread '${'a'.repeat(5000)}' panicked at src/lib.rs:3:5:`
    const xml = junit(
      `<testcase classname="t" name="floods" file="tests/test_app.py" line="5"><failure>${panic}</failure></testcase>`
    )
    expect(where(read('test: cargo nextest run', xml))).toEqual([['tests/test_app.py', 5, 'high']])
  })

  it("finds a JVM test's source from its class and its stack frame's line", () => {
    const xml = junit(
      `<testcase classname="com.example.AppTest" name="works"><failure type="java.lang.AssertionError">` +
        `java.lang.AssertionError\n\tat org.junit.Assert.fail(Assert.java:88)\n` +
        `\tat com.example.AppTest.works(AppTest.java:11)\n</failure></testcase>`
    )
    expect(where(read('test: mvn test', xml))).toEqual([
      ['src/test/java/com/example/AppTest.java', 11, 'high']
    ])
  })
})

describe("Bandit's JSON", () => {
  it('gives a level it does not know (a name of Object.prototype) the default, never none', () => {
    write('app.py', 'import pickle\n')
    const issue = (issue_severity: string) => ({
      filename: 'app.py',
      line_number: 1,
      col_offset: 0,
      issue_severity,
      test_id: 'B403',
      issue_text: `pickle (${issue_severity})`
    })
    const output = JSON.stringify({ results: [issue('constructor'), issue('__proto__')] })
    const findings = read('security: bandit -f json -r .', output)
    expect(findings.map(f => f.severity)).toEqual(['high', 'high'])
  })
})

describe("cargo's and mypy's JSON messages", () => {
  it("reads rustc's error at its primary span and not its `aborting due to` summary", () => {
    write('Cargo.toml', '[package]\nname = "x"\n')
    write('src/main.rs', 'fn main() {\n    let x: u32 = "a";\n}\n')
    const manifest = path.join(root, 'Cargo.toml')
    const message = (level: string, text: string, spans: unknown[]) =>
      JSON.stringify({
        reason: 'compiler-message',
        manifest_path: manifest,
        message: { level, message: text, code: null, spans, children: [] }
      })
    const span = { file_name: 'src/main.rs', line_start: 2, column_start: 18, is_primary: true }
    const output = [
      message('error', 'mismatched types', [span]),
      message('error', 'aborting due to 1 previous error', []),
      JSON.stringify({ reason: 'build-finished', success: false })
    ].join('\n')
    expect(where(read('build: cargo build --message-format=json', output))).toEqual([
      ['src/main.rs', 2, 'high']
    ])
  })

  it("attaches mypy's note to the error above it", () => {
    write('app.py', 'x: int = "a"\n')
    const line = (severity: string, message: string) =>
      JSON.stringify({
        file: 'app.py',
        line: 1,
        column: 9,
        message,
        hint: null,
        code: null,
        severity
      })
    const findings = read(
      'types: mypy -O json .',
      [line('error', 'Incompatible types'), line('note', 'See the docs')].join('\n')
    )
    expect(where(findings)).toEqual([['app.py', 1, 'high']])
    expect(findings[0]!.description).toBe('Incompatible types\nSee the docs')
  })
})
