// Shape of the files the replay ships with; written by scripts/build-market-data.ts.

/** Prices are stored as integers in 1/PRICE_SCALE of a dollar (index points for indices). */
export const PRICE_SCALE = 10_000;
export const REPLAY_UNIVERSE_FILE = 'universe.json';
/** Brotli-compressed Int32 LE blocks, each `series × days` long, series = stocks then indices:
 * close minus previous close (first day: the close), open minus close, high minus max(open, close),
 * min(open, close) minus low, volume. */
export const REPLAY_PRICES_FILE = 'prices.i32.br';

export interface ReplayStockEntry {
  symbol: string;
  name: string;
  gicsSector: string;
  sector: string;
  /** First historical day with real data; before it the series is flat with no volume. */
  firstDate: string;
}

export interface ReplayUniverseFile {
  /** Historical trading days of the window, oldest first. */
  dates: string[];
  stocks: ReplayStockEntry[];
  indices: { symbol: string; name: string }[];
}
