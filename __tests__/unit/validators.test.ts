import { readFileSync } from 'node:fs'
import { Ajv } from 'ajv'
import { describe, expect, it } from 'vitest'
import { generate, VALIDATORS } from '../../scripts/validators.js'
import { checkState, stateSchema } from '../../src/loop/state-schema.js'

describe("ajv's validators, generated at build time", () => {
  it('are each what ajv generates from its schema now (npm run build writes them again)', async () => {
    const fresh = await generate()
    expect(fresh.size).toBe(VALIDATORS.length * 2)
    for (const [file, code] of fresh)
      expect(readFileSync(file, 'utf8'), `${file}: run npm run build and commit it`).toBe(code)
  })

  it('judge a state as ajv compiling the schema at run time does, errors included', () => {
    const compiled = new Ajv({ allErrors: true }).compile(stateSchema)
    const samples: unknown[] = [
      {},
      { schema: 9, pr: 0, status: 'running' },
      { schema: 9, pr: 3, status: 'nonsense', round: 1, maxIterations: 3, iterations: [] },
      'not a state'
    ]
    for (const sample of samples) {
      const ours = checkState(sample)
      expect(compiled(sample)).toBe(false)
      const theirs = (compiled.errors ?? [])
        .slice(0, 5)
        .map(e => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`)
        .join('; ')
      expect(ours).toEqual({ error: theirs })
    }
  })
})
