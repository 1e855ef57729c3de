/**
 * Test runners (mocha, cargo test, go test, node --test, tsc in npm workspaces) and common location
 * shapes (a crash's stack, a Python traceback).
 */
import { apt, npm, type GateTool, type Planted } from './gate-tool-types.js'

const MOCHA = { version: 'mocha --version', install: 'npm i mocha@11.7.5 (in /tmp)' }
/** Debian's (or NodeSource's) Node 20 at /usr/bin: `CAPTURE_PATH=/usr/bin` */
const NODE20 = { version: 'node --version', install: 'Node 20 at /usr/bin' }
/** npm runs tsc: both versions, as `npm 11.19.1, Version 5.9.3` */
const NPM_TSC = npm('npm', 'echo "npm $(npm --version), $(tsc --version)"')
const CARGO = { bin: 'cargo', version: 'cargo --version', from: 'rustup' as const }
const CARGO_WS: Planted[] = [
  ['cargo-ws/crates/calc/src/lib.rs', 11, 'high'],
  ['cargo-ws/crates/text/tests/shout.rs', 5, 'high'],
  ['cargo-ws/crates/text/tests/shout.rs', 10, 'high']
]
// two tests whose names differ only in letter case, each its own finding
const NODE_TEST: Planted[] = [
  ['nodetest/math.test.mjs', 11, 'high'],
  ['nodetest/math.test.mjs', 15, 'high'],
  ['nodetest/math.test.mjs', 20, 'high']
]

