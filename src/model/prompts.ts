import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { CacheControl } from '../ports/index.js'
import { sanitizeUntrusted } from './sanitize.js'

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

export type SystemBlock = { type: 'text'; text: string; cache_control?: CacheControl }

/**
 * The system prompt of the reviewer or the fixer: the template, then the repository's sections and
 * the `instructions` input (untrusted text, sanitised), with the cache breakpoint at the end.
 */
export function systemPrompt(
  name: 'reviewer' | 'fixer',
  vars: Record<string, string>,
  options: { sections?: string[]; instructions?: string; dir?: string } = {}
): SystemBlock[] {
  const extra = [
    ...(options.sections ?? []),
    options.instructions
      ? `## Additional instructions from the repository\n\n${sanitizeUntrusted(options.instructions)}`
      : ''
  ]
    .filter(Boolean)
    .join('\n\n')
  const blocks: SystemBlock[] = [{ type: 'text', text: loadPrompt(name, vars, options.dir) }]
  if (extra) blocks.push({ type: 'text', text: extra })
  blocks[blocks.length - 1]!.cache_control = { type: 'ephemeral' }
  return blocks
}
