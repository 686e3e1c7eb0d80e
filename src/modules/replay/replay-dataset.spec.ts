import { encodeReplayPrices } from './replay-data.codec';
import { ReplayUniverseFile } from './replay-data.format';
import { HistoricalBar, ReplayDataset } from './replay-dataset';

describe('ReplayDataset', () => {
  it('reads back every bar in dollars exactly as encoded, volumes included', () => {
    const bar = (close: number, day: number): HistoricalBar => ({
      open: close - 0.37,
      high: close + 1.2345,
      low: close - 2.5,
      close,
      volume: 1_000_000 + day * 37,
    });
    const series = [
      [101.25, 99.99, 100.0001, 180_000.5].map(bar),
      [4_512.33, 4_498.1, 4_530, 4_401.07].map(bar),
    ];
    const universe = {
      dates: ['2024-01-02', '2024-01-03', '2024-01-04', '2024-01-05'],
      stocks: [{ symbol: 'AAA' }],
      indices: [{ symbol: '^IDX', name: 'Index' }],
    } as unknown as ReplayUniverseFile;
    const dataset = new ReplayDataset(universe, encodeReplayPrices(series));
    for (const [index, symbol] of ['AAA', '^IDX'].entries()) {
      for (let day = 0; day < 4; day += 1) {
        const expected = series[index][day];
        const rounded = (value: number) => Math.round(value * 10_000) / 10_000;
        expect(dataset.bar(symbol, day)).toEqual({
          open: rounded(expected.open),
          high: rounded(expected.high),
          low: rounded(expected.low),
          close: rounded(expected.close),
          volume: expected.volume,
        });
        expect(dataset.closeOf(symbol, day)).toBe(rounded(expected.close));
        expect(dataset.volumeOf(symbol, day)).toBe(expected.volume);
      }
    }
  });
});
