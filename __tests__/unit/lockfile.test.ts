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

/** A package `overrides` sets to a version range, and under which package (none: everywhere). */
interface Pin {
  name: string
  under?: string
}

/**
 * What `overrides` pins: `name` or `name@range` keys whose value is a version range, or an object
 * whose `.` is one. An object's other keys pin only under that package, as npm applies them (and an
 * object alone pins what is under the package, not the package itself).
 */
function pins(overrides: Record<string, unknown> = {}, under?: string): Pin[] {
  return Object.entries(overrides).flatMap(([key, value]) => {
    const name = key.replace(/(.)@.*$/, '$1')
    const nested = value && typeof value === 'object' ? (value as Record<string, unknown>) : {}
    const spec = typeof value === 'string' ? value : nested['.']
    const own = key !== '.' && typeof spec === 'string' && rangeOf(spec) !== null
    return [...(own ? [{ name, under }] : []), ...pins(nested, name)]
  })
}

/** Whether a pin covers `dep` as a dependency of the lock entry at `where`. */
const covers = (pin: Pin, where: string, dep: string): boolean =>
  pin.name === dep &&
  (pin.under === undefined || `${where}/`.includes(`node_modules/${pin.under}/`))

/** The version range a spec asks for, or null: `npm:name@range` aliases are ranges too. */
function rangeOf(spec: string): string | null {
  const alias = /^npm:(?:@[^/]+\/)?[^@]+@(.*)$/.exec(spec)
  return semver.validRange(alias ? alias[1]! : spec)
}

/** What is wrong with a lock, one line per problem, naming the package and its spec. */
function lockProblems(lock: Lock, manifest: Manifest, nodes: string[]): string[] {
  const pinned = pins(manifest.overrides)
  const problems: string[] = []
  for (const [where, entry] of Object.entries(lock.packages)) {
    const name = where || '(package.json)'
    for (const kind of KINDS)
      for (const [dep, spec] of Object.entries(entry[kind] ?? {}))
        if (rangeOf(spec) === null && !pinned.some(pin => covers(pin, where, dep)))
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
    // a spec that overrides pins to a version is what npm installs instead: no problem
    const manifest = { overrides: { formatter: { jschardet: '4.1.0', a: '1.0.0', b: '1.0.0' } } }
    expect(lockProblems(bad, manifest, ['22.12.0'])).toEqual([])
    // an override under one package does not pin the same name under another
    const elsewhere: Lock = {
      packages: {
        'node_modules/other': {
          version: '1.0.0',
          integrity: 'sha512-y',
          dependencies: { jschardet: 'latest' }
        }
      }
    }
    expect(lockProblems(elsewhere, manifest, [])).toEqual([
      'node_modules/other asks for jschardet@latest in dependencies: not a version range'
    ])
    // an override that is itself a dist-tag pins nothing
    const tagged = { overrides: { formatter: { jschardet: 'latest', a: '1.0.0', b: '1.0.0' } } }
    expect(lockProblems(bad, tagged, ['22.12.0'])).toEqual([
      'node_modules/formatter asks for jschardet@latest in dependencies: not a version range'
    ])
    // overriding what is under a package does not exempt the package's own spec
    const asksForTag: Lock = {
      packages: {
        '': { devDependencies: { formatter: 'latest' } },
        'node_modules/formatter': { version: '3.1.0', integrity: 'sha512-x' }
      }
    }
    expect(
      lockProblems(asksForTag, { overrides: { formatter: { jschardet: '4.1.0' } } }, [])
    ).toEqual(['(package.json) asks for formatter@latest in devDependencies: not a version range'])
  })
})
