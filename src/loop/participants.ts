/**
 * Who made a pull request, and so may not settle it (dismiss its findings, approve it): the rule
 * GitHub applies to approvals ("the most recent push cannot be approved by whoever pushed it",
 * branch protection's "Require approval of the most recent reviewable push"), widened to everyone
 * who put code on the PR. Pure: the phases read the PR's commits and pushes (`PullMakers`), and
 * this decides.
 */
import { readTrailers } from './bot-commits.js'
import { sameLogin } from './state.js'
import type { LoopState } from './types.js'

/** One commit of the PR as GitHub lists it (`GET …/pulls/{n}/commits`). */
export interface PullCommit {
  sha: string
  /** The account GitHub ties the commit's author to (by a verified email), when it does. */
  authorLogin?: string
  /** The account GitHub ties the commit's committer to, when it does. */
  committerLogin?: string
  authorEmail?: string
  committerEmail?: string
  message: string
  /**
   * The commit's authors as GitHub resolves them (GraphQL `Commit.authors`): the git author first,
   * then each `Co-authored-by:` trailer, with the account GitHub ties its address to (any verified
   * address, not only a noreply one). Absent when they could not be read: then a co-author is known
   * by a noreply address only.
   */
  authors?: Array<{ email?: string; login?: string }>
}

/** A change to the head branch as its activity lists it: who made it, and the commit it moved to. */
export interface BranchPush {
  actor: string
  after: string
}

/** What GitHub says about who made the PR's head: its commits and the pushes to its branch. */
export interface PullMakers {
  commits: PullCommit[]
  /** The changes to the head branch (pushes, force pushes, its creation); absent when unread. */
  pushes?: BranchPush[]
  /** Set when the pushes could not be read, saying why (a fork's branch, no access). */
  pushersUnknown?: string
  /** Set when the commits' authors could not be resolved to accounts, saying why. */
  authorsUnknown?: string
  /** What GitHub listed only in part (more commits, or more pushes, than the loop reads). */
  partial?: string[]
}

/**
 * The commits the loop itself made on this PR: no person made them, whoever's token pushed them
 * (with a PAT, the branch's activity names the token's owner for the loop's own pushes).
 */
export interface LoopMade {
  /** The fix commits the state records as pushed (and the last push). */
  shas: ReadonlySet<string>
  pr: number
  /** The action's commit identity (commit-author-name and -email). */
  identity: { name: string; email: string }
}

/** What the loop made on the PR, as `state` records it. */
export function loopMade(
  pr: number,
  state: LoopState | undefined,
  identity: LoopMade['identity']
): LoopMade {
  const shas = new Set<string>()
  for (const it of state?.iterations ?? [])
    if (it.fix?.outcome === 'pushed' && it.fix.commitSha) shas.add(it.fix.commitSha)
  if (state?.lastPushedSha) shas.add(state.lastPushedSha)
  return { shas, pr, identity }
}

/**
 * Whether `c` is the loop's own commit: recorded as its push, or committed under its identity with
 * its trailers for this PR (a push the state lost: see bot-commits.ts).
 */
function isLoops(c: PullCommit, own: LoopMade | undefined): boolean {
  if (!own) return false
  if (own.shas.has(c.sha)) return true
  const t = readTrailers(c.message)
  const byLoop = c.committerEmail?.toLowerCase() === own.identity.email.toLowerCase()
  return byLoop && t?.pr === own.pr && !t.head
}

/** The PR as far as this rule needs it. */
export interface MadePull {
  author: string
  headRepoFullName: string
  baseRepoFullName: string
}

/** `Co-authored-by: Name <email>` anywhere in a message (GitHub reads the trailer block). */
const CO_AUTHOR = /^[ \t]*co-authored-by:[^<\n]*<([^>\n]+)>/gim

/** GitHub's noreply addresses: `ID+login@users.noreply.github.com` or `login@users.noreply…`. */
const NOREPLY =
  /^(?:\d+\+)?([a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\[bot\])?)@users\.noreply\.github\.com$/i

/** The login a GitHub noreply address names, or undefined for any other address. */
export function noreplyLogin(email: string): string | undefined {
  return NOREPLY.exec(email.trim())?.[1]
}

/** The emails of a message's `Co-authored-by:` trailers. */
export function coAuthorEmails(message: string): string[] {
  return [...message.matchAll(CO_AUTHOR)].map(m => m[1]!.trim())
}

