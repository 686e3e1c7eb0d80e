import { TICKER_PATTERN, WATCHLIST_MAX_SYMBOLS } from '../preference-values';

export type WatchlistCheck =
  | { valid: true; symbols: string[] }
  | { valid: false; problem: 'too_many' }
  | { valid: false; problem: 'invalid_symbols'; offending: string[] }
  | { valid: false; problem: 'duplicate_symbols'; duplicates: string[] };

/**
 * Checks a watchlist sent as a bare JSON array, in the order the errors are reported: size first,
 * then malformed entries (listed as sent), then duplicates after upper-casing (each listed once).
 */
export function checkWatchlist(entries: readonly unknown[]): WatchlistCheck {
  if (entries.length > WATCHLIST_MAX_SYMBOLS) return { valid: false, problem: 'too_many' };

  const offending = entries.filter((entry) => !isTicker(entry)).map(describeAsSent);
  if (offending.length > 0) return { valid: false, problem: 'invalid_symbols', offending };

  const symbols = (entries as string[]).map((entry) => entry.toUpperCase());
  const duplicates = findRepeated(symbols);
  if (duplicates.length > 0) return { valid: false, problem: 'duplicate_symbols', duplicates };

  return { valid: true, symbols };
}

function isTicker(value: unknown): value is string {
  return typeof value === 'string' && TICKER_PATTERN.test(value);
}

function describeAsSent(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function findRepeated(symbols: readonly string[]): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const symbol of symbols) {
    if (seen.has(symbol)) repeated.add(symbol);
    seen.add(symbol);
  }
  return [...repeated];
}
