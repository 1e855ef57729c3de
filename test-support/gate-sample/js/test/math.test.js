const { add } = require('../math.js')

test('adds two numbers', () => {
  expect(add(1, 2)).toBe(3)
})
