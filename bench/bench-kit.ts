// What the benchmarks share. Not a benchmark itself: bench/run.ts runs only *.bench.ts files.

export { seededRandom } from '../src/common/random/seeded-random';

export interface Figure {
  median: number;
  p95: number;
}

/** Median and 95th percentile of timings in milliseconds (sorts them in place). */
export function figureOf(timings: number[]): Figure {
  timings.sort((a, b) => a - b);
  return { median: timings[Math.floor(timings.length / 2)], p95: timings[Math.floor(timings.length * 0.95)] };
}

/**
 * A printer of figures as ratios against the same-run baseline, with the budget and whether it is
 * met; `decimals` is for the figures, the baseline gets one more.
 */
export function reporter(decimals: number) {
  return (name: string, figure: Figure, baseline: number, budget: number): void => {
    const verdict = figure.median <= budget ? 'met' : 'NOT met';
    console.log(
      `${name}: median ${figure.median.toFixed(decimals)} ms (p95 ${figure.p95.toFixed(decimals)} ms) = ` +
        `${(figure.median / baseline).toFixed(1)}× baseline ${baseline.toFixed(decimals + 1)} ms; budget ${budget} ms: ${verdict}`,
    );
  };
}
