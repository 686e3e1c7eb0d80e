// Errors adapters throw. Only VendorUnavailableError is retryable: the fallback providers and
// the gateway's back-off react to it; an unknown symbol is an answer, not a failure.

export class UnknownSymbolError extends Error {
  constructor(readonly symbol: string) {
    super(`unknown symbol ${symbol}`);
    this.name = 'UnknownSymbolError';
  }
}

export class VendorUnavailableError extends Error {
  constructor(
    readonly provider: string,
    reason: string,
    /** Set when the vendor said it is rate limiting us; the gateway waits this long before retrying. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(`${provider}: ${reason}`);
    this.name = 'VendorUnavailableError';
  }

  get rateLimited(): boolean {
    return this.retryAfterMs !== null;
  }
}

/** The vendor answered with something we cannot use (bad key, malformed payload). Not retryable. */
export class ProviderResponseError extends Error {
  constructor(
    readonly provider: string,
    reason: string,
  ) {
    super(`${provider}: ${reason}`);
    this.name = 'ProviderResponseError';
  }
}
