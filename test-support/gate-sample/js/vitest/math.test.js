import { expect, test } from 'vitest'
import { createRequire } from 'node:module'
const { add } = createRequire(import.meta.url)('../math.js')

test('adds two numbers', () => {
  expect(add(1, 2)).toBe(3)
})
