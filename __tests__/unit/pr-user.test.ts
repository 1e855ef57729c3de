import { describe, expect, it } from 'vitest'
import type { Exec } from '../../src/process/bwrap.js'
import { findPrUser, launchAs } from '../../src/process/pr-user.js'

/** A machine where `id` finds the user once useradd made it; every call is recorded. */
function machine(options: { sudo: boolean }): { exec: Exec; calls: string[] } {
  const calls: string[] = []
  let made = false
  const exec: Exec = async (file, args) => {
    calls.push([file, ...args].join(' '))
    if (file === 'sudo' && !options.sudo) return { code: 1, output: 'sudo: a password is required' }
    if (file === 'id')
      return made
        ? { code: 0, output: args[0] === '-u' ? '998' : '996' }
        : { code: 1, output: 'no such user' }
    if (args.includes('useradd')) made = true
    return { code: 0, output: '' }
  }
  return { exec, calls }
}

describe('the user made for PR code', () => {
  it('is made and used through passwordless sudo where the action is not root (GitHub-hosted runners)', async () => {
    const { exec, calls } = machine({ sudo: true })
    const found = await findPrUser(exec, 1001)
    expect(found).toEqual({ user: { name: 'review-loop-pr', uid: 998, gid: 996, sudo: true } })
    expect(calls).toContain(
      'sudo -n useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin review-loop-pr'
    )
    // each command starts as that user, without groups or new privileges, with its PATH and HOME
    const launch = launchAs(
      (found as { user: Parameters<typeof launchAs>[0] }).user,
      { PATH: '/usr/bin', HOME: '/tmp/h' },
      'npm test'
    )
    expect([launch.file, ...launch.args].join(' ')).toBe(
      'sudo -n --preserve-env -- setpriv --reuid=998 --regid=996 --clear-groups --no-new-privs -- env PATH=/usr/bin HOME=/tmp/h bash -o pipefail -c npm test'
    )
  })

  it('is not there without root or passwordless sudo, saying why', async () => {
    const { exec, calls } = machine({ sudo: false })
    expect(await findPrUser(exec, 1001)).toEqual({
      reason: 'the action runs neither as root nor with passwordless sudo'
    })
    expect(calls.some(c => c.includes('useradd'))).toBe(false)
  })

  it('is refused when a user of that name has uid 0', async () => {
    const exec: Exec = async file => ({ code: 0, output: file === 'id' ? '0' : '' })
    expect(await findPrUser(exec, 0)).toEqual({
      reason: 'the user review-loop-pr exists with uid 0, gid 0'
    })
  })
})
