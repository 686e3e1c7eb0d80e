export interface ValuePoint {
  date: string;
  value: number;
}

export interface Drawdown {
  /** Largest fall from a running peak, as a positive fraction of that peak (0 when none). */
  maxDrawdown: number;
  /** Date of the peak before the largest fall; null when the series never falls. */
  peakDate: string | null;
  /** Date of the lowest value after that peak; null when the series never falls. */
  troughDate: string | null;
}

/** max over t of (max_{s ≤ t} V_s − V_t) / max_{s ≤ t} V_s. */
export function maxDrawdown(points: readonly ValuePoint[]): Drawdown {
  const result: Drawdown = { maxDrawdown: 0, peakDate: null, troughDate: null };
  let peak: ValuePoint | null = null;
  for (const point of points) {
    if (peak === null || point.value > peak.value) {
      peak = point;
      continue;
    }
    const fall = (peak.value - point.value) / peak.value;
    if (fall > result.maxDrawdown) {
      result.maxDrawdown = fall;
      result.peakDate = peak.date;
      result.troughDate = point.date;
    }
  }
  return result;
}
