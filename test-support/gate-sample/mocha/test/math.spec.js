const assert = require('node:assert/strict')
const { add } = require('../../js/math.js')

describe('math', () => {
  it('adds two numbers', () => {
    assert.equal(add(1, 2), 3)
  })

  describe('with negatives', () => {
    it('adds a negative number', () => {
      assert.equal(add(2, -1), 1)
    })
  })

  it('adds zero', () => {
    assert.equal(add(0, 0) - 1, 0)
  })
})
