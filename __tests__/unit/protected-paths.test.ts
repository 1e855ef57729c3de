import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { linkRefusal } from '../../src/fix/apply-fix.js'
import { indexLinks, linksIntoProtected, resolveLink } from '../../src/fix/links.js'
import {
  ALWAYS_PROTECTED,
  isProtected,
  protectedMatcher,
  reachMatcher
} from '../../src/fix/protected-paths.js'

/**
 * protected-paths follow .gitignore. Every row's expectation is what
 * `git -c core.ignorecase=true check-ignore --no-index` says with the row's patterns as the
 * .gitignore and the row's path created as a file; the last test below asks git again, so the table
 * cannot drift from git.
 */
const GIT_TABLE: Array<[patterns: string[], file: string, expected: boolean]> = [
  // a folder name protects its contents, at any depth, and not a file of that name
  [['config/'], 'config/settings.json', true],
  [['config/'], 'packages/config/x.json', true],
  [['config/'], 'config', false],
  // a pattern without / matches at any depth, files and folders
  [['*.lock'], 'packages/app/yarn.lock', true],
  [['*.lock'], 'yarn.lock', true],
  [['*.lock'], 'yarn.lock.txt', false],
  [['secrets'], 'secrets/new.txt', true],
  [['secrets'], 'a/b/secrets', true],
  [['secrets'], 'secrets.txt', false],
  [['.env*'], 'deploy/.env.local', true],
  // a leading or middle / anchors at the root
  [['/secrets'], 'secrets/x', true],
  [['/secrets'], 'a/secrets/x', false],
  [['doc/frotz/'], 'doc/frotz/x', true],
  [['doc/frotz/'], 'a/doc/frotz/x', false],
  [['frotz/'], 'a/doc/frotz/x', true],
  // * and ? stay within a part, ** spans parts
  [['docs/*.md'], 'docs/a.md', true],
  [['docs/*.md'], 'docs/sub/a.md', false],
  [['docs/*.md'], 'x/docs/a.md', false],
  [['docs/**/*.md'], 'docs/a.md', true],
  [['docs/**/*.md'], 'docs/sub/deep/a.md', true],
  [['**/build'], 'a/b/build/out.js', true],
  [['build/**'], 'build/x/y', true],
  [['a/**/b'], 'a/b', true],
  [['a/**/b'], 'a/x/y/b', true],
  [['a?c'], 'abc', true],
  [['a?c'], 'ac', false],
  [['[abc].txt'], 'b.txt', true],
  [['[abc].txt'], 'd.txt', false],
  [['*'], 'any/deep/file', true],
  [['\\#x'], '#x', true],
  // ! takes a path back, but never one inside a folder a pattern protects
  [['*.lock', '!keep.lock'], 'x/keep.lock', false],
  [['*.lock', '!keep.lock'], 'x/other.lock', true],
  [['config/', '!config/a.json'], 'config/a.json', true],
  [['config/*', '!config/a.json'], 'config/a.json', false],
  [['build/**', '!build/keep'], 'build/keep', false],
  [['*.js', '!src/*.js'], 'src/a.js', false],
  [['*.js', '!src/*.js'], 'lib/a.js', true],
  // letter case does not matter (git with core.ignorecase)
  [['Config/'], 'config/settings.json', true],
  [['*.LOCK'], 'packages/App/yarn.lock', true]
]

