import { Minimatch } from 'minimatch'

/**
 * Files the reviewer skips unless the `ignore` input takes them back with `!`: lockfiles, generated
 * and vendored folders, minified bundles and source maps, binaries, and `dist/`. They are still
 * listed in the comment as ignored, never silently left out.
 */
export const DEFAULT_IGNORE: readonly string[] = [
  // lockfiles
  '**/package-lock.json',
  '**/npm-shrinkwrap.json',
  '**/yarn.lock',
  '**/pnpm-lock.yaml',
  '**/bun.lockb',
  '**/Cargo.lock',
  '**/Gemfile.lock',
  '**/composer.lock',
  '**/poetry.lock',
  '**/Pipfile.lock',
  '**/uv.lock',
  '**/go.sum',
  '**/packages.lock.json',
  // generated and vendored
  'dist/**',
  '**/node_modules/**',
  // vendored code at the root only: a folder named vendor/ deep in the PR's own tree is reviewed
  'vendor/**',
  'third_party/**',
  '**/__generated__/**',
  '**/*.generated.*',
  '**/*.pb.go',
  '**/*_pb2.py',
  // minified bundles and maps
  '**/*.min.js',
  '**/*.min.css',
  '**/*.map',
  // binaries
  '**/*.{png,jpg,jpeg,gif,webp,ico,bmp,tiff,pdf,zip,gz,tgz,bz2,xz,7z,jar,war,class,exe,dll,so,dylib,a,o,wasm,bin,woff,woff2,ttf,otf,eot,mp3,mp4,mov,avi}'
]

export type IgnoreMatcher = (path: string) => boolean

/**
 * Whether a path is ignored: the defaults, then the `ignore` input's globs in order, where a glob
 * that starts with `!` takes matching files back (the last glob that matches decides, as in
 * .gitignore). Globs match dotfiles too.
 */
export function ignoreMatcher(globs: readonly string[]): IgnoreMatcher {
  const rules = [...DEFAULT_IGNORE, ...globs].map(g => {
    const take = g.startsWith('!')
    return { take, glob: new Minimatch(take ? g.slice(1) : g, { dot: true }) }
  })
  return path => {
    let ignored = false
    for (const r of rules) if (r.glob.match(path)) ignored = !r.take
    return ignored
  }
}

/** A glob of the `ignore` input that can never match: the reason, for the input error. */
export function badGlob(glob: string): string | undefined {
  const body = glob.startsWith('!') ? glob.slice(1) : glob
  if (body.trim() === '') return 'it is empty'
  if (body.startsWith('/')) return 'paths are relative to the repository root: drop the leading /'
  if (body.startsWith('./'))
    return "paths are relative to the repository root: drop the leading './'"
  return undefined
}
