import assert from 'node:assert/strict'
import test from 'node:test'

test('adds', () => {
  assert.equal(1 + 2, 3)
})

test('Adds', () => {
  assert.equal(2 + 2, 4)
})
