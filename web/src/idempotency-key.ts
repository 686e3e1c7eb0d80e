/** A random Idempotency-Key (crypto.randomUUID needs a secure context; getRandomValues does not). */
export function idempotencyKey(): string {
  return [...crypto.getRandomValues(new Uint8Array(16))]
    .map((byte) => byte.toString(16).padStart(2, '0'))
    .join('');
}
