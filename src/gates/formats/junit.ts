import { XMLParser } from 'fast-xml-parser'
import type { RunnerDirs } from '../paths.js'
import type { GateProblem } from '../problem.js'
import { isObject, type Json } from './json-values.js'
import { readCargoTests, readGoTests } from './runner-output.js'
import { failureFrame } from './test-failures.js'
import { cutLine } from './text.js'

/**
 * JUnit XML, as test runners write it (pytest --junitxml, jest-junit, gotestsum, go-junit-report,
 * cargo-nextest, PHPUnit --log-junit, Maven Surefire) and some linters (Ruff): `<testsuites>
 * <testsuite><testcase name classname [file line]><failure message>text</failure>`. A testcase's
 * `<failure>` or `<error>` is a failing test; a skipped one, or a flaky one that passed on a retry
 * (nextest's `<flakyFailure>`), is none. Entities, numeric references and CDATA are read as XML
 * reads them.
 */
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  // numeric character references (`&#10;`, pytest's line ends in attributes) are decoded too
  htmlEntities: true,
  isArray: name => ['testsuite', 'testcase', 'failure', 'error'].includes(name)
})

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])
const attr = (node: Json, name: string): string | undefined => {
  const v = node[`@${name}`]
  return typeof v === 'string' && v.trim() ? v.trim() : undefined
}
const textOf = (v: unknown): string =>
  typeof v === 'string' ? v : isObject(v) ? textOf(v['#text']) : ''

/** The testcases of a suite and of the suites inside it (Surefire and others nest them). */
function testcases(node: Json): Json[] {
  return list(node['testsuite'])
    .filter(isObject)
    .flatMap(suite => [...list(suite['testcase']).filter(isObject), ...testcases(suite)])
}

/**
 * The report in a text: from its `<?xml` or first `<testsuite(s)` at a line's start to its root's
 * end. Tags inside a line (a test's assertion that compares XML) are no report.
 */
function reportIn(text: string): string | undefined {
  const start = /^\uFEFF?<(?:\?xml|testsuites?[\s>/])/m.exec(text)
  if (!start || !/<testsuites?[\s>/]/.test(text.slice(start.index))) return undefined
  const close = ['</testsuites>', '</testsuite>']
    .map(tag => [text.lastIndexOf(tag), tag.length])
    .find(([at]) => at! >= start.index)
  return text.slice(start.index, close ? close[0]! + close[1]! : undefined)
}

export interface JunitContext {
  inRepo: (file: string) => boolean
  dirs?: RunnerDirs
}

export function readJunit(text: string, context: JunitContext): GateProblem[] | undefined {
  const xml = reportIn(text)
  if (!xml) return undefined
  let doc: Json
  try {
    doc = parser.parse(xml) as Json
  } catch {
    return undefined
  }
  const root = isObject(doc['testsuites']) ? doc['testsuites'] : doc
  if (!Array.isArray(root['testsuite']) && !isObject(doc['testsuites'])) return undefined
  const files = new Map<string, string | undefined>()
  return testcases(root).flatMap(test =>
    [...list(test['failure']), ...list(test['error'])].map(f => failure(test, f, context, files))
  )
}

function failure(
  test: Json,
  f: unknown,
  context: JunitContext,
  files: Map<string, string | undefined>
): GateProblem {
  const name = attr(test, 'name') ?? 'a test'
  const classname = attr(test, 'classname') ?? attr(test, 'class')
  const body = textOf(f).trim()
  const said = isObject(f) ? attr(f, 'message') : undefined
  // pytest's message is the error's line, which its text holds; Go's ("Failed") is not
  const message = said && !body.includes(said) ? `${said}\n\n${body}` : body || said
  // each line as the text reader reads it (regexps are not free on a huge one)
  const place = located(body.split(/\r?\n/).map(cutLine), name, classname, context)
  const classFile = () => {
    if (!classname) return undefined
    if (!files.has(classname)) files.set(classname, fileOfClass(classname, context.inRepo))
    return files.get(classname)
  }
  const line = Number(attr(test, 'line')) || undefined
  return {
    ...(place ?? { file: attr(test, 'file') ?? classFile(), line }),
    level: 'error',
    testName: name,
    message: message?.slice(0, 4000).trim() || 'Test failed'
  }
}

/**
 * Where a failure's text puts it: a Rust panic (nextest), a Go test's log line (its package named
 * by the classname), the first stack frame in the repository (V8, PHPUnit) or the innermost Python
 * one, or a Java frame of a class whose source is found.
 */
function located(
  lines: string[],
  name: string,
  classname: string | undefined,
  { inRepo, dirs }: JunitContext
): { file: string; line: number; column?: number } | undefined {
  const panic = readCargoTests(lines, inRepo, dirs)[0]?.problem
  if (panic?.file && panic.line) return { file: panic.file, line: panic.line, column: panic.column }
  if (classname && /^[\w.-]+(?:\/[\w.-]+)*$/.test(classname) && /^\w+$/.test(name)) {
    const go = readGoTests([`=== RUN   ${name}`, ...lines, `FAIL\t${classname}\t0s`], inRepo, dirs)
    const at = go[0]?.problem
    if (at?.file && at.line && inRepo(at.file)) return { file: at.file, line: at.line }
  }
  return failureFrame(lines, inRepo) ?? javaFrame(lines, inRepo)
}

/** A JVM stack frame: `at com.example.CalcTest.adds(CalcTest.java:12)`. */
const JAVA_FRAME = /^at\s+([\w$.]+)\.[\w$<>]+\(([\w$]+\.(?:java|kt|groovy|scala)):(\d+)\)$/

function javaFrame(
  lines: readonly string[],
  inRepo: (file: string) => boolean
): { file: string; line: number } | undefined {
  for (const raw of lines) {
    const m = JAVA_FRAME.exec(raw.trim())
    if (!m) continue
    const file = fileOfClass(m[1]!.replace(/\$.*$/, ''), inRepo, m[2]!.replace(/^.*\./, '.'))
    if (file?.endsWith(`/${m[2]}`) || file === m[2]) return { file: file!, line: Number(m[3]) }
  }
  return undefined
}

/** Where sources live by convention: a class `a.b.C` is `a/b/C.java` under one of these. */
const SOURCE_ROOTS = ['', 'src/test/java/', 'src/test/kotlin/', 'src/main/java/', 'test/', 'tests/']
const EXTENSIONS = ['.py', '.java', '.kt', '.php', '.rb', '.js', '.ts', '.cs', '.scala', '.groovy']

/**
 * The one file a classname names (`a.b.C` → `a/b/C.java` or the module `a/b.py`; a path without
 * its extension, as Ruff writes it), or undefined when none or several do.
 */
function fileOfClass(
  classname: string,
  inRepo: (file: string) => boolean,
  only?: string
): string | undefined {
  if (!/^[\w$./-]+$/.test(classname)) return undefined
  const path = classname.includes('/')
  const parts = path ? [classname] : classname.split('.')
  const roots = path ? [''] : SOURCE_ROOTS
  for (let n = parts.length; n > 0; n--) {
    const base = parts.slice(0, n).join('/')
    const found = roots
      .flatMap(root => (only ? [only] : EXTENSIONS).map(ext => `${root}${base}${ext}`))
      .filter(inRepo)
    if (found.length > 0) return found.length === 1 ? found[0] : undefined
  }
  return undefined
}
