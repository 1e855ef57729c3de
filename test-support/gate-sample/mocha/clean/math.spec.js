const assert = require('node:assert/strict')
const { add } = require('../../js/math.js')

describe('math', () => {
  it('adds zero', () => {
    assert.equal(add(0, 0) - 1, 0)
  })
})
