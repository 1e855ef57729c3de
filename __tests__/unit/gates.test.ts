import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { unquoteGitPath } from '../../src/gates/paths.js'
import { MAX_FINDINGS_PER_CHECK, readGateOutput } from '../../src/gates/run-gates.js'
import { fingerprint } from '../../src/loop/fingerprint.js'

let root: string

function write(file: string, content: string): void {
  const target = path.join(root, file)
  mkdirSync(path.dirname(target), { recursive: true })
  writeFileSync(target, content)
}

function run(output: string, exitCode = 1, stdout = output, cwd = root) {
  return readGateOutput(
    { name: 'check', command: '' },
    { exitCode, stdout, output, timedOut: false },
    { repoRoot: root, cwd }
  ).findings
}

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'rl-gates-'))
  write('src/a.ts', 'const one = 1\nconst two = 2\nconst x: number = "three"\n')
  write('src/main.c', 'int main() {\n  int unused;\n  return 0\n}\n')
  write('app.py', 'import os\n')
  write('pkg/lib/b.ts', 'export const b: string = 1\n')
})

afterEach(() => rmSync(root, { recursive: true, force: true }))

describe('findings from ESLint JSON', () => {
  it('makes absolute paths repo-relative and maps severity 2 to high, 1 to medium', () => {
    const json = JSON.stringify([
      {
        filePath: path.join(root, 'src/a.ts'),
        messages: [
          {
            ruleId: 'no-unused-vars',
            severity: 2,
            message: "'one' is unused.",
            line: 1,
            column: 7
          },
          { ruleId: 'prefer-const', severity: 1, message: 'Use const.', line: 2, column: 1 }
        ]
      },
      { filePath: path.join(root, 'app.py'), messages: [] }
    ])
    // npm prints a banner before the JSON
    const findings = run(`\n> sample@1.0.0 lint\n> eslint . -f json\n\n${json}\n`, 1, `${json}\n`)
    expect(findings).toMatchObject([
      {
        file: 'src/a.ts',
        line: 1,
        severity: 'high',
        category: 'style',
        title: "no-unused-vars: 'one' is unused.",
        source: 'gate:check'
      },
      { file: 'src/a.ts', line: 2, severity: 'medium', title: 'prefer-const: Use const.' }
    ])
  })

  it('still reports the failure when ESLint found only warnings but exited non-zero', () => {
    const json = JSON.stringify([
      {
        filePath: path.join(root, 'src/a.ts'),
        messages: [{ ruleId: 'prefer-const', severity: 1, message: 'Use const.', line: 2 }]
      }
    ])
    const findings = run(json, 1)
    expect(findings.map(f => [f.severity, f.title])).toEqual([
      ['medium', 'prefer-const: Use const.'],
      ['high', "Check 'check' failed (exit code 1)"]
    ])
  })
})

