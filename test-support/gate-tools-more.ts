/**
 * Further linters, type checkers and test runners, for the docs' tool table (docs/checks.md): each
 * captured here on 2026-12-05 from the version its fixture names, on the sample's folder named after
 * it, and replayed (CI installs none of them: `capture.install` says how they were installed).
 */
import type { GateTool, Planted } from './gate-tool-types.js'

/** `pkg@version`: installed with npm in /tmp, outside the project; its bin folder is CAPTURE_PATH. */
const npmCapture = (pkg: string, version = `${pkg.replace(/@[^@]*$/, '')} --version`) => ({
  version,
  install: `npm i ${pkg} in /tmp`
})
const debian = (pkg: string, version: string) => ({
  version,
  install: `apt-get install ${pkg} (Debian 12)`
})
/** Exits non-zero on a warning: the failing check's own finding is the one high. */
const FAILED: Planted = [null, null, 'high']

const HTMLHINT = npmCapture('htmlhint@1.9.2')
const JSHINT = npmCapture('jshint@2.13.6', 'jshint --version 2>&1')
const TEXTLINT = npmCapture('textlint@15.8.0 textlint-rule-no-todo@2', 'textlint --version')
const SOLHINT = npmCapture('solhint@6.2.4')
const LUACHECK = debian('lua-check', 'luacheck --version')
const CHECKSTYLE = debian('checkstyle', 'checkstyle --version')

const JSHINT_PLANTED: Planted[] = [
  ['jshint/app.js', 2, 'medium'],
  ['jshint/app.js', 3, 'medium'],
  FAILED
]
const TEXTLINT_PLANTED: Planted[] = [['textlint/guide.md', 5, 'high']]
const SOLHINT_PLANTED: Planted[] = [
  ['solhint/Token.sol', 1, 'high'],
  ['solhint/Token.sol', 4, 'medium']
]
const LUACHECK_PLANTED: Planted[] = [
  ['luacheck/app.lua', 1, 'medium'],
  ['luacheck/app.lua', 5, 'medium'],
  FAILED
]
const CHECKSTYLE_PLANTED: Planted[] = [
  ['checkstyle/src/App.java', 1, 'high'],
  ['checkstyle/src/App.java', 6, 'medium']
]

