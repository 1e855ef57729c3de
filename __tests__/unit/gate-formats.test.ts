import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { compileMatchers } from '../../src/gates/formats/problem-matchers.js'
import { loadMatchers, readGateOutput, runGates } from '../../src/gates/run-gates.js'
import { createGit } from '../../src/git/git.js'
import { parseChecks } from '../../src/inputs.js'
import { createCommandRunner } from '../../src/process/command-runner.js'
import { toAnnotations } from '../../src/report/check-run.js'
import { git } from '../../test-support/git-fixture.js'
import { fakeLog } from './fake-ports.js'

let root: string

function write(file: string, content: string): void {
  const target = path.join(root, file)
  mkdirSync(path.dirname(target), { recursive: true })
  writeFileSync(target, content)
}

function read(check: string, output: string, exitCode = 1, extra: { matchers?: unknown } = {}) {
  return readGateOutput(
    parseChecks(check)[0]!,
    { exitCode, stdout: output, output, timedOut: false },
    {
      repoRoot: root,
      cwd: root,
      matchers: extra.matchers ? compileMatchers(extra.matchers, 'm.json') : undefined
    }
  ).findings
}

const where = (findings: ReadonlyArray<{ file?: string; line?: number; severity: string }>) =>
  findings.map(f => [f.file ?? null, f.line ?? null, f.severity])

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'rl-formats-'))
  write('src/a.ts', 'one\ntwo\nthree\n')
  write('sub/src/a.ts', 'uno\ndos\ntres\ncuatro\n')
  write('bin/deploy', '#!/bin/sh\necho $1\n')
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

describe('paths as tools print them', () => {
  it('reads a path relative to a leading `cd DIR &&`, never the root file of the same name', () => {
    expect(where(read('lint: cd sub && tsc', 'src/a.ts(4,1): error TS1: four\n'))).toEqual([
      ['sub/src/a.ts', 4, 'high']
    ])
    expect(where(read('lint: tsc', 'src/a.ts(2,1): error TS1: two\n'))).toEqual([
      ['src/a.ts', 2, 'high']
    ])
  })

  it('normalises Windows separators; a drive path outside the checkout is an unlocated finding', () => {
    const findings = read(
      'build: dotnet build',
      'src\\a.ts(3,5): error CS0103: The name x does not exist\nD:\\a\\other\\Program.cs(1,1): error CS0246: missing\n'
    )
    expect(where(findings)).toEqual([
      ['src/a.ts', 3, 'high'],
      [null, null, 'high']
    ])
    expect(findings[1]!.title).toBe(
      'CS0246: missing (in D:\\a\\other\\Program.cs, not a file of this repository)'
    )
  })

  it('places extensionless files and file:// URIs; a path outside the repository is never on a file', () => {
    const json = JSON.stringify([
      { file: 'bin/deploy', line: 2, column: 6, level: 'info', code: 2086, message: 'Quote it.' },
      { file: '../outside/x.sh', line: 1, column: 1, level: 'error', code: 1, message: 'Outside.' }
    ])
    expect(where(read('sh: shellcheck -f json bin/deploy', json))).toEqual([
      ['bin/deploy', 2, 'low'],
      [null, null, 'high']
    ])
    const uri = `::error file=file://${root}/src/a.ts,line=1::from a URI\n`
    expect(where(read('x: tool', uri))).toEqual([['src/a.ts', 1, 'high']])
  })
})

