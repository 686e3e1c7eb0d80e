/** Most name=value pairs a form body may carry; login, the widest form, has 6 names. */
export const MAX_FORM_FIELDS = 64;

/** A form body with more than `maxFields` pairs, refused before they are collected. */
export class TooManyFormFields extends Error {
  constructor(readonly maxFields: number) {
    super(`more than ${maxFields} fields in the form`);
  }
}

/**
 * application/x-www-form-urlencoded as the WHATWG URL standard reads it (like browsers and
 * Python's parse_qsl): `+` is a space, a malformed percent-escape stays as written, escaped bytes
 * that are not UTF-8 become U+FFFD, and a repeated name gives a list. Used for form bodies and
 * query strings; with `maxFields`, more pairs than that throw TooManyFormFields.
 */
export function parseFormEncoded(text: string, maxFields = Infinity): Record<string, string | string[]> {
  const fields = new Map<string, string | string[]>();
  let count = 0;
  for (const [name, value] of new URLSearchParams(text)) {
    count += 1;
    if (count > maxFields) throw new TooManyFormFields(maxFields);
    const previous = fields.get(name);
    if (previous === undefined) fields.set(name, value);
    else if (Array.isArray(previous)) previous.push(value);
    else fields.set(name, [previous, value]);
  }
  // fromEntries defines every name as an own property, `__proto__` included.
  return Object.fromEntries(fields);
}
