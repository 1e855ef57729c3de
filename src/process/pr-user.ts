import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { execCommand, type Exec } from './bwrap.js'
import { CREDENTIALS, locate } from './toolchains.js'

/**
 * Where bubblewrap cannot run (`sandbox: off`, or `auto` where it does not work), PR code runs as a
 * user of its own, made for it: an unprivileged system user without a login shell. The kernel lets
 * no process read another user's /proc/PID/environ or /proc/PID/mem, nor duplicate its descriptors
 * with pidfd_getfd (all need ptrace access, which a different uid without capabilities never has;
 * the action's processes are not dumpable to it). So PR code can no longer read the action's
 * environment, memory, or git's credential descriptor, Yama or not. Possible where the action runs
 * as root (setpriv) or has passwordless sudo (GitHub's hosted runners).
 *
 * Around each command: the work tree (not `.git`) is handed to that user (chown), and back to the
 * action's user once every process of that user is killed, so the action commits what PR code
 * wrote and PR code cannot change the tree while the action reads it.
 */

export const PR_USER = 'review-loop-pr'

export interface PrUser {
  name: string
  uid: number
  gid: number
  /** Reached through `sudo -n` (the action is not root). */
  sudo: boolean
}

type Found = { user: PrUser } | { reason: string }

/** Runs a command as root: directly, or through passwordless sudo. */
function privileged(exec: Exec, sudo: boolean): (args: string[]) => ReturnType<Exec> {
  return args => (sudo ? exec('sudo', ['-n', ...args]) : exec(args[0]!, args.slice(1)))
}

/** setpriv's arguments that make the PR user of the command after them. */
const setprivArgs = (user: PrUser): string[] => [
  'setpriv',
  `--reuid=${user.uid}`,
  `--regid=${user.gid}`,
  '--clear-groups',
  '--no-new-privs',
  '--'
]

/** The PR user's uid and gid, or undefined where there is no such user. */
async function ids(exec: Exec): Promise<{ uid: number; gid: number } | undefined> {
  const uid = await exec('id', ['-u', PR_USER])
  const gid = await exec('id', ['-g', PR_USER])
  if (uid.code !== 0 || gid.code !== 0) return undefined
  return { uid: Number(uid.output), gid: Number(gid.output) }
}

/**
 * Finds (making it once, with useradd) the user PR code runs as, and checks that the action can
 * start a command as that user; else says why not.
 */
export async function findPrUser(
  exec: Exec = execCommand,
  actionUid: number | undefined = process.getuid?.()
): Promise<Found> {
  if (actionUid === undefined) return { reason: 'this system has no user ids' }
  const sudo = actionUid !== 0
  if (sudo && (await exec('sudo', ['-n', 'true'])).code !== 0)
    return { reason: 'the action runs neither as root nor with passwordless sudo' }
  const root = privileged(exec, sudo)
  let found = await ids(exec)
  if (!found) {
    const made = await root([
      'useradd',
      '--system',
      '--user-group',
      '--no-create-home',
      '--home-dir',
      '/nonexistent',
      '--shell',
      '/usr/sbin/nologin',
      PR_USER
    ])
    // another job on this machine may have made it meanwhile
    found = await ids(exec)
    if (!found)
      return { reason: `the user ${PR_USER} could not be made (${made.output.split('\n')[0]})` }
  }
  if (found.uid === 0 || found.uid === actionUid || found.gid === 0)
    return { reason: `the user ${PR_USER} exists with uid ${found.uid}, gid ${found.gid}` }
  const user = { name: PR_USER, ...found, sudo }
  // as each command will start (sudo's policy may refuse to keep the environment)
  const { file, args } = launchAs(user, {}, 'true')
  const probe = await exec(file, args)
  if (probe.code !== 0)
    return {
      reason: `setpriv cannot start a command as ${PR_USER} (${probe.output.split('\n')[0] || `exit ${probe.code}`})`
    }
  return { user }
}

/** How one command starts as the PR user (PATH, HOME and TMPDIR set again: sudo resets them). */
export function launchAs(
  user: PrUser,
  env: Record<string, string>,
  command: string
): { file: string; args: string[] } {
  const args = [
    ...setprivArgs(user),
    'env',
    ...['PATH', 'HOME', 'TMPDIR'].filter(n => env[n] !== undefined).map(n => `${n}=${env[n]}`),
    'bash',
    '-o',
    'pipefail',
    '-c',
    command
  ]
  return user.sudo
    ? { file: 'sudo', args: ['-n', '--preserve-env', '--', ...args] }
    : { file: args[0]!, args: args.slice(1) }
}

