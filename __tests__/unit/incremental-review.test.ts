/**
 * aiReview with incremental-review against the local Messages API server: what a review that sends
 * only some parts keeps when the budget refuses it, and which part's prompt the verifier of a finding
 * in a part not sent again reads.
 */
import Anthropic from '@anthropic-ai/sdk'
import { afterEach, describe, expect, it } from 'vitest'
import { appendReview } from '../../src/loop/record.js'
import type { LoopState } from '../../src/loop/types.js'
import { messagesClient } from '../../src/model/anthropic.js'
import { Budget } from '../../src/model/budget.js'
import { aiReview } from '../../src/review/ai-reviewer.js'
import { ModelServer, type ScriptedReply } from '../../test-support/model-server.js'
import { verdict } from '../e2e/greet-replies.js'
import { pull, reviewed, state } from './builders.js'
import { FakeGit, fakeLog, settings } from './fake-ports.js'

const A = 'pa/a.js'
const B = 'pb/b.js'
/** 1,500 lines of about 45 characters: each file is a part of its own. */
const big = (tag: string) =>
  Array.from({ length: 1500 }, (_, i) => `export const ${tag}${i} = ${i} // some padding text here`)

function fileDiff(path: string, lines: string[]): string {
  return `diff --git a/${path} b/${path}\nnew file mode 100644\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1,${lines.length} @@\n${lines.map(l => `+${l}`).join('\n')}\n`
}

/** Two new files, one part each; their blobs are set by the test. */
class TwoParts extends FakeGit {
  blobIds = new Map([
    [A, 'a'.repeat(40)],
    [B, 'b'.repeat(40)]
  ])
  override diffText = fileDiff(A, big('a')) + fileDiff(B, big('b'))
  override async blobs() {
    return new Map(this.blobIds)
  }
  override async listFiles() {
    return [A, B]
  }
  override async show(_sha: string, file: string) {
    return file === A || file === B ? `${big(file === A ? 'a' : 'b').join('\n')}\n` : undefined
  }
}

/** The GO verdict the e2e scripts answer, as the JSON the model returns. */
const GO = (verdict('GO') as Extract<ScriptedReply, { kind: 'json' }>).value as Record<
  string,
  unknown
>

let server: ModelServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function reviewer(reply: ScriptedReply, inputs: Record<string, string> = {}) {
  await server?.close()
  server = await ModelServer.start({ templates: [{ reply }] })
  const client = messagesClient(
    new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0, timeout: 60_000 })
  )
  const ai = settings({ 'anthropic-api-key': 'k', ...inputs }).ai!
  return (budget: Budget) => ({
    client,
    ai,
    threshold: 'medium' as const,
    budget,
    log: fakeLog(),
    promptsDir: 'prompts'
  })
}

/** Iteration 1 reviews both parts GO; then B changes. */
async function firstReview(inputs: Record<string, string> = {}) {
  const git = new TwoParts('h'.repeat(40))
  const deps = await reviewer({ kind: 'json', value: GO }, inputs)
  const v1 = await aiReview(deps(new Budget(0, undefined)), {
    pull: pull(),
    state: state(),
    git,
    gates: []
  })
  expect(v1.coverage?.batches).toBe(2)
  const s: LoopState = appendReview(
    state(),
    reviewed({ n: 1, decision: 'GO', coverage: v1.coverage })
  )
  git.blobIds.set(B, 'c'.repeat(40))
  return { git, s }
}

describe('a review that sends only some parts', () => {
  it('refused by the budget, keeps the record of the parts it did not need to send', async () => {
    const { git, s } = await firstReview()
    const deps = await reviewer({ kind: 'json', value: GO })
    const v2 = await aiReview(deps(new Budget(0, 0.0001)), {
      pull: pull(),
      state: s,
      git,
      gates: []
    })
    expect(v2.budgetExhausted).toBe(true)
    expect(server!.calls).toHaveLength(0)
    expect(v2.coverage).toMatchObject({ unreviewed: [B], unchanged: { [A]: 1 }, skipped: 1 })
    const after = appendReview(s, reviewed({ n: 2, decision: v2.decision, coverage: v2.coverage }))
    expect(after.reviewed?.files).toEqual({ [A]: `1:${'a'.repeat(40)}` })
  })

  it("verifies a finding in a part not sent again on that part's own prompt", async () => {
    const { git, s } = await firstReview({ 'review-max-turns': '1' })
    const finding = {
      severity: 'high',
      category: 'logic',
      file: A,
      line: 3,
      evidence: 'export const a2 = 2 // some padding text here',
      title: 'a2 no longer fits what b expects',
      description: 'b now relies on a2 differently',
      suggestedFix: 'x'
    }
    const deps = await reviewer(
      { kind: 'json', value: { ...GO, decision: 'NO_GO', findings: [finding] } },
      { 'review-max-turns': '1' }
    )
    const v2 = await aiReview(deps(new Budget(0, undefined)), {
      pull: pull(),
      state: s,
      git,
      gates: []
    })
    expect(v2.findings.map(f => f.file)).toEqual([A])
    const texts = server!.calls.map(c => ({
      verifier: c.verifier,
      text: JSON.stringify(c.messages)
    }))
    // the review sends B alone; the verifier reads A's part, where the finding is
    expect(
      texts.filter(t => !t.verifier).map(t => t.text.includes('diff --git a/pb/b.js'))
    ).toEqual([true])
    const verifier = texts.filter(t => t.verifier)
    expect(verifier).toHaveLength(1)
    expect(verifier[0]!.text).toContain('diff --git a/pa/a.js')
    expect(verifier[0]!.text).not.toContain('diff --git a/pb/b.js')
  })
})
