const { add } = require('./math.js')

test('adds two numbers', () => {
  expect(add(1, 2)).toBe(3)
})

test.skip('subtracts', () => {
  expect(add(1, -1)).toBe(0)
})

test('adds zero', () => {
  expect(add(1, 0)).toBe(2)
})
