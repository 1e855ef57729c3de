// Part of `npm run build`: minifies the chunks ncc wrote (its --minify leaves the chunks of dynamic
// imports as they are), keeping names (errors and classes are named in messages) and dropping the
// license comments, which licenses.txt holds. Usage: tsx scripts/minify-dist.ts DIR
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { transformSync } from 'esbuild'

const dir = process.argv[2]
if (!dir) throw new Error('usage: tsx scripts/minify-dist.ts DIR')
let before = 0
let after = 0
for (const name of readdirSync(dir).filter(f => f.endsWith('.js'))) {
  const file = path.join(dir, name)
  const source = readFileSync(file, 'utf8')
  const { code } = transformSync(source, {
    minify: true,
    keepNames: true,
    format: 'esm',
    target: 'es2022',
    legalComments: 'none',
    charset: 'utf8'
  })
  writeFileSync(file, code)
  before += Buffer.byteLength(source)
  after += Buffer.byteLength(code)
}
console.log(
  `minified ${dir}: ${(before / 1e6).toFixed(2)} MB → ${(after / 1e6).toFixed(2)} MB of JavaScript`
)
