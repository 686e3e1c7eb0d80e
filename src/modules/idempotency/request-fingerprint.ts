import { createHash, Hash } from 'node:crypto';

/**
 * SHA-256 (hex) of the canonical request: method, route template and body, the body's object
 * keys sorted at every level, so that key order and whitespace do not make two requests differ.
 * A text body (CSV) counts as the string it is.
 */
export function requestFingerprint(method: string, route: string, body: unknown): string {
  const hash = createHash('sha256');
  writeCanonicalJson(hash, [method.toUpperCase(), route, body ?? null]);
  return hash.digest('hex');
}

/** Literal JSON punctuation waiting on the work stack. */
class Token {
  constructor(readonly text: string) {}
}

/**
 * Iterative, not recursive: the body is hashed before its DTO is validated, and a deeply nested
 * body must be rejected by validation, not overflow the stack here.
 */
function writeCanonicalJson(hash: Hash, root: unknown): void {
  const pending: unknown[] = [root];
  const pushReversed = (items: unknown[]) => {
    for (let index = items.length - 1; index >= 0; index -= 1) pending.push(items[index]);
  };
  while (pending.length > 0) {
    const item = pending.pop();
    if (item instanceof Token) {
      hash.update(item.text);
    } else if (Array.isArray(item)) {
      const tokens: unknown[] = [new Token('[')];
      item.forEach((element, index) => tokens.push(...(index > 0 ? [new Token(',')] : []), element));
      tokens.push(new Token(']'));
      pushReversed(tokens);
    } else if (item !== null && typeof item === 'object') {
      const record = item as Record<string, unknown>;
      const tokens: unknown[] = [new Token('{')];
      Object.keys(record)
        .sort()
        .forEach((key, index) =>
          tokens.push(new Token(`${index > 0 ? ',' : ''}${JSON.stringify(key)}:`), record[key]),
        );
      tokens.push(new Token('}'));
      pushReversed(tokens);
    } else {
      hash.update(JSON.stringify(item) ?? 'null');
    }
  }
}
