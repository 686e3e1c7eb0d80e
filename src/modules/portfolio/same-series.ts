// The market-data version of daily-close series, which the portfolio's caches name in their keys
// (performance, risk, return histories, the split-basis closes). The provider cache answers a
// frozen series that every reader shares, and a refetch answers a new array: so a frozen series is
// its own version, numbered the first time it is seen. The WeakMap below only names series; it
// keeps nothing alive and computes nothing, so it is not a cache. A series that is not frozen may
// change in place: it has no version to keep, and gets a new number every time it is asked about.

const numbered = new WeakMap<object, number>();
let lastVersion = 0;

/** The market-data version of one series: the same number while it is the very same frozen array. */
export function seriesVersion(series: readonly unknown[]): number {
  const known = numbered.get(series);
  if (known !== undefined) return known;
  lastVersion += 1;
  if (Object.isFrozen(series)) numbered.set(series, lastVersion);
  return lastVersion;
}

/** The market-data version of a set of series: equal when each key names the same version, in the same order. */
export function seriesFingerprint(seriesByKey: ReadonlyMap<string, readonly unknown[]>): string {
  let fingerprint = '';
  for (const [key, series] of seriesByKey) fingerprint += `${key}=${seriesVersion(series)};`;
  return fingerprint;
}
