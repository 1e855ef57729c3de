import {
  compileMatchers,
  type MatcherConfig,
  type ProblemMatcher
} from './formats/problem-matchers.js'

/**
 * The problem matchers GitHub's setup actions register, verbatim:
 * actions/setup-node `.github/eslint-stylish.json` (66a4515), `.github/eslint-compact.json`
 * (5baf4a2) and `.github/tsc.json` (1d2297f); actions/setup-python `.github/python.json` (0524204).
 * The tsc matcher also reads MSBuild and dotnet (`File.cs(10,5): error CS0103: …`).
 */
export const SETUP_ACTION_MATCHERS: MatcherConfig[] = [
  {
    owner: 'eslint-stylish',
    pattern: [
      { regexp: '^\\s*([^\\s].*)$', file: 1 },
      {
        regexp: '^\\s+(\\d+):(\\d+)\\s+(error|warning|info)\\s+(.*)\\s\\s+(.*)$',
        line: 1,
        column: 2,
        severity: 3,
        message: 4,
        code: 5,
        loop: true
      }
    ]
  },
  {
    owner: 'eslint-compact',
    pattern: [
      {
        regexp:
          '^(.+):\\sline\\s(\\d+),\\scol\\s(\\d+),\\s([Ee]rror|[Ww]arning|[Ii]nfo)\\s-\\s(.+)\\s\\((.+)\\)$',
        file: 1,
        line: 2,
        column: 3,
        severity: 4,
        message: 5,
        code: 6
      }
    ]
  },
  {
    owner: 'tsc',
    pattern: [
      {
        regexp:
          '^(?:\\s+\\d+\\>)?([^\\s].*)\\((\\d+)(?:,(\\d+)(?:,\\d+(?:,\\d+)?)?)?\\)\\s*:\\s+(error|warning|info)\\s+(\\w{1,2}\\d+)\\s*:\\s*(.*)$',
        file: 1,
        line: 2,
        column: 3,
        severity: 4,
        code: 5,
        message: 6
      }
    ]
  },
  {
    owner: 'python',
    pattern: [
      { regexp: '^\\s*File\\s\\"(.*)\\",\\sline\\s(\\d+),\\sin\\s(.*)$', file: 1, line: 2 },
      { regexp: "^\\s*raise\\s(.*)\\(\\'(.*)\\'\\)$", message: 2 }
    ]
  }
]

/**
 * Ours, for the formats tools print by default that the setup actions do not cover. Each names the
 * tool and version whose output it was written against (the fixtures in __tests__/fixtures/gates).
 */
