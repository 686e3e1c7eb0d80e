// Analytics are reused while their inputs are the very same cached series. Remembering which
// series were used by identity numbers rather than by reference keeps an expired series from being
// held in memory by a result computed from it.

const seriesIds = new WeakMap<object, number>();
let lastSeriesId = 0;

function idOf(series: object): number {
  let id = seriesIds.get(series);
  if (id === undefined) {
    lastSeriesId += 1;
    id = lastSeriesId;
    seriesIds.set(series, id);
  }
  return id;
}

/** Equal for two maps exactly when they hold the very same arrays under the same keys, in the same order. */
export function seriesFingerprint(seriesByKey: ReadonlyMap<string, readonly unknown[]>): string {
  let fingerprint = '';
  for (const [key, series] of seriesByKey) fingerprint += `${key}=${idOf(series)};`;
  return fingerprint;
}