const LINTERS: GateTool[] = [
  {
    id: 'htmlhint-checkstyle',
    tool: 'HTMLHint',
    format: 'checkstyle',
    check: 'html: htmlhint -f checkstyle htmlhint',
    capture: HTMLHINT,
    best: true,
    planted: [
      ['htmlhint/index.html', 5, 'high'],
      ['htmlhint/index.html', 5, 'high']
    ]
  },
  {
    id: 'jshint',
    tool: 'JSHint',
    format: 'default',
    check: 'lint: jshint jshint',
    capture: JSHINT,
    // no level in this reporter: each problem fails the check
    planted: [
      ['jshint/app.js', 2, 'high'],
      ['jshint/app.js', 3, 'high']
    ]
  },
  {
    id: 'jshint-checkstyle',
    tool: 'JSHint',
    format: 'checkstyle',
    check: 'lint: jshint --reporter=checkstyle jshint',
    capture: JSHINT,
    best: true,
    planted: JSHINT_PLANTED
  },
  {
    id: 'standard',
    tool: 'standard',
    format: 'default',
    check: 'lint: standard standard',
    capture: npmCapture('standard@17.1.2'),
    best: true,
    planted: [
      ['standard/app.js', 1, 'high'],
      ['standard/app.js', 3, 'high']
    ]
  },
  {
    id: 'textlint',
    tool: 'textlint',
    format: 'stylish',
    check: 'docs: cd textlint && textlint guide.md',
    capture: TEXTLINT,
    planted: TEXTLINT_PLANTED
  },
  {
    id: 'textlint-checkstyle',
    tool: 'textlint',
    format: 'checkstyle',
    check: 'docs: cd textlint && textlint -f checkstyle guide.md',
    capture: TEXTLINT,
    best: true,
    planted: TEXTLINT_PLANTED
  },
  {
    id: 'solhint',
    tool: 'Solhint',
    format: 'stylish',
    check: 'sol: cd solhint && solhint Token.sol',
    capture: SOLHINT,
    planted: SOLHINT_PLANTED
  },
  {
    id: 'solhint-sarif',
    tool: 'Solhint',
    format: 'SARIF',
    check: 'sol: cd solhint && solhint -f sarif Token.sol',
    capture: SOLHINT,
    best: true,
    planted: SOLHINT_PLANTED
  },
  {
    id: 'cspell',
    tool: 'CSpell',
    format: 'default',
    check: 'spelling: cspell --no-progress cspell/notes.md',
    capture: npmCapture('cspell@9.8.0'),
    best: true,
    planted: [['cspell/notes.md', 3, 'high']]
  },
  {
    id: 'perlcritic',
    tool: 'Perl::Critic',
    format: '--verbose 1',
    check: 'perl: perlcritic --verbose 1 perlcritic/app.pl',
    capture: debian('libperl-critic-perl', 'perlcritic --version'),
    best: true,
    planted: [
      ['perlcritic/app.pl', 6, 'high'],
      ['perlcritic/app.pl', 7, 'high']
    ]
  },
  {
    id: 'phpcs-checkstyle',
    tool: 'PHP_CodeSniffer',
    format: 'checkstyle',
    check: 'php: phpcs --standard=PSR12 --report=checkstyle phpcs/app.php',
    capture: debian('php-codesniffer', 'phpcs --version'),
    best: true,
    planted: [
      ['phpcs/app.php', 1, 'high'],
      ['phpcs/app.php', 2, 'high'],
      ['phpcs/app.php', 4, 'high'],
      ['phpcs/app.php', 4, 'high'],
      ['phpcs/app.php', 5, 'medium']
    ]
  },
  {
    id: 'luacheck',
    tool: 'luacheck',
    format: 'default',
    check: 'lua: luacheck luacheck/app.lua',
    capture: LUACHECK,
    // no level in its default lines: each problem fails the check
    planted: [
      ['luacheck/app.lua', 1, 'high'],
      ['luacheck/app.lua', 5, 'high']
    ]
  },
  {
    id: 'luacheck-vs',
    tool: 'luacheck',
    format: 'visual_studio',
    check: 'lua: luacheck --formatter visual_studio luacheck/app.lua',
    capture: LUACHECK,
    best: true,
    planted: LUACHECK_PLANTED
  },
  {
    id: 'checkstyle',
    tool: 'Checkstyle',
    format: 'plain',
    check: 'java: checkstyle -c checkstyle/checkstyle.xml checkstyle/src',
    capture: CHECKSTYLE,
    planted: CHECKSTYLE_PLANTED
  },
  {
    id: 'checkstyle-xml',
    tool: 'Checkstyle',
    format: 'xml',
    check: 'java: checkstyle -c checkstyle/checkstyle.xml -f xml checkstyle/src',
    capture: CHECKSTYLE,
    best: true,
    planted: CHECKSTYLE_PLANTED
  },
  {
    id: 'clang-tidy',
    tool: 'clang-tidy',
    format: 'default',
    check:
      'c: clang-tidy --checks=-*,readability-braces-around-statements,bugprone-suspicious-string-compare --warnings-as-errors=bugprone-* clang-tidy/app.c --',
    capture: debian('clang-tidy', 'clang-tidy --version | grep -m1 version'),
    best: true,
    planted: [
      ['clang-tidy/app.c', 4, 'high'],
      ['clang-tidy/app.c', 4, 'medium']
    ]
  },
  {
    id: 'tidy',
    tool: 'HTML Tidy',
    format: '--gnu-emacs yes',
    check: 'html: tidy -e -q --gnu-emacs yes tidy/index.html',
    capture: debian('tidy', 'tidy --version'),
    best: true,
    planted: [
      ['tidy/index.html', 5, 'medium'],
      ['tidy/index.html', 6, 'medium'],
      ['tidy/index.html', 6, 'medium'],
      FAILED
    ]
  },
  {
    id: 'sqlfluff-github',
    tool: 'SQLFluff',
    format: 'github-annotation-native',
    check:
      'sql: sqlfluff lint --dialect ansi --format github-annotation-native --annotation-level warning sqlfluff',
    capture: debian('sqlfluff', 'sqlfluff --version'),
    best: true,
    planted: [
      ['sqlfluff/query.sql', 1, 'medium'],
      ['sqlfluff/query.sql', 1, 'medium'],
      ['sqlfluff/query.sql', 3, 'medium'],
      FAILED
    ]
  }
]

