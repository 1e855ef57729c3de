/**
 * PR text is untrusted: hidden HTML comments and invisible or direction-changing characters are
 * removed before it reaches a prompt, so no instruction can hide in what a person does not see.
 */
export function sanitizeUntrusted(text: string, max = 20_000): string {
  const cleaned = text
    .replace(/<!--[\s\S]*?(-->|$)/g, '')
    .replace(/[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD]/g, '')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '')
  return cleaned.length > max ? `${cleaned.slice(0, max)}\n… (cut)` : cleaned
}
