import type { NetworkMode, SandboxMode } from '../loop/settings.js'
import { chooseSandbox, type SandboxChoice } from '../process/bwrap.js'
import { handOff, receiveHandoff } from './handoff.js'
import { prefetchPull, type Prefetched } from './prefetch.js'

/**
 * The restart without secrets (./handoff.ts) protects the runner's first environment from PR code
 * that runs outside bubblewrap: in bubblewrap PR code has its own PID namespace and /proc, and
 * cannot see the action's process at all. So before anything else the action finds out whether
 * bubblewrap works here (setting it up as it would later: installed with apt-get, its AppArmor
 * profile loaded), and restarts only where it does not, or where no sandbox is wanted.
 */

/** Told to the new image: bubblewrap was tried before the restart, so it is not set up again. */
export const SANDBOX_TRIED_FLAG = '--review-loop-sandbox-tried'

/** How this run started, for the rest of the run. */
export interface Startup {
  /** The sandbox found working at the start, for the workflow's inputs: the restart was skipped for it. */
  sandbox?: { network: NetworkMode; choice: SandboxChoice }
  /** Whether the process started again without the secrets in its environment. */
  restarted: boolean
  /** Whether bubblewrap was tried (and set up where it could be) before a restart. */
  sandboxTried: boolean
  /**
   * Restarts now, without the secrets: for settings (from the settings file) under which PR code
   * runs outside the sandbox found at the start. Returns only where it cannot restart.
   */
  restart: () => Promise<void>
}

type Env = Record<string, string | undefined>

/**
 * The sandbox the workflow's inputs ask for, read before the input parser loads (it checks them
 * later); undefined where bubblewrap is not to be looked for: `off`, a value the parser will
 * refuse, or a system without it.
 */
function sandboxInputs(
  env: Env,
  platform: string
): { mode: SandboxMode; network: NetworkMode } | undefined {
  const mode = (env['INPUT_SANDBOX'] ?? '').trim() || 'auto'
  const network = (env['INPUT_SANDBOX-NETWORK'] ?? '').trim() || 'allow'
  if ((mode !== 'auto' && mode !== 'required') || (network !== 'allow' && network !== 'deny'))
    return undefined
  return platform === 'linux' ? { mode, network } : undefined
}

/**
 * The action's first step: takes the environment back after a restart, or finds the sandbox and
 * restarts without the secrets where PR code would run outside it. `mode: stats` runs no PR code.
 * `meanwhile` runs before bubblewrap is looked for, unless the action restarts before that (the
 * first API request leaves then, and the probe waits until it is on the wire; where bubblewrap then
 * does not work, the restart drops it).
 */
export async function startUp(
  script: string,
  env: Env = process.env,
  meanwhile: () => Promise<void> | void = () => {}
): Promise<Startup> {
  const tried = process.argv.indexOf(SANDBOX_TRIED_FLAG)
  if (tried >= 0) process.argv.splice(tried, 1)
  const restart = (): Promise<void> => handOff(script)
  const startup = { restarted: false, sandboxTried: tried >= 0, restart }
  if (await receiveHandoff()) return { ...startup, restarted: true }
  if ((env['INPUT_MODE'] ?? '').trim() === 'stats') return startup
  const inputs = sandboxInputs(env, process.platform)
  if (inputs) await meanwhile()
  const choice = inputs && (await chooseSandbox(inputs.mode, inputs.network))
  if (inputs && choice?.kind === 'bwrap')
    return { ...startup, sandbox: { network: inputs.network, choice } }
  // what setting bubblewrap up did is said now: the new image does not try again
  for (const step of choice?.setup ?? []) process.stdout.write(`sandbox: ${step}\n`)
  await handOff(script, inputs ? [SANDBOX_TRIED_FLAG] : [])
  return { ...startup, sandboxTried: startup.sandboxTried || inputs !== undefined }
}

/** The sandbox found at the start, where the settings ask for the same one; else undefined. */
export function sandboxFromStart(
  startup: Startup | undefined,
  settings: { sandbox: SandboxMode; sandboxNetwork: NetworkMode }
): SandboxChoice | undefined {
  const found = startup?.sandbox
  return found && settings.sandbox !== 'off' && settings.sandboxNetwork === found.network
    ? found.choice
    : undefined
}

/**
 * The start-up of the action as the runner starts it (the entry, ./boot.ts, or `node
 * dist/index.js`): startUp, with the first API request sent while it looks for bubblewrap.
 */
export async function startAndSend(
  script: string
): Promise<{ startup: Startup; sent?: Prefetched }> {
  let sent: Prefetched | undefined
  const startup = await startUp(script, process.env, () => {
    sent = prefetchPull(process.env)
    return sent?.sent
  })
  return { startup, sent }
}
