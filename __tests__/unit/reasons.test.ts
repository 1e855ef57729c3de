import { describe, expect, it } from 'vitest'
import { stopReason, type StopCause } from '../../src/loop/reasons.js'
import { nextAfterFix } from '../../src/loop/rules.js'

/** Every cause, and the words a user must find in its reason (the cause and, where any, the remedy). */
const CASES: Array<[StopCause, RegExp[]]> = [
  [{ kind: 'review_go' }, [/GO/]],
  [
    { kind: 'no_fixer', surface: 'action' },
    [/fix-commands is empty/, /anthropic-api-key/, /A human must fix it/]
  ],
  [{ kind: 'no_fixer', surface: 'cli' }, [/no --fix command/, /ANTHROPIC_API_KEY is not set/]],
  [
    { kind: 'fork', pr: 7, fork: 'someone/widgets' },
    [/Review only/, /someone\/widgets/, /cannot be pushed to/, /listed for the author/]
  ],
  [{ kind: 'read_only', decision: 'NO_GO', findings: 2 }, [/read-only token/, /issues: write/]],
  [
    { kind: 'read_only', decision: 'NO_GO', findings: 1, fork: 'someone/widgets' },
    [/1 finding for the author of the fork someone\/widgets/, /cannot be pushed to/]
  ],
  [
    { kind: 'fix_no_changes', aiFixer: false, surface: 'cli' },
    [/fix commands changed nothing/, /ANTHROPIC_API_KEY is not set/]
  ],
  [{ kind: 'fix_no_changes', aiFixer: true, surface: 'action' }, [/fixers changed nothing/]],
  [{ kind: 'budget_spent', spentUsd: 5.01, maxUsd: 5 }, [/\$5\.01 of the \$5\.00/, /max-cost-usd/]],
  [
    { kind: 'unaffordable', spentUsd: 1, maxUsd: 1, estimate: 0.5 },
    [/estimated at \$0\.50/, /max-cost-usd/]
  ],
  [{ kind: 'cap', n: 3, max: 3 }, [/after 3 of 3 iterations/]],
  [{ kind: 'repeated_blocker', id: 'RL-1' }, [/RL-1 was raised again after a fix attempt/]],
  [
    { kind: 'oscillating', n: 3, earlier: 1, earlierSha: 'a'.repeat(40) },
    [/iteration 3 is the same as in iteration 1 \(aaaaaaa\)/, /circles/]
  ],
  [{ kind: 'unreviewed', files: 2 }, [/2 changed files could not be reviewed/, /retry/]],
  [{ kind: 'reviewer_asks' }, [/needs a human/]],
  [
    { kind: 'disagreement', ids: ['RL-1', 'RL-2'] },
    [/keeps 2 blocking findings \(RL-1, RL-2\)/, /dismiss RL-1/, /\/review-loop fix/]
  ],
  [{ kind: 'fix_disputed' }, [/disputed/]],
  [{ kind: 'fix_disputed_again' }, [/disputes again/]],
  [{ kind: 'fix_budget_spent' }, [/raise max-cost-usd/]],
  [{ kind: 'fix_branch_moved' }, [/branch moved/]],
  [{ kind: 'fix_push_failed' }, [/could not be pushed/]],
  [
    { kind: 'branch_deleted', pr: 7, branch: 'feature' },
    [
      /head branch feature of PR #7 was deleted/,
      /nor call it GO/,
      /Restore the branch/,
      /close the PR/
    ]
  ],
  [
    { kind: 'branch_deleted', pr: 7, branch: 'feature', kept: 'fix-2.patch' },
    [/the fix is kept as fix-2\.patch/]
  ],
  [
    { kind: 'human_fix', by: 'alice', cause: { kind: 'fork', pr: 7, fork: 'someone/widgets' } },
    [/@alice asked for a fix/, /cannot be pushed to/]
  ]
]

describe('stopReason: every stop names its real cause', () => {
  it.each(CASES)('%j', (cause, words) => {
    const reason = stopReason(cause)
    for (const w of words) expect(reason).toMatch(w)
  })

  it('never blames a missing fixer for a fork, nor names action inputs on the CLI', () => {
    expect(stopReason({ kind: 'fork', pr: 7, fork: 'someone/widgets' })).not.toMatch(
      /fix-commands|anthropic-api-key|no fixer/
    )
    expect(stopReason({ kind: 'no_fixer', surface: 'cli' })).not.toMatch(
      /fix-commands|anthropic-api-key/
    )
  })

  it('says, when fix commands changed nothing, that no AI fixer was there to try', () => {
    expect(nextAfterFix('no_changes', 'none', false, { aiFixer: false, surface: 'cli' })).toEqual({
      status: 'stalled',
      reason: expect.stringContaining('ANTHROPIC_API_KEY is not set') as string,
      retrigger: false
    })
  })
})