/** The live processes whose real uid is `uid` (from /proc/PID/status, which every user can read). */
export function processesOf(uid: number): number[] {
  let pids: string[]
  try {
    pids = readdirSync('/proc').filter(name => /^\d+$/.test(name))
  } catch {
    return []
  }
  return pids.map(Number).filter(pid => {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8')
      // a zombie is dead already: only its parent can reap it
      return Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]) === uid && !/^State:\s+Z/m.test(status)
    } catch {
      return false
    }
  })
}

/**
 * Kills every process of the PR user (`kill -KILL -1`, sent as that user, reaches all of them and
 * nothing else), again until none is left: whatever the command started, in any session, with any
 * environment. Only one PR command runs at a time.
 */
export async function killPrUser(user: PrUser, exec: Exec = execCommand): Promise<void> {
  const root = privileged(exec, user.sudo)
  for (let pass = 0; pass < 10; pass++) {
    await root([...setprivArgs(user), 'bash', '-c', 'kill -KILL -1 2>/dev/null; exit 0'])
    if (processesOf(user.uid).length === 0) return
    await new Promise(resolve => setTimeout(resolve, 50))
  }
}

/**
 * Hands the work tree (without `.git`) from one user to the other: folders and regular files with
 * a single link that `from` owns. Links are never followed, and a file with more links (one PR
 * code could have linked from outside the tree) keeps its owner.
 */
export async function handTree(
  user: PrUser,
  root: string,
  direction: 'to PR code' | 'back',
  exec: Exec = execCommand
): Promise<void> {
  const action = { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 }
  const [from, to] = direction === 'back' ? [user, action] : [action, user]
  const r = await privileged(
    exec,
    user.sudo
  )([
    'find',
    root,
    '-xdev',
    '-path',
    path.join(root, '.git'),
    '-prune',
    '-o',
    '-user',
    String(from.uid),
    '(',
    '-type',
    'd',
    '-o',
    '-type',
    'f',
    '-links',
    '1',
    ')',
    '-exec',
    'chown',
    '-h',
    `${to.uid}:${to.gid}`,
    '{}',
    '+'
  ])
  if (r.code !== 0 && direction === 'back')
    throw new Error(
      `could not hand the work tree back from ${user.name} to the action's user: ${r.output.split('\n')[0]}`
    )
}

/**
 * Opens the way to the work tree and the private folders for the PR user (traverse only, on each
 * folder above them it cannot pass), and closes the runner's temp folder, the file commands' folders,
 * the action's own folder and the credential files of the runner's home to it: an ACL for that user
 * where setfacl is installed, else the permission bits for others.
 */
export async function openWay(
  user: PrUser,
  reach: readonly string[],
  close: readonly string[],
  exec: Exec = execCommand
): Promise<void> {
  const root = privileged(exec, user.sudo)
  const acl = async (entry: string, p: string, bits: string): Promise<void> => {
    if ((await root(['setfacl', '-m', `u:${user.uid}:${entry}`, p])).code !== 0)
      await root(['chmod', bits, p])
  }
  const above = new Set<string>()
  for (const p of reach)
    for (let d = path.dirname(p); d !== path.dirname(d); d = path.dirname(d)) above.add(d)
  for (const d of [...above].sort()) {
    if ((statSync(d).mode & 0o001) === 0) await acl('x', d, 'o+x')
  }
  for (const p of close) {
    if (existsSync(p) && (statSync(p).mode & 0o007) !== 0) await acl('---', p, 'o-rwx')
  }
}

/** What the PR user must not read: the runner's temp and file-command folders, its credentials. */
export function closedToPrUser(env: Record<string, string | undefined>): string[] {
  const files = [
    'GITHUB_ENV',
    'GITHUB_OUTPUT',
    'GITHUB_STATE',
    'GITHUB_PATH',
    'GITHUB_STEP_SUMMARY'
  ]
    .map(name => env[name])
    .filter((f): f is string => !!f && path.isAbsolute(f))
    .map(f => path.dirname(f))
  return [
    ...new Set([...CREDENTIALS.flatMap(c => locate(c.path, env).map(l => l.folder)), ...files])
  ]
}
