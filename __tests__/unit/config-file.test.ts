import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import {
  configSchema,
  inputKind,
  LIST_KEYS,
  schemaText,
  WORKFLOW_ONLY_KEYS
} from '../../scripts/config-schema.js'
import {
  CONFIG_PATH,
  ConfigError,
  MAX_CONFIG_BYTES,
  parseConfigFile,
  suggestKey,
  withConfig,
  type RepoConfig
} from '../../src/config/config-file.js'
import { parseSettings } from '../../src/inputs.js'

const actionYml = readFileSync('action.yml', 'utf8')
const actionInputs = (parse(actionYml) as { inputs: Record<string, { description: string }> })
  .inputs

/** The ConfigError a file raises (fails when it raises none or another error). */
function errorOf(text: string, source?: string): ConfigError {
  try {
    parseConfigFile(text, source)
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError)
    return e as ConfigError
  }
  throw new Error('expected a ConfigError')
}

const VALID = `# review-loop settings
max-iterations: 5
review-concurrency: '8'
max-cost-usd: 2.5
allow-forks: false
review-drafts: 'true'
check-run-buttons: true
severity-threshold: high
checks:
  - 'lint: npm run lint'
  - "test[error=critical]: npm test"
fix-commands: |
  npx prettier --write .
  npx eslint --fix .
protected-paths: [docs/**, 'src/generated/**']
fail-on: max_iterations, error
escalation-reviewers:
  - alice
  - my-org/reviewers
ignore:
instructions: >
  Prefer small functions.
path-instructions:
  - path: src/api/**
    instructions: Every endpoint checks the caller's permissions.
  - path: '**/*.sql'
    instructions: |
      Migrations must be reversible.
`

describe('parseConfigFile: a valid file', () => {
  const config = parseConfigFile(VALID)

  it('turns every value into the string the input parser reads', () => {
    expect(config.inputs).toEqual({
      'max-iterations': '5',
      'review-concurrency': '8',
      'max-cost-usd': '2.5',
      'allow-forks': 'false',
      'review-drafts': 'true',
      'check-run-buttons': 'true',
      'severity-threshold': 'high',
      checks: 'lint: npm run lint\ntest[error=critical]: npm test',
      'fix-commands': 'npx prettier --write .\nnpx eslint --fix .\n',
      'protected-paths': 'docs/**\nsrc/generated/**',
      'fail-on': 'max_iterations, error',
      'escalation-reviewers': 'alice\nmy-org/reviewers',
      instructions: 'Prefer small functions.\n'
    })
  })

  it('reads path-instructions as entries, and a key without a value as not set', () => {
    expect(config.pathInstructions).toEqual([
      { path: 'src/api/**', instructions: "Every endpoint checks the caller's permissions." },
      { path: '**/*.sql', instructions: 'Migrations must be reversible.\n' }
    ])
    expect('ignore' in config.inputs).toBe(false)
  })

  it('gives the input parser what it accepts', () => {
    const get = (name: string): string => (name === 'github-token' ? 'ghs_token' : '')
    const settings = parseSettings(withConfig(get, config), {})
    expect(settings.maxIterations).toBe(5)
    expect(settings.ai.reviewConcurrency).toBe(8)
    expect(settings.ai.maxCostUsd).toBe(2.5)
    expect(settings.reviewDrafts).toBe(true)
    expect(settings.checkRunButtons).toBe(true)
    expect(settings.gates.map(g => g.name)).toEqual(['lint', 'test'])
    expect(settings.gates[1]?.levels).toEqual({ error: 'critical' })
    expect(settings.fixCommands).toEqual(['npx prettier --write .', 'npx eslint --fix .'])
    expect(settings.protectedPaths).toContain('src/generated/**')
    expect(settings.failOn).toEqual(['max_iterations', 'error'])
    expect(settings.escalationReviewers).toEqual(['alice'])
    expect(settings.escalationTeamReviewers).toEqual(['reviewers'])
  })

  it('reads an empty file, or one of comments only, as no settings', () => {
    for (const text of ['', '\n', '# nothing yet\n# really\n', '---\n'])
      expect(parseConfigFile(text)).toEqual({ inputs: {}, pathInstructions: [] })
  })

  it('accepts an empty list and keys set to null', () => {
    expect(parseConfigFile('checks: []\nmax-iterations: ~\npath-instructions:\n')).toEqual({
      inputs: { checks: '' },
      pathInstructions: []
    })
  })
})

describe('withConfig', () => {
  const config: RepoConfig = {
    inputs: { 'max-iterations': '5', checks: 'lint: npm run lint' },
    pathInstructions: []
  }
  const workflow: Record<string, string> = { 'max-iterations': '2', 'github-token': 't' }
  const get = (name: string): string => (Object.hasOwn(workflow, name) ? workflow[name]! : '')

  it("takes the workflow's value when given, else the file's", () => {
    const merged = withConfig(get, config)
    expect(merged('max-iterations')).toBe('2')
    expect(merged('checks')).toBe('lint: npm run lint')
    expect(merged('github-token')).toBe('t')
    expect(merged('allow-forks')).toBe('')
  })

  it('answers only own keys of the file', () => {
    const merged = withConfig(get, config)
    expect(merged('constructor')).toBe('')
    expect(merged('__proto__')).toBe('')
    expect(merged('toString')).toBe('')
  })

  it('is the workflow getter itself without a file', () => {
    expect(withConfig(get, undefined)).toBe(get)
  })
})

