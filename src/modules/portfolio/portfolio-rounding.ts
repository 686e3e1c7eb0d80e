// Rounding at the response edge only; all computing is unrounded.

const roundTo = (decimals: number) => {
  const factor = 10 ** decimals;
  return (value: number): number => {
    const rounded = Math.round(value * factor) / factor;
    return Object.is(rounded, -0) ? 0 : rounded;
  };
};

/** USD amounts: cents. */
export const money = roundTo(2);
/** Per-share prices: as quoted, to 4 decimals (split-adjusted history carries 4). */
export const price = roundTo(4);
/** Percentages (12.3456 means 12.3456%). */
export const percent = roundTo(4);
/** Fractions and ratios (volatility 0.183456, beta, Sharpe). */
export const ratio = roundTo(6);
/** Share quantities: the 8 decimals the ledger stores. */
export const quantity = roundTo(8);

export function nullable<T>(value: T | null, round: (value: T) => T): T | null {
  return value === null ? null : round(value);
}
