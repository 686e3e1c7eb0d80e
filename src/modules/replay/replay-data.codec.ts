import { PRICE_SCALE } from './replay-data.format';
import { HistoricalBar } from './replay-dataset';

/**
 * Encodes dense series (every series has one bar per historical day) into the Int32 column
 * blocks described at REPLAY_PRICES_FILE: deltas and offsets rather than levels, so they compress.
 */
export function encodeReplayPrices(series: HistoricalBar[][]): Int32Array {
  const days = series[0]?.length ?? 0;
  const cells = series.length * days;
  const encoded = new Int32Array(cells * 5);
  const scaled = (value: number): number => Math.round(value * PRICE_SCALE);
  series.forEach((bars, s) => {
    if (bars.length !== days) throw new Error(`series ${s} has ${bars.length} days, expected ${days}`);
    let previousClose = 0;
    bars.forEach((bar, d) => {
      const cell = s * days + d;
      const close = scaled(bar.close);
      const open = scaled(bar.open);
      encoded[cell] = close - previousClose;
      encoded[cells + cell] = open - close;
      encoded[2 * cells + cell] = scaled(bar.high) - Math.max(open, close);
      encoded[3 * cells + cell] = Math.min(open, close) - scaled(bar.low);
      encoded[4 * cells + cell] = bar.volume;
      previousClose = close;
    });
  });
  return encoded;
}
