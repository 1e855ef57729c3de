import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  unlinkSync,
  writeSync
} from 'node:fs'
import path from 'node:path'

/**
 * Files of the workspace, opened the way a boundary must be: the path is checked for links, the file
 * is opened without following one, and what was opened is checked again (its real path, its link
 * count) before a byte is read or written. A process swapping a folder for a link between the check
 * and the use gains nothing.
 */

export class Refusal extends Error {}

/** `.git`, `.GIT`, `.git.` and `.git ` all name the git folder on some file system. */
export function isGitName(part: string): boolean {
  return part.replace(/[. ]+$/, '').toLowerCase() === '.git'
}

/** The relative path's parts, refused when absolute, climbing out, or naming the git folder. */
export function pathParts(given: unknown): string[] {
  if (typeof given !== 'string' || given.trim() === '')
    throw new Refusal('path must be a non-empty string')
  const rel = given.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '') || '.'
  if (path.isAbsolute(rel) || /^[a-zA-Z]:/.test(rel))
    throw new Refusal(`absolute paths are not allowed: ${given}`)
  const parts = rel.split('/').filter(p => p !== '' && p !== '.')
  if (parts.includes('..')) throw new Refusal(`paths may not contain '..': ${given}`)
  if (parts.some(isGitName)) throw new Refusal('the .git folder is off limits')
  if (parts.some(p => p.includes('\0'))) throw new Refusal('paths may not contain NUL')
  return parts
}

/** Refuses a path that goes through a symbolic link (a dangling one too) below `root`. */
function refuseLinks(root: string, parts: readonly string[], given: string): void {
  let probe = root
  for (const part of parts) {
    probe = path.join(probe, part)
    let stat
    try {
      stat = lstatSync(probe)
    } catch {
      return // the rest does not exist yet: nothing below can be a link
    }
    if (stat.isSymbolicLink())
      throw new Refusal(`${given} goes through a symbolic link; links are not followed`)
  }
}

