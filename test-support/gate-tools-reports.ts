/** Standard report formats: JUnit XML, Code Climate / GitLab JSON, cargo JSON, mypy JSON lines, Azure logissue, ESLint json-with-metadata. */
import { apt, npm, type GateTool, type Planted } from './gate-tool-types.js'

// pytest: a failing assertion, an error raised in the code under test (its innermost frame in the
// repository), a fixture's error (<error>); a skipped and a passing test are no findings
const PYTEST: Planted[] = [
  ['junit/py/test_calc.py', 12, 'high'],
  ['junit/py/calc.py', 6, 'high'],
  ['junit/py/test_calc.py', 8, 'high']
]
// Ruff's default rules flag the import block (I001) and the unused `os` on line 1
const RUFF: Planted[] = [
  ['ruffreports/lint.py', 1, 'high'],
  ['ruffreports/lint.py', 1, 'high'],
  ['ruffreports/lint.py', 2, 'high'],
  ['ruffreports/lint.py', 6, 'high']
]
const ESLINT: Planted[] = [
  ['js/app.js', 2, 'high'],
  ['js/app.js', 4, 'medium']
]
const BY_HAND = 'a run here, 2026-12-05'
const RUFF_RUN = {
  version: 'ruff --version',
  install: 'pip install ruff==0.16.9 in a venv; CAPTURE_PATH=its bin'
}
const JEST_JUNIT = {
  version:
    'echo "jest-junit $(node -p "require(\'jest-junit/package.json\').version"), jest $(jest --version)"',
  install:
    'npm i jest@30 jest-junit@17 in /tmp/j; CAPTURE_PATH=/tmp/j/node_modules/.bin NODE_PATH=/tmp/j/node_modules'
}

const JUNIT_TOOLS: GateTool[] = [
  {
    id: 'pytest-junit-xunit1',
    tool: 'pytest',
    format: 'JUnit XML (xunit1: file and line)',
    check:
      'test[report=junit/py/report.xml]: cd junit/py && pytest-3 -q -o junit_family=xunit1 --junitxml=report.xml',
    run: apt('pytest-3'),
    planted: PYTEST
  },
  {
    id: 'pytest-junit',
    tool: 'pytest',
    format: 'JUnit XML (xunit2, the default)',
    check: 'test[report=junit/py/report.xml]: cd junit/py && pytest-3 -q --junitxml=report.xml',
    run: apt('pytest-3'),
    planted: PYTEST,
    best: true
  },
  {
    id: 'jest-junit',
    tool: 'Jest',
    format: 'JUnit XML (jest-junit)',
    check:
      'test[report=junit/js/report.xml]: JEST_JUNIT_OUTPUT_FILE=junit/js/report.xml jest junit/js --ci --reporters=default --reporters=jest-junit',
    source: BY_HAND,
    capture: JEST_JUNIT,
    planted: [['junit/js/math.test.js', 4, 'high']]
  },
  {
    id: 'gotestsum-junit',
    tool: 'gotestsum',
    format: 'JUnit XML (--junitfile)',
    check:
      'test[report=junit/go/report.xml]: cd junit/go && gotestsum --junitfile report.xml ./...',
    source: BY_HAND,
    capture: {
      version: 'echo "gotestsum $(dpkg-query -W -f=\'${Version}\' gotestsum), $(go version)"',
      install: 'apt-get install gotestsum (Debian 12: 1.8.2)'
    },
    planted: [['junit/go/calc/calc_test.go', 7, 'high']],
    best: true
  },
  {
    id: 'go-junit-report',
    tool: 'go-junit-report',
    format: 'JUnit XML on stdout',
    check: 'test: cd junit/gojr && go test -v ./... 2>&1 | go-junit-report -set-exit-code',
    source:
      'jstemmer/go-junit-report 9bc291d testdata/101-report.xml (v2.1.0, its expected report)',
    planted: [['junit/gojr/fail/main_test.go', 7, 'high']],
    best: true
  },
  {
    id: 'nextest-junit',
    tool: 'cargo-nextest',
    format: 'JUnit XML (profile junit.path)',
    check:
      'test[report=junit/rust/target/nextest/ci/junit.xml]: cd junit/rust && cargo nextest run --profile ci',
    source: 'nextest-rs/nextest 0489fa7 fixtures/fixture-project-junit.xml (a run of 2024-01-09)',
    planted: [['junit/rust/tests/basic.rs', 19, 'high']],
    best: true
  },
  {
    id: 'phpunit-junit',
    tool: 'PHPUnit',
    format: 'JUnit XML (--log-junit)',
    check:
      'test[report=junit/php/report.xml]: cd junit/php && phpunit --log-junit report.xml CalcTest.php',
    source: BY_HAND,
    capture: {
      version: 'phpunit --version',
      install: 'apt-get install phpunit (Debian 12: 9.6.7)'
    },
    planted: [['junit/php/CalcTest.php', 8, 'high']],
    best: true
  },
  {
    id: 'surefire-junit',
    tool: 'Maven Surefire',
    format: 'JUnit XML (target/surefire-reports)',
    check: 'test[report=junit/java/target/surefire-reports/]: cd junit/java && mvn -q test',
    source:
      'apache/maven-surefire 4dfdb08 surefire-report-parser/src/test/resources/fixture/testsuitexmlparser/TEST-org.apache.maven.surefire.test.FailingTest.xml (2.13-SNAPSHOT; its <properties> left out)',
    planted: [
      ['junit/java/src/test/java/org/apache/maven/surefire/test/FailingTest.java', 23, 'high'],
      ['junit/java/src/test/java/org/apache/maven/surefire/test/FailingTest.java', 34, 'high']
    ],
    best: true
  },
  {
    // Gradle 4.4 (Debian's) does not run on Java 17 and no newer one installs here: a report Gradle
    // wrote on someone's machine, kept by a JUnit-to-CSV converter's tests (its message is mojibake)
    id: 'gradle-junit',
    tool: 'Gradle',
    format: 'JUnit XML (build/test-results/test)',
    check: 'test[report=junit/gradle/build/test-results/test/]: cd junit/gradle && gradle test',
    source:
      'onozaty/junit-xml2csv 97d2a0c src/test/resources/com/github/onozaty/junit/xml2csv/xmls/TestCase2.xml (written by Gradle on 2020-08-28: its frames run through org.gradle.api.internal.tasks.testing)',
    planted: [
      ['junit/gradle/src/test/java/com/github/onozaty/junit/xml2csv/TestCase2.java', 15, 'high']
    ],
    best: true
  },
  {
    id: 'ruff-junit',
    tool: 'Ruff',
    format: 'junit',
    check: 'lint: ruff check --output-format junit ruffreports/lint.py',
    source: BY_HAND,
    capture: RUFF_RUN,
    planted: RUFF
  }
]

