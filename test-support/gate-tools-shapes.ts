/** Text shapes: formatter checks, severity words, notes, two-channel test runners, go test packages. */
import { apt, npm, type GateTool, type Planted } from './gate-tool-types.js'

/** Ruff, Black and isort from pip in a venv: `CAPTURE_PATH=/tmp/venv-s/bin`. */
const PIP = (name: string, version: string) => ({
  version,
  install: `pip install ${name} (in a venv; its bin/ as CAPTURE_PATH)`
})
const RUFF = PIP('ruff==0.16.9', 'ruff --version')
const BLACK = PIP('black==26.5.1', 'black --version')
const ISORT = PIP('isort==9.0.2', "isort --version | grep -m1 -o 'VERSION.*'")
const OXLINT_RUN = {
  version: 'oxlint --version',
  install: 'npm i oxlint@1.94.0 outside the project'
}
// ESLint 9 finds `-f unix` as the package eslint-formatter-unix: installed outside the project, with
// NODE_PATH pointing at it
const ESLINT_UNIX = {
  version: 'echo "eslint $(eslint --version), eslint-formatter-unix 9.0.1"',
  install: 'npm i eslint-formatter-unix@9.0.1 outside the project, NODE_PATH=<its node_modules>'
}
const CARGO_FMT = { bin: 'rustfmt', version: 'cargo fmt --version', from: 'rustup' as const }
const GO = apt('go', 'go version')
const DEBIAN = (pkg: string, version: string) => ({
  version,
  install: `apt-get install ${pkg} (Debian 12)`
})
// each level of cppcheck: portability (medium), error (high), warning (medium), style and
// performance (low)
const CPPCHECK: Planted[] = [
  ['cpp/check.cpp', 13, 'medium'],
  ['cpp/check.cpp', 8, 'high'],
  ['cpp/check.cpp', 11, 'medium'],
  ['cpp/check.cpp', 16, 'low'],
  ['cpp/check.cpp', 4, 'low']
]
const OXLINT: Planted[] = [
  ['oxlint/app.js', 2, 'medium'],
  ['oxlint/app.js', 4, 'high']
]
const ESLINT: Planted[] = [
  ['js/app.js', 2, 'high'],
  ['js/app.js', 4, 'medium']
]

