// What the benchmarks share. Not a benchmark itself: bench/run.ts runs only *.bench.ts files.

/** Deterministic uniform [0, 1) generator (mulberry32) so that every run measures the same data. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
