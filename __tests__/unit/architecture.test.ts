import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import ts from 'typescript'
import { functionSizes } from '../../scripts/function-sizes.js'
import { filesUnder } from '../../test-support/files.js'

/** Our modules: TypeScript, and the JavaScript beside it (the generated validators). */
const files = (dir: string): string[] => filesUnder(dir, name => /\.(?:[mc]?[jt]s)$/.test(name))

/**
 * Every module a file imports, resolved: `src/...` for our own, the package name otherwise. Read by
 * TypeScript's own scanner, so every form counts: side-effect imports, `import type`, `export … from`,
 * `import('x')` and `import('x').T`, `require`, and a list of names with comments in it.
 */
function imports(file: string, text = readFileSync(file, 'utf8')): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map(({ fileName: spec }) =>
    spec.startsWith('.')
      ? path
          .relative('.', path.resolve(path.dirname(file), spec))
          .split(path.sep)
          .join('/')
      : spec
  )
}

/** Each circle once, as `a → b → … → a`, from a depth-first walk of the import graph. */
function importCircles(graph: Map<string, string[]>): string[] {
  const circles = new Set<string>()
  const done = new Set<string>()
  const walk = (file: string, trail: string[]): void => {
    const at = trail.indexOf(file)
    if (at >= 0) {
      const loop = trail.slice(at)
      // the same circle found from another of its modules: start it at its least name
      const first = loop.indexOf([...loop].sort()[0]!)
      const turned = [...loop.slice(first), ...loop.slice(0, first)]
      circles.add([...turned, turned[0]].join(' → '))
      return
    }
    if (done.has(file)) return
    for (const next of graph.get(file) ?? []) walk(next, [...trail, file])
    done.add(file)
  }
  for (const file of [...graph.keys()].sort()) walk(file, [])
  return [...circles].sort()
}

/**
 * The floors of src/, top to bottom: a module imports from its own floor or the ones below, never
 * from one above. The entry on top (the action's and the command line's); the eval, which runs the
 * local loop; the wiring, which puts the adapters together into the ports for the action and the
 * local loop (and reads the settings with the repository's file, so the input parser sits below
 * it); the phases; the parts they use; the adapters; the pure renderers and the ports; the core,
 * which holds the settings types.
 */
const FLOORS: readonly (readonly string[])[] = [
  ['src/index.ts', 'src/main.ts', 'src/cli/'],
  ['src/eval/'],
  ['src/wiring/'],
  ['src/inputs.ts'],
  ['src/run/'],
  ['src/review/', 'src/fix/', 'src/gates/', 'src/config/'],
  ['src/model/', 'src/github/', 'src/git/', 'src/process/', 'src/action/'],
  ['src/report/', 'src/ports/'],
  // src/types/: declarations of packages' types, imported by no module
  ['src/loop/', 'src/types/']
]

/** The floor a module is on (0 the top), -1 when none lists it. */
function floorOf(file: string, floors: readonly (readonly string[])[]): number {
  return floors.findIndex(floor => floor.some(at => file === at || file.startsWith(at)))
}

/** Every import from a module to one on a higher floor, as `from → to`. */
function upwardImports(
  graph: Map<string, string[]>,
  floors: readonly (readonly string[])[]
): string[] {
  const up: string[] = []
  for (const [file, targets] of graph)
    for (const target of targets)
      if (floorOf(target, floors) < floorOf(file, floors)) up.push(`${file} → ${target}`)
  return up.sort()
}

/** Every module of src/ and the modules of src/ it imports (types and dynamic imports too). */
function importGraph(): Map<string, string[]> {
  return new Map(
    files('src').map(file => [
      file,
      imports(file)
        .filter(t => t.startsWith('src/'))
        .map(t => t.replace(/\.js$/, '.ts'))
    ])
  )
}