export const SHAPE_TOOLS: GateTool[] = [
  // formatter checks: a file the formatter would change is a finding on it, on a line if one is given
  {
    id: 'ruff-format',
    tool: 'ruff format',
    format: '--check (full, the default)',
    check: 'format: ruff format --check fmt/py',
    capture: RUFF,
    planted: [['fmt/py/bad.py', 5, 'high']],
    best: true
  },
  {
    id: 'ruff-format-concise',
    tool: 'ruff format',
    format: '--check --output-format concise',
    check: 'format: ruff format --check --output-format concise fmt/py',
    capture: RUFF,
    planted: [['fmt/py/bad.py', 5, 'high']]
  },
  {
    id: 'black-check',
    tool: 'Black',
    format: '--check',
    check: 'format: black --check fmt/py',
    capture: BLACK,
    planted: [['fmt/py/bad.py', null, 'high']],
    best: true
  },
  {
    id: 'black-check-clean',
    tool: 'Black',
    format: '--check, formatted',
    check: 'format: black --check fmt/py/ok.py',
    capture: BLACK,
    planted: []
  },
  {
    id: 'isort-check',
    tool: 'isort',
    format: '--check-only',
    check: 'format: isort --check-only fmt/py',
    capture: ISORT,
    planted: [['fmt/py/bad.py', null, 'high']],
    best: true
  },
  {
    // each hunk on its first changed line (rustfmt prints where its context starts)
    id: 'cargo-fmt',
    tool: 'cargo fmt',
    format: '--check',
    check: 'format: cd fmt/rs && cargo fmt --check',
    run: CARGO_FMT,
    planted: [
      ['fmt/rs/src/lib.rs', 1, 'high'],
      ['fmt/rs/src/lib.rs', 8, 'high']
    ],
    best: true
  },
  {
    // gofmt -l exits 0 whatever it lists: what a passing check reports is low
    id: 'gofmt-l',
    tool: 'gofmt',
    format: '-l (exits 0)',
    check: 'format: gofmt -l fmt/go',
    run: GO,
    planted: [['fmt/go/bad.go', null, 'low']]
  },
  {
    id: 'gofmt-l-test',
    tool: 'gofmt',
    format: '-l, failing when it lists a file',
    check: 'format: ! gofmt -l fmt/go | grep .',
    run: GO,
    planted: [['fmt/go/bad.go', null, 'high']],
    best: true
  },
  {
    // a command that prints paths and passes: a listing, no findings
    id: 'find-paths-clean',
    tool: 'find',
    format: 'a list of paths, passing',
    check: 'list: find fmt -name "*.go"',
    run: apt('find', 'find --version | head -1'),
    planted: []
  },
  // severity words: `[Warning/rule]` at a line's end, cppcheck's levels, gcc's notes
  {
    id: 'eslint-unix',
    tool: 'ESLint',
    format: '-f unix (eslint-formatter-unix)',
    check: 'lint: eslint js -f unix',
    capture: ESLINT_UNIX,
    planted: ESLINT
  },
  {
    id: 'oxlint-unix',
    tool: 'oxlint',
    format: '-f unix',
    check: 'lint: oxlint -f unix oxlint',
    capture: OXLINT_RUN,
    planted: OXLINT
  },
  {
    id: 'cppcheck',
    tool: 'cppcheck',
    format: '--enable=all (the default template)',
    check: 'lint: cppcheck --enable=all --suppress=unusedFunction --error-exitcode=1 cpp/check.cpp',
    capture: DEBIAN('cppcheck', 'cppcheck --version'),
    planted: CPPCHECK,
    best: true
  },
  {
    // a note (`expected 'int'`, on line 1) belongs to the warning above it: no finding of its own
    id: 'gcc',
    tool: 'gcc',
    format: '-Wall (warnings, an error, their notes)',
    check: 'build: gcc -Wall -c cpp/note.c -o /dev/null',
    capture: DEBIAN('gcc', 'gcc --version | head -1'),
    planted: [
      ['cpp/note.c', 5, 'medium'],
      ['cpp/note.c', 6, 'medium'],
      ['cpp/note.c', 6, 'high']
    ],
    best: true
  },
  // two channels: Jest's text and its github-actions reporter's `::error`, one finding
  {
    id: 'jest-github',
    tool: 'Jest',
    format: 'default and github-actions reporters, GITHUB_ACTIONS=true',
    check: 'test: GITHUB_ACTIONS=true jest js/test --reporters=default --reporters=github-actions',
    run: npm('jest'),
    planted: [['js/test/math.test.js', 4, 'high']]
  },
  // go test with go.mod at the folder's root and the test in a package below it
  {
    id: 'go-test-pkg',
    tool: 'go test',
    format: 'default, a package below go.mod',
    check: 'test: cd gopkg && go test ./...',
    run: GO,
    planted: [['gopkg/pkg/x_test.go', 6, 'high']]
  },
  // PHP
  {
    id: 'php-lint',
    tool: 'php -l',
    format: 'syntax check',
    check: 'lint: php -l php/bad.php',
    capture: DEBIAN('php-cli', 'php --version | head -1'),
    planted: [['php/bad.php', 5, 'high']],
    best: true
  },
  {
    id: 'phpunit',
    tool: 'PHPUnit',
    format: 'default (text)',
    check: 'test: phpunit php/tests',
    capture: DEBIAN('phpunit', 'phpunit --version | head -1'),
    planted: [
      ['php/Calc.php', 12, 'high'],
      ['php/tests/CalcTest.php', 11, 'high']
    ]
  }
]
