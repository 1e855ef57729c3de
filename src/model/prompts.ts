import { readFileSync } from 'node:fs'
import path from 'node:path'
import { minimatch } from 'minimatch'
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
  name: 'reviewer' | 'fixer' | 'verifier' | 'reconsider',
  vars: Record<string, string>,
  dir = promptsDir()
): string {
  const template = readFileSync(path.join(dir, `${name}.md`), 'utf8')
  return template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => vars[key] ?? `{{${key}}}`)
}

export type SystemBlock = { type: 'text'; text: string; cache_control?: CacheControl }

/**
 * The system prompt of the reviewer or the fixer: the template, the repository's sections (the
 * reviewer's guidelines) in a block of their own, and the `instructions` input (untrusted text,
 * sanitised) at the end of the last block, which carries the cache breakpoint.
 */
export function systemPrompt(
  name: 'reviewer' | 'fixer',
  vars: Record<string, string>,
  options: { sections?: string[]; instructions?: string; dir?: string } = {}
): SystemBlock[] {
  const blocks: SystemBlock[] = [{ type: 'text', text: loadPrompt(name, vars, options.dir) }]
  const sections = (options.sections ?? []).filter(Boolean)
  if (sections.length) blocks.push({ type: 'text', text: sections.join('\n\n') })
  const last = blocks[blocks.length - 1]!
  if (options.instructions) {
    const instructions = sanitizeUntrusted(options.instructions)
    last.text += `\n\n## Additional instructions from the repository\n\n${instructions}`
  }
  last.cache_control = { type: 'ephemeral' }
  return blocks
}

/**
 * The repository's instructions for one prompt: the `instructions` input, then the
 * `path-instructions` of .github/review-loop.yml whose glob matches one of `paths` (the files
 * reviewed, or the files of the findings to fix).
 */
export function repositoryInstructions(
  general: string | undefined,
  byPath: ReadonlyArray<{ path: string; instructions: string }>,
  paths: readonly string[]
): string | undefined {
  const parts = general ? [general] : []
  for (const p of byPath) {
    const matched = paths.filter(file => minimatch(file, p.path, { dot: true }))
    if (matched.length)
      parts.push(
        `### For files matching \`${p.path}\` (${matched.length} here)\n\n${p.instructions}`
      )
  }
  return parts.length ? parts.join('\n\n') : undefined
}
