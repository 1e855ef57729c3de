import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
const { add } = createRequire(import.meta.url)('../../js/math.js')

describe('math in ESM', () => {
  it('adds two numbers', () => {
    assert.equal(add(1, 2), 3)
  })
})
