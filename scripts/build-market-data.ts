// Converts the shared market CSVs (../shared/data/market/) into the compact files the replay
// provider ships with: a small JSON universe and one brotli-compressed block of Int32 columns.
// Run: npx tsx scripts/build-market-data.ts [sourceDir]
// The cleaning rules are documented in README.md ("Market data") and applied here, once.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gunzipSync } from 'node:zlib';
import { encodeReplayPrices } from '../src/modules/replay/replay-data.codec';
import {
  REPLAY_PRICES_FILE,
  REPLAY_UNIVERSE_FILE,
  ReplayUniverseFile,
} from '../src/modules/replay/replay-data.format';
import { REPLAY_DATA_DIR } from '../src/modules/replay/replay-data.loader';

interface Row {
  open: number | null;
  high: number | null;
  low: number | null;
  close: number;
  volume: number;
}

const INDICES = [
  { symbol: '^GSPC', name: 'S&P 500' },
  { symbol: '^DJI', name: 'Dow Jones' },
  { symbol: '^IXIC', name: 'NASDAQ' },
];

/** Share dividends that behave like a 2:1 split: history before the date is halved. */
const TWO_FOR_ONE_SHARE_DIVIDENDS = [
  { symbol: 'DISCA', date: '2014-08-07' },
  { symbol: 'DISCK', date: '2014-08-07' },
];
/** Spin-offs: earlier prices are scaled so that the distribution day's overnight gap disappears. */
const SPIN_OFFS = [
  { symbol: 'EBAY', date: '2015-07-20' },
  { symbol: 'NI', date: '2015-07-02' },
];

function parseCsvLine(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const char = line[i];
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      fields.push(field);
      field = '';
    } else field += char;
  }
  fields.push(field);
  return fields;
}

function readCsv(text: string): string[][] {
  return text
    .split('\n')
    .slice(1)
    .filter((line) => line.length > 0)
    .map(parseCsvLine);
}

const optionalNumber = (value: string): number | null => (value === '' ? null : Number(value));

function main(): void {
  const sourceDir = resolve(process.argv[2] ?? join(__dirname, '../../shared/data/market'));
  const outputDir = REPLAY_DATA_DIR;

  const constituents = readCsv(readFileSync(join(sourceDir, 'constituents.csv'), 'utf8')).map(
    ([symbol, name, gicsSector, sector]) => ({ symbol, name, gicsSector, sector }),
  );
  const dailyRows = readCsv(
    gunzipSync(readFileSync(join(sourceDir, 'daily-2013-2018.csv.gz'))).toString('utf8'),
  );
  const indexRows = readCsv(readFileSync(join(sourceDir, 'indices-2013-2018.csv'), 'utf8'));

  const dates = indexRows.filter((row) => row[0] === INDICES[0].symbol).map((row) => row[1]);
  const dateIndex = new Map(dates.map((date, index) => [date, index]));

  const bySymbol = new Map<string, Map<string, Row>>();
  const put = (symbol: string, date: string, row: Row): void => {
    if (!dateIndex.has(date)) throw new Error(`${symbol} ${date}: not a trading day of the window`);
    if (!bySymbol.has(symbol)) bySymbol.set(symbol, new Map());
    bySymbol.get(symbol)!.set(date, row);
  };
  for (const [symbol, date, open, high, low, close, volume] of dailyRows) {
    put(symbol, date, {
      open: optionalNumber(open),
      high: optionalNumber(high),
      low: optionalNumber(low),
      close: Number(close),
      volume: Number(volume),
    });
  }
  for (const [symbol, date, open, high, low, close] of indexRows) {
    put(symbol, date, {
      open: Number(open),
      high: Number(high),
      low: Number(low),
      close: Number(close),
      volume: 0,
    });
  }

  // Known bad records (see ../shared/data/README.md).
  bySymbol.get('LNT')!.get('2016-05-19')!.close *= 2;
  bySymbol.get('CHD')!.get('2014-05-19')!.open = bySymbol.get('CHD')!.get('2014-05-16')!.close;

  const series = [...constituents.map((c) => c.symbol), ...INDICES.map((index) => index.symbol)];
  const days = dates.length;
  const open = new Float64Array(series.length * days);
  const high = new Float64Array(series.length * days);
  const low = new Float64Array(series.length * days);
  const close = new Float64Array(series.length * days);
  const volume = new Float64Array(series.length * days);
  const firstDayIndex: number[] = [];

  series.forEach((symbol, s) => {
    const rows = bySymbol.get(symbol);
    if (!rows) throw new Error(`no prices for ${symbol}`);
    const first = Math.min(...[...rows.keys()].map((date) => dateIndex.get(date)!));
    firstDayIndex.push(first);
    const firstClose = rows.get(dates[first])!.close;
    let previousClose = firstClose;
    for (let d = 0; d < days; d += 1) {
      const cell = s * days + d;
      const row = rows.get(dates[d]);
      if (!row) {
        // Before the listing and inside gaps the price stands still, with no volume.
        const flat = d < first ? firstClose : previousClose;
        open[cell] = high[cell] = low[cell] = close[cell] = flat;
        volume[cell] = 0;
        continue;
      }
      const dayOpen = row.open ?? previousClose;
      let dayHigh = row.high ?? Math.max(dayOpen, row.close);
      let dayLow = row.low ?? Math.min(dayOpen, row.close);
      if (dayHigh < dayLow) [dayHigh, dayLow] = [dayLow, dayHigh];
      open[cell] = dayOpen;
      high[cell] = Math.max(dayHigh, dayOpen, row.close);
      low[cell] = Math.min(dayLow, dayOpen, row.close);
      close[cell] = row.close;
      volume[cell] = row.volume;
      previousClose = row.close;
    }
  });

  const scaleHistoryBefore = (
    symbol: string,
    date: string,
    priceFactor: number,
    volumeFactor: number,
  ): void => {
    const s = series.indexOf(symbol);
    const until = dateIndex.get(date)!;
    for (let d = 0; d < until; d += 1) {
      const cell = s * days + d;
      open[cell] *= priceFactor;
      high[cell] *= priceFactor;
      low[cell] *= priceFactor;
      close[cell] *= priceFactor;
      volume[cell] = Math.round(volume[cell] * volumeFactor);
    }
  };
  for (const { symbol, date } of TWO_FOR_ONE_SHARE_DIVIDENDS) scaleHistoryBefore(symbol, date, 0.5, 2);
  for (const { symbol, date } of SPIN_OFFS) {
    const s = series.indexOf(symbol);
    const d = dateIndex.get(date)!;
    scaleHistoryBefore(symbol, date, open[s * days + d] / close[s * days + d - 1], 1);
  }

  const encoded = encodeReplayPrices(
    series.map((_, s) =>
      Array.from({ length: days }, (_, d) => {
        const cell = s * days + d;
        return {
          open: open[cell],
          high: high[cell],
          low: low[cell],
          close: close[cell],
          volume: volume[cell],
        };
      }),
    ),
  );
  const compressed = brotliCompressSync(Buffer.from(encoded.buffer), {
    params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_LGWIN]: 24 },
  });
  writeFileSync(join(outputDir, REPLAY_PRICES_FILE), compressed);

  const universe: ReplayUniverseFile = {
    dates,
    stocks: constituents.map((c, s) => ({ ...c, firstDate: dates[firstDayIndex[s]] })),
    indices: INDICES,
  };
  writeFileSync(join(outputDir, REPLAY_UNIVERSE_FILE), JSON.stringify(universe));
  console.log(`${series.length} series x ${days} days -> ${compressed.length} bytes`);
}

main();
