import { spawn } from 'node:child_process'
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync
} from 'node:fs'
import type { Socket } from 'node:net'
import path from 'node:path'
import { execCommand, type Exec } from './bwrap.js'
import { ConfinementBroken, processesWhere } from './command-runner.js'
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

/**
 * The uid and gid it is made with: outside 0–65535, where the users of containers' images live
 * (postgres, mysql, redis take 999): the kill reaches no service container's process, and PR code
 * can trace none of them.
 */
export const PR_UID = 2_000_000_001

/** The highest uid a container's image uses (without user-namespace remapping). */
const CONTAINER_UIDS = 65_535

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

/** Makes the PR user and its group with PR_UID; the first line of what failed, else ''. */
async function makeUser(root: ReturnType<typeof privileged>): Promise<string> {
  const group = await root(['groupadd', '--system', '--gid', String(PR_UID), PR_USER])
  const user = await root([
    'useradd',
    '--system',
    '--uid',
    String(PR_UID),
    '--gid',
    String(PR_UID),
    '--no-create-home',
    '--home-dir',
    '/nonexistent',
    '--shell',
    '/usr/sbin/nologin',
    PR_USER
  ])
  const failed = user.code !== 0 ? user : group
  return failed.code !== 0 ? (failed.output.split('\n')[0] ?? '') : ''
}

/**
 * Finds (making it once, with groupadd and useradd) the user PR code runs as, and checks that the action can
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
    const made = await makeUser(root)
    // another job on this machine may have made it meanwhile
    found = await ids(exec)
    if (!found) return { reason: `the user ${PR_USER} could not be made (${made})` }
  }
  if (found.uid === 0 || found.uid === actionUid || found.gid === 0)
    return { reason: `the user ${PR_USER} exists with uid ${found.uid}, gid ${found.gid}` }
  if (found.uid <= CONTAINER_UIDS)
    return {
      reason: `the user ${PR_USER} exists with uid ${found.uid}, which containers' users share (an older review-loop made it): delete it (userdel ${PR_USER}) and the action makes it again with uid ${PR_UID}`
    }
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
  return processesWhere(pid => {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    // a zombie is dead already: only its parent can reap it
    return Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]) === uid && !/^State:\s+Z/m.test(status)
  })
}

/** How many times the kill stops and kills what is left of the PR user before it gives up. */
const KILL_PASSES = 50

/**
 * Root's script that stops (SIGSTOP: a stopped process forks no more) and kills every process of
 * `uid`, again until none is alive (a zombie is dead already), at most KILL_PASSES times; it exits 1
 * while one is left. Run as root, no process of that user can signal it.
 */
export function killScript(uid: number): string {
  return [
    'alive() { local f k v u st; for f in /proc/[0-9]*/status; do u=; st=;',
    '  while read -r k v _; do case $k in State:) st=$v;; Uid:) u=$v; break;; esac; done 2>/dev/null <"$f"',
    `  [ "$u" = ${uid} ] && [ "$st" != Z ] && return 0; done; return 1; }`,
    `for pass in $(seq ${KILL_PASSES}); do`,
    `  pkill -STOP -U ${uid}; pkill -KILL -U ${uid}`,
    '  alive || exit 0; sleep 0.02',
    'done',
    'exit 1'
  ].join('\n')
}

/**
 * Kills every process of the PR user, as root (directly or through sudo), whatever session or
 * environment it made. Where one survives, PR code's user is out of control: ConfinementBroken
 * stops the job, and nothing is handed back to the action.
 */
