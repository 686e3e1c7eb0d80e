import { PRICE_SCALE, ReplayStockEntry, ReplayUniverseFile } from './replay-data.format';

/** One historical day of one series, in dollars (index points for indices). */
export interface HistoricalBar {
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/**
 * The decoded history: dense `series × days` columns, stocks first, then the indices. The levels
 * stay the scaled integers they were stored as (close, open, high, low, volume blocks of one
 * Int32Array, decoded from deltas in place): 12 MB for the shipped set, where five Float64Array
 * columns in dollars took 25 MB beside it. A read divides by PRICE_SCALE, which gives the very
 * number the dollar columns held.
 */
export class ReplayDataset {
  readonly days: number;
  private readonly seriesIndex = new Map<string, number>();
  private readonly cells: number;

  /** Takes over `encoded`, whose deltas become levels. */
  constructor(
    readonly universe: ReplayUniverseFile,
    private readonly levels: Int32Array,
  ) {
    this.days = universe.dates.length;
    const symbols = [
      ...universe.stocks.map((stock) => stock.symbol),
      ...universe.indices.map((index) => index.symbol),
    ];
    symbols.forEach((symbol, index) => this.seriesIndex.set(symbol, index));
    const cells = symbols.length * this.days;
    this.cells = cells;
    if (levels.length !== cells * 5) {
      throw new Error(`replay prices hold ${levels.length} values, expected ${cells * 5}`);
    }
    for (let s = 0; s < symbols.length; s += 1) {
      let close = 0;
      for (let cell = s * this.days, end = cell + this.days; cell < end; cell += 1) {
        close += levels[cell];
        const open = close + levels[cells + cell];
        const high = Math.max(open, close) + levels[2 * cells + cell];
        const low = Math.min(open, close) - levels[3 * cells + cell];
        if (high > 0x7fffffff || low < -0x80000000)
          throw new Error(`replay price out of range in series ${s}`);
        levels[cell] = close;
        levels[cells + cell] = open;
        levels[2 * cells + cell] = high;
        levels[3 * cells + cell] = low;
      }
    }
  }

  get stocks(): readonly ReplayStockEntry[] {
    return this.universe.stocks;
  }

  has(symbol: string): boolean {
    return this.seriesIndex.has(symbol);
  }

  bar(symbol: string, day: number): HistoricalBar {
    const cell = this.cell(symbol, day);
    const { levels, cells } = this;
    return {
      open: levels[cells + cell] / PRICE_SCALE,
      high: levels[2 * cells + cell] / PRICE_SCALE,
      low: levels[3 * cells + cell] / PRICE_SCALE,
      close: levels[cell] / PRICE_SCALE,
      volume: levels[4 * cells + cell],
    };
  }

  closeOf(symbol: string, day: number): number {
    return this.levels[this.cell(symbol, day)] / PRICE_SCALE;
  }

  volumeOf(symbol: string, day: number): number {
    return this.levels[4 * this.cells + this.cell(symbol, day)];
  }

  private cell(symbol: string, day: number): number {
    const series = this.seriesIndex.get(symbol);
    if (series === undefined) throw new Error(`${symbol} is not in the replay universe`);
    if (!Number.isInteger(day) || day < 0 || day >= this.days)
      throw new Error(`day ${day} is outside the window`);
    return series * this.days + day;
  }
}
