/** A source file of about `chars` characters of real-looking code, `extra` at its end. */
export function source(name: string, chars: number, extra = ''): string {
  const out: string[] = []
  let size = 0
  for (let i = 0; size < chars; i++) {
    const line = `export function ${name}${i}(x) { return x * ${i} + ${i % 7} }`
    out.push(line)
    size += line.length + 1
  }
  return `${out.join('\n')}\n${extra}`
}
