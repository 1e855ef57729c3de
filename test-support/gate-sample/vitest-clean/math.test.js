import { expect, test } from 'vitest'

test('adds two numbers', () => {
  expect(1 + 2).toBe(3)
})
