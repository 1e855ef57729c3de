/** Linters' default and JSON formats (oxlint, rubocop, Biome), severities (prettier, stylelint) and two-channel duplicates. */
import { npm, type GateTool, type Planted } from './gate-tool-types.js'

// oxlint and Biome: `unused` (a warning) on line 2, `debugger` (an error) on line 4
const OXLINT: Planted[] = [
  ['oxlint/app.js', 2, 'medium'],
  ['oxlint/app.js', 4, 'high']
]
const BIOME: Planted[] = [
  ['biome/app.js', 2, 'medium'],
  ['biome/app.js', 4, 'high']
]
// RuboCop's three levels: a convention (C), a warning (W), an error (E, set in .rubocop.yml)
const RUBOCOP: Planted[] = [
  ['rubocop/app.rb', 1, 'low'],
  ['rubocop/app.rb', 2, 'medium'],
  ['rubocop/app.rb', 9, 'high']
]
const STYLELINT: Planted[] = [
  ['css/style.css', 2, 'high'],
  ['css/style.css', 6, 'medium']
]
/** oxlint, Biome and RuboCop are not installed by CI: captured here, replayed. */
const BY_HAND = 'a run here, 2026-11-26'
const OXLINT_RUN = {
  version: 'oxlint --version',
  install: 'npm i oxlint@1.94.0 outside the project'
}
const BIOME_RUN = {
  version: 'biome --version',
  install: 'npm i @biomejs/biome@2.6.8 outside the project'
}
const RUBOCOP_RUN = {
  version: 'rubocop --version',
  install: 'apt-get install rubocop (Debian 12: 1.39.0)'
}

