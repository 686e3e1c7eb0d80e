/** A write sent with an `Idempotency-Key`: the key, and a hash of what was asked under it. */
export interface IdempotentRequest {
  key: string;
  /** SHA-256 (hex) of the method, the route and the canonical body; see requestFingerprint. */
  fingerprint: string;
}
