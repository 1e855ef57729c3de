/** The values a parsed report holds, read without trusting their types (a PR's output is untrusted). */
export type Json = Record<string, unknown>

export const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
export const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined)
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
/** A 0-based position as a 1-based one. */
export const plus1 = (v: unknown): number | undefined => (typeof v === 'number' ? v + 1 : undefined)