describe('the shape of src/', () => {
  it('keeps the pure core free of adapters, SDKs and the phases', () => {
    const core: Record<string, string[]> = {
      'src/loop': ['src/loop/'],
      'src/report': ['src/loop/', 'src/report/']
    }
    // what the core may use from outside src/: Node's own modules and the schema validator
    // (the generated validators take ajv's runtime helpers)
    const packages = /^(node:|ajv$|ajv\/dist\/runtime\/)/
    const crossings: string[] = []
    for (const [dir, allowed] of Object.entries(core)) {
      for (const file of files(dir)) {
        for (const target of imports(file)) {
          const ok = target.startsWith('src/')
            ? allowed.some(a => target.startsWith(a))
            : packages.test(target)
          if (!ok) crossings.push(`${file} → ${target}`)
        }
      }
    }
    expect(crossings).toEqual([])
  })

  it('holds three modules at the root of src/: the entry, the wiring and the input parser', () => {
    const root = readdirSync('src').filter(f => statSync(path.join('src', f)).isFile())
    // and the build's tsconfig.json (ncc reads the one nearest its entry)
    expect(root.sort()).toEqual(['index.ts', 'inputs.ts', 'main.ts', 'tsconfig.json'])
  })

  it('has no function over 60 lines of its own logic (npm run -s sizes lists them)', () => {
    const long = functionSizes('src')
      .filter(f => f.lines > 60)
      .map(f => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`)
    expect(long).toEqual([])
  })

  it('has no import circles: no module of src/ reaches itself through its imports, types included', () => {
    expect(importCircles(importGraph())).toEqual([])
  })

  it('finds an import circle when there is one', () => {
    const graph = new Map([
      ['src/run/a.ts', ['src/run/b.ts']],
      ['src/run/b.ts', ['src/run/c.ts', 'src/loop/d.ts']],
      ['src/run/c.ts', ['src/run/a.ts']],
      ['src/loop/d.ts', []]
    ])
    expect(importCircles(graph)).toEqual([
      'src/run/a.ts → src/run/b.ts → src/run/c.ts → src/run/a.ts'
    ])
  })

  it('puts every module of src/ on a floor', () => {
    expect(files('src').filter(file => floorOf(file, FLOORS) < 0)).toEqual([])
  })

  it('imports only from its own floor or below, but for the allowed imports up', () => {
    const allowed = [
      // a type only: the fixer's workspace carries the compiled problem matchers (a class) as they are
      'src/ports/index.ts → src/gates/formats/problem-matchers.ts'
    ]
    expect(upwardImports(importGraph(), FLOORS)).toEqual(allowed)
  })

  it('reads every form of import, as TypeScript does', () => {
    const text = [
      "import './side-effect.js'",
      'import type {',
      "  Surface, // the loop's surface",
      '  Intent',
      "} from '../run/deps.js'",
      "export * from './all.js'",
      "export function f() {} import { g } from './same-line.js'",
      "type T = import('../inputs.js').Settings",
      "const m = await import('../cli/main.js')",
      "const r = require('./required.cjs')"
    ].join('\n')
    expect(imports('src/loop/x.ts', text).sort()).toEqual(
      [
        'src/loop/side-effect.js',
        'src/run/deps.js',
        'src/loop/all.js',
        'src/loop/same-line.js',
        'src/inputs.js',
        'src/cli/main.js',
        'src/loop/required.cjs'
      ].sort()
    )
  })

  it('finds an import up the floors when there is one', () => {
    const graph = new Map([
      ['src/run/a.ts', ['src/loop/b.ts', 'src/run/c.ts']],
      ['src/run/c.ts', []],
      ['src/loop/b.ts', ['src/loop/d.ts', 'src/run/a.ts']],
      ['src/loop/d.ts', []]
    ])
    expect(upwardImports(graph, [['src/run/'], ['src/loop/']])).toEqual([
      'src/loop/b.ts → src/run/a.ts'
    ])
  })

  it('wires adapters only above the phases (main.ts, src/wiring/): the phases receive ports', () => {
    const adapters = [
      'src/github/',
      'src/git/',
      'src/process/command-runner',
      'src/action/artifacts'
    ]
    const wiring: string[] = []
    for (const file of files('src/run')) {
      for (const target of imports(file))
        if (adapters.some(a => target.startsWith(a))) wiring.push(`${file} → ${target}`)
    }
    expect(wiring).toEqual([])
  })
})
