import { HttpService } from '@nestjs/axios';
import { AxiosError, AxiosResponse } from 'axios';
import { firstValueFrom } from 'rxjs';
import { ProviderResponseError, VendorUnavailableError } from '../provider-errors';

/** When a vendor rate-limits without saying for how long. */
export const DEFAULT_RATE_LIMIT_BACKOFF_MS = 60_000;

export interface VendorResponse<T> {
  status: number;
  data: T;
  headers: AxiosResponse['headers'];
}

/**
 * GET a vendor URL and classify what can go wrong: timeouts, network errors, 5xx and 429 are
 * retryable (VendorUnavailableError, 429 with its Retry-After); 401/403 mean a bad key or plan
 * (ProviderResponseError). Other statuses are returned for the adapter to read (a 404 may mean
 * "unknown symbol").
 */
export async function vendorGet<T>(
  http: HttpService,
  provider: string,
  url: string,
  options: { params?: Record<string, string | number>; headers?: Record<string, string> } = {},
): Promise<VendorResponse<T>> {
  let response: AxiosResponse<T>;
  try {
    response = await firstValueFrom(
      http.get<T>(url, { params: options.params, headers: options.headers, validateStatus: () => true }),
    );
  } catch (error) {
    const reason = error instanceof AxiosError && error.code ? error.code : 'request failed';
    throw new VendorUnavailableError(provider, reason);
  }
  if (response.status === 429) {
    throw new VendorUnavailableError(provider, 'HTTP 429', retryAfterMs(response.headers['retry-after']));
  }
  if (response.status >= 500) throw new VendorUnavailableError(provider, `HTTP ${response.status}`);
  if (response.status === 401 || response.status === 403) {
    throw new ProviderResponseError(provider, `HTTP ${response.status}: check the API key and plan`);
  }
  return { status: response.status, data: response.data, headers: response.headers };
}

function retryAfterMs(header: unknown): number {
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : DEFAULT_RATE_LIMIT_BACKOFF_MS;
}

/** A vendor number that may come as a string ("123.45", "1.5%") or be missing. */
export function vendorNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const parsed = Number.parseFloat(value.replace('%', ''));
  return Number.isFinite(parsed) ? parsed : null;
}

export function requireNumber(provider: string, value: unknown, field: string): number {
  const parsed = vendorNumber(value);
  if (parsed === null) throw new ProviderResponseError(provider, `missing or invalid ${field}`);
  return parsed;
}
