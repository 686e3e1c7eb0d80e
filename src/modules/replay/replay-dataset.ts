import { PRICE_SCALE, ReplayStockEntry, ReplayUniverseFile } from './replay-data.format';

/** One historical day of one series, in dollars (index points for indices). */
export interface HistoricalBar {
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** The decoded history: dense `series × days` columns, stocks first, then the indices. */
export class ReplayDataset {
  readonly days: number;
  private readonly seriesIndex = new Map<string, number>();
  private readonly open: Float64Array;
  private readonly high: Float64Array;
  private readonly low: Float64Array;
  private readonly close: Float64Array;
  private readonly volume: Float64Array;

  constructor(
    readonly universe: ReplayUniverseFile,
    encoded: Int32Array,
  ) {
    this.days = universe.dates.length;
    const symbols = [
      ...universe.stocks.map((stock) => stock.symbol),
      ...universe.indices.map((index) => index.symbol),
    ];
    symbols.forEach((symbol, index) => this.seriesIndex.set(symbol, index));
    const cells = symbols.length * this.days;
    if (encoded.length !== cells * 5) {
      throw new Error(`replay prices hold ${encoded.length} values, expected ${cells * 5}`);
    }
    this.open = new Float64Array(cells);
    this.high = new Float64Array(cells);
    this.low = new Float64Array(cells);
    this.close = new Float64Array(cells);
    this.volume = new Float64Array(cells);
    for (let s = 0; s < symbols.length; s += 1) {
      let close = 0;
      for (let cell = s * this.days, end = cell + this.days; cell < end; cell += 1) {
        close += encoded[cell];
        const open = close + encoded[cells + cell];
        this.close[cell] = close / PRICE_SCALE;
        this.open[cell] = open / PRICE_SCALE;
        this.high[cell] = (Math.max(open, close) + encoded[2 * cells + cell]) / PRICE_SCALE;
        this.low[cell] = (Math.min(open, close) - encoded[3 * cells + cell]) / PRICE_SCALE;
        this.volume[cell] = encoded[4 * cells + cell];
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
    return {
      open: this.open[cell],
      high: this.high[cell],
      low: this.low[cell],
      close: this.close[cell],
      volume: this.volume[cell],
    };
  }

  closeOf(symbol: string, day: number): number {
    return this.close[this.cell(symbol, day)];
  }

  volumeOf(symbol: string, day: number): number {
    return this.volume[this.cell(symbol, day)];
  }

  private cell(symbol: string, day: number): number {
    const series = this.seriesIndex.get(symbol);
    if (series === undefined) throw new Error(`${symbol} is not in the replay universe`);
    if (!Number.isInteger(day) || day < 0 || day >= this.days)
      throw new Error(`day ${day} is outside the window`);
    return series * this.days + day;
  }
}
