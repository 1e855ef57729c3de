import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { parse as parseYaml } from 'yaml'
import { ALWAYS_PROTECTED, INPUT_DEFAULTS, InputError, parseSettings } from '../../src/inputs.js'
import type { Settings } from '../../src/loop/settings.js'

const REQUIRED = { 'github-token': 'ghs_token', checks: 'test: npm test' }

function parse(inputs: Record<string, string>): Settings {
  const all: Record<string, string> = { ...REQUIRED, ...inputs }
  return parseSettings(name => all[name] ?? '')
}

function errorOf(inputs: Record<string, string>): InputError {
  try {
    parse(inputs)
  } catch (e) {
    expect(e).toBeInstanceOf(InputError)
    return e as InputError
  }
  throw new Error(`parseSettings accepted ${JSON.stringify(inputs)}`)
}

describe('parseSettings', () => {
  it('fills in the documented defaults', () => {
    const s = parse({})
    expect(s).toMatchObject({
      githubToken: 'ghs_token',
      maxIterations: 3,
      severityThreshold: 'medium',
      gates: [{ name: 'test', command: 'npm test' }],
      fixCommands: [],
      retrigger: 'dispatch',
      workingDirectory: '.',
      protectedPaths: [...ALWAYS_PROTECTED],
      reviewDrafts: false,
      allowForks: false,
      checkName: 'review-loop',
      commandTimeoutMinutes: 10,
      failOn: ['max_iterations', 'needs_discussion', 'stalled', 'budget_exhausted', 'error'],
      escalationReviewers: [],
      escalationTeamReviewers: [],
      submitReview: 'none',
      commitAuthor: {
        name: 'github-actions[bot]',
        email: '41898282+github-actions[bot]@users.noreply.github.com'
      }
    })
    expect(s.prNumber).toBeUndefined()
    expect(s.ai.apiKey).toBe('')
    expect(s.ai.fixModel).toBe(s.ai.reviewModel)
    expect(s.ai.maxCostUsd).toBeUndefined()
  })

  it('reads multi-line checks and fix commands, skipping blank lines and comments', () => {
    const s = parse({
      checks: '# the gates\nlint: npx eslint . -f json\n\n  types : npx tsc --noEmit  \n',
      'fix-commands': 'npx eslint . --fix\n# not this\nnpx prettier --write .',
      'max-iterations': '20',
      'severity-threshold': 'HIGH',
      'fail-on': 'stalled, error',
      'max-cost-usd': '2.50',
      'pr-number': '42'
    })
    expect(s.gates).toEqual([
      { name: 'lint', command: 'npx eslint . -f json' },
      { name: 'types', command: 'npx tsc --noEmit' }
    ])
    expect(s.fixCommands).toEqual(['npx eslint . --fix', 'npx prettier --write .'])
    expect(s.maxIterations).toBe(20)
    expect(s.severityThreshold).toBe('high')
    expect(s.failOn).toEqual(['stalled', 'error'])
    expect(s.ai.maxCostUsd).toBe(2.5)
    expect(s.prNumber).toBe(42)
  })

  it("fail-on 'never' means no terminal state fails the check", () => {
    expect(parse({ 'fail-on': 'never' }).failOn).toEqual([])
  })

  it.each([
    ['max-iterations', 'abc', /from 1 to 20/],
    ['max-iterations', '0', /from 1 to 20/],
    ['max-iterations', '21', /from 1 to 20/],
    ['severity-threshold', 'urgent', /critical, high, medium, low, suggestion/],
    ['retrigger', 'sometimes', /dispatch, push, none/],
    ['fail-on', 'bogus', /max_iterations.*never/],
    ['max-cost-usd', '-1', /positive amount of US dollars/],
    ['working-directory', '../x', /inside the workspace/],
    ['working-directory', 'packages/../../x', /inside the workspace/],
    ['pr-number', 'seven', /pull request number/],
    ['review-drafts', 'yes', /true or false/],
    ['submit-review', 'request_changes', /none, comment, approve/]
  ])("rejects %s '%s', naming the input and what it accepts", (input, value, accepts) => {
    const error = errorOf({ [input]: value })
    expect(error.message).toContain(`Input '${input}'`)
    expect(error.message).toContain(value.toLowerCase())
    expect(error.message).toMatch(accepts)
  })

  it("rejects a checks line without 'name:' and shows the expected form", () => {
    const error = errorOf({ checks: 'test: npm test\nnpm run lint' })
    expect(error.message).toContain("Input 'checks'")
    expect(error.message).toContain("'npm run lint'")
    expect(error.message).toContain("'name: command'")
  })

  it('rejects two checks with the same name', () => {
    const error = errorOf({ checks: 'test: npm test\ntest: npm run test:e2e' })
    expect(error.message).toContain("Input 'checks'")
    expect(error.message).toContain("'test' is used twice")
  })

  it('rejects an empty github-token', () => {
    const error = errorOf({ 'github-token': '   ' })
    expect(error.message).toContain("Input 'github-token'")
    expect(error.message).toContain('is empty')
  })

  it('rejects a configuration where nothing would review the PR', () => {
    const error = errorOf({ checks: '' })
    expect(error.message).toContain("Input 'checks'")
    expect(error.message).toContain('anthropic-api-key')
    expect(error.message).toContain("'name: command'")
  })

  it('accepts no checks when an API key is set (AI review only)', () => {
    const s = parse({ checks: '', 'anthropic-api-key': 'sk-ant-x' })
    expect(s.gates).toEqual([])
    expect(s.ai.apiKey).toBe('sk-ant-x')
  })

  it('always protects .github/workflows/, .github/actions/ and the settings file in addition to the configured paths', () => {
    expect(parse({}).protectedPaths).toEqual([
      '.github/workflows/',
      '.github/actions/',
      '.github/review-loop.yml'
    ])
    expect(
      parse({ 'protected-paths': 'package.json\nsecrets/**, LICENSE' }).protectedPaths
    ).toEqual([
      '.github/workflows/',
      '.github/actions/',
      '.github/review-loop.yml',
      'package.json',
      'secrets/**',
      'LICENSE'
    ])
  })

  it.each([
    ['./config/', /'\.\/config\/'.*without '\.' or '\.\.' parts/],
    ['../secrets', /without '\.' or '\.\.' parts/],
    ['!', /names no path/],
    ['/', /names no path/]
  ])('refuses the protected-paths pattern %s and names the fix', (pattern, reason) => {
    expect(() => parse({ 'protected-paths': `config/, ${pattern}` })).toThrow(
      /Input 'protected-paths'/
    )
    expect(() => parse({ 'protected-paths': pattern })).toThrow(reason)
  })

  it('refuses an absolute working-directory and names the fix', () => {
    expect(() => parse({ 'working-directory': '/tmp' })).toThrow(
      /working-directory.*'\/tmp' is absolute; give a folder relative to the repository root/
    )
  })

  it("reads the sandbox inputs and refuses to pass the action's credentials to PR code", () => {
    expect(parse({})).toMatchObject({
      sandbox: 'auto',
      sandboxNetwork: 'allow',
      envPassthrough: []
    })
    expect(
      parse({
        sandbox: 'required',
        'sandbox-network': 'deny',
        'env-passthrough': 'JAVA_HOME, GOPATH'
      })
    ).toMatchObject({
      sandbox: 'required',
      sandboxNetwork: 'deny',
      envPassthrough: ['JAVA_HOME', 'GOPATH']
    })
    expect(() => parse({ sandbox: 'maybe' })).toThrow(
      /sandbox.*'maybe' is not one of: auto, required, off/
    )
    expect(() => parse({ 'env-passthrough': 'GITHUB_TOKEN' })).toThrow(
      /env-passthrough.*GITHUB_TOKEN/
    )
  })

  it('splits escalation-reviewers into users and org/team slugs', () => {
    const s = parse({ 'escalation-reviewers': 'alice, my-org/security\nbob\nmy-org/core-team' })
    expect(s.escalationReviewers).toEqual(['alice', 'bob'])
    expect(s.escalationTeamReviewers).toEqual(['security', 'core-team'])
  })

  it('reads state-key as a secret that is absent when empty', () => {
    expect(parse({}).stateKey).toBeUndefined()
    expect(parse({ 'state-key': '  ' }).stateKey).toBeUndefined()
    expect(parse({ 'state-key': 's3cret-key\n' }).stateKey).toBe('s3cret-key')
  })
})

