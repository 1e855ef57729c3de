/**
 * The tools the gates are tested against: what each prints is captured into
 * __tests__/fixtures/gates/<id>.json (by scripts/capture-gate-fixtures.ts, or copied from the tool's
 * own test snapshots where the tool does not install here), replayed by the parity test, and run
 * live by the real-tools test. `planted` is what the sample repository (test-support/gate-sample)
 * holds on purpose, as [file, line, severity] — file and line null for a finding with no location.
 */
import { apt, npm, type GateTool, type Planted } from './gate-tool-types.js'
import { LINTER_TOOLS } from './gate-tools-linters.js'
import { REPORT_TOOLS } from './gate-tools-reports.js'
import { RUNNER_TOOLS } from './gate-tools-runners.js'
import { MORE_TOOLS } from './gate-tools-more.js'
import { SHAPE_TOOLS } from './gate-tools-shapes.js'

export type { GateTool, Planted } from './gate-tool-types.js'

const ESLINT: Planted[] = [
  ['js/app.js', 2, 'high'],
  ['js/app.js', 4, 'medium']
]
const PYRIGHT: Planted[] = [
  ['py/app.py', 5, 'medium'],
  ['py/app.py', 6, 'high'],
  ['py/app.py', 10, 'high']
]
const PYLINT: Planted[] = [
  ['py/app.py', 1, 'low'],
  ['py/app.py', 1, 'medium'],
  ['py/app.py', 4, 'low'],
  ['py/app.py', 5, 'medium'],
  ['py/app.py', 6, 'high'],
  ['py/app.py', 9, 'low'],
  ['py/app.py', 9, 'low'],
  ['py/app.py', 9, 'low']
]
const STATICCHECK: Planted[] = [
  ['go/main.go', 7, 'high'],
  ['go/main.go', 10, 'high']
]
// ShellCheck exits 1 on warnings: the failing check's own finding is the one high
const SHELLCHECK: Planted[] = [
  ['sh/deploy', 2, 'medium'],
  ['sh/deploy', 3, 'low'],
  ['sh/deploy', 4, 'medium'],
  [null, null, 'high']
]
const YAMLLINT: Planted[] = [
  ['config.yml', 1, 'medium'],
  ['config.yml', 4, 'high']
]
const STYLELINT: Planted[] = [
  ['css/style.css', 2, 'high'],
  ['css/style.css', 6, 'medium']
]
const RUFF: Planted[] = [
  ['ruff/input.py', 1, 'high'],
  ['ruff/input.py', 2, 'high'],
  ['ruff/input.py', 3, 'high']
]
const RUFF_SOURCE =
  'astral-sh/ruff fca5c7c (0.16.4) crates/ruff/tests/cli/snapshots/cli__lint__output_format_'
const RUFF_TMP = { '[TMP]': '${ROOT}/ruff' }
const GOLANGCI: Planted[] = [
  ['golangci/path/to/filea.go', 10, 'medium'],
  ['golangci/path/to/fileb.go', 300, 'high']
]
const MARKDOWNLINT: Planted[] = [
  ['docs/guide.md', 1, 'high'],
  ['docs/guide.md', 5, 'high']
]
/** stylelint 18 and markdownlint-cli2 0.24, which declare Node 22: captured here, now replayed. */
const NODE22_SOURCE = 'a run here, 2026-11-22'
// @microsoft/eslint-formatter-sarif 3.1.0 asks for ESLint 8 and jschardet@latest (a dist-tag, which
// broke npm ci when jschardet moved): its two fixtures were captured here on 2026-11-22 and are
// replayed, not run again; the other ESLint rows still run ESLint 9 live
const ESLINT_SARIF_SOURCE = '@microsoft/eslint-formatter-sarif 3.1.0, captured here on 2026-11-22'
const GOLANGCI_SOURCE = 'golangci/golangci-lint 6fb5dee (v2.13.1+3) pkg/printers/'

