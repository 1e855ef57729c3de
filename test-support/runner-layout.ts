import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/**
 * A GitHub-hosted runner's toolchains, laid out in a folder as actions/runner-images installs them
 * (images/ubuntu/scripts/build/install-rust.sh at 1d32297: rustup into `$HOME/.cargo` and
 * `$HOME/.rustup`, `$HOME/.cargo/bin` on PATH; configure-environment.sh at 0bd5ca9:
 * AGENT_TOOLSDIRECTORY, the tool cache; Ubuntu2404-Readme.md at 05d68bc: JAVA_HOME_*_X64, Pipx).
 * The tools are small scripts that work the way the real ones find their files: rustup's proxy
 * reads `${RUSTUP_HOME:-$HOME/.rustup}`, go reads `${GOMODCACHE:-$HOME/go/pkg/mod}`, pyenv's shim
 * runs `$PYENV_ROOT/libexec/pyenv`, `pip install --user` scripts import from
 * `~/.local/lib/pythonX.Y/site-packages`, links on PATH lead into their packages. Each check
 * prints `reached <tool>` when its tool ran to the end.
 */
export interface RunnerLayout {
  /** The runner's environment (HOME, PATH, the toolchain variables) for the action. */
  env: Record<string, string>
  home: string
  /** Checks that reach each tool (name → command). */
  checks: Record<string, string>
  /** Every credential file planted, each holding `canary`. */
  credentials: string[]
  canary: string
}

export const LAYOUT_CANARY = 'canary-layout-5a9e1c'

/** The Python interpreter the layout's pyenv and pip scripts run (a system one), if any. */
export function systemPython(): string | undefined {
  return ['/usr/bin/python3', '/usr/local/bin/python3'].find(p => existsSync(p))
}

function put(file: string, text: string, mode = 0o644): void {
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, text)
  chmodSync(file, mode)
}

const script = (file: string, body: string): void => put(file, `#!/bin/sh\n${body}\n`, 0o755)

function link(target: string, at: string): void {
  mkdirSync(path.dirname(at), { recursive: true })
  symlinkSync(target, at)
}

/** rustup: `.cargo/bin/cargo` a proxy into `.rustup/toolchains/<default>/bin`. */
function rust(home: string): void {
  const proxy = `home="\${RUSTUP_HOME:-$HOME/.rustup}"
tc=$(sed -n 's/^default_toolchain = "\\(.*\\)"/\\1/p' "$home/settings.toml" 2>/dev/null)
[ -n "$tc" ] || { echo "error: rustup could not choose a version of $(basename "$0") to run" >&2; exit 1; }
exec "$home/toolchains/$tc/bin/$(basename "$0")" "$@"`
  script(path.join(home, '.cargo/bin/rustup'), proxy)
  link('rustup', path.join(home, '.cargo/bin/cargo'))
  put(
    path.join(home, '.rustup/settings.toml'),
    'default_toolchain = "stable-x86_64-unknown-linux-gnu"\n'
  )
  const bin = path.join(home, '.rustup/toolchains/stable-x86_64-unknown-linux-gnu/bin')
  script(path.join(bin, 'cargo'), 'echo "reached cargo 1.89.0 $*"')
  put(path.join(home, '.cargo/config.toml'), '[term]\ncolor = "never"\n')
}

/** pyenv's shim, its libexec and a version that is a link to the system interpreter. */
function pyenv(home: string, python: string): void {
  const root = path.join(home, '.pyenv')
  script(
    path.join(root, 'shims/python3'),
    `export PYENV_ROOT="${root}"\nexec "${root}/libexec/pyenv" exec "\${0##*/}" "$@"`
  )
  script(
    path.join(root, 'libexec/pyenv'),
    `shift; prog=$1; shift\nexec "$PYENV_ROOT/versions/$(cat "$PYENV_ROOT/version")/bin/$prog" "$@"`
  )
  put(path.join(root, 'version'), '3.12.11\n')
  link(python, path.join(root, 'versions/3.12.11/bin/python3'))
}

