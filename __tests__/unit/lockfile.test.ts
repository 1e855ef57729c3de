import { readFileSync } from 'node:fs'
import semver from 'semver'
import { describe, expect, it } from 'vitest'

/**
 * `npm ci` installs exactly what package-lock.json holds, and refuses when a spec in the tree no
 * longer matches it: a spec resolved through a dist-tag (`latest`), a URL or a git ref moves when
 * the registry or the remote moves, and a fresh clone stops installing (jschardet@latest did it).
 * Every package must also run on the Node that develops the project, or `npm ci` warns EBADENGINE.
 */
interface LockEntry {
  version?: string
  link?: boolean
  integrity?: string
  engines?: Record<string, string> | string[]
  dependencies?: Record<string, string>
  devDependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
}
interface Lock {
  packages: Record<string, LockEntry>
}
interface Manifest {
  engines?: { node?: string }
  overrides?: Record<string, unknown>
}

const KINDS = [
  'dependencies',
  'devDependencies',
  'optionalDependencies',
  'peerDependencies'
] as const

/** Package names that `overrides` pins, at any depth (`name` or `name@range` keys). */
function pinned(overrides: Record<string, unknown> = {}): Set<string> {
  const names = new Set<string>()
  for (const [key, value] of Object.entries(overrides)) {
    if (key !== '.') names.add(key.replace(/(.)@.*$/, '$1'))
    if (value && typeof value === 'object')
      for (const n of pinned(value as Record<string, unknown>)) names.add(n)
  }
  return names
}

/** The version range a spec asks for, or null: `npm:name@range` aliases are ranges too. */
function rangeOf(spec: string): string | null {
  const alias = /^npm:(?:@[^/]+\/)?[^@]+@(.*)$/.exec(spec)
  return semver.validRange(alias ? alias[1]! : spec)
}

/** What is wrong with a lock, one line per problem, naming the package and its spec. */
function lockProblems(lock: Lock, manifest: Manifest, nodes: string[]): string[] {
  const overridden = pinned(manifest.overrides)
  const problems: string[] = []
  for (const [where, entry] of Object.entries(lock.packages)) {
    const name = where || '(package.json)'
    for (const kind of KINDS)
      for (const [dep, spec] of Object.entries(entry[kind] ?? {}))
        if (rangeOf(spec) === null && !overridden.has(dep))
          problems.push(`${name} asks for ${dep}@${spec} in ${kind}: not a version range`)
    if (where === '' || entry.link) continue
    if (!entry.version || !semver.valid(entry.version) || !entry.integrity)
      problems.push(`${name} is locked without a registry version and integrity`)
    const engines = Array.isArray(entry.engines) ? undefined : entry.engines?.['node']
    for (const node of nodes)
      if (engines && !semver.satisfies(node, engines))
        problems.push(`${name}@${entry.version} needs Node ${engines}, not ${node}`)
  }
  return problems
}

const read = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T

describe('package-lock.json', () => {
  const lock = read<Lock>('package-lock.json')
  const manifest = read<Manifest>('package.json')
  // the Node running the tests and the oldest that package.json allows
  const nodes = [process.version, semver.minVersion(manifest.engines!.node!)!.version]

  it('resolves every dependency through a version range, and each package runs on our Node', () => {
    expect(lockProblems(lock, manifest, nodes)).toEqual([])
  })

  it('names the package and spec when a dependency asks for a dist-tag, a URL or a git ref', () => {
    const bad: Lock = {
      packages: {
        '': { devDependencies: { formatter: '^3.1.0' } },
        'node_modules/formatter': {
          version: '3.1.0',
          integrity: 'sha512-x',
          dependencies: { jschardet: 'latest', lodash: '^4.17.14', utf8: 'npm:utf8@^3.0.0' },
          optionalDependencies: {
            a: 'https://example.invalid/a.tgz',
            b: 'github:owner/b#main'
          },
          engines: { node: '>=22.12.0' }
        }
      }
    }
    expect(lockProblems(bad, { engines: { node: '>=20' } }, ['20.19.0'])).toEqual([
      'node_modules/formatter asks for jschardet@latest in dependencies: not a version range',
      'node_modules/formatter asks for a@https://example.invalid/a.tgz in optionalDependencies: not a version range',
      'node_modules/formatter asks for b@github:owner/b#main in optionalDependencies: not a version range',
      'node_modules/formatter@3.1.0 needs Node >=22.12.0, not 20.19.0'
    ])
    // a spec that overrides pins is what npm installs instead: no problem
    const manifest = { overrides: { formatter: { jschardet: '4.1.0', a: '1.0.0', b: '1.0.0' } } }
    expect(lockProblems(bad, manifest, ['22.12.0'])).toEqual([])
  })
})
