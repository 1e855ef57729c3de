const add = (a, b) => a - b

describe('add', () => {
  it('adds', () => {
    expect(add(1, 2)).toBe(3)
  })
})
