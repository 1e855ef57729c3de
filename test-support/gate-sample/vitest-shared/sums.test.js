import { expect, test } from 'vitest'

// both tests fail inside this helper: two failures on one line, never one finding
function expectSum(items, sum) {
  expect(items.reduce((a, b) => a + b, 1)).toBe(sum)
}

test('sums two numbers', () => {
  expectSum([1, 2], 3)
})

test('sums three numbers', () => {
  expectSum([1, 2, 3], 6)
})