describe('formats without a fixture of their own', () => {
  it('reads reviewdog rdjsonl, one diagnostic a line', () => {
    const rdjsonl = [
      {
        message: 'unused',
        location: { path: 'src/a.ts', range: { start: { line: 2, column: 3 } } },
        severity: 'WARNING'
      },
      {
        message: 'broken',
        location: { path: 'src/a.ts', range: { start: { line: 3 } } },
        code: { value: 'E1' }
      }
    ]
      .map(d => JSON.stringify(d))
      .join('\n')
    const findings = read('rd: tool -f rdjsonl', rdjsonl)
    expect(where(findings)).toEqual([
      ['src/a.ts', 2, 'medium'],
      ['src/a.ts', 3, 'high']
    ])
    expect(findings[1]!.title).toBe('E1: broken')
  })

  it("reads a Python traceback with setup-python's matcher", () => {
    write('app.py', 'def f():\n    raise ValueError("x")\n')
    const traceback = [
      'Traceback (most recent call last):',
      '  File "app.py", line 2, in f',
      "    raise ValueError('bad input')",
      'ValueError: bad input'
    ].join('\n')
    const findings = read('run: python3 app.py', traceback)
    expect(where(findings)).toEqual([['app.py', 2, 'high']])
    expect(findings[0]!.description).toBe('bad input')
  })

  it('puts a failing pytest test on the innermost frame in the repository, titled with its name', () => {
    write(
      'tests/test_calc.py',
      'from src.calc import half\n\ndef test_half():\n    assert half(4) == 2\n'
    )
    write('src/calc.py', 'def half(n):\n    assert n > 10, "too small"\n    return n / 2\n')
    const output = [
      '________________________________ test_half _________________________________',
      '',
      '    def test_half():',
      '>       assert half(4) == 2',
      '',
      'tests/test_calc.py:4: ',
      '_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _',
      '',
      '    def half(n):',
      '>       assert n > 10, "too small"',
      'E       AssertionError: too small',
      '',
      'src/calc.py:2: AssertionError',
      '=========================== short test summary info ============================'
    ].join('\n')
    const findings = read('test: pytest', output)
    expect(where(findings)).toEqual([['src/calc.py', 2, 'high']])
    expect(findings[0]).toMatchObject({
      title: 'test_half',
      description: 'AssertionError: too small',
      category: 'testing'
    })
  })
})

describe('what is not a problem, and what must not break the gates', () => {
  it("does not take Jest's Console section for a failing test", () => {
    write('t/a.test.js', 'test("logs", () => {\n  console.log("hi")\n})\n')
    const output = [
      'PASS t/a.test.js',
      '  ● Console',
      '',
      '    console.log',
      '      hi',
      '',
      '      at Object.log (t/a.test.js:2:11)',
      ''
    ].join('\n')
    expect(read('test: jest', output, 0)).toEqual([])
  })

  it('reads a pytest frame printed with a trailing space, with the message that follows it', () => {
    write(
      'tests/test_j.py',
      'import json\n\ndef test_load():\n    assert json.loads("{bad") == {}\n'
    )
    const output = [
      '_________________________________ test_load __________________________________',
      '',
      'tests/test_j.py:4: ',
      '_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _',
      '/usr/lib/python3.11/json/decoder.py:353: in raw_decode',
      '    obj, end = self.scan_once(s, idx)',
      'E   json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes',
      '',
      '/usr/lib/python3.11/json/decoder.py:353: JSONDecodeError',
      '=========================== short test summary info ============================'
    ].join('\n')
    const findings = read('test: pytest', output)
    expect(where(findings)).toEqual([['tests/test_j.py', 4, 'high']])
    expect(findings[0]!.description).toBe(
      'json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes'
    )
  })

  it('skips SARIF results that are suppressed or not failures', () => {
    const result = (line: number, extra: object) => ({
      level: 'error',
      message: { text: `line ${line}` },
      locations: [
        { physicalLocation: { artifactLocation: { uri: 'src/a.ts' }, region: { startLine: line } } }
      ],
      ...extra
    })
    const sarif = JSON.stringify({
      version: '2.1.0',
      runs: [
        {
          tool: { driver: { name: 'ESLint' } },
          results: [
            result(1, {}),
            result(2, { suppressions: [{ kind: 'inSource' }] }),
            result(3, { kind: 'pass' })
          ]
        }
      ]
    })
    expect(where(read('lint: eslint', sarif))).toEqual([
      ['src/a.ts', 1, 'high'],
      ['src/a.ts', 3, 'low']
    ])
  })

  it('reads reports of shapes it does not expect without failing the step', () => {
    for (const text of [
      '[{"filePath":"a","messages":[null]}]',
      '{"version":"2.1.0","runs":[null, {"results":{}}]}',
      '{"generalDiagnostics":[null]}',
      '{"diagnostics":[{"message":"m","location":{"path":"src/a.ts","range":{"start":{"line":"2"}}},"severity":1}]}',
      '<checkstyle><file name="src/a.ts"><error line="1" severity="constructor" message="x"/></file></checkstyle>'
    ]) {
      const findings = read('c: tool', text)
      expect(
        findings.every(f => ['high', 'medium', 'low'].includes(f.severity)),
        text
      ).toBe(true)
    }
  })

  it("keeps a `cd` out of the repository from landing problems on the repository's files", () => {
    expect(where(read('lint: cd ../other && tsc', 'src/a.ts(2,1): error TS1: two\n'))).toEqual([
      [null, null, 'high']
    ])
  })

  it('never reads `[warn]` lines that name no file as files to format', () => {
    expect(where(read('build: sbt compile', '[warn] there were 2 deprecation warnings\n'))).toEqual(
      [[null, null, 'high']]
    )
  })

  it('titles a workflow command with its own title as the rule, not as a failing test', () => {
    const findings = read(
      'lint: ruff',
      '::error title=ruff (F401),file=src/a.ts,line=1::`os` imported but unused\n'
    )
    expect(findings[0]).toMatchObject({
      title: 'ruff (F401): `os` imported but unused',
      category: 'logic'
    })
  })
})