describe('defaults and the settings file', () => {
  it('gives every input left out the default the README shows, as if it were given', () => {
    const unset = parseSettings(name => REQUIRED[name as keyof typeof REQUIRED] ?? '', {})
    const given = parseSettings(
      name => REQUIRED[name as keyof typeof REQUIRED] ?? INPUT_DEFAULTS[name] ?? '',
      {}
    )
    expect(unset).toEqual(given)
    expect(unset.escalationLabel).toBe('review-loop: needs human')
  })

  it("turns a label off with 'none'", () => {
    const s = parseSettings(
      name =>
        (
          ({ ...REQUIRED, 'escalation-label': 'none', 'stop-label': 'None' }) as Record<
            string,
            string
          >
        )[name] ?? '',
      {}
    )
    expect([s.escalationLabel, s.stopLabel]).toEqual(['', ''])
  })

  it('declares no default in action.yml but github-token’s, so the file can set what the workflow leaves out', () => {
    const action = parseYaml(readFileSync('action.yml', 'utf8')) as {
      inputs: Record<string, { default?: string }>
    }
    const withDefault = Object.entries(action.inputs).filter(([, i]) => i.default !== undefined)
    expect(withDefault.map(([name]) => name)).toEqual(['github-token'])
    for (const name of Object.keys(INPUT_DEFAULTS)) expect(action.inputs).toHaveProperty(name)
  })
})