export const RUNNER_TOOLS: GateTool[] = [
  {
    id: 'mocha-spec',
    tool: 'mocha',
    format: 'spec',
    check: 'test: mocha mocha/test',
    capture: MOCHA,
    best: true,
    planted: [
      ['mocha/test/math.spec.js', 6, 'high'],
      ['mocha/test/math.spec.js', 11, 'high']
    ]
  },
  {
    id: 'mocha-esm',
    tool: 'mocha',
    format: 'spec (ESM, file:// frames)',
    check: 'test: mocha mocha/esm/math.spec.mjs',
    capture: MOCHA,
    planted: [['mocha/esm/math.spec.mjs', 7, 'high']]
  },
  {
    id: 'cargo-test-ws',
    tool: 'cargo test',
    format: 'default, a workspace from its root',
    check: 'test: cd cargo-ws && cargo test --offline --no-fail-fast',
    run: CARGO,
    planted: CARGO_WS
  },
  {
    id: 'cargo-test-member',
    tool: 'cargo test',
    format: 'default, in a workspace member, RUST_BACKTRACE=1',
    check: 'test: cd cargo-ws/crates/text && RUST_BACKTRACE=1 cargo test --offline',
    run: CARGO,
    planted: CARGO_WS.slice(1)
  },
  {
    // with the output not captured, a passing `#[should_panic]` test's panic is printed too
    id: 'cargo-test-nocapture',
    tool: 'cargo test',
    format: '--nocapture, a workspace from its root',
    check: 'test: cd cargo-ws && cargo test --offline --no-fail-fast -- --nocapture',
    run: CARGO,
    planted: CARGO_WS
  },
  {
    id: 'go-test',
    tool: 'go test',
    format: 'default',
    check: 'test: cd gotest && go test ./...',
    run: apt('go', 'go version'),
    planted: [
      ['gotest/calc/calc_test.go', 7, 'high'],
      // TestAddLogs: its t.Logf and t.Log lines are in its one finding, on its t.Errorf line
      ['gotest/calc/calc_test.go', 22, 'high'],
      ['gotest/internal/strs/strs_test.go', 9, 'high'],
      ['gotest/internal/strs/strs_test.go', 9, 'high']
    ]
  },
  {
    id: 'tsc-npm-workspaces',
    tool: 'tsc (npm run --workspaces)',
    format: 'plain, relative to each workspace',
    check: 'types: cd ws && npm run typecheck --workspaces',
    run: NPM_TSC,
    planted: [
      ['ws/packages/app/src/index.ts', 5, 'high'],
      ['ws/packages/lib/src/index.ts', 3, 'high']
    ]
  },
  {
    id: 'tsc-npm-workspace',
    tool: 'tsc (npm run -w)',
    format: 'plain, relative to the workspace',
    check: 'types: cd ws && npm run typecheck -w packages/app',
    run: NPM_TSC,
    planted: [['ws/packages/app/src/index.ts', 5, 'high']]
  },
  {
    id: 'node-test-24',
    tool: 'node:test',
    format: 'spec (Node 24, the default)',
    check: 'test: node --test nodetest/math.test.mjs',
    run: npm('node', 'node --version'),
    planted: NODE_TEST
  },
  {
    id: 'node-test-20-tap',
    tool: 'node:test',
    format: 'TAP (Node 20, the default off a terminal)',
    check: 'test: node --test nodetest/math.test.mjs',
    capture: NODE20,
    planted: NODE_TEST
  },
  {
    id: 'node-test-20-spec',
    tool: 'node:test',
    format: 'spec (Node 20)',
    check: 'test: node --test --test-reporter=spec nodetest/math.test.mjs',
    capture: NODE20,
    planted: NODE_TEST
  },
  // clean runs: passing tests (and a passing test's log, with -v) are no findings
  {
    id: 'mocha-clean',
    tool: 'mocha',
    format: 'spec, passing',
    check: 'test: mocha mocha/clean',
    capture: MOCHA,
    planted: []
  },
  {
    id: 'cargo-test-clean',
    tool: 'cargo test',
    format: 'default, a passing workspace member',
    check: 'test: cd cargo-ws && cargo test --offline -p ok',
    run: CARGO,
    planted: []
  },
  {
    id: 'cargo-test-nocapture-clean',
    tool: 'cargo test',
    format: '--nocapture, a passing member with a `#[should_panic]` test',
    check: 'test: cd cargo-ws && cargo test --offline -p ok -- --nocapture',
    run: CARGO,
    planted: []
  },
  {
    id: 'go-test-clean',
    tool: 'go test',
    format: '-v, a passing package that logs',
    check: 'test: cd gotest && go test -v ./ok/...',
    run: apt('go', 'go version'),
    planted: []
  },
  {
    id: 'tsc-npm-workspace-clean',
    tool: 'tsc (npm run -w)',
    format: 'plain, a clean workspace',
    check: 'types: cd ws && npm run typecheck -w packages/ok',
    run: NPM_TSC,
    planted: []
  },
  {
    id: 'node-test-24-clean',
    tool: 'node:test',
    format: 'spec (Node 24), passing',
    check: 'test: node --test nodetest/ok.test.mjs',
    run: npm('node', 'node --version'),
    planted: []
  },
  {
    id: 'node-test-20-tap-clean',
    tool: 'node:test',
    format: 'TAP (Node 20), passing',
    check: 'test: node --test nodetest/ok.test.mjs',
    capture: NODE20,
    planted: []
  },
  // common shapes: a crash's stack (a frame `at f (path:l:c)`, or a `file://` URI), a traceback
  {
    id: 'node-crash',
    tool: 'node',
    format: 'uncaught exception (CommonJS)',
    check: 'run: node shapes/src/app.js',
    run: npm('node', 'node --version'),
    best: true,
    planted: [['shapes/src/app.js', 3, 'high']]
  },
  {
    id: 'node-crash-esm',
    tool: 'node',
    format: 'uncaught exception (ESM, file:// frames)',
    check: 'run: node shapes/src/app.mjs',
    run: npm('node', 'node --version'),
    planted: [['shapes/src/app.mjs', 3, 'high']]
  },
  {
    id: 'node-clean',
    tool: 'node',
    format: 'a script that runs',
    check: 'run: node shapes/src/ok.js',
    run: npm('node', 'node --version'),
    planted: []
  },
  {
    id: 'python-traceback',
    tool: 'python3',
    format: 'traceback',
    check: 'run: python3 shapes/src/app.py',
    run: apt('python3'),
    planted: [['shapes/src/app.py', 3, 'high']]
  },
  {
    id: 'python-syntax-error',
    tool: 'python3',
    format: 'SyntaxError (`File "…", line N` without `in`)',
    check: 'run: python3 shapes/src/bad.py',
    run: apt('python3'),
    planted: [['shapes/src/bad.py', 3, 'high']]
  }
]