describe('findings from located lines', () => {
  it('reads tsc plain diagnostics', () => {
    const findings = run(
      `src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.\n`
    )
    expect(findings).toMatchObject([
      {
        file: 'src/a.ts',
        line: 3,
        severity: 'high',
        category: 'logic',
        title: "TS2322: Type 'string' is not assignable to type 'number'."
      }
    ])
    expect(findings).toHaveLength(1)
  })

  it('reads tsc pretty diagnostics and strips their colours', () => {
    const pretty =
      '\u001b[96msrc/a.ts\u001b[0m:\u001b[93m3\u001b[0m:\u001b[93m7\u001b[0m - \u001b[91merror\u001b[0m\u001b[90m TS2322: \u001b[0mType \u001b[1mstring\u001b[0m is not assignable.\n\n' +
      '\u001b[7m3\u001b[0m const x: number = "three"\n\nFound 1 error.\n'
    const findings = run(pretty)
    expect(findings).toHaveLength(1)
    expect(findings[0]).toMatchObject({
      file: 'src/a.ts',
      line: 3,
      severity: 'high',
      title: 'TS2322: Type string is not assignable.'
    })
    expect(JSON.stringify(findings)).not.toContain('\\u001b')
  })

  it('reads gcc and flake8 `path:line:col: message` lines', () => {
    const findings = run(
      [
        "src/main.c:3:11: error: expected ';' before '}' token",
        "src/main.c:2:7: warning: unused variable 'unused'",
        "./app.py:1:1: F401 'os' imported but unused"
      ].join('\n')
    )
    expect(findings.map(f => [f.file, f.line, f.severity, f.title])).toEqual([
      ['src/main.c', 3, 'high', "check: expected ';' before '}' token"],
      ['src/main.c', 2, 'medium', "check: unused variable 'unused'"],
      ['app.py', 1, 'high', "F401: 'os' imported but unused"]
    ])
  })

  it('reads grep -n `path:line:content` lines', () => {
    write('src/todo.js', 'ok()\n// TODO remove\n')
    const findings = run('src/todo.js:2:// TODO remove\n')
    expect(findings).toMatchObject([
      { file: 'src/todo.js', line: 2, title: 'check: // TODO remove' }
    ])
  })

  it('ignores lines that only look like locations (URLs, hosts), and lists a missing file unlocated', () => {
    const findings = run(
      [
        'http://x:80: y',
        'fetching https://registry.npmjs.org:443/pkg: ok',
        'example.com:80: connection refused',
        'src/gone.ts:3:1: error: not here',
        'src/a.ts:1:1: error: real one'
      ].join('\n')
    )
    // a file the PR deleted or renamed away: no annotation can hold it, the comment lists it
    expect(findings.map(f => [f.file, f.title])).toEqual([
      [undefined, 'check: not here (in src/gone.ts, not a file of this repository)'],
      ['src/a.ts', 'check: real one']
    ])
  })

  it('resolves paths from the working directory and reports them from the repository root', () => {
    const findings = run(
      'lib/b.ts(1,14): error TS2322: Type number is not assignable.',
      2,
      '',
      path.join(root, 'pkg')
    )
    expect(findings).toMatchObject([{ file: 'pkg/lib/b.ts', line: 1 }])
  })

  it('gives the same id to the same problem after lines above it moved', () => {
    const before = run("src/a.ts(3,7): error TS2322: Type 'string' is not assignable.")[0]!
    write('src/a.ts', '// header\n\nconst one = 1\nconst two = 2\nconst x: number = "three"\n')
    const after = run("src/a.ts(5,7): error TS2322: Type 'string' is not assignable.")[0]!
    expect(after.line).toBe(5)
    expect(after.id).toBe(before.id)
  })
})

