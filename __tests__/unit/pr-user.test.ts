import { spawnSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Exec } from '../../src/process/bwrap.js'
import {
  findPrUser,
  killPrUser,
  launchAs,
  openWay,
  processesOf,
  takeMachineLock,
  type PrUser
} from '../../src/process/pr-user.js'

/** A machine where `id` finds the user once useradd made it; every call is recorded. */
function machine(options: { sudo: boolean }): { exec: Exec; calls: string[] } {
  const calls: string[] = []
  let made = false
  const exec: Exec = async (file, args) => {
    calls.push([file, ...args].join(' '))
    if (file === 'sudo' && !options.sudo) return { code: 1, output: 'sudo: a password is required' }
    if (file === 'id')
      return made ? { code: 0, output: '2000000001' } : { code: 1, output: 'no such user' }
    if (args.includes('useradd')) made = true
    return { code: 0, output: '' }
  }
  return { exec, calls }
}

describe('the user made for PR code', () => {
  it('is made and used through passwordless sudo where the action is not root (GitHub-hosted runners)', async () => {
    const { exec, calls } = machine({ sudo: true })
    const found = await findPrUser(exec, 1001)
    expect(found).toEqual({
      user: { name: 'review-loop-pr', uid: 2000000001, gid: 2000000001, sudo: true }
    })
    // outside the uids of containers' users (postgres, mysql, redis: 999)
    expect(calls).toContain('sudo -n groupadd --system --gid 2000000001 review-loop-pr')
    expect(calls).toContain(
      'sudo -n useradd --system --uid 2000000001 --gid 2000000001 --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin review-loop-pr'
    )
    // each command starts as that user, without groups or new privileges, with its PATH and HOME
    const launch = launchAs(
      (found as { user: Parameters<typeof launchAs>[0] }).user,
      { PATH: '/usr/bin', HOME: '/tmp/h' },
      'npm test'
    )
    expect([launch.file, ...launch.args].join(' ')).toBe(
      'sudo -n --preserve-env -- setpriv --reuid=2000000001 --regid=2000000001 --clear-groups --no-new-privs -- env PATH=/usr/bin HOME=/tmp/h bash -o pipefail -c npm test'
    )
  })

  it('is not there without root or passwordless sudo, saying why', async () => {
    const { exec, calls } = machine({ sudo: false })
    expect(await findPrUser(exec, 1001)).toEqual({
      reason: 'the action runs neither as root nor with passwordless sudo'
    })
    expect(calls.some(c => c.includes('useradd'))).toBe(false)
  })

  it('is not used where a user of that name has a uid containers share, saying how to fix it', async () => {
    const exec: Exec = async file => ({ code: 0, output: file === 'id' ? '999' : '' })
    const found = await findPrUser(exec, 0)
    expect(found).toMatchObject({
      reason: expect.stringMatching(
        /exists with uid 999, which containers' users share.*userdel review-loop-pr/
      )
    })
  })

  it('is refused when a user of that name has uid 0', async () => {
    const exec: Exec = async file => ({ code: 0, output: file === 'id' ? '0' : '' })
    expect(await findPrUser(exec, 0)).toEqual({
      reason: 'the user review-loop-pr exists with uid 0, gid 0'
    })
  })
})

/** The user made for PR code on this machine (made by findPrUser as root). */
async function realUser(): Promise<PrUser> {
  const found = await findPrUser()
  if (!('user' in found)) throw new Error(found.reason)
  return found.user
}

describe.runIf(process.getuid?.() === 0)('the user made for PR code, as root', () => {
  it('is killed whole, even by a survivor that kills every process it can', async () => {
    const user = await realUser()
    const survivor =
      'while :; do for p in /proc/[0-9]*; do [ ${p#/proc/} = $$ ] || kill -9 ${p#/proc/} 2>/dev/null; done; done'
    const { file, args } = launchAs(
      user,
      {},
      `setsid -f env -i bash -c '${survivor}' </dev/null >/dev/null 2>&1; sleep 0.5`
    )
    // it kills the shell that started it too
    spawnSync(file, args, { stdio: 'ignore' })
    expect(processesOf(user.uid).length).toBeGreaterThan(0)
    await killPrUser(user)
    expect(processesOf(user.uid)).toEqual([])
  })

  it('opens the way through a closed home for the command alone, closing the rest of that home', async () => {
    const user = await realUser()
    const base = mkdtempSync(path.join(tmpdir(), 'pr-way-'))
    chmodSync(base, 0o755)
    const home = path.join(base, 'home')
    const work = path.join(home, 'work', 'repo')
    mkdirSync(work, { recursive: true })
    chmodSync(home, 0o750)
    writeFileSync(path.join(home, '.gitconfig'), '[url "https://x:token@host/"]\n')
    chmodSync(path.join(home, '.gitconfig'), 0o644)
    const mode = (p: string) => statSync(path.join(home, p)).mode & 0o777
    // without setfacl (as here) the bits for others
    const way = await openWay(user, [work], [])
    expect(mode('')).toBe(0o751)
    expect(mode('.gitconfig')).toBe(0o640)
    await way.undo('all')
    expect(mode('')).toBe(0o750)
    expect(mode('.gitconfig')).toBe(0o644)
    rmSync(base, { recursive: true, force: true })
  })

  it('lets one command of that user run at a time on the machine', async () => {
    const user = await realUser()
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'pr-lock-')), 'lock')
    const first = await takeMachineLock(user, 5_000, file)
    const order: string[] = []
    const second = takeMachineLock(user, 5_000, file).then(l => (order.push('second'), l))
    await new Promise(resolve => setTimeout(resolve, 300))
    order.push('first released')
    first.release()
    ;(await second).release()
    expect(order).toEqual(['first released', 'second'])
    const held = await takeMachineLock(user, 5_000, file)
    await expect(takeMachineLock(user, 1_000, file)).rejects.toThrow(/another job on this machine/)
    held.release()
  })
})
