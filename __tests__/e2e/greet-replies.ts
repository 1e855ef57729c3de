import type { ReplyTemplate, ScriptedReply } from '../../test-support/model-server.js'

/** A PR that adds greet(), and Claude's scripted answers about it, shared by the AI scenarios. */
export const GREET = "export function greet(name) {\n  return 'Hello, ' + name\n}\n"

/** A structured-output verdict on greet(). */
export function verdict(
  decision: 'GO' | 'NO_GO' | 'NEEDS_DISCUSSION',
  findings: unknown[] = []
): ScriptedReply {
  return {
    kind: 'json',
    value: {
      decision,
      summary: decision === 'GO' ? 'Looks good.' : 'greet mishandles empty names.',
      findings,
      failedCriteria: decision === 'GO' ? [] : ['empty input handled'],
      passedCriteria: ['style'],
      requiredRework: decision === 'GO' ? [] : ['default the name'],
      earlierFindings: []
    }
  }
}

/** The blocker the reviewer raises on greet(). */
export const EMPTY_NAME = {
  severity: 'high',
  category: 'logic',
  file: 'src/greet.js',
  line: 2,
  /** GREET's line 2, as the head has it */
  evidence: "  return 'Hello, ' + name",
  title: 'greet prints "Hello, undefined" without a name',
  description: 'Calling greet() without a name yields "Hello, undefined".',
  suggestedFix: "Default the name to 'world'."
}

/** The fixer's edit that settles EMPTY_NAME. */
export const FIX_EDIT: ScriptedReply = {
  kind: 'tool_use',
  name: 'edit_file',
  input: {
    path: 'src/greet.js',
    old_text: "'Hello, ' + name",
    new_text: "'Hello, ' + (name ?? 'world')"
  }
}

/** The AI fixer's templates for one edit of `path`: the edit first, then its closing words. */
export function oneEditFixer(
  path: string,
  oldText: string,
  newText: string,
  closing = 'done'
): ReplyTemplate[] {
  return [
    {
      when: { contains: ['# Findings to address', `edited ${path}`] },
      reply: { kind: 'text', text: closing }
    },
    {
      when: { contains: '# Findings to address' },
      reply: {
        kind: 'tool_use',
        name: 'edit_file',
        input: { path, old_text: oldText, new_text: newText }
      }
    }
  ]
}

/** A person with write access who requests changes after run `afterRun`, with inline comments. */
export function changesRequested(
  afterRun: number,
  comments: Array<{ path: string; line: number; body: string }>
) {
  return {
    afterRun,
    review: { author: 'alice', permission: 'write', state: 'changes_requested', body: '', comments }
  }
}
