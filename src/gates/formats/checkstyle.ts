import { XMLParser } from 'fast-xml-parser'
import { toolLevel, type GateProblem } from '../problem.js'

/**
 * Checkstyle XML (ShellCheck -f checkstyle, hadolint, golangci-lint, PHP_CodeSniffer, ktlint…):
 * `<checkstyle><file name><error line column severity message source/></file></checkstyle>`.
 */
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  isArray: name => name === 'file' || name === 'error'
})

interface CheckstyleError {
  line?: string
  column?: string
  severity?: string
  message?: string
  source?: string
}

export function readCheckstyle(xml: string): GateProblem[] | undefined {
  if (!/<checkstyle[\s>]/.test(xml)) return undefined
  let doc: { checkstyle?: { file?: Array<{ name?: string; error?: CheckstyleError[] }> } }
  try {
    doc = parser.parse(xml) as typeof doc
  } catch {
    return undefined
  }
  if (!doc.checkstyle) return undefined
  return (doc.checkstyle.file ?? []).flatMap(file =>
    (file.error ?? []).map(e => ({
      file: file.name,
      line: e.line ? Number(e.line) : undefined,
      column: e.column ? Number(e.column) : undefined,
      level: toolLevel(e.severity, 'error'),
      rule: e.source?.replace(/^ShellCheck\./, ''),
      message: e.message ?? 'Checkstyle error'
    }))
  )
}