describe('every finding reaches the user, each with an id of its own', () => {
  it('reads paths with a space or a tab, and lists a path with bytes that are not UTF-8', () => {
    write('src/my file.ts', 'const a = 1\n')
    write('src/tab\tfile.ts', 'const b = 2\n')
    const output = Buffer.concat([
      Buffer.from('src/my file.ts:1:1: error: on a space\nsrc/tab\tfile.ts:1:7: error: on a tab\n'),
      Buffer.from([0x73, 0x72, 0x63, 0x2f, 0xff, 0x2e, 0x74, 0x73]), // src/<0xff>.ts
      Buffer.from(':2:1: error: on an invalid byte\n')
    ]).toString('utf8')
    expect(run(output).map(f => [f.file, f.line, f.title])).toEqual([
      ['src/my file.ts', 1, 'check: on a space'],
      ['src/tab\tfile.ts', 1, 'check: on a tab'],
      [
        undefined,
        undefined,
        'check: on an invalid byte (in src/\ufffd.ts, not a file of this repository)'
      ]
    ])
  })

  it('reads a path that starts with a quote, and shows it without its location', () => {
    write("'lead.js", 'a\nb\n')
    write('"dq.js', 'a\n')
    const output = `'lead.js:2:1: warning: starts with a quote\n"dq.js:1:1: error: starts with a double quote`
    expect(run(output).map(f => [f.file, f.severity, f.title])).toEqual([
      [
        undefined,
        'medium',
        `check: starts with a quote (in 'lead.js, a path with a quote or a control character, which is not annotated)`
      ],
      [
        undefined,
        'high',
        `check: starts with a double quote (in "dq.js, a path with a quote or a control character, which is not annotated)`
      ]
    ])
  })

  it('unquotes paths git quoted, and shows a path no annotation can name without its location', () => {
    write('src/\u00e9t\u00e9.js', 'a\nb\n')
    write(`src/quote"and'.js`, 'a\nb\n')
    const output = [
      `src/quote"and'.js:2:1: error: in a file with quotes in its name`,
      `src/gone"s.js:1:1: error: in a missing file with a quote`,
      '"src/\\303\\251t\\303\\251.js":2:1: error: in a file git quoted',
      '"src/\\303\\251x.js":1:1: error: in a missing file git quoted',
      '"a\\"b.js":3: error: a quote git quoted',
      '"a\\nb.js":1: error: a newline git quoted',
      "Something 'x' happened at host:80: a message, not a location"
    ].join('\n')
    expect(run(output).map(f => [f.file, f.line, f.title])).toEqual([
      [
        undefined,
        undefined,
        `check: in a file with quotes in its name (in src/quote"and'.js, a path with a quote or a control character, which is not annotated)`
      ],
      [
        undefined,
        undefined,
        `check: in a missing file with a quote (in src/gone"s.js, not a file of this repository)`
      ],
      ['src/\u00e9t\u00e9.js', 2, 'check: in a file git quoted'],
      [
        undefined,
        undefined,
        'check: in a missing file git quoted (in src/\u00e9x.js, not a file of this repository)'
      ],
      [
        undefined,
        undefined,
        'check: a quote git quoted (in a"b.js, not a file of this repository)'
      ],
      [
        undefined,
        undefined,
        'check: a newline git quoted (in "a\\nb.js", not a file of this repository)'
      ]
    ])
  })

  it.each([
    ['"src/\\303\\251t\\303\\251.js"', 'src/\u00e9t\u00e9.js'],
    ['"a\\"b.js"', 'a"b.js'],
    ['"back\\\\slash\\ttab\\nline"', 'back\\slash\ttab\nline'],
    ['"\\377.js"', '\ufffd.js'],
    ['src/plain.js', undefined],
    ['"not \\q an escape"', undefined]
  ])('unquotes %s as git quotes paths', (quoted, path) => {
    expect(unquoteGitPath(quoted)).toBe(path)
  })

  it('shows a reported path with a newline without its location, the newline visible', () => {
    const json = JSON.stringify([
      { filePath: 'src/a\nb.ts', messages: [{ ruleId: 'r', severity: 2, message: 'm', line: 1 }] }
    ])
    expect(run(json).map(f => [f.file, f.title])).toEqual([
      [undefined, 'r: m (in "src/a\\nb.ts", not a file of this repository)']
    ])
  })

  it('reads located lines holding control bytes, a carriage return or an unterminated terminal link', () => {
    const output = [
      'src/a.ts:1:1: error: nul\u0000byte \u001b[31mred\u001b[0m \u001b]8;;https://x/\u001b\\link\u001b]8;;\u001b\\ cr\rover',
      'src/a.ts:2:1: error: an OSC that never ends \u001b]0;title',
      'src/a.ts:3:1: error: still read, up to a bell far below',
      'done\u0007'
    ].join('\n')
    expect(run(output).map(f => [f.line, f.title])).toEqual([
      [1, 'check: nulbyte red link cr'],
      [2, 'check: an OSC that never ends'],
      [3, 'check: still read, up to a bell far below']
    ])
  })

  it('keeps findings apart that differ only in letter case or line, and one problem printed twice is one', () => {
    write('src/same.ts', 'check()\nother()\ncheck()\n')
    const findings = run(
      [
        'src/same.ts:1:1: error: Parses Input',
        'src/same.ts:1:1: error: parses input',
        'src/same.ts:3:1: error: parses input',
        'src/same.ts:1:1: error: Parses Input'
      ].join('\n')
    )
    expect(findings.map(f => [f.line, f.title])).toEqual([
      [1, 'check: Parses Input'],
      [1, 'check: parses input'],
      [3, 'check: parses input']
    ])
    expect(new Set(findings.map(f => f.id)).size).toBe(3)
    // the same output again gives the same ids: the next iteration matches them
    expect(
      run(findings.map(f => `src/same.ts:${f.line}:1: error: ${f.description}`).join('\n')).map(
        f => f.id
      )
    ).toEqual(findings.map(f => f.id))
  })
})

