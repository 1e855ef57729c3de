/**
 * Who made a pull request, and so may not settle it (dismiss its findings, approve it): the rule
 * GitHub applies to approvals ("the most recent push cannot be approved by whoever pushed it",
 * branch protection's "Require approval of the most recent reviewable push"), widened to everyone
 * who put code on the PR. Pure: the phases read the PR's commits and pushes (`PullMakers`), and
 * this decides.
 */
import { sameLogin } from './state.js'

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
}

/** What GitHub says about who made the PR's head: its commits and the pushes to its branch. */
export interface PullMakers {
  commits: PullCommit[]
  /** Logins that pushed to the head branch (pushes, force pushes, its creation). */
  pushers?: string[]
  /** Set when the pushers could not be read, saying why (a fork's branch, no access). */
  pushersUnknown?: string
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

/** What `login` did on one commit, if anything. */
function commitPart(login: string, c: PullCommit): string | undefined {
  const short = c.sha.slice(0, 7)
  const is = (account?: string, email?: string): boolean =>
    (account !== undefined && sameLogin(account, login)) ||
    (account === undefined && email !== undefined && emailOf(login, email))
  if (is(c.authorLogin, c.authorEmail)) return `the author of its commit ${short}`
  if (is(c.committerLogin, c.committerEmail)) return `the committer of its commit ${short}`
  if (coAuthorEmails(c.message).some(e => emailOf(login, e)))
    return `a co-author of its commit ${short} (Co-authored-by)`
  return undefined
}

/**
 * Why `login` made this PR and so cannot settle it, in words ("the PR's author", "a co-author of
 * its commit abc1234 (Co-authored-by)", ...), or undefined when they did not: the PR's author;
 * anyone who pushed to its head branch; anyone named as author, committer or co-author of its
 * commits (by the account GitHub ties to the commit, else by a noreply address; a co-author named by
 * any other address is not known to be anyone: GitHub keeps people's addresses private). When the pushers could not be read, the owner of
 * the repository the head branch is on stands in for them (a fork's owner can push to it).
 */
export function madeBy(login: string, pull: MadePull, makers: PullMakers): string | undefined {
  if (sameLogin(login, pull.author)) return "the PR's author"
  if (makers.pushers?.some(p => sameLogin(p, login))) return 'someone who pushed to its head branch'
  for (const c of makers.commits) {
    const part = commitPart(login, c)
    if (part) return part
  }
  const headOwner = pull.headRepoFullName.split('/')[0] ?? ''
  const fork = !sameLogin(pull.headRepoFullName, pull.baseRepoFullName)
  if (makers.pushers === undefined && fork && sameLogin(headOwner, login))
    return 'the owner of the fork its head branch is on'
  return undefined
}

/**
 * How many co-authors of the PR's commits are named by an address nothing ties to an account (not
 * a noreply one): madeBy cannot tell whether the person settling the PR is one of them.
 */
export function untiedCoAuthors(makers: PullMakers): number {
  const emails = makers.commits.flatMap(c => coAuthorEmails(c.message))
  return new Set(emails.filter(e => noreplyLogin(e) === undefined).map(e => e.toLowerCase())).size
}
