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

  it('holds three files at the root of src/: the entry, the wiring and the input parser', () => {
    const root = readdirSync('src').filter(f => statSync(path.join('src', f)).isFile())
    expect(root.sort()).toEqual(['index.ts', 'inputs.ts', 'main.ts'])
  })

  it('has no function over 60 lines of its own logic (npm run -s sizes lists them)', () => {
    const long = functionSizes('src')
      .filter(f => f.lines > 60)
      .map(f => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`)
    expect(long).toEqual([])
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
