import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { installedDependencies } from '../../src/wiring/dependencies.js'
import { git, writeFiles } from '../../test-support/git-fixture.js'

const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'rl-deps-')))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('installedDependencies', () => {
  it('lends links to dependency folders, and says why it lends no other link', () => {
    const repo = path.join(dir, 'repo')
    mkdirSync(repo)
    git(repo, ['init', '-q'])
    writeFiles(repo, {
      '.gitignore': 'node_modules\n.venv\nvenv\n',
      'node_modules/a/index.js': '\n',
      'packages/web/package.json': '{}\n',
      'packages/cli/package.json': '{}\n'
    })
    writeFiles(dir, { 'store/node_modules/b/index.js': '\n', 'plain/file': '\n' })
    // a workspace's link to a hoisted node_modules elsewhere: lent
    symlinkSync(path.join(dir, 'store/node_modules'), path.join(repo, 'packages/web/node_modules'))
    symlinkSync(path.join(dir, 'gone'), path.join(repo, 'packages/cli/node_modules'))
    symlinkSync(path.join(dir, 'plain/file'), path.join(repo, 'venv'))
    symlinkSync(path.join(dir, 'plain'), path.join(repo, '.venv'))
    const { folders, notLent } = installedDependencies(repo)
    expect(folders).toEqual(['node_modules', 'packages/web/node_modules'])
    expect(notLent.map(n => `${n.folder} → ${path.relative(dir, n.target)}: ${n.why}`)).toEqual([
      '.venv → plain: it leads to a folder not named node_modules, .venv, venv, which the checks would see whole',
      'packages/cli/node_modules → gone: it leads nowhere',
      'venv → plain/file: it leads to a file'
    ])
  })
})
