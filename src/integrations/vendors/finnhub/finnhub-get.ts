import { HttpService } from '@nestjs/axios';
import { KeyedVendorOptions } from '../http/per-symbol-vendor.provider';
import { vendorGet } from '../http/vendor-http';
import { ProviderResponseError } from '../provider-errors';

/**
 * One Finnhub API call, for market data and news alike: the key goes in X-Finnhub-Token, and
 * anything but a 200 with a JSON body is a ProviderResponseError naming Finnhub's `error`, if any.
 */
export async function finnhubGet<T>(
  http: HttpService,
  options: KeyedVendorOptions,
  path: string,
  params: Record<string, string | number>,
): Promise<T> {
  const { status, data } = await vendorGet<T | { error?: string }>(
    http,
    'finnhub',
    `${options.baseUrl}${path}`,
    {
      params,
      headers: { 'X-Finnhub-Token': options.apiKey },
    },
  );
  if (status !== 200 || typeof data !== 'object' || data === null) {
    const error = data && typeof data === 'object' && 'error' in data && data.error ? `: ${data.error}` : '';
    throw new ProviderResponseError('finnhub', `HTTP ${status}${error}`);
  }
  return data as T;
}
