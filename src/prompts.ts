import { readFileSync } from 'node:fs'
import path from 'node:path'

/**
 * The prompt templates ship beside dist/ in prompts/. The runner starts `node <action>/dist/index.js`,
 * so they are found relative to the running script.
 */
export function promptsDir(): string {
  const script = process.argv[1] ?? ''
  return path.resolve(path.dirname(script), '..', 'prompts')
}

export function loadPrompt(
  name: 'reviewer' | 'fixer',
  vars: Record<string, string>,
  dir = promptsDir()
): string {
  const template = readFileSync(path.join(dir, `${name}.md`), 'utf8')
  return template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => vars[key] ?? `{{${key}}}`)
}
