import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import test from 'node:test'
const { add } = createRequire(import.meta.url)('../js/math.js')

test('adds zero', () => {
  assert.equal(add(0, 0) - 1, 0)
})

test('Adds two numbers', () => {
  assert.equal(add(1, 2), 3)
})

test('adds two numbers', () => {
  assert.equal(add(2, 2), 4)
})

test('adds after a tick', async () => {
  await new Promise(resolve => setTimeout(resolve, 1))
  throw new Error('late failure')
})