const PYTHON: GateTool[] = [
  {
    id: 'bandit-json',
    tool: 'Bandit',
    format: 'json',
    check: 'security: bandit -q -f json -r bandit',
    capture: debian('bandit', 'bandit --version'),
    best: true,
    planted: [
      ['bandit/app.py', 1, 'low'],
      ['bandit/app.py', 5, 'high'],
      ['bandit/app.py', 9, 'low'],
      ['bandit/app.py', 10, 'medium']
    ]
  },
  {
    id: 'codespell',
    tool: 'codespell',
    format: 'default',
    check: 'spelling: codespell codespell',
    capture: debian('codespell', 'codespell --version'),
    best: true,
    planted: [
      ['codespell/notes.md', 3, 'high'],
      ['codespell/notes.md', 4, 'high']
    ]
  },
  {
    id: 'vulture',
    tool: 'Vulture',
    format: 'default',
    check: 'dead-code: vulture vulture',
    capture: debian('vulture', 'vulture --version'),
    best: true,
    planted: [
      ['vulture/app.py', 1, 'high'],
      ['vulture/app.py', 8, 'high']
    ]
  },
  {
    id: 'pycodestyle',
    tool: 'pycodestyle',
    format: 'default',
    check: 'style: pycodestyle pycodestyle',
    capture: debian('pycodestyle', 'pycodestyle --version'),
    best: true,
    planted: [
      ['pycodestyle/app.py', 1, 'high'],
      ['pycodestyle/app.py', 4, 'high']
    ]
  },
  {
    id: 'pyflakes',
    tool: 'pyflakes',
    format: 'default',
    check: 'lint: pyflakes3 pyflakes',
    capture: debian('pyflakes3', 'pyflakes3 --version'),
    best: true,
    planted: [
      ['pyflakes/app.py', 1, 'high'],
      ['pyflakes/app.py', 5, 'high']
    ]
  }
]

const RUNNERS: GateTool[] = [
  {
    id: 'jasmine',
    tool: 'Jasmine',
    format: 'default',
    check: 'test: cd jasmine && jasmine',
    capture: npmCapture('jasmine@7.0.0', 'jasmine version | grep -m1 jasmine'),
    best: true,
    planted: [['jasmine/spec/math.spec.js', 5, 'high']]
  }
]

/**
 * Tools that do not install here (no Debian package, npm package or wheel): their fixtures are the
 * expected output of their own formatter tests (real formatters, problems made up by the tests), with
 * the tests' file names standing for the sample's files (`replace`).
 */
const PHPSTAN_SOURCE = 'phpstan/phpstan-src d73acef (1.12.x) tests/PHPStan/Command/ErrorFormatter/'
const PHPSTAN_FILE = 'folder with unicode 😃/file name with "spaces" and unicode 😃.php'
// two problems in each of two files, and two with no file (PHPStan's "generic" errors)
const PHPSTAN_PLANTED: Planted[] = [
  ['phpstan/src/Bar.php', 2, 'high'],
  ['phpstan/src/Bar.php', 4, 'high'],
  ['phpstan/foo.php', 1, 'high'],
  ['phpstan/foo.php', 5, 'high'],
  [null, null, 'high'],
  [null, null, 'high']
]