const BASE_TOOLS: GateTool[] = [
  {
    id: 'eslint-stylish',
    tool: 'ESLint',
    format: 'stylish',
    check: 'lint: eslint js',
    run: npm('eslint'),
    planted: ESLINT
  },
  {
    id: 'eslint-compact',
    tool: 'ESLint',
    format: 'compact',
    check: 'lint: eslint js -f compact',
    run: npm('eslint'),
    planted: ESLINT
  },
  {
    id: 'eslint-json',
    tool: 'ESLint',
    format: 'json',
    check: 'lint: eslint js -f json',
    run: npm('eslint'),
    best: true,
    planted: ESLINT
  },
  {
    id: 'eslint-sarif',
    tool: 'ESLint',
    format: 'SARIF on stdout',
    check: 'lint: eslint js -f @microsoft/eslint-formatter-sarif',
    source: ESLINT_SARIF_SOURCE,
    planted: ESLINT
  },
  {
    id: 'eslint-sarif-file',
    tool: 'ESLint',
    format: 'SARIF file (report=)',
    check:
      'lint[report=out/eslint.sarif]: mkdir -p out && eslint js -f @microsoft/eslint-formatter-sarif -o out/eslint.sarif',
    source: ESLINT_SARIF_SOURCE,
    planted: ESLINT
  },
  {
    id: 'tsc',
    tool: 'tsc',
    format: 'plain',
    check: 'types: tsc -p ts',
    run: npm('tsc', 'tsc --version'),
    best: true,
    planted: [['ts/index.ts', 5, 'high']]
  },
  {
    id: 'tsc-pretty',
    tool: 'tsc',
    format: '--pretty',
    check: 'types: tsc -p ts --pretty',
    run: npm('tsc'),
    planted: [['ts/index.ts', 5, 'high']]
  },
  {
    id: 'prettier',
    tool: 'Prettier',
    format: '--check',
    check: 'format: prettier --check js',
    run: npm('prettier'),
    // each file `[warn]` lists fails the check: the file's finding is high
    best: true,
    planted: [['js/format.js', null, 'high']]
  },
  {
    id: 'pyright',
    tool: 'Pyright',
    format: 'text',
    check: 'types: pyright py',
    run: npm('pyright'),
    planted: PYRIGHT
  },
  {
    id: 'pyright-json',
    tool: 'Pyright',
    format: '--outputjson',
    check: 'types: pyright py --outputjson',
    run: npm('pyright'),
    best: true,
    planted: PYRIGHT
  },
  {
    id: 'mypy',
    tool: 'mypy',
    format: 'text',
    check: 'types: mypy py',
    run: apt('mypy'),
    planted: [['py/app.py', 10, 'high']]
  },
  {
    id: 'flake8',
    tool: 'flake8',
    format: 'default',
    check: 'lint: flake8 py',
    run: apt('flake8'),
    planted: [
      ['py/app.py', 1, 'high'],
      ['py/app.py', 5, 'high'],
      ['py/app.py', 6, 'high']
    ]
  },
  {
    id: 'flake8-cd',
    tool: 'flake8',
    format: 'default, after cd DIR &&',
    check: 'lint: cd sub && flake8 py',
    run: apt('flake8'),
    planted: [
      ['sub/py/app.py', 1, 'high'],
      ['sub/py/app.py', 4, 'high'],
      ['sub/py/app.py', 4, 'high']
    ]
  },
  {
    id: 'pylint',
    tool: 'Pylint',
    format: 'text',
    check: 'lint: pylint py/app.py',
    run: apt('pylint'),
    planted: PYLINT
  },
  {
    id: 'pylint-parseable',
    tool: 'Pylint',
    format: 'parseable',
    check: 'lint: pylint py/app.py --output-format=parseable',
    run: apt('pylint'),
    planted: PYLINT
  },
  {
    id: 'pylint-json',
    tool: 'Pylint',
    format: 'json',
    check: 'lint: pylint py/app.py -f json',
    run: apt('pylint'),
    best: true,
    planted: PYLINT
  },
  {
    id: 'pytest',
    tool: 'pytest',
    format: 'default',
    check: 'test: pytest-3 py',
    run: apt('pytest-3'),
    planted: [['py/test_app.py', 6, 'high']]
  },
  {
    // a traceback the code logs on purpose (pytest's "Captured log call") is not a crash
    id: 'pytest-logged',
    tool: 'pytest',
    format: 'default, a failing test logged a traceback',
    check: 'test: pytest-3 pylogged',
    run: apt('pytest-3'),
    planted: [['pylogged/test_app.py', 6, 'high']]
  },
  {
    id: 'go-vet',
    tool: 'go vet',
    format: 'text',
    check: 'vet: cd go && go vet ./...',
    run: apt('go', 'go version'),
    best: true,
    planted: [['go/main.go', 7, 'high']]
  },
  {
    id: 'staticcheck',
    tool: 'staticcheck',
    format: 'text',
    check: 'lint: cd go && go-staticcheck ./...',
    run: apt('go-staticcheck', 'go-staticcheck -version'),
    planted: STATICCHECK
  },
  {
    id: 'staticcheck-json',
    tool: 'staticcheck',
    format: 'json',
    check: 'lint: cd go && go-staticcheck -f json ./...',
    run: apt('go-staticcheck', 'go-staticcheck -version'),
    best: true,
    planted: STATICCHECK
  },
  {
    id: 'staticcheck-sarif',
    tool: 'staticcheck',
    format: 'SARIF',
    check: 'lint: cd go && go-staticcheck -f sarif ./...',
    run: apt('go-staticcheck', 'go-staticcheck -version'),
    // staticcheck -f sarif exits 0 whatever it finds: a passing check's problems are low
    planted: [
      ['go/main.go', 7, 'low'],
      ['go/main.go', 10, 'low']
    ]
  },
  {
    id: 'clippy',
    tool: 'clippy',
    format: 'human',
    check: 'lint: cd rust && cargo clippy --offline -q',
    run: { bin: 'cargo', version: 'cargo clippy --version', from: 'rustup' },
    planted: [
      ['rust/src/main.rs', 2, 'medium'],
      ['rust/src/main.rs', 4, 'high']
    ]
  },
  {
    id: 'shellcheck',
    tool: 'ShellCheck',
    format: 'tty',
    check: 'sh: shellcheck sh/deploy',
    run: apt('shellcheck'),
    planted: SHELLCHECK
  },
  {
    id: 'shellcheck-gcc',
    tool: 'ShellCheck',
    format: 'gcc',
    check: 'sh: shellcheck -f gcc sh/deploy',
    run: apt('shellcheck'),
    planted: SHELLCHECK
  },
  {
    id: 'shellcheck-json',
    tool: 'ShellCheck',
    format: 'json',
    check: 'sh: shellcheck -f json sh/deploy',
    run: apt('shellcheck'),
    planted: SHELLCHECK
  },
  {
    id: 'shellcheck-json1',
    tool: 'ShellCheck',
    format: 'json1',
    check: 'sh: shellcheck -f json1 sh/deploy',
    run: apt('shellcheck'),
    best: true,
    planted: SHELLCHECK
  },
  {
    id: 'shellcheck-checkstyle',
    tool: 'ShellCheck',
    format: 'checkstyle',
    check: 'sh: shellcheck -f checkstyle sh/deploy',
    run: apt('shellcheck'),
    planted: SHELLCHECK
  },
  {
    id: 'yamllint',
    tool: 'yamllint',
    format: 'standard',
    check: 'yaml: yamllint config.yml',
    run: apt('yamllint'),
    planted: YAMLLINT
  },
  {
    id: 'yamllint-parsable',
    tool: 'yamllint',
    format: 'parsable',
    check: 'yaml: yamllint -f parsable config.yml',
    run: apt('yamllint'),
    planted: YAMLLINT
  },
  {
    id: 'yamllint-github',
    tool: 'yamllint',
    format: 'github (workflow commands)',
    check: 'yaml: yamllint -f github config.yml',
    run: apt('yamllint'),
    best: true,
    planted: YAMLLINT
  },
  {
    id: 'stylelint',
    tool: 'stylelint',
    format: 'string',
    check: 'css: stylelint css/style.css',
    run: npm('stylelint'),
    planted: STYLELINT
  },
  {
    id: 'stylelint-json',
    tool: 'stylelint',
    format: 'json',
    check: 'css: stylelint css/style.css -f json',
    run: npm('stylelint'),
    best: true,
    planted: STYLELINT
  },
  {
    id: 'markdownlint',
    tool: 'markdownlint-cli2',
    format: 'default',
    check: 'docs: markdownlint-cli2 docs/guide.md',
    run: npm('markdownlint-cli2', 'markdownlint-cli2 --help | head -1'),
    best: true,
    planted: MARKDOWNLINT
  },
  // stylelint 18 and markdownlint-cli2 0.24 declare Node 22 (development runs Node 20, where the rows
  // above run 17 and 0.22 live): what they printed here on 2026-11-22 is still replayed
  {
    id: 'stylelint-18',
    tool: 'stylelint',
    format: 'string (v18)',
    check: 'css: stylelint css/style.css',
    source: NODE22_SOURCE,
    planted: STYLELINT
  },
  {
    id: 'stylelint-18-json',
    tool: 'stylelint',
    format: 'json (v18)',
    check: 'css: stylelint css/style.css -f json',
    source: NODE22_SOURCE,
    planted: STYLELINT
  },
  {
    id: 'markdownlint-0.24',
    tool: 'markdownlint-cli2',
    format: 'default (v0.24)',
    check: 'docs: markdownlint-cli2 docs/guide.md',
    source: NODE22_SOURCE,
    planted: MARKDOWNLINT
  },
  {
    id: 'jest',
    tool: 'Jest',
    format: 'default',
    check: 'test: jest js/test',
    run: npm('jest'),
    planted: [['js/test/math.test.js', 4, 'high']],
    // its own output needs no reporter package
    best: true
  },
  {
    id: 'vitest',
    tool: 'Vitest',
    format: 'default',
    check: 'test: vitest run js/vitest',
    run: npm('vitest'),
    best: true,
    planted: [['js/vitest/math.test.js', 6, 'high']]
  },
  {
    id: 'vitest-github',
    tool: 'Vitest',
    format: 'github-actions (workflow commands)',
    check: 'test: vitest run js/vitest --reporter=github-actions',
    run: npm('vitest'),
    planted: [['js/vitest/math.test.js', 6, 'high']]
  },
  {
    id: 'node-test',
    tool: 'node:test',
    format: 'spec',
    check: 'test: node --test js/node-test/math.test.mjs',
    run: npm('node', 'node --version'),
    best: true,
    planted: [['js/node-test/math.test.mjs', 7, 'high']]
  },
  {
    id: 'ruff-full',
    tool: 'Ruff',
    format: 'full',
    check: 'lint: cd ruff && ruff check input.py',
    source: `${RUFF_SOURCE}full.snap`,
    replace: RUFF_TMP,
    planted: RUFF
  },
  {
    id: 'ruff-concise',
    tool: 'Ruff',
    format: 'concise',
    check: 'lint: cd ruff && ruff check --output-format concise input.py',
    source: `${RUFF_SOURCE}concise.snap`,
    replace: RUFF_TMP,
    planted: RUFF
  },
  {
    id: 'ruff-json',
    tool: 'Ruff',
    format: 'json',
    check: 'lint: ruff check --output-format json ruff/input.py',
    source: `${RUFF_SOURCE}json.snap`,
    replace: RUFF_TMP,
    planted: RUFF
  },
  {
    id: 'ruff-json-lines',
    tool: 'Ruff',
    format: 'json-lines',
    check: 'lint: ruff check --output-format json-lines ruff/input.py',
    source: `${RUFF_SOURCE}json_lines.snap`,
    replace: RUFF_TMP,
    planted: RUFF
  },
  {
    id: 'ruff-sarif',
    tool: 'Ruff',
    format: 'SARIF',
    check: 'lint: ruff check --output-format sarif ruff/input.py',
    source: `${RUFF_SOURCE}sarif.snap`,
    replace: RUFF_TMP,
    planted: RUFF
  },
  {
    id: 'ruff-github',
    tool: 'Ruff',
    format: 'github (workflow commands)',
    check: 'lint: ruff check --output-format github ruff/input.py',
    source: `${RUFF_SOURCE}github.snap`,
    replace: RUFF_TMP,
    best: true,
    planted: RUFF
  },
  {
    id: 'ruff-pylint',
    tool: 'Ruff',
    format: 'pylint',
    check: 'lint: cd ruff && ruff check --output-format pylint input.py',
    source: `${RUFF_SOURCE}pylint.snap`,
    replace: RUFF_TMP,
    planted: RUFF
  },
  {
    id: 'ruff-rdjson',
    tool: 'Ruff',
    format: 'rdjson (reviewdog)',
    check: 'lint: ruff check --output-format rdjson ruff/input.py',
    source: `${RUFF_SOURCE}rdjson.snap`,
    replace: RUFF_TMP,
    planted: [
      ['ruff/input.py', 1, 'medium'],
      ['ruff/input.py', 2, 'medium'],
      ['ruff/input.py', 3, 'medium'],
      [null, null, 'high']
    ]
  },
  {
    id: 'golangci-text',
    tool: 'golangci-lint',
    format: 'text',
    check: 'lint: cd golangci && golangci-lint run',
    source: `${GOLANGCI_SOURCE}text_test.go`,
    planted: [
      ['golangci/path/to/filea.go', 10, 'high'],
      ['golangci/path/to/fileb.go', 300, 'high']
    ]
  },
  {
    id: 'golangci-json',
    tool: 'golangci-lint',
    format: 'json',
    check: 'lint: cd golangci && golangci-lint run --output.json.path stdout',
    source: `${GOLANGCI_SOURCE}json_test.go`,
    best: true,
    planted: GOLANGCI
  },
  {
    id: 'golangci-checkstyle',
    tool: 'golangci-lint',
    format: 'checkstyle',
    check: 'lint: cd golangci && golangci-lint run --output.checkstyle.path stdout',
    source: `${GOLANGCI_SOURCE}checkstyle_test.go`,
    planted: [
      ...GOLANGCI,
      ['golangci/path/to/filec.go', 300, 'high'],
      ['golangci/path/to/filed.go', 300, 'high']
    ]
  },
  {
    id: 'golangci-sarif',
    tool: 'golangci-lint',
    format: 'SARIF',
    check: 'lint: cd golangci && golangci-lint run --output.sarif.path stdout',
    source: `${GOLANGCI_SOURCE}sarif_test.go`,
    planted: [
      ...GOLANGCI,
      ['golangci/path/to/filed.go', 11, 'high'],
      ['golangci/path/to/filec.go', 300, 'high'],
      ['golangci/path/to/filed.go', 300, 'high']
    ]
  },
  {
    id: 'hadolint',
    tool: 'hadolint',
    format: 'tty',
    check: 'docker: hadolint Dockerfile',
    source: 'hadolint/hadolint 8f936c5 (2.15.1) test/Hadolint/Formatter/TTYSpec.hs',
    replace: { '<string>': 'Dockerfile' },
    best: true,
    planted: [
      ['Dockerfile', 1, 'low'],
      ['Dockerfile', 3, 'medium'],
      [null, null, 'high']
    ]
  },
  {
    id: 'msbuild',
    tool: 'MSBuild / dotnet build',
    format: 'canonical',
    check: 'build: cd msbuild && dotnet build',
    source:
      'Microsoft Learn, "MSBuild diagnostic format for tasks" (dotnet/msbuild 05f0891, 18.11.0)',
    best: true,
    planted: [
      ['msbuild/Main.cs', 17, 'medium'],
      [null, null, 'high']
    ]
  }
]

/** Every tool: the first set, then test runners' and linters' outputs added for issue 26. */
export const GATE_TOOLS: GateTool[] = [
  ...BASE_TOOLS,
  ...RUNNER_TOOLS,
  ...LINTER_TOOLS,
  ...REPORT_TOOLS,
  ...SHAPE_TOOLS,
  ...MORE_TOOLS
]
