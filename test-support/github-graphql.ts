/**
 * The emulator's POST /graphql: a small subset of GitHub's GraphQL schema, executed by graphql-js
 * against the emulator's pull requests, their commits (with their authors resolved to accounts
 * as GitHub does: the git author, then each Co-authored-by trailer) and review threads.
 *
 * As GitHub does, it answers 200 with `{ data }`, `{ errors }` or both; an error raised while
 * resolving carries GitHub's `type` (NOT_FOUND, FORBIDDEN, MISSING_PAGINATION_BOUNDARIES, ...),
 * while a query that does not parse or validate gets `{ errors: [{ message, locations }] }`.
 * Reading a pull request needs pull_requests:read, the thread mutations pull_requests:write.
 */
import { buildSchema, graphql, type GraphQLError } from 'graphql'
import type {
  EmulatedPull,
  EmulatedReviewComment,
  EmulatedReviewThread,
  TokenSpec
} from './github-emulator.js'

/** What the GraphQL resolvers see of the emulator (live: mutations change it). */
export interface GraphqlStore {
  owner: string
  repo: string
  pulls: Map<number, EmulatedPull>
  reviewComments: EmulatedReviewComment[]
  reviewThreads: EmulatedReviewThread[]
  actorType(login: string): 'Bot' | 'User'
  commentUrl(c: EmulatedReviewComment): string
  /** A PR's commits as GET /pulls/{n}/commits lists them (oldest first, at most 250). */
  pullCommits(number: number): Promise<GraphqlCommit[]>
  /** The account GitHub ties an address to (a verified one: addEmail, or a noreply one). */
  loginOfEmail(email: string): string | undefined
}

/** A commit as the GraphQL resolvers need it. */
export interface GraphqlCommit {
  sha: string
  authorName: string
  authorEmail: string
  message: string
}

export interface GraphqlReply {
  status: number
  body: unknown
  headers: Record<string, string>
}

const SCHEMA = buildSchema(`
  scalar DateTime
  scalar URI
  scalar GitObjectID

  type Query {
    repository(owner: String!, name: String!): Repository
  }
  type Mutation {
    resolveReviewThread(input: ResolveReviewThreadInput!): ResolveReviewThreadPayload
    unresolveReviewThread(input: UnresolveReviewThreadInput!): UnresolveReviewThreadPayload
  }

  interface Actor {
    login: String!
  }
  type User implements Actor {
    login: String!
  }
  type Bot implements Actor {
    login: String!
  }

  type PageInfo {
    hasNextPage: Boolean!
    hasPreviousPage: Boolean!
    startCursor: String
    endCursor: String
  }

  type Repository {
    id: ID!
    name: String!
    nameWithOwner: String!
    pullRequest(number: Int!): PullRequest
  }
  type PullRequest {
    id: ID!
    number: Int!
    title: String!
    reviewThreads(first: Int, after: String): PullRequestReviewThreadConnection!
    commits(first: Int, after: String): PullRequestCommitConnection!
  }

  type PullRequestCommitConnection {
    nodes: [PullRequestCommit]
    edges: [PullRequestCommitEdge]
    pageInfo: PageInfo!
    totalCount: Int!
  }
  type PullRequestCommitEdge {
    cursor: String!
    node: PullRequestCommit
  }
  type PullRequestCommit {
    id: ID!
    commit: Commit!
  }
  type Commit {
    id: ID!
    oid: GitObjectID!
    message: String!
    authors(first: Int, after: String): GitActorConnection!
  }
  type GitActorConnection {
    nodes: [GitActor]
    edges: [GitActorEdge]
    pageInfo: PageInfo!
    totalCount: Int!
  }
  type GitActorEdge {
    cursor: String!
    node: GitActor
  }
  type GitActor {
    email: String
    name: String
    user: User
  }

  type PullRequestReviewThreadConnection {
    nodes: [PullRequestReviewThread]
    edges: [PullRequestReviewThreadEdge]
    pageInfo: PageInfo!
    totalCount: Int!
  }
  type PullRequestReviewThreadEdge {
    cursor: String!
    node: PullRequestReviewThread
  }
  type PullRequestReviewThread {
    id: ID!
    isResolved: Boolean!
    isOutdated: Boolean!
    path: String!
    line: Int
    resolvedBy: User
    viewerCanResolve: Boolean!
    viewerCanUnresolve: Boolean!
    comments(first: Int, after: String): PullRequestReviewCommentConnection!
  }

  type PullRequestReviewCommentConnection {
    nodes: [PullRequestReviewComment]
    edges: [PullRequestReviewCommentEdge]
    pageInfo: PageInfo!
    totalCount: Int!
  }
  type PullRequestReviewCommentEdge {
    cursor: String!
    node: PullRequestReviewComment
  }
  type PullRequestReviewComment {
    id: ID!
    databaseId: Int
    body: String!
    author: Actor
    createdAt: DateTime!
    path: String!
    line: Int
    url: URI!
    replyTo: PullRequestReviewComment
  }

  input ResolveReviewThreadInput {
    threadId: ID!
    clientMutationId: String
  }
  type ResolveReviewThreadPayload {
    clientMutationId: String
    thread: PullRequestReviewThread
  }
  input UnresolveReviewThreadInput {
    threadId: ID!
    clientMutationId: String
  }
  type UnresolveReviewThreadPayload {
    clientMutationId: String
    thread: PullRequestReviewThread
  }
`)