const SWIFTLINT_SOURCE = 'realm/SwiftLint Tests/FileSystemAccessTests/Resources/Canned'
const SWIFTLINT_PLANTED: Planted[] = [
  ['swiftlint/filename', 1, 'medium'],
  ['swiftlint/filename', 1, 'high'],
  ['swiftlint/path/file.swift', 1, 'high']
]
const SWIFTLINT_CWD = { '${CURRENT_WORKING_DIRECTORY}': '${ROOT}/swiftlint' }

const FROM_THEIR_TESTS: GateTool[] = [
  {
    id: 'swiftlint',
    tool: 'SwiftLint',
    format: 'xcode (default)',
    check: 'swift: cd swiftlint && swiftlint lint',
    source: `${SWIFTLINT_SOURCE}XcodeReporterOutput.txt (44a152a)`,
    replace: SWIFTLINT_CWD,
    // `<nopath>:1:1: error: …` names no file: not read as a location (the check fails on the others)
    planted: SWIFTLINT_PLANTED
  },
  {
    id: 'swiftlint-checkstyle',
    tool: 'SwiftLint',
    format: 'checkstyle',
    check: 'swift: cd swiftlint && swiftlint lint --reporter checkstyle',
    source: `${SWIFTLINT_SOURCE}CheckstyleReporterOutput.xml (1846b02)`,
    replace: SWIFTLINT_CWD,
    best: true,
    // its `<nopath>` file's problem is a finding with no location
    planted: [...SWIFTLINT_PLANTED, [null, null, 'high']]
  },
  {
    id: 'ktlint',
    tool: 'ktlint',
    format: 'plain (default)',
    check: 'lint: cd ktlint && ktlint',
    source:
      'pinterest/ktlint 0692de7 ktlint-cli-reporter-plain/src/test/kotlin/com/pinterest/ktlint/cli/reporter/plain/PlainReporterTest.kt',
    best: true,
    // no level in its lines: each problem fails the check
    planted: [
      ['ktlint/file-1.kt', 1, 'high'],
      ['ktlint/file-2.kt', 1, 'high'],
      ['ktlint/file-2.kt', 2, 'high']
    ]
  },
  {
    // SARIF's %SRCROOT% base, which the test leaves as <BASE_URI>: the folder detekt ran in
    id: 'detekt-sarif',
    tool: 'detekt',
    format: 'SARIF file (report=)',
    check:
      'lint[report=detekt/out/detekt.sarif]: cd detekt && detekt --report sarif:out/detekt.sarif',
    source: 'detekt/detekt 23381a1 detekt-report-sarif/src/test/resources/relative_path.sarif.json',
    replace: { '<BASE_URI>': 'file://${ROOT}/detekt/' },
    best: true,
    planted: [
      ['detekt/TestFile.kt', 1, 'high'],
      ['detekt/TestFile.kt', 1, 'high'],
      ['detekt/TestFile.kt', 1, 'high']
    ]
  },
  {
    id: 'phpstan-github',
    tool: 'PHPStan',
    format: 'github (workflow commands)',
    check: 'php: cd phpstan && phpstan analyse --error-format=github',
    source: `${PHPSTAN_SOURCE}GithubErrorFormatterTest.php`,
    replace: { [PHPSTAN_FILE]: 'src/Bar.php' },
    kind: 'type checker',
    best: true,
    planted: PHPSTAN_PLANTED
  },
  {
    id: 'phpstan-checkstyle',
    tool: 'PHPStan',
    format: 'checkstyle',
    check: 'php: cd phpstan && phpstan analyse --error-format=checkstyle',
    source: `${PHPSTAN_SOURCE}CheckstyleErrorFormatterTest.php`,
    replace: { [PHPSTAN_FILE.replace(/"/g, '&quot;')]: 'src/Bar.php' },
    kind: 'type checker',
    planted: PHPSTAN_PLANTED
  }
]

export const MORE_TOOLS: GateTool[] = [...LINTERS, ...PYTHON, ...RUNNERS, ...FROM_THEIR_TESTS]
