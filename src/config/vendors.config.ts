import { registerAs } from '@nestjs/config';
import { HttpUrlVar, readEnv, StringVar } from './env';

/** Every vendor's key and address, read once: the market and news providers of a vendor share them. */
class VendorsEnv {
  @HttpUrlVar()
  YAHOO_FINANCE_BASE_URL?: string;

  @HttpUrlVar()
  YAHOO_FINANCE_COOKIE_URL?: string;

  @StringVar()
  ALPHA_VANTAGE_API_KEY?: string;

  @HttpUrlVar()
  ALPHA_VANTAGE_BASE_URL?: string;

  @StringVar()
  FINNHUB_API_KEY?: string;

  @HttpUrlVar()
  FINNHUB_BASE_URL?: string;

  @StringVar()
  NEWS_API_KEY?: string;

  @HttpUrlVar()
  NEWS_API_BASE_URL?: string;
}

export type VendorKeyVariable = 'ALPHA_VANTAGE_API_KEY' | 'FINNHUB_API_KEY' | 'NEWS_API_KEY';

export const vendorsConfig = registerAs('vendors', () => {
  const env = readEnv(VendorsEnv);
  return {
    yahoo: {
      baseUrl: env.YAHOO_FINANCE_BASE_URL ?? 'https://query1.finance.yahoo.com',
      cookieUrl: env.YAHOO_FINANCE_COOKIE_URL ?? 'https://fc.yahoo.com',
    },
    alphaVantage: {
      apiKey: env.ALPHA_VANTAGE_API_KEY ?? null,
      baseUrl: env.ALPHA_VANTAGE_BASE_URL ?? 'https://www.alphavantage.co',
    },
    finnhub: { apiKey: env.FINNHUB_API_KEY ?? null, baseUrl: env.FINNHUB_BASE_URL ?? 'https://finnhub.io' },
    newsApi: { apiKey: env.NEWS_API_KEY ?? null, baseUrl: env.NEWS_API_BASE_URL ?? 'https://newsapi.org' },
  };
});

export type VendorsConfig = ReturnType<typeof vendorsConfig>;

/**
 * Whether a vendor's key is set (blank counts as unset), for the namespaces that choose providers
 * and must stop the boot when the chosen one has no key. The key's value is vendorsConfig's.
 */
export function vendorKeyIsSet(variable: VendorKeyVariable): boolean {
  return (process.env[variable] ?? '').trim() !== '';
}