/** GitHub's limit on `first` */
const MAX_PAGE = 100

/** An error GitHub reports with a `type` (resolvers throw it; graphql-js locates it). */
class TypedError extends Error {
  constructor(
    readonly type: string,
    message: string
  ) {
    super(message)
  }
}

type Need = 'read' | 'write'
const can = (token: TokenSpec, need: Need): boolean => {
  const p = token.permissions.pull_requests
  return p === 'write' || (p === 'read' && need === 'read')
}
function requirePullRequests(token: TokenSpec, need: Need): void {
  if (can(token, need)) return
  throw new TypedError(
    'FORBIDDEN',
    token.type === 'Bot'
      ? 'Resource not accessible by integration'
      : 'Resource not accessible by personal access token'
  )
}

const nodeId = (kind: string, id: number | string): string =>
  Buffer.from(`${kind}${id}`).toString('base64')
const cursorOf = (index: number): string => Buffer.from(`cursor:v2:${index}`).toString('base64')
function indexOf(cursor: string): number {
  const m = /^cursor:v2:(\d+)$/.exec(Buffer.from(cursor, 'base64').toString('utf8'))
  if (!m)
    throw new TypedError(
      'INVALID_CURSOR_ARGUMENTS',
      `\`${cursor}\` does not appear to be a valid cursor.`
    )
  return Number(m[1])
}

interface PageArgs {
  first?: number | null
  after?: string | null
}

/** A connection page as GitHub answers it; `first` is required and at most 100. */
function connection<T>(
  field: string,
  items: T[],
  args: PageArgs,
  map: (item: T) => unknown
): unknown {
  const first = args.first
  if (first === undefined || first === null)
    throw new TypedError(
      'MISSING_PAGINATION_BOUNDARIES',
      `You must provide a \`first\` or \`last\` value to properly paginate the \`${field}\` connection.`
    )
  if (first < 0)
    throw new TypedError(
      'INVALID_ARGUMENTS',
      `\`first\` on the \`${field}\` connection cannot be less than zero.`
    )
  if (first > MAX_PAGE)
    throw new TypedError(
      'EXCESSIVE_PAGINATION',
      `Requesting ${first} records on the \`${field}\` connection exceeds the \`first\` limit of ${MAX_PAGE} records.`
    )
  const start = args.after === undefined || args.after === null ? 0 : indexOf(args.after) + 1
  const page = items.slice(start, start + first)
  const edges = page.map((item, i) => ({ cursor: cursorOf(start + i), node: map(item) }))
  return {
    nodes: edges.map(e => e.node),
    edges,
    totalCount: items.length,
    pageInfo: {
      hasNextPage: start + page.length < items.length,
      hasPreviousPage: start > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null
    }
  }
}

/** An Actor: graphql-js picks User or Bot by `__typename`. */
const actor = (store: GraphqlStore, login: string): unknown => ({
  __typename: store.actorType(login),
  login
})

function commentNode(store: GraphqlStore, c: EmulatedReviewComment): unknown {
  return {
    id: nodeId('PRRC_', c.id),
    databaseId: c.id,
    body: c.body,
    author: actor(store, c.author),
    createdAt: c.createdAt,
    path: c.path,
    line: c.line,
    url: store.commentUrl(c),
    replyTo: () => {
      const parent = store.reviewComments.find(p => p.id === c.inReplyToId)
      return parent ? commentNode(store, parent) : null
    }
  }
}

function threadNode(store: GraphqlStore, token: TokenSpec, t: EmulatedReviewThread): unknown {
  const comments = t.commentIds
    .map(id => store.reviewComments.find(c => c.id === id))
    .filter((c): c is EmulatedReviewComment => c !== undefined)
  const writer = can(token, 'write')
  return {
    id: t.id,
    isResolved: t.isResolved,
    isOutdated: false,
    path: comments[0]?.path ?? '',
    line: comments[0]?.line ?? null,
    resolvedBy: t.resolvedBy === undefined ? null : { login: t.resolvedBy },
    viewerCanResolve: writer && !t.isResolved,
    viewerCanUnresolve: writer && t.isResolved,
    comments: (args: PageArgs) => connection('comments', comments, args, c => commentNode(store, c))
  }
}

/** `Co-authored-by: Name <email>` trailers, as GitHub reads them into a commit's authors. */
const CO_AUTHOR = /^[ \t]*co-authored-by:[ \t]*([^<\n]*?)[ \t]*<([^>\n]+)>[ \t]*$/gim

/** A git actor: the account GitHub ties its address to, if any. */
function gitActor(store: GraphqlStore, name: string, email: string): unknown {
  const login = store.loginOfEmail(email)
  return { name, email, user: login ? { login } : null }
}