describe('severity from the tool, the check and the exit status', () => {
  // the note first: a note right under an error or a warning is part of it (gate-shapes.test.ts)
  const output = 'src/a.ts:3:1: note: n\nsrc/a.ts:1:1: error: e\nsrc/a.ts:2:1: warning: w\n'

  it('maps error, warning and note to high, medium and low', () => {
    expect(where(read('c: tool', output))).toEqual([
      ['src/a.ts', 3, 'low'],
      ['src/a.ts', 1, 'high'],
      ['src/a.ts', 2, 'medium']
    ])
  })

  it('takes the check options over the defaults', () => {
    expect(where(read('c[warning=low, note=suggestion, error=critical]: tool', output))).toEqual([
      ['src/a.ts', 3, 'suggestion'],
      ['src/a.ts', 1, 'critical'],
      ['src/a.ts', 2, 'low']
    ])
  })

  it('keeps a passing check non-blocking unless its options say otherwise', () => {
    expect(where(read('c: tool', output, 0))).toEqual([
      ['src/a.ts', 3, 'low'],
      ['src/a.ts', 1, 'low'],
      ['src/a.ts', 2, 'low']
    ])
    expect(where(read('c[warning=high]: tool', output, 0))[2]).toEqual(['src/a.ts', 2, 'high'])
  })

  it('refuses options it does not know, naming the check and the fix', () => {
    expect(() => parseChecks('lint[warning=loud]: eslint .')).toThrow(
      /check 'lint': 'warning=loud' gives 'warning' the severity 'loud'; use one of critical, high/
    )
    expect(() => parseChecks('lint[colour=red]: eslint .')).toThrow(/unknown option 'colour=red'/)
    expect(() => parseChecks('test[report=./]: gradle test')).toThrow(
      /report=\.\/ must be a file or folder path relative to the working directory/
    )
    expect(() => parseChecks('lint[report=/tmp/x.sarif]: eslint .')).toThrow(
      /report=\/tmp\/x.sarif must be a file or folder path relative to the working directory/
    )
  })
})