describe('finding ids that stay put', () => {
  const ids = (output: string[]) => run(output.join('\n')).map(f => [f.line, f.title, f.id])

  it('gives case-variant failing tests an id each, whatever order the runner prints them in', () => {
    write('src/t.test.js', "const check = require('./check')\ntest(check)\n")
    write('src/check.js', 'module.exports = n => {\n  throw new Error(n)\n}\n')
    const failure = (name: string) => [`✖ ${name}`, '  at check (src/check.js:2:9)']
    const first = ids([...failure('parses Input'), ...failure('parses input')])
    const flipped = ids([...failure('parses input'), ...failure('parses Input')])
    expect(first.map(([, title]) => title)).toEqual(['parses Input', 'parses input'])
    expect(new Set(first.map(([, , id]) => id)).size).toBe(2)
    expect([...flipped].reverse()).toEqual(first)
    // one of them alone keeps the id it always had: earlier states still match it
    const alone = ids(failure('parses input'))
    expect(alone).toEqual([
      [
        2,
        'parses input',
        fingerprint({ title: 'parses input', file: 'src/check.js', anchor: '  throw new Error(n)' })
      ]
    ])
  })

  it('gives case twins the same ids when one of them is printed past the cap', () => {
    write('src/many.ts', Array.from({ length: 101 }, (_, i) => `line${i}()`).join('\n'))
    const others = Array.from(
      { length: MAX_FINDINGS_PER_CHECK },
      (_, i) => `src/many.ts:${i + 2}:1: error: e${i}`
    )
    const twin = (title: string) => `src/many.ts:1:1: error: ${title}`
    const ids = (output: string[]) =>
      new Map(run(output.join('\n')).map(f => [`${f.line} ${f.title}`, f.id]))
    const first = ids([twin('Parses Input'), ...others, twin('parses input')])
    const flipped = ids([twin('parses input'), ...others, twin('Parses Input')])
    expect(first.size).toBe(MAX_FINDINGS_PER_CHECK)
    expect(first.get('1 check: Parses Input')).toBeDefined()
    expect(first.get('1 check: parses input')).toBeDefined()
    expect(first.get('1 check: parses input')).not.toBe(first.get('1 check: Parses Input'))
    for (const title of ['1 check: Parses Input', '1 check: parses input'])
      expect(flipped.get(title)).toBe(first.get(title))
  })

  it('keeps the ids of one message on two identical lines when an edit above moves them', () => {
    write('src/same.ts', 'check()\nother()\ncheck()\n')
    const before = ids(['src/same.ts:1:1: error: unchecked', 'src/same.ts:3:1: error: unchecked'])
    write('src/same.ts', '// added\n\ncheck()\nother()\ncheck()\n')
    const after = ids(['src/same.ts:5:1: error: unchecked', 'src/same.ts:3:1: error: unchecked'])
    expect(new Set(before.map(([, , id]) => id)).size).toBe(2)
    expect(after).toEqual([
      [5, 'check: unchecked', before[1]![2]],
      [3, 'check: unchecked', before[0]![2]]
    ])
  })
})

describe('a failing command without a location', () => {
  it('gives one high finding with the tail of the output', () => {
    const output = Array.from({ length: 100 }, (_, i) => `log line ${i}`).join('\n')
    const findings = run(`${output}\n\u001b[31mFAIL\u001b[0m 3 tests failed\n`, 1)
    expect(findings).toHaveLength(1)
    const [f] = findings
    expect(f).toMatchObject({
      severity: 'high',
      category: 'testing',
      title: "Check 'check' failed (exit code 1)",
      source: 'gate:check'
    })
    expect(f!.file).toBeUndefined()
    expect(f!.description).toContain('FAIL 3 tests failed')
    expect(f!.description).toContain('log line 99')
    expect(f!.description).not.toContain('log line 0\n')
    expect(f!.description).not.toContain('\u001b')
  })

  it('says the command timed out', () => {
    const findings = readGateOutput(
      { name: 'slow', command: '' },
      { exitCode: 124, stdout: '', output: 'waiting...', timedOut: true },
      { repoRoot: root, cwd: root }
    ).findings
    expect(findings.map(f => f.title)).toEqual(["Check 'slow' timed out"])
  })

  it('gives no finding when the command passes', () => {
    expect(run('all good: 12 tests passed\n', 0)).toEqual([])
  })
})

describe('a check that prints more than anyone can act on', () => {
  it('keeps the 100 most severe problems as findings and counts them all', () => {
    const lines: string[] = []
    for (let i = 0; i < 3000; i++) lines.push(`src/main.c:${(i % 4) + 1}:1: warning: noise ${i}`)
    lines.push("src/main.c:3:11: error: expected ';' before '}' token")
    const { findings, problems } = readGateOutput(
      { name: 'check', command: '' },
      { exitCode: 1, stdout: '', output: lines.join('\n'), timedOut: false },
      { repoRoot: root, cwd: root }
    )
    expect(problems).toBe(3001)
    expect(findings).toHaveLength(MAX_FINDINGS_PER_CHECK)
    // the one error comes first, though it was printed last
    expect(findings[0]).toMatchObject({ severity: 'high', line: 3 })
  })

  it('puts a problem cited past the end of its file on the last line', () => {
    const findings = run('src/main.c:150000:1: error: stale line\n')
    expect(findings[0]).toMatchObject({ file: 'src/main.c', line: 4 })
  })
})
