import { describe, expect, it } from 'vitest'
import { parseCli } from '../../src/cli/args.js'

describe('the command line of review-loop eval', () => {
  it('reads the dataset, the cases, the inputs and the numbers', () => {
    expect(
      parseCli([
        'eval',
        'my-cases',
        '--case',
        'a',
        '--case',
        'b',
        '--set',
        'severity-threshold=low',
        '--loop',
        '--judge-model',
        'claude-haiku-4-5',
        '--max-cost-usd',
        '2.5',
        '--tolerance',
        '0',
        '--json',
        'r.json'
      ])
    ).toEqual({
      command: 'eval',
      dataset: 'my-cases',
      inputs: { 'severity-threshold': 'low' },
      list: false,
      cases: ['a', 'b'],
      loop: true,
      judgeModel: 'claude-haiku-4-5',
      judgeMode: 'batch',
      maxCostUsd: 2.5,
      tolerance: 0,
      json: 'r.json',
      out: undefined
    })
    expect(parseCli(['eval', '--help'])).toEqual({ command: 'eval-help' })
    expect(parseCli(['eval'])).toMatchObject({ dataset: undefined, tolerance: 3, loop: false })
  })

  it('says what to type for a wrong number, a second dataset or an option of another command', () => {
    expect(() => parseCli(['eval', '--max-cost-usd', '0'])).toThrow(
      "--max-cost-usd takes an amount of US dollars above 0, not '0'."
    )
    expect(() => parseCli(['eval', '--tolerance=-1'])).toThrow(
      "--tolerance takes a number of lines from 0 to 1000, not '-1'."
    )
    expect(() => parseCli(['eval', 'a', 'b'])).toThrow("eval takes one dataset folder, not 'a b'.")
    expect(() => parseCli(['eval', '--dry-run'])).toThrow(
      '--dry-run is not an option of review-loop eval (it is one of review-loop). See review-loop eval --help.'
    )
    expect(() => parseCli(['--loop'])).toThrow(
      '--loop is not an option of review-loop (it is one of review-loop eval). See review-loop --help.'
    )
    expect(() => parseCli(['stats', '--check', 'x: y'])).toThrow(
      '--check is not an option of review-loop stats (it is one of review-loop).'
    )
  })

  it('reads --judge-mode and the import command, and says what to type when they are wrong', () => {
    expect(parseCli(['eval', 'd', '--judge-model', 'm', '--judge-mode', 'pairwise'])).toMatchObject(
      { judgeMode: 'pairwise', judgeModel: 'm' }
    )
    expect(() => parseCli(['eval', '--judge-model', 'm', '--judge-mode', 'each'])).toThrow(
      "--judge-mode takes batch or pairwise, not 'each'."
    )
    expect(() => parseCli(['eval', '--judge-mode', 'pairwise'])).toThrow(
      '--judge-mode needs a judge: add --judge-model MODEL.'
    )
    expect(
      parseCli(['eval', 'import', 'martian', 'a.json', 'b.json', '--out', 'd', '--api-url', 'u'])
    ).toEqual({
      command: 'eval-import',
      format: 'martian',
      files: ['a.json', 'b.json'],
      out: 'd',
      apiUrl: 'u'
    })
    expect(() => parseCli(['eval', 'import', 'swe', 'a.json', '--out', 'd'])).toThrow(
      "eval import reads Martian's Code Review Bench"
    )
    expect(() => parseCli(['eval', 'import', 'martian', 'a.json'])).toThrow(
      'eval import martian takes its golden comment files and a folder to write'
    )
    expect(() => parseCli(['eval', 'import', 'martian', 'a.json', '--out', 'd', '--loop'])).toThrow(
      '--loop is not an option of review-loop eval import'
    )
    expect(() => parseCli(['eval', 'd', '--api-url', 'u'])).toThrow(
      '--api-url is an option of review-loop eval import'
    )
  })
})
