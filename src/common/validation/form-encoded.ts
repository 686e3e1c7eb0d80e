/**
 * application/x-www-form-urlencoded as the WHATWG URL standard reads it (like browsers and
 * Python's parse_qsl): `+` is a space, a malformed percent-escape stays as written, escaped bytes
 * that are not UTF-8 become U+FFFD, and a repeated name gives a list. Used for form bodies and
 * query strings.
 */
export function parseFormEncoded(text: string): Record<string, string | string[]> {
  const fields = new Map<string, string | string[]>();
  for (const [name, value] of new URLSearchParams(text)) {
    const previous = fields.get(name);
    fields.set(name, previous === undefined ? value : [previous, value].flat());
  }
  // fromEntries defines every name as an own property, `__proto__` included.
  return Object.fromEntries(fields);
}