describe('problem matchers (GitHub format)', () => {
  const matcher = {
    problemMatcher: [
      {
        owner: 'mytool',
        pattern: [
          { regexp: '^FILE (\\S+)$', file: 1 },
          { regexp: '^  (\\d+): (ERR|WARN) (.*)$', line: 1, severity: 2, message: 3, loop: true }
        ]
      }
    ]
  }

  it('reads a multi-line matcher with loop as the runner does: a line that breaks the run ends it', () => {
    const output = [
      'FILE src/a.ts',
      '  1: ERR first',
      '  3: WARN third',
      'other',
      '  2: ERR lost'
    ].join('\n')
    expect(where(read('t: mytool', output, 1, { matchers: matcher }))).toEqual([
      ['src/a.ts', 1, 'high'],
      ['src/a.ts', 3, 'medium']
    ])
  })

  it("skips a level the runner does not know, and reads paths relative to fromPath's folder", () => {
    const custom = {
      problemMatcher: [
        {
          owner: 'proj',
          pattern: [
            {
              regexp: '^(\\S+)\\((\\d+)\\): (\\w+): (.*) \\[(\\S+)\\]$',
              file: 1,
              line: 2,
              severity: 3,
              message: 4,
              fromPath: 5
            }
          ]
        }
      ]
    }
    const output =
      'a.ts(2): error: broken [sub/src/proj.csproj]\na.ts(3): remark: fine [sub/src/proj.csproj]\n'
    expect(where(read('build: make', output, 1, { matchers: custom }))).toEqual([
      ['sub/src/a.ts', 2, 'high']
    ])
  })

  it('names the file and the fault of a matcher the runner would refuse', () => {
    expect(() => compileMatchers({ problemMatcher: [{ owner: 'x' }] }, 'm.json')).toThrow(
      /m.json is not a problem matcher file: \/problemMatcher\/0 must have required property 'pattern'/
    )
    const loopFirst = {
      problemMatcher: [{ owner: 'x', pattern: [{ regexp: 'a', message: 0, loop: true }] }]
    }
    expect(() => compileMatchers(loopFirst, 'm.json')).toThrow(
      /only the last pattern of several may set 'loop'/
    )
    const group = { problemMatcher: [{ owner: 'x', pattern: [{ regexp: '(a)', message: 2 }] }] }
    expect(() => compileMatchers(group, 'm.json')).toThrow(
      /'message' is group 2, but the regexp has 1/
    )
  })

  it('reads matcher files from the base commit only, so a PR cannot change how it is judged', async () => {
    git(root, ['init', '-q'])
    write('.github/m.json', JSON.stringify(matcher))
    git(root, ['add', '-A'])
    git(root, ['-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-q', '-m', 'base'])
    const base = git(root, ['rev-parse', 'HEAD']).trim()
    const g = await createGit(root)
    expect(await loadMatchers(g, base, ['.github/m.json'])).toHaveLength(1)
    write('.github/pr.json', JSON.stringify(matcher))
    await expect(loadMatchers(g, base, ['.github/pr.json'])).rejects.toThrow(
      "Input 'problem-matchers': .github/pr.json does not exist on the base branch"
    )
  })
})