export const TOOL_MATCHERS: MatcherConfig[] = [
  {
    // Ruff 0.16 "full": `F401 [*] message` (or `invalid-syntax: message`, and `ruff format --check`'s
    // `unformatted: message`) then ` --> path:line:col`
    owner: 'ruff-full',
    pattern: [
      {
        regexp: '^([A-Z]+[0-9]+|[a-z]+(?:-[a-z]+)+|unformatted):?(?: \\[\\*\\])? (.+)$',
        code: 1,
        message: 2
      },
      { regexp: '^\\s*--> (.+):(\\d+):(\\d+)$', file: 1, line: 2, column: 3 }
    ]
  },
  {
    // rustc and clippy 1.95 human output: `error[E0308]: message` / `warning: message` then ` --> path:line:col`
    owner: 'rustc',
    pattern: [
      {
        regexp: '^(error|warning|note|help)(?:\\[(\\w+)\\])?: (.+)$',
        severity: 1,
        code: 2,
        message: 3
      },
      { regexp: '^\\s*--> (.+):(\\d+):(\\d+)$', file: 1, line: 2, column: 3 }
    ]
  },
  {
    // tsc 5.9 --pretty, colours stripped: `path:line:col - error TS2322: message`
    owner: 'tsc-pretty',
    pattern: [
      {
        regexp: '^(.+?):(\\d+):(\\d+) - (error|warning|info) (TS\\d+): (.*)$',
        file: 1,
        line: 2,
        column: 3,
        severity: 4,
        code: 5,
        message: 6
      }
    ]
  },
  {
    // Pyright 1.1: `  path:line:col - error: message (reportRule)`
    owner: 'pyright',
    pattern: [
      {
        regexp:
          '^\\s*(.+?):(\\d+):(\\d+) - (error|warning|information): (.*?)(?: \\((report\\w+)\\))?$',
        file: 1,
        line: 2,
        column: 3,
        severity: 4,
        message: 5,
        code: 6
      }
    ]
  },
  {
    // Pylint 2 and 3 text: `path:line:col: C0114: message (symbol)`; the id's letter is the level
    owner: 'pylint',
    pattern: [
      {
        regexp: '^(.+?):(\\d+):(\\d+): (([CRWEFI])\\d{4}): (.*?)(?: \\([\\w-]+\\))?$',
        file: 1,
        line: 2,
        column: 3,
        code: 4,
        severity: 5,
        message: 6
      }
    ]
  },
  {
    // Pylint parseable: `path:line: [C0114(missing-module-docstring), obj] message`
    owner: 'pylint-parseable',
    pattern: [
      {
        regexp: '^(.+?):(\\d+): \\[(([CRWEFI])\\d{4})\\([\\w-]+\\), [^\\]]*\\] (.*)$',
        file: 1,
        line: 2,
        code: 3,
        severity: 4,
        message: 5
      }
    ]
  },
  {
    // yamllint 1.29 parsable: `path:line:col: [warning] message (rule)`
    owner: 'yamllint-parsable',
    pattern: [
      {
        regexp: '^(.+?):(\\d+):(\\d+): \\[(error|warning)\\] (.*?)(?: \\(([\\w-]+)\\))?$',
        file: 1,
        line: 2,
        column: 3,
        severity: 4,
        message: 5,
        code: 6
      }
    ]
  },
  {
    // stylelint 16-18 string: a path, then `  2:3  ✖  message  rule` per problem
    owner: 'stylelint-string',
    pattern: [
      { regexp: '^\\s*([^\\s].*)$', file: 1 },
      {
        regexp: '^\\s+(\\d+):(\\d+)\\s+(✖|⚠|×|‼)\\s+(.*\\S)\\s\\s+(\\S+)$',
        line: 1,
        column: 2,
        severity: 3,
        message: 4,
        code: 5,
        loop: true
      }
    ]
  },
  {
    // ShellCheck 0.9 tty: `In path line N:`, the source line, then `^-- SC2086 (info): message`
    owner: 'shellcheck-tty',
    pattern: [
      { regexp: '^In (.+) line (\\d+):$', file: 1, line: 2 },
      { regexp: '^.*$' },
      {
        regexp: '^\\s*\\^-*\\^?\\s+(SC\\d+) \\((\\w+)\\): (.*)$',
        code: 1,
        severity: 2,
        message: 3,
        loop: true
      }
    ]
  },
  {
    // markdownlint-cli2 0.24: `path:line[:col] error MD041/first-line-heading message`
    owner: 'markdownlint',
    pattern: [
      {
        regexp: '^(.+?):(\\d+)(?::(\\d+))? (error|warning) (MD\\d+)\\/\\S+ (.*)$',
        file: 1,
        line: 2,
        column: 3,
        severity: 4,
        code: 5,
        message: 6
      }
    ]
  },
  {
    // hadolint 2 tty: `Dockerfile:2 DL3008 warning: message`
    owner: 'hadolint',
    pattern: [
      {
        regexp: '^(.+?):(\\d+) ((?:DL|SC)\\d+) (error|warning|info|style): (.*)$',
        file: 1,
        line: 2,
        code: 3,
        severity: 4,
        message: 5
      }
    ]
  },
  {
    // Prettier 3 --check: `[warn] path` for each file it would format (no line: the whole file).
    // `[warn]` is Prettier's log level: each file it lists fails the check, so it is an error
    owner: 'prettier-check',
    // other tools print `[warn] …` too (sbt, Prettier's own notices): only a file of the tree counts
    loose: true,
    pattern: [{ regexp: '^\\[warn\\] ((?!Code style issues )\\S.*)$', file: 1, message: 1 }]
  },
  {
    // oxlint 1.x default (graphical): `  x eslint(no-debugger): message` (`!` a warning; `×` `⚠` on
    // a terminal), then `   ,-[path:line:col]` (`╭─[` on a terminal)
    owner: 'oxlint',
    pattern: [
      {
        regexp: '^\\s*(x|!|×|⚠)\\s+(?:([\\w-]+\\([\\w/@.-]+\\)):\\s+)?(.+)$',
        severity: 1,
        code: 2,
        message: 3
      },
      { regexp: '^\\s*(?:,-|╭─)\\[(.+):(\\d+):(\\d+)\\]$', file: 1, line: 2, column: 3 }
    ]
  },
  {
    // Biome 1-2 default: `path:line:col category  FIXABLE  ━━━` (a file's `path format ━━━` has no
    // line), a blank line, then `  × message` (`!` a warning, `i` information; `✖` `⚠` `ℹ` on a terminal)
    owner: 'biome',
    pattern: [
      {
        regexp: '^(.+?)(?::(\\d+):(\\d+))? ([a-zA-Z]+(?:\\/[\\w/-]+)?)(?:\\s+FIXABLE)?\\s+━+$',
        file: 1,
        line: 2,
        column: 3,
        code: 4
      },
      { regexp: '^\\s*$' },
      { regexp: '^\\s*(×|✖|!|⚠|i|ℹ)\\s+(.+)$', severity: 1, message: 2 }
    ]
  },
  {
    // RuboCop 1.x default (progress), clang and emacs: `path:line:col: W: [Correctable] Cop/Name: message`;
    // the letter is the level: C(onvention) R(efactor) I(nfo), W(arning), E(rror) F(atal)
    owner: 'rubocop',
    pattern: [
      {
        regexp:
          '^(.+?):(\\d+):(\\d+): ([CRIWEF]): (?:\\[(?:Correctable|Corrected|Todo)\\] )?(?:([A-Z]\\w*(?:\\/\\w+)+): )?(.+)$',
        file: 1,
        line: 2,
        column: 3,
        severity: 4,
        code: 5,
        message: 6
      }
    ]
  },
  {
    // stylelint 16-18 -f unix: `path:line:col: message (rule) [warning]`
    owner: 'stylelint-unix',
    pattern: [
      {
        regexp: '^(.+?):(\\d+):(\\d+): (.+) \\(([\\w/@-]+)\\) \\[(error|warning)\\]$',
        file: 1,
        line: 2,
        column: 3,
        message: 4,
        code: 5,
        severity: 6
      }
    ]
  },
  {
    // flake8 5 and pycodestyle: `path:line:col: F401 message` (no level: what it prints fails the run)
    owner: 'flake8',
    pattern: [
      {
        regexp: '^(.+?):(\\d+):(\\d+): ([A-Z]{1,3}\\d{2,4}) (.*)$',
        file: 1,
        line: 2,
        column: 3,
        code: 4,
        message: 5
      }
    ]
  }
]

let compiled: ProblemMatcher[] | undefined

/** The built-in matchers, compiled once: the setup actions' first, then ours. */
export function builtInMatchers(): ProblemMatcher[] {
  compiled ??= compileMatchers(
    { problemMatcher: [...SETUP_ACTION_MATCHERS, ...TOOL_MATCHERS] },
    'review-loop'
  )
  return compiled
}