export const REPORT_TOOLS: GateTool[] = [
  ...JUNIT_TOOLS,
  {
    id: 'ruff-gitlab',
    tool: 'Ruff',
    format: 'gitlab (Code Climate)',
    check: 'lint: ruff check --output-format gitlab ruffreports/lint.py',
    source: BY_HAND,
    capture: RUFF_RUN,
    planted: RUFF
  },
  {
    id: 'ruff-azure',
    tool: 'Ruff',
    format: 'azure (##vso[task.logissue])',
    check: 'lint: ruff check --output-format azure ruffreports/lint.py',
    source: BY_HAND,
    capture: RUFF_RUN,
    planted: RUFF
  },
  {
    id: 'ruff-grouped',
    tool: 'Ruff',
    format: 'grouped',
    check: 'lint: ruff check --output-format grouped ruffreports/lint.py',
    source: BY_HAND,
    capture: RUFF_RUN,
    planted: RUFF
  },
  {
    id: 'eslint-gitlab',
    tool: 'ESLint',
    format: 'Code Climate file (eslint-formatter-gitlab)',
    check:
      'lint[report=gl-codequality.json]: ESLINT_CODE_QUALITY_REPORT=gl-codequality.json eslint js -f gitlab',
    source: BY_HAND,
    capture: {
      version:
        'echo "$(eslint --version), eslint-formatter-gitlab $(node -p "require(process.env.NODE_PATH + \'/eslint-formatter-gitlab/package.json\').version")"',
      install:
        'npm i eslint@9 eslint-formatter-gitlab@7 in /tmp/e; CAPTURE_PATH=/tmp/e/node_modules/.bin NODE_PATH=/tmp/e/node_modules'
    },
    planted: ESLINT
  },
  {
    id: 'eslint-json-metadata',
    tool: 'ESLint',
    format: 'json-with-metadata',
    check: 'lint: eslint js -f json-with-metadata',
    run: npm('eslint'),
    planted: ESLINT
  },
  {
    id: 'clippy-json',
    tool: 'clippy',
    format: 'JSON messages (--message-format=json)',
    check: 'lint: cd rust && cargo clippy --offline -q --message-format=json',
    run: { bin: 'cargo', version: 'cargo clippy --version', from: 'rustup' },
    planted: [
      ['rust/src/main.rs', 2, 'medium'],
      ['rust/src/main.rs', 4, 'high']
    ],
    best: true
  },
  {
    id: 'cargo-build-json',
    tool: 'cargo build (rustc)',
    format: 'JSON messages (--message-format=json)',
    check: 'build: cd cargojson && cargo build --offline -q --message-format=json',
    run: { bin: 'cargo', version: 'cargo --version', from: 'rustup' },
    planted: [
      ['cargojson/src/main.rs', 2, 'high'],
      ['cargojson/src/main.rs', 3, 'medium']
    ],
    best: true
  },
  {
    id: 'mypy-json',
    tool: 'mypy',
    format: 'JSON lines (-O json, mypy 1.11+)',
    check: 'types: mypy -O json mypyjson/app.py',
    source: BY_HAND,
    capture: {
      version: 'mypy --version',
      install: 'pip install mypy==2.4.0 in a venv; CAPTURE_PATH=its bin'
    },
    planted: [
      ['mypyjson/app.py', 6, 'high'],
      ['mypyjson/app.py', 10, 'high']
    ],
    best: true
  }
]
