// npm run render -- [COMMENT.md] [OUT.png] [--open]: renders a sticky comment the way GitHub shows it (GFM,
// GitHub's markdown CSS, Mermaid diagrams) in headless Chromium, and saves a screenshot. Its three
// packages are no dev dependencies (no test needs them): it says how to install them when missing.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

interface Marked {
  Renderer: new () => { code: (token: { lang?: string; text: string }) => string }
  parse: (markdown: string, options: object) => Promise<string> | string
}
const PACKAGES = ['marked@18', 'github-markdown-css@5', 'mermaid@12']

const args = process.argv.slice(2).filter(a => a !== '--open')
const open = process.argv.includes('--open') // expand every <details>
const input = path.resolve(args[0] ?? 'out/demo/comment.md')
const output = path.resolve(args[1] ?? input.replace(/\.md$/, '.png'))
const chromium = process.env['CHROMIUM'] ?? '/usr/bin/chromium'
if (!existsSync(chromium)) {
  console.error(`No Chromium at ${chromium}: apt-get install chromium (or set CHROMIUM).`)
  process.exit(2)
}

const modules = path.resolve('node_modules')
const css = path.join(modules, 'github-markdown-css/github-markdown-light.css')
const mermaidJs = path.join(modules, 'mermaid/dist/mermaid.min.js')
const markedModule = 'marked' // a variable: typecheck does not need the package
const { marked } = (await import(markedModule).catch(() => ({}))) as { marked?: Marked }
if (!marked || !existsSync(css) || !existsSync(mermaidJs)) {
  console.error(`npm run render needs: npm install --no-save ${PACKAGES.join(' ')}`)
  process.exit(2)
}
const markdown = readFileSync(input, 'utf8')
const renderer = new marked.Renderer()
const code = renderer.code.bind(renderer)
renderer.code = token =>
  token.lang === 'mermaid' ? `<pre class="mermaid">${token.text}</pre>` : code(token)
// GitHub keeps HTML comments (the state) invisible and renders <details> and <sub> as HTML
const body = await marked.parse(markdown, { gfm: true, renderer })
const html = `<!doctype html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="${pathToFileURL(css).href}">
<style>body{margin:0;background:#fff}.markdown-body{box-sizing:border-box;max-width:980px;padding:24px 32px;border:1px solid #d0d7de;border-radius:6px;margin:16px}</style>
<script src="${pathToFileURL(mermaidJs).href}"></script>
</head><body><article class="markdown-body">${body}</article>
<script>for (const d of document.querySelectorAll('details')) d.open = ${open}; mermaid.initialize({ startOnLoad: true, theme: 'default' })</script>
</body></html>`
const dir = mkdtempSync(path.join(os.tmpdir(), 'render-'))
const page = path.join(dir, 'comment.html')
writeFileSync(page, html)
execFileSync(
  chromium,
  [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--allow-file-access-from-files',
    `--user-data-dir=${path.join(dir, 'profile')}`,
    '--hide-scrollbars',
    '--virtual-time-budget=5000',
    '--window-size=1060,1800',
    `--screenshot=${output}`,
    pathToFileURL(page).href
  ],
  { stdio: ['ignore', 'ignore', 'pipe'] }
)
console.log(`rendered ${input} → ${output}`)
