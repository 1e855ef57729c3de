import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/**
 * A PATH (in `dir`) whose setpriv fails: the action then cannot start PR code as the user made for
 * it, as on a runner where it is neither root nor has passwordless sudo (the tests run as root).
 * For a test that needs PR code to run as the action's own user (`sandbox: off`).
 */
export function pathWithoutSeparateUser(dir: string): string {
  const bin = path.join(dir, 'no-separate-user')
  mkdirSync(bin, { recursive: true })
  writeFileSync(
    path.join(bin, 'setpriv'),
    '#!/bin/sh\necho "setpriv: setresuid failed: Operation not permitted" >&2\nexit 1\n',
    { mode: 0o755 }
  )
  return `${bin}:${process.env['PATH'] ?? ''}`
}
