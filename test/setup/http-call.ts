/** Every request of a concurrency test must be answered within this time. */
export const ANSWER_WITHIN_MS = 5000;

export interface HttpAnswer {
  status: number;
  /** Parsed JSON, or null for an empty body. */
  body: unknown;
  elapsedMs: number;
}

export interface HttpCallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as given (set its content-type in `headers`). */
  body?: object | string;
  /** How long the answer may take; ANSWER_WITHIN_MS unless given. */
  timeoutMs?: number;
}

/**
 * One request to a listening test server over a real socket, aborted after ANSWER_WITHIN_MS (or `timeoutMs`): a
 * request that hangs fails the test with a timeout instead of stalling the suite.
 */
export async function httpCall(url: string, options: HttpCallOptions = {}): Promise<HttpAnswer> {
  const started = performance.now();
  const { body } = options;
  const json = typeof body === 'object';
  const response = await fetch(url, {
    method: options.method ?? 'GET',
    headers: { ...(json ? { 'content-type': 'application/json' } : {}), ...options.headers },
    body: typeof body === 'object' ? JSON.stringify(body) : body,
    signal: AbortSignal.timeout(options.timeoutMs ?? ANSWER_WITHIN_MS),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text === '' ? null : (JSON.parse(text) as unknown),
    elapsedMs: performance.now() - started,
  };
}

/** Sends all requests at once; fails with every request that did not answer in time. */
export async function allAtOnce(calls: (() => Promise<HttpAnswer>)[]): Promise<HttpAnswer[]> {
  const settled = await Promise.allSettled(calls.map((call) => call()));
  const failures = settled.flatMap((result, index) =>
    result.status === 'rejected' ? [`request ${index}: ${String(result.reason)}`] : [],
  );
  if (failures.length > 0) throw new Error(`Requests without an answer:\n${failures.join('\n')}`);
  return settled.map((result) => (result as PromiseFulfilledResult<HttpAnswer>).value);
}