export async function killPrUser(user: PrUser, exec: Exec = execCommand): Promise<void> {
  const r = await privileged(exec, user.sudo)(['bash', '-c', killScript(user.uid)])
  const left = processesOf(user.uid)
  if (r.code !== 0 || left.length > 0)
    throw new ConfinementBroken(
      `a process of PR code's user ${user.name} survived the kill (${left.slice(0, 5).join(', ') || r.output.split('\n')[0] || `exit ${r.code}`}); review-loop stops rather than hand the work tree back`
    )
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

/** What openWay changed, undone by root's commands: all of it, or only the openings. */
export interface Way {
  undo: (which: 'all' | 'openings') => Promise<void>
}

/** The folders above `reach` (not `/`), parents first. */
function ancestors(reach: readonly string[]): string[] {
  const above = new Set<string>()
  for (const p of reach)
    for (let d = path.dirname(p); d !== path.dirname(d); d = path.dirname(d)) above.add(d)
  return [...above].sort()
}

/**
 * Opens the way to the work tree and the private folders for the PR user (traverse only, on each
 * folder above them it cannot pass), and closes the runner's temp folder, the file commands'
 * folders, the action's own folder and the credential files of the runner's home to it: an ACL for
 * that user where setfacl is installed, else the permission bits for others. In a folder it opens,
 * or one to close that lies on the way (the runner's home, its install folder), all but the way
 * down is closed. Each change is recorded, and undone by `undo` when the command is done.
 */
export async function openWay(
  user: PrUser,
  reach: readonly string[],
  close: readonly string[],
  exec: Exec = execCommand
): Promise<Way> {
  const root = privileged(exec, user.sudo)
  const opened: string[][] = []
  const closed: string[][] = []
  const change = async (entry: string, p: string, bits: string, log: string[][]) => {
    const mode = (lstatSync(p).mode & 0o7777).toString(8)
    if ((await root(['setfacl', '-m', `u:${user.uid}:${entry}`, p])).code === 0)
      log.push(['setfacl', '-x', `u:${user.uid}`, p])
    else if ((await root(['chmod', bits, p])).code === 0) log.push(['chmod', mode, p])
  }
  const above = ancestors(reach)
  const way = new Set([...above, ...reach])
  const shut = new Set<string>()
  const allButWay = (d: string) =>
    readdirSync(d).forEach(c => way.has(path.join(d, c)) || shut.add(path.join(d, c)))
  for (const d of above) {
    if ((statSync(d).mode & 0o001) !== 0) continue
    await change('x', d, 'o+x', opened)
    allButWay(d)
  }
  for (const p of close) {
    if (way.has(p)) allButWay(p)
    else shut.add(p)
  }
  for (const p of shut) {
    const stat = existsSync(p) ? lstatSync(p) : undefined
    // a link is never followed: chmod would change what it leads to
    if (stat && !stat.isSymbolicLink() && (stat.mode & 0o007) !== 0)
      await change('---', p, 'o-rwx', closed)
  }
  return {
    undo: async which => {
      for (const c of [...(which === 'all' ? closed : []), ...opened].reverse()) await root(c)
    }
  }
}

/**
 * What the PR user must not read: the runner's home and install folder (where they lie on the way
 * to the work tree, all of them but that way), its temp and file-command folders, its credentials.
 */
export function closedToPrUser(
  env: Record<string, string | undefined>,
  execPath: string = process.execPath
): string[] {
  const runner = /^(.*)\/externals\/node\d+\/bin\/node$/.exec(execPath)?.[1]
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
  const homes = [env['HOME'], runner].filter((p): p is string => !!p && path.isAbsolute(p))
  return [
    ...new Set([
      ...homes,
      ...CREDENTIALS.flatMap(c => locate(c.path, env).map(l => l.folder)),
      ...files
    ])
  ]
}

/** The machine's lock file for PR code's user: in root's /run, readable by root alone. */
export const LOCK_FILE = '/run/review-loop-pr.lock'

/** The lock one command holds, from before its hand-over to after the hand-back. */
export interface MachineLock {
  release: () => void
}

/**
 * Takes the machine-wide lock (flock, as root) that lets one command of PR code's user run at a
 * time, for jobs sharing a machine: the kill takes every process of that user. Held by a root
 * process that ends when this one does (its stdin closes), so a killed job leaves no stale lock.
 */
export function takeMachineLock(
  user: PrUser,
  waitMs: number,
  file = LOCK_FILE
): Promise<MachineLock> {
  const script = `umask 077; exec flock -x -w ${Math.ceil(waitMs / 1000)} "$0" bash -c 'echo locked; exec cat >/dev/null'`
  const args = ['bash', '-c', script, file]
  // without the action's environment (its secrets)
  const options = { stdio: 'pipe' as const, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' } }
  const holder = user.sudo
    ? spawn('sudo', ['-n', ...args], options)
    : spawn(args[0]!, args.slice(1), options)
  const release = (): void => void holder.stdin.end()
  return new Promise((resolve, reject) => {
    let said = ''
    holder.stdout.on('data', (chunk: Buffer) => {
      said += chunk.toString()
      if (!said.includes('locked')) return
      // held while the job lives, not keeping it alive (a job stopped by ConfinementBroken keeps it)
      holder.unref()
      for (const pipe of [holder.stdin, holder.stdout, holder.stderr]) (pipe as Socket).unref()
      resolve({ release })
    })
    holder.on('error', e => reject(e))
    holder.on('exit', code =>
      reject(
        new Error(
          `another job on this machine ran PR code as ${user.name} for longer than ${Math.round(waitMs / 60_000)} minutes (lock ${file}, exit ${code}); one command of that user runs at a time. Run jobs that use it one after another, or on machines of their own.`
        )
      )
    )
  })
}

/**
 * PR code's private HOME and TMPDIR, made fresh for each command (the PR user's, its git config
 * trusting the work tree the action owns) and removed by root after it: nothing of one command is
 * left for a later one, or for another job's PR code.
 */
export function privateFolders(
  user: PrUser,
  dirs: { home: string; tmp: string },
  exec: Exec = execCommand
): { make: () => Promise<void>; remove: () => Promise<void> } {
  const remove = async (): Promise<void> => {
    const r = await privileged(
      exec,
      user.sudo
    )(['rm', '-rf', '--one-file-system', dirs.home, dirs.tmp])
    if (r.code !== 0)
      throw new Error(`could not remove PR code's private folders: ${r.output.split('\n')[0]}`)
  }
  return {
    remove,
    make: async () => {
      await remove()
      mkdirSync(dirs.home)
      mkdirSync(dirs.tmp)
      // git refuses a repository another user owns: .git stays the action's, read-only to PR code
      writeFileSync(path.join(dirs.home, '.gitconfig'), '[safe]\n\tdirectory = *\n')
      await handTree(user, dirs.home, 'to PR code', exec)
      await handTree(user, dirs.tmp, 'to PR code', exec)
    }
  }
}
