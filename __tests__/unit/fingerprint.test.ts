import { describe, expect, it } from 'vitest'
import { fingerprint } from '../../src/loop/fingerprint.js'

describe('fingerprint', () => {
  const base = {
    title: 'Unused variable `total` at line 12',
    file: 'src/cart.ts',
    anchor: '  const total = items.length'
  }

  it('keeps the id when the line number in the title moves and whitespace differs', () => {
    const id = fingerprint(base)
    expect(id).toMatch(/^RL-[0-9a-f]{10}$/)
    expect(
      fingerprint({
        title: 'unused   variable `total` at  line 40 ',
        file: 'src/cart.ts',
        anchor: 'const total =\titems.length   '
      })
    ).toBe(id)
    expect(fingerprint({ ...base, title: 'Unused variable `total` at line 12:7' })).toBe(id)
  })

  it('keeps the id when a location in the title moves', () => {
    expect(fingerprint({ ...base, title: 'cart.ts(12,7): unused variable' })).toBe(
      fingerprint({ ...base, title: 'cart.ts(30,3): unused variable' })
    )
    expect(fingerprint({ ...base, title: 'cart.ts:12:7 unused variable' })).toBe(
      fingerprint({ ...base, title: 'cart.ts:30:3 unused variable' })
    )
  })

  it('gives a different id in a different file', () => {
    expect(fingerprint({ ...base, file: 'src/order.ts' })).not.toBe(fingerprint(base))
  })

  it('gives a different id for the same title on different code', () => {
    expect(fingerprint({ ...base, anchor: 'const total = 0' })).not.toBe(fingerprint(base))
  })

  it('gives a different id for a different problem', () => {
    expect(fingerprint({ ...base, title: 'Unused variable `count` at line 12' })).not.toBe(
      fingerprint(base)
    )
  })
})
