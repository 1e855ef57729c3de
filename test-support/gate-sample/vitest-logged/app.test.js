import { expect, test } from 'vitest'
import { createRequire } from 'node:module'
const { parse, safeParse } = createRequire(import.meta.url)('./app.js')

test('returns 0 on empty input', () => {
  expect(safeParse('')).toBe(0)
})

test('counts', () => {
  expect(parse('abc')).toBe(4)
})
