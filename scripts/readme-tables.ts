// npm run docs: rewrites the inputs and outputs tables of README.md from action.yml, so they match.
import { readFileSync, writeFileSync } from 'node:fs'
import { parse } from 'yaml'

interface ActionYml {
  inputs: Record<string, { description: string; default?: string }>
  outputs: Record<string, { description: string }>
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')

export function tables(action: ActionYml): { inputs: string; outputs: string } {
  const inputs = [
    '| input | default | what it does |',
    '|---|---|---|',
    ...Object.entries(action.inputs).map(
      ([name, i]) =>
        `| \`${name}\` | ${i.default ? `\`${cell(i.default)}\`` : ''} | ${cell(i.description)} |`
    )
  ].join('\n')
  const outputs = [
    '| output | what it holds |',
    '|---|---|',
    ...Object.entries(action.outputs).map(([name, o]) => `| \`${name}\` | ${cell(o.description)} |`)
  ].join('\n')
  return { inputs, outputs }
}

function replaceBetween(text: string, marker: string, content: string): string {
  const start = `<!-- ${marker}:start -->`
  const end = `<!-- ${marker}:end -->`
  const i = text.indexOf(start)
  const j = text.indexOf(end)
  if (i < 0 || j < 0) throw new Error(`README.md lacks the ${start} … ${end} markers`)
  return `${text.slice(0, i + start.length)}\n${content}\n${text.slice(j)}`
}

if (process.argv[1]?.endsWith('readme-tables.ts')) {
  const action = parse(readFileSync('action.yml', 'utf8')) as ActionYml
  const { inputs, outputs } = tables(action)
  let readme = readFileSync('README.md', 'utf8')
  readme = replaceBetween(readme, 'inputs', inputs)
  readme = replaceBetween(readme, 'outputs', outputs)
  writeFileSync('README.md', readme)
  console.log('README.md tables rewritten from action.yml')
}
