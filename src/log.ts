/** Port: the run's log. The action writes to the runner's log; tests can capture lines. */
export interface Log {
  info(message: string): void
  notice(message: string): void
  warning(message: string): void
  debug(message: string): void
  /** A collapsible group in the run log, with one closing line saying how long it took. */
  group<T>(name: string, fn: () => Promise<T>): Promise<T>
}
