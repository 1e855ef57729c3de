/**
 * A wrong command line, or a repository the local loop cannot run on: the CLI prints it with its
 * usage and exits 2.
 */
export class UsageError extends Error {}
