/** HTML tags in Markdown prose, as CommonMark recognises them. */

/**
 * An HTML tag as CommonMark recognises one in prose (anything else is literal text a reader sees):
 * `<name attr="value" …>` or `</name>`. Attribute values are whole, so a `>` inside quotes does not
 * end the tag. Linear: every repetition needs input the one before did not consume.
 */
export const HTML_TAG = new RegExp(
  [
    String.raw`<(?:([A-Za-z][A-Za-z0-9-]*)`,
    String.raw`((?:\s+[A-Za-z_:][A-Za-z0-9_.:-]*(?:\s*=\s*(?:[^\s"'=<>\`]+|'[^']*'|"[^"]*"))?)*)`,
    String.raw`\s*(\/?)>|\/([A-Za-z][A-Za-z0-9-]*)\s*>)`
  ].join(''),
  'g'
)

/** One attribute of a tag's attribute text: its name (group 1) and its value, if any. */
const ATTRIBUTE = /\s+([A-Za-z_:][A-Za-z0-9_.:-]*)(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?/g

/** Whether a tag's attribute text holds the attribute `name`, in any case and with any value. */
export function hasAttribute(attrs: string, name: string): boolean {
  for (const [, found] of attrs.matchAll(ATTRIBUTE)) if (found!.toLowerCase() === name) return true
  return false
}
