// npm run -s sizes: the functions of src/ by lines of their own logic, longest first. A nested
// function (a factory's methods, callbacks) is measured on its own and not counted in its parent.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'

export interface FunctionSize {
  file: string
  name: string
  line: number
  lines: number
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap(name => {
    const full = path.join(dir, name)
    if (statSync(full).isDirectory()) return sourceFiles(full)
    return full.endsWith('.ts') && !full.endsWith('.d.ts') ? [full] : []
  })
}

function nameOf(node: ts.Node, sf: ts.SourceFile): string {
  const named = node as ts.Node & { name?: ts.Node }
  if (named.name) return named.name.getText(sf)
  const parent = node.parent
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)))
    return parent.name.getText(sf)
  return '(anonymous)'
}

/** Lines of code (not blank, not only a comment) that a span covers. */
function codeLines(text: string): Set<number> {
  const lines = new Set<number>()
  text.split('\n').forEach((l, i) => {
    const t = l.trim()
    if (t !== '' && !t.startsWith('//') && !t.startsWith('*') && !t.startsWith('/*')) lines.add(i)
  })
  return lines
}

export function functionSizes(root = 'src'): FunctionSize[] {
  const sizes: FunctionSize[] = []
  for (const file of sourceFiles(root)) {
    const text = readFileSync(file, 'utf8')
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true)
    const code = codeLines(text)
    const own = (fn: ts.FunctionLikeDeclaration): number => {
      const start = sf.getLineAndCharacterOfPosition(fn.getStart(sf)).line
      const end = sf.getLineAndCharacterOfPosition(fn.getEnd()).line
      const mine = new Set([...code].filter(l => l >= start && l <= end))
      const visit = (n: ts.Node): void => {
        if (n !== fn && ts.isFunctionLike(n) && (n as ts.FunctionLikeDeclaration).body) {
          const s = sf.getLineAndCharacterOfPosition(n.getStart(sf)).line
          const e = sf.getLineAndCharacterOfPosition(n.getEnd()).line
          // the nested function's first line holds the parent's call too
          for (let l = s + 1; l <= e; l++) mine.delete(l)
          return
        }
        ts.forEachChild(n, visit)
      }
      ts.forEachChild(fn, visit)
      return mine.size
    }
    const walk = (n: ts.Node): void => {
      if (ts.isFunctionLike(n) && (n as ts.FunctionLikeDeclaration).body) {
        const fn = n as ts.FunctionLikeDeclaration
        sizes.push({
          file: file.split(path.sep).join('/'),
          name: nameOf(fn, sf),
          line: sf.getLineAndCharacterOfPosition(fn.getStart(sf)).line + 1,
          lines: own(fn)
        })
      }
      ts.forEachChild(n, walk)
    }
    walk(sf)
  }
  return sizes.sort((a, b) => b.lines - a.lines)
}

if (process.argv[1]?.endsWith('function-sizes.ts')) {
  for (const f of functionSizes().slice(0, Number(process.argv[2] ?? 25)))
    console.log(`${String(f.lines).padStart(4)}  ${f.file}:${f.line}  ${f.name}`)
}