describe('parseConfigFile: errors name the file, the key, the line and the fix', () => {
  it('suggests the setting a mistyped key meant', () => {
    const e = errorOf('checks: "lint: x"\nmax-iteration: 5\n')
    expect(e.message).toBe(
      '`.github/review-loop.yml` (line 2): `max-iteration` is not a review-loop setting; did you mean `max-iterations`? (keys: see schema/review-loop.schema.json)'
    )
    expect(errorOf('allow_forks: true').message).toContain('did you mean `allow-forks`?')
    expect(errorOf('maxTurns: 3').message).toContain('did you mean `max-turns`?')
    expect(errorOf('colour: blue').message).toBe(
      '`.github/review-loop.yml` (line 1): `colour` is not a review-loop setting (keys: see schema/review-loop.schema.json)'
    )
  })

  it('refuses secrets and per-run settings, pointing to the workflow', () => {
    for (const key of WORKFLOW_ONLY_KEYS) {
      const e = errorOf(`max-turns: 3\n${key}: something\n`)
      expect(e.message).toBe(
        `\`${CONFIG_PATH}\` (line 2): \`${key}\` cannot be set in .github/review-loop.yml: it is a secret or a per-run setting; pass it in the workflow's \`with:\`.`
      )
    }
    expect(errorOf('github-token:\n').message).toContain('`github-token` cannot be set')
  })

  it('names a boolean, a number, a string and a list of the wrong type', () => {
    expect(errorOf('# settings\nallow-forks: yes\n').message).toBe(
      "`.github/review-loop.yml` (line 2): `allow-forks` must be true or false, not 'yes'."
    )
    expect(errorOf('max-iterations: three').message).toBe(
      "`.github/review-loop.yml` (line 1): `max-iterations` must be a number such as 5, not 'three'."
    )
    expect(errorOf('\n\ncheck-name: 123').message).toBe(
      "`.github/review-loop.yml` (line 3): `check-name` must be a string, not 123; quote it: check-name: '123'."
    )
    expect(errorOf('fail-on:\n  error: true\n').message).toBe(
      '`.github/review-loop.yml` (line 1): `fail-on` must be a list of strings or one string with an item a line (fail-on: |), not a mapping.'
    )
    expect(errorOf('review-drafts: [true]').message).toContain(
      '`review-drafts` must be true or false, not a list.'
    )
  })

  it("names each list item that is not a string, with the checks' quoting hint", () => {
    const e = errorOf('checks:\n  - "ok: true"\n  - lint: npm run lint\nignore:\n  - 5\n')
    expect(e.problems).toEqual([
      "`.github/review-loop.yml` (line 3): `checks` item 2 must be a string, not a mapping; a 'name: command' line in a YAML list must be quoted (- 'lint: npm run lint') or the list written as a block string (checks: |).",
      '`.github/review-loop.yml` (line 5): `ignore` item 1 must be a string, not 5.'
    ])
    expect(e.message).toBe(e.problems.join('\n'))
  })

  it('names what is wrong with path-instructions', () => {
    const e = errorOf(
      [
        'path-instructions:',
        '  - path: src/**',
        '    instruction: be careful',
        '  - just text',
        "  - path: ''",
        '    instructions: 5',
        'path-instruction: []'
      ].join('\n')
    )
    expect(e.problems).toEqual([
      '`.github/review-loop.yml` (line 2): `path-instructions` entry 1 lacks `instructions`; each entry has a `path` and `instructions`.',
      '`.github/review-loop.yml` (line 3): `path-instructions` entry 1: `instruction` is not allowed; an entry has only `path` and `instructions`; did you mean `instructions`?',
      "`.github/review-loop.yml` (line 4): `path-instructions` entry 2 must be a mapping with `path` and `instructions`, not 'just text'.",
      '`.github/review-loop.yml` (line 5): `path-instructions` entry 3: `path` must be a non-empty string.',
      '`.github/review-loop.yml` (line 6): `path-instructions` entry 3: `instructions` must be a non-empty string.',
      '`.github/review-loop.yml` (line 7): `path-instruction` is not a review-loop setting; did you mean `path-instructions`? (keys: see schema/review-loop.schema.json)'
    ])
    expect(errorOf('path-instructions: src/**').message).toContain(
      "(line 1): `path-instructions` must be a list of entries with a `path` (a glob such as 'src/api/**') and `instructions` (a string), not 'src/**'."
    )
    expect(errorOf('path-instructions:\n  - path: /src/**\n    instructions: x\n').message).toBe(
      "`.github/review-loop.yml` (line 2): `path-instructions` entry 1: the path '/src/**': paths are relative to the repository root: drop the leading / (for example 'src/api/**')."
    )
  })

  it('refuses a top level that is not a mapping', () => {
    expect(errorOf('- checks\n- ignore\n').message).toBe(
      "`.github/review-loop.yml` (line 1): the top level must be a mapping of settings ('max-iterations: 5', one a line), not a list."
    )
    expect(errorOf('just some text').message).toContain("not 'just some text'.")
  })

  it('names the line of invalid YAML and of a key given twice', () => {
    expect(errorOf('max-turns: 3\nchecks: [a\nignore: x\n').message).toMatch(
      /^`\.github\/review-loop\.yml` \(line \d\): is not valid YAML: .+ Check the indentation/
    )
    expect(errorOf('max-turns: 3\nretrigger: push\nmax-turns: 4\n').message).toMatch(
      /^`\.github\/review-loop\.yml` \(line 3\): is not valid YAML: Map keys must be unique.* Give each setting once\.$/
    )
  })

  it('refuses a file over 256 KB', () => {
    const text = `instructions: "${'x'.repeat(MAX_CONFIG_BYTES)}"\n`
    expect(errorOf(text).message).toBe(
      '`.github/review-loop.yml` is 257 KB; the limit is 256 KB. Keep long texts in the review guidelines file (the `guidelines` setting).'
    )
  })

  it('echoes no value or key longer than 80 characters', () => {
    const long = 'y'.repeat(81)
    const e = errorOf(`allow-forks: ${long}\n${'k'.repeat(90)}: 1\ncheck-name: [1]\n`)
    expect(e.message).not.toContain(long)
    expect(e.message).not.toContain('k'.repeat(81))
    expect(e.problems).toEqual([
      '`.github/review-loop.yml` (line 1): `allow-forks` must be true or false, not a text of 81 characters.',
      '`.github/review-loop.yml` (line 2): a key of 90 characters is not a review-loop setting (keys: see schema/review-loop.schema.json)',
      '`.github/review-loop.yml` (line 3): `check-name` must be a string, not a list.'
    ])
    expect(errorOf('allow-forks: "a\\u001b[31mb"').message).toContain("not 'a [31mb'.")
  })

  it('names the source it is given', () => {
    const source = '.github/review-loop.yml on main (abc1234)'
    expect(errorOf('allow-forks: 1', source).message).toBe(
      '.github/review-loop.yml on main (abc1234) (line 1): `allow-forks` must be true or false, not 1.'
    )
  })

  it('refuses keys that only look like settings', () => {
    const e = errorOf('constructor: 1\n__proto__: 2\n')
    expect(e.problems).toHaveLength(2)
    expect(e.problems[1]).toContain('(line 2): `__proto__` is not a review-loop setting')
  })
})

