import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { functionSizes } from '../../scripts/function-sizes.js'

function files(dir: string): string[] {
  return readdirSync(dir).flatMap(name => {
    const full = path.join(dir, name)
    return statSync(full).isDirectory() ? files(full) : full.endsWith('.ts') ? [full] : []
  })
}

/** Every module a file imports, resolved: `src/...` for our own, the package name otherwise. */
function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+'([^']+)'/g)].map(
    m => m[1]!
  )
  const dynamic = [...text.matchAll(/import\('([^']+)'\)/g)].map(m => m[1]!)
  return [...specs, ...dynamic].map(spec =>
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

describe('the shape of src/', () => {
  it('keeps the pure core free of adapters, SDKs and the phases', () => {
    const core: Record<string, string[]> = {
      'src/loop': ['src/loop/'],
      'src/report': ['src/loop/', 'src/report/']
    }
    // what the core may use from outside src/: Node's own modules and the schema validator
    const packages = /^(node:|ajv$)/
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
    const graph = new Map(
      files('src').map(file => [
        file,
        imports(file)
          .filter(t => t.startsWith('src/'))
          .map(t => t.replace(/\.js$/, '.ts'))
      ])
    )
    expect(importCircles(graph)).toEqual([])
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

  it('wires adapters only in main.ts: the phases receive ports', () => {
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