/** `pip install --user tool`: a script in ~/.local/bin importing from the user site. */
function userSite(home: string, python: string): void {
  const version = execFileSync(python, ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'])
    .toString()
    .trim()
  const site = path.join(home, `.local/lib/python${version}/site-packages`)
  put(path.join(site, 'usertool/__init__.py'), 'def main():\n    print("reached usertool")\n')
  put(
    path.join(home, '.local/bin/usertool'),
    `#!${python}\nimport sys\nfrom usertool import main\nsys.exit(main())\n`,
    0o755
  )
}

/** pipx: ~/.local/bin/pipxtool a link into its virtual environment. */
function pipx(home: string): void {
  const venv = path.join(home, '.local/share/pipx/venvs/pipxtool')
  put(path.join(venv, 'lib/message'), 'reached pipxtool\n')
  script(path.join(venv, 'bin/pipxtool'), `cat "${venv}/lib/message"`)
  link(path.join(venv, 'bin/pipxtool'), path.join(home, '.local/bin/pipxtool'))
}

/** A tool unpacked in the home with a link on PATH (a release tarball), and an npm tool folder. */
function links(home: string): void {
  const prefix = path.join(home, 'opt/linked-1.0')
  put(path.join(prefix, 'share/message'), 'reached linked\n')
  script(path.join(prefix, 'bin/linked'), `cat "${prefix}/share/message"`)
  link(path.join(prefix, 'bin/linked'), path.join(home, 'bin/linked'))
  const modules = path.join(home, 'tools/node_modules')
  put(path.join(modules, 'hoisted-dep/index.js'), "module.exports = 'reached jstool'\n")
  put(
    path.join(modules, 'jstool/bin/jstool.js'),
    "#!/usr/bin/env node\nconsole.log(require('hoisted-dep'))\n",
    0o755
  )
  link('../jstool/bin/jstool.js', path.join(modules, '.bin/jstool'))
}

/** The credential files the sandbox must keep out of sight, each holding the canary. */
function credentials(home: string, temp: string): string[] {
  const files = [
    '.git-credentials',
    '.ssh/id_ed25519',
    '.docker/config.json',
    '.npmrc',
    '.pypirc',
    '.netrc',
    '.cargo/credentials',
    '.cargo/credentials.toml',
    '.aws/credentials',
    '.azure/msal_token_cache.json',
    '.config/gcloud/credentials.db',
    '.kube/config',
    '.config/gh/hosts.yml',
    // .NET's X509 store (`dotnet dev-certs https`), beside `~/.dotnet/tools` (on PATH on hosted runners)
    '.dotnet/corefx/cryptography/x509stores/my/devcert.pfx'
  ].map(f => path.join(home, f))
  files.push(path.join(temp, 'gha-creds-1234.json'))
  for (const f of files) put(f, `token=${LAYOUT_CANARY}\n`, 0o600)
  return files
}

/** Builds the layout in `dir` (empty); `python` is the interpreter pyenv and pip scripts run. */
export function buildRunnerLayout(dir: string, python = systemPython()): RunnerLayout {
  const home = path.join(dir, 'home/runner')
  const runner = path.join(dir, 'runner')
  const toolCache = path.join(runner, '_work/_tool')
  const temp = path.join(runner, '_work/_temp')
  rust(home)
  pipx(home)
  links(home)
  if (python) pyenv(home, python)
  if (python) userSite(home, python)
  // Go: a module in the module cache (extracted, and its download as GOPROXY=file:// serves it), and
  // a go in the tool cache that finds it as go does: in GOMODCACHE, else from a file:// GOPROXY,
  // extracting it into GOMODCACHE (so GOMODCACHE must be writable)
  const greet = '// reached go modcache\n'
  put(path.join(home, 'go/pkg/mod/example.com/greet@v1.0.0/greet.go'), greet)
  put(path.join(home, 'go/pkg/mod/cache/download/example.com/greet/@v/v1.0.0.zip'), greet)
  const goBin = path.join(toolCache, 'go/1.22.12/x64/bin')
  script(
    path.join(goBin, 'go'),
    [
      'f="${GOMODCACHE:-${GOPATH:-$HOME/go}/pkg/mod}/example.com/greet@v1.0.0/greet.go"',
      'for p in $(echo "${GOPROXY:-}" | tr ",|" "  "); do',
      '  z="${p#file://}/example.com/greet/@v/v1.0.0.zip"',
      '  case $p in file://*) [ -f "$f" ] || { [ -f "$z" ] && mkdir -p "${f%/*}" && cp "$z" "$f"; } ;; esac',
      'done',
      '[ -f "$f" ] || { echo "go: example.com/greet@v1.0.0: module lookup disabled by GOPROXY=off" >&2; exit 1; }',
      'sed "s,// ,," "$f"'
    ].join('\n')
  )
  const jdk = path.join(toolCache, 'Java_Temurin-Hotspot_jdk/17.0.16-8/x64')
  script(path.join(jdk, 'bin/java'), 'echo "reached java 17"')
  mkdirSync(path.join(home, '.dotnet/tools'), { recursive: true })
  const planted = credentials(home, temp)
  const env: Record<string, string> = {
    HOME: home,
    PATH: [
      path.join(home, '.cargo/bin'),
      path.join(home, '.local/bin'),
      path.join(home, 'bin'),
      path.join(home, '.pyenv/shims'),
      path.join(home, 'tools/node_modules/.bin'),
      goBin,
      process.env['PATH'] ?? '/usr/bin:/bin'
    ].join(':'),
    RUNNER_TOOL_CACHE: toolCache,
    AGENT_TOOLSDIRECTORY: toolCache,
    RUNNER_TEMP: temp,
    RUNNER_WORKSPACE: path.join(runner, '_work/repo'),
    JAVA_HOME: jdk,
    JAVA_HOME_17_X64: jdk,
    ...(python ? { PYENV_ROOT: path.join(home, '.pyenv') } : {})
  }
  const checks: Record<string, string> = {
    'rustup-proxy': 'cargo clippy',
    'pipx-link': 'pipxtool',
    'tarball-link': 'linked',
    'node-modules-link': 'jstool',
    'go-modcache': 'go build ./...',
    'java-home': '"${JAVA_HOME:?is not set}/bin/java" -version',
    ...(python ? { 'pyenv-shim': 'python3 -c "print(\'reached python3\')"' } : {}),
    ...(python ? { 'user-site': 'usertool' } : {})
  }
  return { env, home, checks, credentials: planted, canary: LAYOUT_CANARY }
}

/** A check that tries to read every planted credential file; prints what it could read. */
export function credentialProbe(files: readonly string[]): string {
  return files.map(f => `cat '${f}' 2>/dev/null`).join('; ') + '; true'
}