describe('suggestKey', () => {
  it('suggests only close keys', () => {
    const known = ['max-iterations', 'max-turns', 'ignore']
    expect(suggestKey('max-iteratons', known)).toBe('max-iterations')
    expect(suggestKey('MAX_TURNS', known)).toBe('max-turns')
    expect(suggestKey('ignored', known)).toBe('ignore')
    expect(suggestKey('sandboxing', known)).toBeUndefined()
  })
})

describe('schema/review-loop.schema.json', () => {
  it('is what scripts/config-schema.ts generates from action.yml (npx tsx scripts/config-schema.ts)', async () => {
    const committed = readFileSync('schema/review-loop.schema.json', 'utf8')
    expect(JSON.parse(committed)).toEqual(configSchema(actionYml))
    expect(committed).toBe(await schemaText(actionYml))
  })

  it('has every input of action.yml but the workflow-only ones, and path-instructions', () => {
    const schema = configSchema(actionYml) as { properties: Record<string, unknown> }
    const settable = Object.keys(actionInputs).filter(k => !WORKFLOW_ONLY_KEYS.includes(k))
    expect(Object.keys(schema.properties).sort()).toEqual([...settable, 'path-instructions'].sort())
    for (const key of WORKFLOW_ONLY_KEYS) expect(actionInputs).toHaveProperty([key])
  })

  it('types the inputs as the input parser reads them', () => {
    const kinds = Object.fromEntries(
      Object.entries(actionInputs).map(([name, input]) => [name, inputKind(name, input)])
    )
    for (const key of LIST_KEYS) expect(kinds[key]).toBe('list')
    for (const key of ['review-drafts', 'allow-forks', 'check-run-buttons'])
      expect(kinds[key]).toBe('boolean')
    for (const key of [
      'max-iterations',
      'review-concurrency',
      'max-annotations',
      'command-timeout-minutes',
      'max-turns',
      'max-cost-usd',
      'review-timeout-minutes',
      'fix-timeout-minutes'
    ])
      expect(kinds[key]).toBe('number')
    for (const key of ['instructions', 'guidelines', 'severity-threshold', 'working-directory'])
      expect(kinds[key]).toBe('string')
  })
})
