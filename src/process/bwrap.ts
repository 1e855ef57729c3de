/**
 * Finding a bubblewrap that works here, kept apart from the sandbox's layout: the action asks it
 * before anything else (src/action/startup.ts), so it loads only node's own modules.
 */
import type { NetworkMode, SandboxMode } from '../loop/settings.js'

export type Exec = (
  file: string,
  args: string[],
  input?: string
) => Promise<{ code: number; output: string }>

export const execCommand: Exec = (file, args, input) =>
  new Promise(resolve => {
    // loaded when first used: the action asks before its first request is on the wire (./startup.ts)
    const child = process
      .getBuiltinModule('node:child_process')
      .execFile(
        file,
        args,
        { timeout: 120_000, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', LANG: 'C' } },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : 127) : 0
          resolve({ code, output: `${stdout}${stderr}`.trim() })
        }
      )
    if (input !== undefined) child.stdin?.end(input)
  })

/**
 * The narrow AppArmor profile Canonical recommends for bwrap on Ubuntu 24.04, where unprivileged
 * user namespaces are restricted (kernel.apparmor_restrict_unprivileged_userns=1): it lets bwrap
 * alone create them, unconfined otherwise. See the README's "Sandbox" section for sources.
 */
export const APPARMOR_PROFILE = `abi <abi/4.0>,
include <tunables/global>

profile review-loop-bwrap /usr/bin/bwrap flags=(unconfined) {
  userns,

  include if exists <local/review-loop-bwrap>
}
`

export type SandboxChoice =
  | { kind: 'bwrap'; bwrap: string; setup: string[] }
  | { kind: 'none'; reason: string; setup: string[] }

const PROBE = (network: NetworkMode): string[] => [
  '--die-with-parent',
  '--unshare-pid',
  ...(network === 'deny' ? ['--unshare-net'] : []),
  '--ro-bind',
  '/',
  '/',
  '--proc',
  '/proc',
  '--dev',
  '/dev',
  'true'
]

/**
 * Finds a working bubblewrap: installs it with passwordless sudo when missing (GitHub's hosted
 * runners), and loads the AppArmor profile above when Ubuntu's user-namespace restriction stops it.
 * With `setUp` false (someone's own machine: the CLI) it uses sudo for nothing.
 */
export async function chooseSandbox(
  mode: SandboxMode,
  network: NetworkMode,
  exec: Exec = execCommand,
  platform: string = process.platform,
  setUp = true
): Promise<SandboxChoice> {
  const setup: string[] = []
  if (mode === 'off') return { kind: 'none', reason: 'sandbox is off', setup }
  if (platform !== 'linux')
    return { kind: 'none', reason: `bubblewrap needs Linux; this runner is ${platform}`, setup }
  // where bwrap works already, one process answers (the action asks before it starts)
  let probe = await exec('bwrap', PROBE(network))
  if (probe.code === 0) return { kind: 'bwrap', bwrap: 'bwrap', setup }
  const sudo = setUp && (await exec('sudo', ['-n', 'true'])).code === 0
  let version = await exec('bwrap', ['--version'])
  if (version.code !== 0 && sudo && (await exec('apt-get', ['--version'])).code === 0) {
    let installed = await exec('sudo', ['-n', 'apt-get', 'install', '-y', '-q', 'bubblewrap'])
    if (installed.code !== 0) {
      await exec('sudo', ['-n', 'apt-get', 'update', '-q'])
      installed = await exec('sudo', ['-n', 'apt-get', 'install', '-y', '-q', 'bubblewrap'])
    }
    setup.push(
      installed.code === 0
        ? 'installed bubblewrap with apt-get'
        : `could not install bubblewrap: ${installed.output.split('\n').pop()}`
    )
    version = await exec('bwrap', ['--version'])
  }
  if (version.code !== 0)
    return {
      kind: 'none',
      reason: `bubblewrap (bwrap) is not installed${sudo ? '' : ' and there is no passwordless sudo to install it'}`,
      setup
    }
  // installed just now: asked again
  if (setup.length > 0) probe = await exec('bwrap', PROBE(network))
  if (
    probe.code !== 0 &&
    sudo &&
    (await exec('sudo', ['-n', 'test', '-d', '/etc/apparmor.d'])).code === 0
  ) {
    const file = '/etc/apparmor.d/review-loop-bwrap'
    const wrote = await exec('sudo', ['-n', 'tee', file], APPARMOR_PROFILE)
    const loaded =
      wrote.code === 0 ? await exec('sudo', ['-n', 'apparmor_parser', '-r', file]) : wrote
    setup.push(
      loaded.code === 0
        ? `loaded the AppArmor profile ${file} that lets bwrap create user namespaces`
        : `could not load an AppArmor profile for bwrap: ${loaded.output.split('\n').pop()}`
    )
    probe = await exec('bwrap', PROBE(network))
  }
  if (probe.code !== 0)
    return {
      kind: 'none',
      reason: `bubblewrap cannot create namespaces here (${probe.output.split('\n')[0] || `exit ${probe.code}`})`,
      setup
    }
  return { kind: 'bwrap', bwrap: 'bwrap', setup }
}
