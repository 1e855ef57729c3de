import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import test from 'node:test'
const { add } = createRequire(import.meta.url)('../math.js')

test('adds two numbers', () => {
  assert.equal(add(1, 2), 3)
})