describe('columns, reports and the log', () => {
  it('carries columns into one-line annotations only', () => {
    const json = JSON.stringify([
      {
        filePath: path.join(root, 'src/a.ts'),
        messages: [
          { severity: 2, message: 'one line', line: 2, column: 3, endLine: 2, endColumn: 7 }
        ]
      },
      {
        filePath: path.join(root, 'src/a.ts'),
        messages: [
          { severity: 2, message: 'two lines', line: 1, column: 2, endLine: 3, endColumn: 1 }
        ]
      }
    ])
    const annotations = toAnnotations(read('lint: eslint -f json', json))
    expect(annotations.map(a => [a.startLine, a.endLine, a.startColumn, a.endColumn])).toEqual([
      [2, 2, 3, 7],
      [1, 3, undefined, undefined]
    ])
  })

  it('never reads a report through a link: PR code could point one at a file of the runner', async () => {
    const outside = mkdtempSync(path.join(tmpdir(), 'rl-outside-'))
    writeFileSync(path.join(outside, 'creds.txt'), '::error file=src/a.ts,line=1::SECRET-TOKEN\n')
    const [result] = await runGates(
      parseChecks(
        `r[report=out/r.txt]: mkdir -p out && ln -s ${outside}/creds.txt out/r.txt; exit 1`
      ),
      createCommandRunner(),
      { repoRoot: root, cwd: root, timeoutMs: 30_000, env: { PATH: process.env['PATH']! } }
    )
    expect(JSON.stringify(result!.findings)).not.toContain('SECRET-TOKEN')
    expect(result!.findings[0]!.description).toContain('It did not write its report file')
    expect(existsSync(path.join(root, 'out/r.txt'))).toBe(false)
    rmSync(outside, { recursive: true, force: true })
  })

  it('reads the report file the command wrote, removes it, and never reads one left from before', async () => {
    const sarif = (line: number) =>
      JSON.stringify({
        version: '2.1.0',
        runs: [
          {
            tool: { driver: { name: 't' } },
            results: [
              {
                level: 'error',
                message: { text: 'm' },
                locations: [
                  {
                    physicalLocation: {
                      artifactLocation: { uri: 'src/a.ts' },
                      region: { startLine: line }
                    }
                  }
                ]
              }
            ]
          }
        ]
      })
    write('make-report.sh', `mkdir -p out && printf '%s' '${sarif(2)}' > out/r.sarif; exit 1\n`)
    const lines: string[] = []
    const options = {
      repoRoot: root,
      cwd: root,
      timeoutMs: 30_000,
      env: { PATH: process.env['PATH']! },
      log: fakeLog(lines)
    }
    const [fresh] = await runGates(
      parseChecks('r[report=out/r.sarif]: sh make-report.sh'),
      createCommandRunner(),
      options
    )
    expect(where(fresh!.findings)).toEqual([['src/a.ts', 2, 'high']])
    expect(existsSync(path.join(root, 'out/r.sarif'))).toBe(false)
    write('out/r.sarif', sarif(3))
    const [stale] = await runGates(
      parseChecks('r[report=out/r.sarif]: echo nothing; exit 1'),
      createCommandRunner(),
      options
    )
    expect(where(stale!.findings)).toEqual([[null, null, 'high']])
    expect(stale!.findings[0]!.description).toContain('It did not write its report file')
    // each check's output is in the log, in a group of its own, printed verbatim
    expect(lines).toContain('info $ echo nothing; exit 1')
    expect(lines).toContain('verbatim nothing')
  })

  it('reads each report a command wrote into a report folder (Gradle, Surefire: one per class), and none left from before', async () => {
    const junit = (cls: string, line: number) =>
      `<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="${cls}" tests="1" failures="1"><testcase name="t" classname="${cls}"><failure message="boom">java.lang.AssertionError: boom\n\tat ${cls}.t(${cls.split('.').pop()}.java:${line})\n</failure></testcase></testsuite>\n`
    write('src/test/java/com/acme/ATest.java', 'class ATest {}\n'.repeat(9))
    write('src/test/java/com/acme/BTest.java', 'class BTest {}\n'.repeat(9))
    write('src/test/java/com/acme/OldTest.java', 'class OldTest {}\n'.repeat(9))
    const folder = 'build/test-results/test'
    write(`${folder}/TEST-com.acme.OldTest.xml`, junit('com.acme.OldTest', 4))
    write(
      'gen.sh',
      [
        `printf '%s' '${junit('com.acme.ATest', 2)}' > ${folder}/TEST-com.acme.ATest.xml`,
        `printf '%s' '${junit('com.acme.BTest', 5)}' > ${folder}/TEST-com.acme.BTest.xml`,
        `echo 'a text summary' > ${folder}/summary.txt`,
        'exit 1'
      ].join('\n')
    )
    const [result] = await runGates(
      parseChecks(`test[report=${folder}/]: sh gen.sh`),
      createCommandRunner(),
      { repoRoot: root, cwd: root, timeoutMs: 30_000, env: { PATH: process.env['PATH']! } }
    )
    expect(where(result!.findings)).toEqual([
      ['src/test/java/com/acme/ATest.java', 2, 'high'],
      ['src/test/java/com/acme/BTest.java', 5, 'high']
    ])
    // the reports it made are removed (never part of a fix commit); the one from before stays
    expect(existsSync(path.join(root, folder, 'TEST-com.acme.ATest.xml'))).toBe(false)
    expect(existsSync(path.join(root, folder, 'TEST-com.acme.OldTest.xml'))).toBe(true)
  })

  it("never removes a file outside the repository: a report's folder reached through a link the command made", async () => {
    const outside = mkdtempSync(path.join(tmpdir(), 'rl-outside-'))
    mkdirSync(path.join(outside, 'test-results/test'), { recursive: true })
    writeFileSync(path.join(outside, 'test-results/test/TEST-yours.xml'), '<testsuite/>')
    writeFileSync(path.join(outside, 'r.xml'), '<testsuite/>')
    const checks = parseChecks(
      [
        `folder[report=build/test-results/test/]: ln -s ${outside} build; exit 1`,
        `file[report=out/r.xml]: rm -f build; ln -s ${outside} out; exit 1`
      ].join('\n')
    )
    await runGates(checks, createCommandRunner(), {
      repoRoot: root,
      cwd: root,
      timeoutMs: 30_000,
      env: { PATH: process.env['PATH']! }
    })
    expect(existsSync(path.join(outside, 'test-results/test/TEST-yours.xml'))).toBe(true)
    expect(existsSync(path.join(outside, 'r.xml'))).toBe(true)
    rmSync(outside, { recursive: true, force: true })
  })
})