/** A commit: its authors are the git author, then each Co-authored-by trailer. */
function commitNode(store: GraphqlStore, c: GraphqlCommit): unknown {
  const trailers = [...c.message.matchAll(CO_AUTHOR)].map(m => ({ name: m[1]!, email: m[2]! }))
  const authors = [{ name: c.authorName, email: c.authorEmail }, ...trailers]
  return {
    id: nodeId('C_', c.sha),
    oid: c.sha,
    message: c.message,
    authors: (args: PageArgs) =>
      connection('authors', authors, args, a => gitActor(store, a.name, a.email))
  }
}

function pullNode(store: GraphqlStore, token: TokenSpec, p: EmulatedPull): unknown {
  return {
    commits: async (args: PageArgs) =>
      connection('commits', await store.pullCommits(p.number), args, c => ({
        id: nodeId('PURC_', c.sha),
        commit: commitNode(store, c)
      })),
    id: nodeId('PR_', p.number),
    number: p.number,
    title: p.title,
    reviewThreads: (args: PageArgs) =>
      connection(
        'reviewThreads',
        store.reviewThreads.filter(t => t.pullNumber === p.number),
        args,
        t => threadNode(store, token, t)
      )
  }
}

function repositoryNode(
  store: GraphqlStore,
  token: TokenSpec,
  owner: string,
  name: string
): unknown {
  const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase()
  if (!same(owner, store.owner) || !same(name, store.repo))
    throw new TypedError(
      'NOT_FOUND',
      `Could not resolve to a Repository with the name '${owner}/${name}'.`
    )
  return {
    id: Buffer.from(`R_${store.owner}/${store.repo}`).toString('base64'),
    name: store.repo,
    nameWithOwner: `${store.owner}/${store.repo}`,
    pullRequest: ({ number }: { number: number }) => {
      requirePullRequests(token, 'read')
      const pull = store.pulls.get(number)
      if (!pull)
        throw new TypedError(
          'NOT_FOUND',
          `Could not resolve to a PullRequest with the number of ${number}.`
        )
      return pullNode(store, token, pull)
    }
  }
}

interface ThreadInput {
  input: { threadId: string; clientMutationId?: string | null }
}

function setResolved(
  store: GraphqlStore,
  token: TokenSpec,
  { input }: ThreadInput,
  resolved: boolean
): unknown {
  requirePullRequests(token, 'write')
  const thread = store.reviewThreads.find(t => t.id === input.threadId)
  if (!thread)
    throw new TypedError(
      'NOT_FOUND',
      `Could not resolve to a node with the global id of '${input.threadId}'`
    )
  thread.isResolved = resolved
  thread.resolvedBy = resolved ? token.login : undefined
  return {
    clientMutationId: input.clientMutationId ?? null,
    thread: threadNode(store, token, thread)
  }
}

function rootValue(store: GraphqlStore, token: TokenSpec): Record<string, unknown> {
  return {
    repository: ({ owner, name }: { owner: string; name: string }) =>
      repositoryNode(store, token, owner, name),
    resolveReviewThread: (args: ThreadInput) => setResolved(store, token, args, true),
    unresolveReviewThread: (args: ThreadInput) => setResolved(store, token, args, false)
  }
}

/** An error as GitHub shows it: `type` at the top level when it has one. */
function errorObject(e: GraphQLError): Record<string, unknown> {
  const original = e.originalError
  return {
    ...(original instanceof TypedError ? { type: original.type } : {}),
    ...(e.path ? { path: e.path } : {}),
    ...(e.locations ? { locations: e.locations } : {}),
    message: e.message
  }
}

/** Variables as sent: an object, a JSON string of one, or nothing. */
function variablesOf(raw: unknown): Record<string, unknown> | undefined {
  const parsed: unknown = typeof raw === 'string' && raw.trim() !== '' ? JSON.parse(raw) : raw
  if (parsed === undefined || parsed === null || parsed === '') return undefined
  if (typeof parsed !== 'object' || Array.isArray(parsed))
    throw new Error('Variables are invalid JSON.')
  return parsed as Record<string, unknown>
}

/** Runs one GraphQL request (`body` = `{ query, variables?, operationName? }`) for `token`. */
export async function executeGraphql(
  store: GraphqlStore,
  token: TokenSpec,
  body: unknown
): Promise<GraphqlReply> {
  const headers = { 'x-ratelimit-resource': 'graphql' }
  const fail = (message: string): GraphqlReply => ({
    status: 200,
    body: { errors: [{ message }] },
    headers
  })
  const b = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {}
  if (typeof b.query !== 'string' || b.query.trim() === '')
    return fail('A query attribute must be specified and must be a string.')
  let variableValues: Record<string, unknown> | undefined
  try {
    variableValues = variablesOf(b.variables)
  } catch {
    return fail('Variables are invalid JSON.')
  }
  const result = await graphql({
    schema: SCHEMA,
    source: b.query,
    rootValue: rootValue(store, token),
    variableValues,
    operationName: typeof b.operationName === 'string' ? b.operationName : undefined
  })
  const answer: Record<string, unknown> = {}
  if (result.data !== undefined) answer.data = result.data
  if (result.errors?.length) answer.errors = result.errors.map(errorObject)
  return { status: 200, body: answer, headers }
}
