/**
 * The events the action acts on, apart from how it routes them (./router.ts), so that the start-up
 * bundle (src/action/prefetch.ts) reads the list without the router and all it imports.
 */
export const ROUTED_EVENTS = [
  'pull_request',
  'pull_request_target',
  'workflow_dispatch',
  'issue_comment',
  'pull_request_review',
  'pull_request_review_comment',
  'check_run'
] as const

export type RoutedEvent = (typeof ROUTED_EVENTS)[number]