export const LINTER_TOOLS: GateTool[] = [
  {
    id: 'oxlint',
    tool: 'oxlint',
    format: 'default (graphical)',
    check: 'lint: oxlint oxlint',
    source: BY_HAND,
    capture: OXLINT_RUN,
    planted: OXLINT
  },
  {
    // on a terminal: colours, links, `⚠` `×` and `╭─[path:line:col]`
    id: 'oxlint-tty',
    tool: 'oxlint',
    format: 'default, on a terminal',
    check: 'lint: oxlint oxlint',
    source: `${BY_HAND} under script(1)`,
    planted: OXLINT
  },
  {
    id: 'oxlint-json',
    tool: 'oxlint',
    format: 'json',
    check: 'lint: oxlint -f json oxlint',
    source: BY_HAND,
    capture: OXLINT_RUN,
    best: true,
    planted: OXLINT
  },
  {
    id: 'oxlint-github',
    tool: 'oxlint',
    format: 'github (by itself on a runner)',
    check: 'lint: GITHUB_ACTIONS=true oxlint oxlint',
    source: BY_HAND,
    capture: OXLINT_RUN,
    planted: OXLINT
  },
  {
    // oxlint exits 0 on warnings: the passing check's warning is shown, at low
    id: 'oxlint-passing',
    tool: 'oxlint',
    format: 'default, a passing check',
    check: 'lint: oxlint -A no-debugger oxlint',
    source: BY_HAND,
    capture: OXLINT_RUN,
    planted: [['oxlint/app.js', 2, 'low']]
  },
  {
    id: 'oxlint-clean',
    tool: 'oxlint',
    format: 'default, clean',
    check: 'lint: oxlint oxlint/clean.js',
    source: BY_HAND,
    capture: OXLINT_RUN,
    planted: []
  },
  {
    id: 'oxlint-json-clean',
    tool: 'oxlint',
    format: 'json, clean',
    check: 'lint: oxlint -f json oxlint/clean.js',
    source: BY_HAND,
    capture: OXLINT_RUN,
    planted: []
  },
  {
    id: 'rubocop',
    tool: 'RuboCop',
    format: 'default (progress)',
    check: 'lint: rubocop rubocop',
    source: BY_HAND,
    capture: RUBOCOP_RUN,
    planted: RUBOCOP
  },
  {
    id: 'rubocop-emacs',
    tool: 'RuboCop',
    format: 'emacs',
    check: 'lint: rubocop --format emacs rubocop',
    source: BY_HAND,
    capture: RUBOCOP_RUN,
    planted: RUBOCOP
  },
  {
    id: 'rubocop-json',
    tool: 'RuboCop',
    format: 'json',
    check: 'lint: rubocop --format json rubocop',
    source: BY_HAND,
    capture: RUBOCOP_RUN,
    best: true,
    planted: RUBOCOP
  },
  {
    id: 'rubocop-clean',
    tool: 'RuboCop',
    format: 'default, clean',
    check: 'lint: rubocop rubocop/clean.rb',
    source: BY_HAND,
    capture: RUBOCOP_RUN,
    planted: []
  },
  {
    id: 'rubocop-json-clean',
    tool: 'RuboCop',
    format: 'json, clean',
    check: 'lint: rubocop --format json rubocop/clean.rb',
    source: BY_HAND,
    capture: RUBOCOP_RUN,
    planted: []
  },
  {
    id: 'biome',
    tool: 'Biome',
    format: 'default',
    check: 'lint: biome lint biome',
    source: BY_HAND,
    capture: BIOME_RUN,
    planted: BIOME
  },
  {
    // on a terminal: colours, links around the rule, `⚠` `✖`
    id: 'biome-tty',
    tool: 'Biome',
    format: 'default, on a terminal',
    check: 'lint: biome lint biome',
    source: `${BY_HAND} under script(1)`,
    planted: BIOME
  },
  {
    id: 'biome-json',
    tool: 'Biome',
    format: 'json',
    check: 'lint: biome lint --reporter=json biome',
    source: BY_HAND,
    capture: BIOME_RUN,
    best: true,
    planted: BIOME
  },
  {
    // Biome 1 gives byte offsets into the file's text (`span`, `sourceCode`), not lines; its
    // recommended rules do not include noUnusedVariables
    id: 'biome-1-json',
    tool: 'Biome',
    format: 'json (v1)',
    check: 'lint: biome lint --reporter=json biome',
    source: BY_HAND,
    capture: {
      version: 'biome --version',
      install: 'npm i @biomejs/biome@1.9.4 outside the project'
    },
    planted: [['biome/app.js', 4, 'high']]
  },
  {
    // on a runner `biome ci` prints each problem twice: a workflow command and its usual report
    id: 'biome-ci-github',
    tool: 'Biome',
    format: 'ci on a runner (two channels)',
    check: 'lint: GITHUB_ACTIONS=true biome ci biome',
    source: BY_HAND,
    capture: BIOME_RUN,
    planted: BIOME
  },
  {
    // a file Biome would format otherwise: its command names line 1, its report the whole file
    id: 'biome-ci-format',
    tool: 'Biome',
    format: 'ci on a runner, a file to format',
    check: 'lint: GITHUB_ACTIONS=true biome ci biome/unformatted.js',
    source: BY_HAND,
    capture: BIOME_RUN,
    planted: [['biome/unformatted.js', null, 'high']]
  },
  {
    id: 'biome-ci-clean',
    tool: 'Biome',
    format: 'ci on a runner, clean',
    check: 'lint: GITHUB_ACTIONS=true biome ci biome/clean.js',
    source: BY_HAND,
    capture: BIOME_RUN,
    planted: []
  },
  {
    id: 'biome-json-clean',
    tool: 'Biome',
    format: 'json, clean',
    check: 'lint: biome lint --reporter=json biome/clean.js',
    source: BY_HAND,
    capture: BIOME_RUN,
    planted: []
  },
  {
    id: 'stylelint-unix',
    tool: 'stylelint',
    format: 'unix',
    check: 'css: stylelint css/style.css -f unix',
    run: npm('stylelint'),
    planted: STYLELINT
  },
  {
    id: 'stylelint-unix-clean',
    tool: 'stylelint',
    format: 'unix, clean',
    check: 'css: stylelint css/clean.css -f unix',
    run: npm('stylelint'),
    planted: []
  },
  {
    id: 'prettier-clean',
    tool: 'Prettier',
    format: '--check, clean',
    check: 'format: prettier --check js/math.js',
    run: npm('prettier'),
    planted: []
  },
  {
    // Vitest on a runner adds its github-actions reporter to the default one: each failure twice
    id: 'vitest-on-runner',
    tool: 'Vitest',
    format: 'default + github-actions (two channels)',
    check: 'test: GITHUB_ACTIONS=true vitest run js/vitest',
    run: npm('vitest'),
    planted: [['js/vitest/math.test.js', 6, 'high']]
  },
  {
    // two tests failing in one helper: two findings on one line, each once
    id: 'vitest-on-runner-shared',
    tool: 'Vitest',
    format: 'two channels, two failures on one line',
    check: 'test: GITHUB_ACTIONS=true vitest run vitest-shared',
    run: npm('vitest'),
    planted: [
      ['vitest-shared/sums.test.js', 5, 'high'],
      ['vitest-shared/sums.test.js', 5, 'high']
    ]
  },
  {
    // an error a passing test logs (`stderr | file > test`) is no finding beside a failing test
    id: 'vitest-logged',
    tool: 'Vitest',
    format: 'default, a passing test logs an error',
    check: 'test: vitest run vitest-logged',
    run: npm('vitest'),
    planted: [['vitest-logged/app.test.js', 10, 'high']]
  },
  {
    id: 'vitest-on-runner-clean',
    tool: 'Vitest',
    format: 'two channels, clean',
    check: 'test: GITHUB_ACTIONS=true vitest run vitest-clean',
    run: npm('vitest'),
    planted: []
  }
]