/** Whether `email` is a noreply address of `login`'s (GitHub keeps other addresses private). */
function emailOf(login: string, email: string): boolean {
  const named = noreplyLogin(email)
  return named !== undefined && sameLogin(named, login)
}

/** A commit's co-authors: as GitHub resolves them when read, else the trailers' addresses. */
function coAuthors(c: PullCommit): Array<{ email?: string; login?: string }> {
  return c.authors ? c.authors.slice(1) : coAuthorEmails(c.message).map(email => ({ email }))
}

/** What `login` did on one commit, if anything. */
function commitPart(login: string, c: PullCommit): string | undefined {
  const short = c.sha.slice(0, 7)
  const is = (account?: string, email?: string): boolean =>
    (account !== undefined && sameLogin(account, login)) ||
    (account === undefined && email !== undefined && emailOf(login, email))
  if (is(c.authorLogin, c.authorEmail)) return `the author of its commit ${short}`
  if (is(c.committerLogin, c.committerEmail)) return `the committer of its commit ${short}`
  if (coAuthors(c).some(a => is(a.login, a.email)))
    return `a co-author of its commit ${short} (Co-authored-by)`
  return undefined
}

/** Whether the PR's head branch is on a fork (another repository than its base). */
const onFork = (pull: MadePull): boolean => !sameLogin(pull.headRepoFullName, pull.baseRepoFullName)

/**
 * Why `login` made this PR and so cannot settle it, in words ("the PR's author", "a co-author of
 * its commit abc1234 (Co-authored-by)", ...), or undefined when they did not: the PR's author;
 * anyone who pushed to its head branch; anyone named as author, committer or co-author of its
 * commits (by the account GitHub ties to the commit or co-author, else by a noreply address). The
 * loop's own commits and pushes (`own`) are no one's. When a fork's pushers could not be read, the
 * fork's owner stands in for them (see unchecked for a branch on the base repository).
 */
export function madeBy(
  login: string,
  pull: MadePull,
  makers: PullMakers,
  own?: LoopMade
): string | undefined {
  if (sameLogin(login, pull.author)) return "the PR's author"
  const pushes = makers.pushes?.filter(p => !own?.shas.has(p.after))
  if (pushes?.some(p => sameLogin(p.actor, login))) return 'someone who pushed to its head branch'
  for (const c of makers.commits) {
    const part = isLoops(c, own) ? undefined : commitPart(login, c)
    if (part) return part
  }
  const headOwner = pull.headRepoFullName.split('/')[0] ?? ''
  if (makers.pushes === undefined && onFork(pull) && sameLogin(headOwner, login))
    return 'the owner of the fork its head branch is on'
  return undefined
}

/** The co-authors' addresses nothing ties to an account, split by whether GitHub was asked. */
function untied(makers: PullMakers): { unresolved: Set<string>; unknown: Set<string> } {
  const unresolved = new Set<string>()
  const unknown = new Set<string>()
  for (const c of makers.commits)
    for (const a of coAuthors(c))
      if (a.login === undefined && a.email && noreplyLogin(a.email) === undefined)
        (c.authors ? unknown : unresolved).add(a.email.toLowerCase())
  return { unresolved, unknown }
}

/**
 * How many co-authors of the PR's commits GitHub ties to no account (it was asked: their addresses
 * are no one's verified address). They cannot be the person settling the PR.
 */
export function untiedCoAuthors(makers: PullMakers): number {
  return untied(makers).unknown.size
}

/**
 * What the loop could not check of who made the PR, in words; empty when it checked everyone. A
 * settlement counts only when this is empty (fail-safe): the pushes to a branch on the base
 * repository GitHub would not list, commits or pushes listed only in part, co-authors whose
 * accounts could not be read. A fork's unlisted pushes are not here: its owner stands in (madeBy).
 */
export function unchecked(pull: MadePull, makers: PullMakers): string[] {
  const gaps = [...(makers.partial ?? [])]
  if (makers.pushersUnknown && !onFork(pull))
    gaps.push(`who pushed to the head branch (${makers.pushersUnknown})`)
  const n = untied(makers).unresolved.size
  if (n > 0)
    gaps.push(
      `which accounts ${n === 1 ? 'one co-author' : `${n} co-authors`} named by address ${n === 1 ? 'is' : 'are'} (${makers.authorsUnknown ?? 'GitHub did not resolve them'})`
    )
  return gaps
}