describe('protected paths (.gitignore semantics)', () => {
  it.each(GIT_TABLE)('%j protects %s: %s', (patterns, file, expected) => {
    expect(isProtected(file, patterns)).toBe(expected)
  })

  it('names the pattern that protects a path, for the comment', () => {
    const match = protectedMatcher(['docs/', '*.lock'])
    expect(match('packages/app/yarn.lock')).toBe('*.lock')
    expect(match('docs/a.md')).toBe('docs/')
    expect(match('src/a.ts')).toBeUndefined()
  })

  it.each([
    '.github/workflows/ci.yml',
    '.GITHUB/workflows/x.yml',
    '.github/Workflows/x.yml',
    '.github/actions/setup/action.yml',
    '.github/review-loop.yml',
    '.GitHub/Review-Loop.YML',
    '.github./workflows/x.yml', // Windows drops a name's trailing dots and spaces
    '.github /workflows/x.yml',
    '.ｇｉｔｈｕｂ/ｗｏｒｋｆｌｏｗｓ/x.yml', // fullwidth letters (NFKC)
    '.git\u200bhub/workflows/x.yml', // an invisible zero-width space
    './.github/workflows/x.yml'
  ])('always protects %s, whatever the spelling', file => {
    expect(isProtected(file, [])).toBe(true)
  })

  it('lets no pattern take back what is always protected', () => {
    const patterns = [...ALWAYS_PROTECTED, '!.github/workflows/ci.yml', '!review-loop.yml']
    expect(isProtected('.github/workflows/ci.yml', patterns)).toBe(true)
    expect(isProtected('.github/review-loop.yml', patterns)).toBe(true)
  })

  it('leaves the rest of .github and names that only start alike to the fixers', () => {
    expect(isProtected('.github/dependabot.yml', [])).toBe(false)
    expect(isProtected('.github/workflows-old/x.yml', [])).toBe(false)
    expect(isProtected('src/.github/workflows/x.yml', [])).toBe(false)
  })

  it('compares composed and decomposed accents alike (NFC)', () => {
    expect(isProtected('cafe\u0301/menu.txt', ['caf\u00e9/'])).toBe(true)
    expect(isProtected('caf\u00e9/menu.txt', ['cafe\u0301/'])).toBe(true)
  })

  it('agrees with git check-ignore on every row of the table', () => {
    const disagree: string[] = []
    for (const [patterns, file, expected] of GIT_TABLE) {
      const dir = mkdtempSync(path.join(tmpdir(), 'rl-ignore-'))
      try {
        execFileSync('git', ['init', '-q'], { cwd: dir })
        writeFileSync(path.join(dir, '.gitignore'), `${patterns.join('\n')}\n`)
        mkdirSync(path.join(dir, path.dirname(file)), { recursive: true })
        writeFileSync(path.join(dir, file), '')
        let ignored = true
        try {
          execFileSync(
            'git',
            ['-c', 'core.ignorecase=true', 'check-ignore', '--no-index', '-q', '--', file],
            { cwd: dir }
          )
        } catch {
          ignored = false
        }
        if (ignored !== expected)
          disagree.push(`${JSON.stringify(patterns)} ${file}: git ${ignored}`)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    }
    expect(disagree).toEqual([])
  })
})

describe('links a fix may not commit', () => {
  const match = protectedMatcher([...ALWAYS_PROTECTED, 'config/'])

  it.each([
    ['src/passwd', '../../../../etc/passwd', /out of the repository/],
    ['src/passwd', '/etc/passwd', /absolute path/],
    ['passwd', '..', /out of the repository/],
    ['src/win', 'C:\\Windows\\win.ini', /absolute path/],
    ['src/up', '..\\..\\secret', /out of the repository/],
    ['src/git', '../.git/config', /\.git folder/],
    ['src/git', '../.GIT./config', /\.git folder/],
    ['src/wf', '../.github/workflows/ci.yml', /protected by "\.github\/workflows\/"/],
    ['src/conf', '../config/settings.json', /protected by "config\/"/]
  ])('refuses %s -> %s', (file, target, reason) => {
    expect(linkRefusal(file, target, match)).toMatch(reason)
  })

  it.each([
    ['src/util-link.js', 'util.js'],
    ['src/a/b', '../../README.md'],
    ['docs/latest', 'v2']
  ])('commits %s -> %s, a link within the repository', (file, target) => {
    expect(linkRefusal(file, target, match)).toBeUndefined()
  })
})

describe('links into protected folders', () => {
  const TREE = ['src/util.js', 'config/settings.json', 'packages/app/yarn.lock', 'docs/a.md']
  const reach = reachMatcher(['config/', '*.lock'], TREE)
  const refused = (added: Record<string, string>, kept: Record<string, string> = {}) =>
    linksIntoProtected(new Map(Object.entries(kept)), new Map(Object.entries(added)), reach)

  it.each([
    [
      'src/wf',
      '../.github/workflows',
      /reaches "\.github\/workflows", protected by "\.github\/workflows\/"/
    ],
    ['src/conf', '../config', /reaches "config", protected by "config\/"/],
    ['src/wf', '../.GITHUB/Workflows', /protected by "\.github\/workflows\/"/],
    ['src/wf', './../.github/./workflows/', /protected by "\.github\/workflows\/"/],
    ['src/wf', '..\\.github\\workflows', /protected by "\.github\/workflows\/"/],
    ['src/wf', '../.github./workflows', /protected by "\.github\/workflows\/"/],
    [
      'src/gh',
      '../.github',
      /reaches "\.github", which holds paths protected by "\.github\/workflows\/"/
    ],
    ['src/root', '..', /reaches the repository root, which holds paths protected/],
    ['a/b/c/d/wf', '../../../../.github/actions', /protected by "\.github\/actions\/"/],
    ['src/pk', '../packages', /reaches "packages", which holds paths protected by "\*\.lock"/],
    ['src/wf', 'x/../../.github/workflows', /protected by "\.github\/workflows\/"/]
  ])('refuses %s -> %s', (file, target, reason) => {
    expect(refused({ [file]: target }).get(file)).toMatch(
      new RegExp(`^it is a link into a protected folder: .*${reason.source}`)
    )
  })

  it('refuses every new link of a chain that ends in a protected folder, and one an old link goes through', () => {
    const out = refused({ 'src/a': 'b', 'src/b': 'c', 'src/c': '../.github/workflows' })
    expect([...out.keys()].sort()).toEqual(['src/a', 'src/b', 'src/c'])
    // an old link (`docs/wf -> ../gh/workflows`) reaches the folder through a new one (`gh -> .github`)
    expect(refused({ gh: '.github' }, { 'docs/wf': '../gh/workflows' }).get('gh')).toMatch(
      /reaches "\.github"/
    )
    // a new link innocent on its own, that an old one now climbs through into .github/workflows
    const through = refused({ x: 'src/deep' }, { r: 'x/../../.github/workflows' })
    expect(through.get('x')).toMatch(/the link "r" leads through it/)
    // a new link to an old link that leads to a protected folder
    expect(
      refused({ 'src/w': '../docs/wf' }, { 'docs/wf': '../.github/workflows' }).has('src/w')
    ).toBe(true)
  })

  it.each([
    ['src/util-link.js', 'util.js'],
    ['src/docs', '../docs'],
    ['docs/latest', 'v2'],
    ['src/conf-file', '../config.example'],
    ['src/loop', 'loop']
  ])('commits %s -> %s, which reaches nothing protected', (file, target) => {
    expect(refused({ [file]: target })).toEqual(new Map())
  })

  it('follows links part by part, as a checkout does', () => {
    const links = indexLinks([
      ['src/a', 'b/c'],
      ['src/b', '../lib'],
      ['loop', 'loop']
    ])
    expect(resolveLink('src/a', links)).toEqual({
      kind: 'path',
      path: 'lib/c',
      via: ['src/a', 'src/b']
    })
    expect(resolveLink('loop', links).kind).toBe('out')
  })
})