/** Where an open descriptor really points (Linux), else the resolved path. */
function realPathOf(fd: number, abs: string): string {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`)
  } catch {
    return realpathSync(abs)
  }
}

export interface Located {
  abs: string
  rel: string
}

export function locate(root: string, given: unknown): Located {
  const parts = pathParts(given)
  refuseLinks(root, parts, String(given))
  return { abs: path.join(root, ...parts), rel: parts.join('/') || '.' }
}

/** Checks what `fd` opened: a regular file, with one link, at the path asked for. */
function checkOpened(fd: number, root: string, where: Located): void {
  const stat = fstatSync(fd)
  if (!stat.isFile()) throw new Refusal(`${where.rel} is not a regular file`)
  if (stat.nlink > 1)
    throw new Refusal(`${where.rel} has ${stat.nlink} hard links; hard-linked files are refused`)
  const expected = path.join(realpathSync(root), where.rel)
  if (realPathOf(fd, where.abs) !== expected)
    throw new Refusal(`${where.rel} resolved outside the workspace while it was opened`)
}

/** Reads a file of the workspace, or undefined when there is none. */
export function readConfined(
  root: string,
  given: unknown
): { rel: string; content: Buffer } | undefined {
  const where = locate(root, given)
  let fd: number
  try {
    fd = openSync(where.abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined
    if (code === 'ELOOP')
      throw new Refusal(`${where.rel} is a symbolic link; links are not followed`)
    throw e
  }
  try {
    checkOpened(fd, root, where)
    return { rel: where.rel, content: readFileSync(fd) }
  } finally {
    closeSync(fd)
  }
}

/** Where a descriptor of this process is reached by path, so that a lookup starts at what it opened. */
const FD_DIR = '/proc/self/fd'

const within = (p: string, root: string): boolean => p === root || p.startsWith(`${root}/`)

/**
 * The folder of `where` opened (and made where missing) one part at a time below the descriptor of
 * its parent, never through a link: a folder swapped for a link on the way is refused, and what is
 * made lands in the folder that was checked, wherever a name points meanwhile. Linux (/proc/self/fd).
 */
function openFolder(root: string, where: Located): number {
  const realRoot = realpathSync(root)
  let fd = openSync(realRoot, constants.O_RDONLY | constants.O_DIRECTORY)
  const notAFolder = (dir: string): Refusal =>
    new Refusal(`${where.rel} goes through ${dir}, which is not a folder`)
  try {
    const parts = where.rel.split('/').slice(0, -1)
    for (const [i, part] of parts.entries()) {
      // a folder moved out of the workspace meanwhile is not written in
      if (!within(readlinkSync(`${FD_DIR}/${fd}`), realRoot))
        throw notAFolder(parts.slice(0, i).join('/') || '.')
      const next = `${FD_DIR}/${fd}/${part}`
      try {
        mkdirSync(next)
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
      }
      let opened: number
      try {
        opened = openSync(next, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW)
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code
        if (code === 'ELOOP' || code === 'ENOTDIR')
          throw notAFolder(parts.slice(0, i + 1).join('/'))
        throw e
      }
      closeSync(fd)
      fd = opened
    }
    if (!within(readlinkSync(`${FD_DIR}/${fd}`), realRoot))
      throw notAFolder(path.dirname(where.rel))
    return fd
  } catch (e) {
    closeSync(fd)
    throw e
  }
}

/**
 * Opens the file to write, below its checked folder where /proc/self/fd exists (else by path), and
 * checks what was opened; a file this made where it was not asked for is not left there.
 */
function openForWrite(root: string, where: Located): number {
  const flags = constants.O_WRONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK
  const open = (file: string): { fd: number; created?: string } => {
    try {
      return {
        fd: openSync(file, flags | constants.O_CREAT | constants.O_EXCL, 0o644),
        created: file
      }
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
      return { fd: openSync(file, flags) }
    }
  }
  const checked = ({ fd, created }: { fd: number; created?: string }): number => {
    try {
      checkOpened(fd, root, where)
      return fd
    } catch (e) {
      closeSync(fd)
      if (created) unlinkSync(created)
      throw e
    }
  }
  try {
    if (!existsSync(FD_DIR)) {
      makeFolders(root, where)
      return checked(open(where.abs))
    }
    const dir = openFolder(root, where)
    try {
      return checked(open(`${FD_DIR}/${dir}/${path.basename(where.abs)}`))
    } finally {
      closeSync(dir)
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOOP')
      throw new Refusal(`${where.rel} is a symbolic link; links are not followed`)
    throw e
  }
}

/** Creates the folders of `where` by path, refusing links on the way (where /proc/self/fd is missing). */
function makeFolders(root: string, where: Located): void {
  let dir = root
  for (const part of where.rel.split('/').slice(0, -1)) {
    dir = path.join(dir, part)
    try {
      mkdirSync(dir)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
    }
    const stat = lstatSync(dir)
    if (stat.isSymbolicLink() || !stat.isDirectory())
      throw new Refusal(
        `${where.rel} goes through ${path.relative(root, dir)}, which is not a folder`
      )
  }
}

/**
 * Writes a file of the workspace, creating its folders; never through a link, never a hard link.
 * Each folder is checked before anything is made in it, and the file is made in the folder that was
 * checked: a process swapping a folder for a link meanwhile makes nothing appear outside.
 */
export function writeConfined(
  root: string,
  given: unknown,
  content: string,
  maxBytes: number
): string {
  const where = locate(root, given)
  const bytes = Buffer.from(content, 'utf8')
  if (bytes.length > maxBytes)
    throw new Refusal(
      `${where.rel}: ${bytes.length} bytes is more than the ${maxBytes}-byte limit of one write`
    )
  const fd = openForWrite(root, where)
  try {
    ftruncateSync(fd, 0)
    let written = 0
    while (written < bytes.length)
      written += writeSync(fd, bytes, written, bytes.length - written, written)
  } finally {
    closeSync(fd)
  }
  return where.rel
}

/** What a path of the work tree holds, for a commit: file bytes, a link's target, or nothing. */
export type Found =
  | { kind: 'file'; content: Buffer; executable: boolean }
  | { kind: 'link'; target: string }
  | { kind: 'gone' }
  | { kind: 'refused'; reason: string }

/** Files larger than this are not read into a commit (a check could make one to exhaust memory). */
const MAX_COMMIT_FILE = 50 * 1024 * 1024

export function inspectForCommit(root: string, rel: string): Found {
  try {
    const parts = pathParts(rel)
    // a parent that is now a link, a file or gone: the path no longer holds a file of its own
    let dir = root
    for (const part of parts.slice(0, -1)) {
      dir = path.join(dir, part)
      let parent
      try {
        parent = lstatSync(dir)
      } catch {
        return { kind: 'gone' }
      }
      if (parent.isSymbolicLink() || !parent.isDirectory()) return { kind: 'gone' }
    }
    const where = { abs: path.join(root, ...parts), rel: parts.join('/') }
    let stat
    try {
      stat = lstatSync(where.abs)
    } catch {
      return { kind: 'gone' }
    }
    if (stat.isSymbolicLink()) return { kind: 'link', target: readlinkSync(where.abs) }
    // a file replaced by a folder: the folder's files are listed on their own
    if (stat.isDirectory()) return { kind: 'gone' }
    if (!stat.isFile()) return { kind: 'refused', reason: 'not a regular file' }
    if (stat.size > MAX_COMMIT_FILE)
      return { kind: 'refused', reason: `larger than ${MAX_COMMIT_FILE / 1024 / 1024} MB` }
    const read = readConfined(root, rel)
    if (!read) return { kind: 'gone' }
    return { kind: 'file', content: read.content, executable: (stat.mode & 0o111) !== 0 }
  } catch (e) {
    return { kind: 'refused', reason: (e as Error).message }
  }
}
