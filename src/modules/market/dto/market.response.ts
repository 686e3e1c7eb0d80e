import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { DailyBar, StockSplit, SymbolMatch } from '../../../integrations/vendors';
import {
  BatchQuotes,
  IndexLevel,
  MarketSummary,
  PriceHistory,
  StockQuote,
  SymbolSplits,
} from '../market.types';

/** Prices and changes are sent with 2 decimals, percentages too; computing is done unrounded. */
const round2 = (value: number): number => Math.round(value * 100) / 100;
/** Price history keeps 4 decimals: the replay's split-adjusted history has them. */
const round4 = (value: number): number => Math.round(value * 10_000) / 10_000;

export class StockResponse {
  @ApiProperty({ example: 'AAPL' })
  symbol: string;

  @ApiProperty({ example: 'Apple Inc.' })
  name: string;

  @ApiProperty({ example: 159.54 })
  price: number;

  @ApiProperty({ example: -4.31, description: 'Negative for a loss' })
  change: number;

  @ApiProperty({ example: -2.63, description: 'Percent, negative for a loss' })
  changePercent: number;

  static from(quote: StockQuote): StockResponse {
    return {
      symbol: quote.symbol,
      name: quote.name,
      price: round2(quote.price),
      change: round2(quote.change),
      changePercent: round2(quote.changePercent),
    };
  }
}

export class BatchErrorEntry {
  @ApiProperty({ example: 'Stock XYZ not found' })
  error: string;
}

export class BatchQuotesResponse {
  @ApiProperty({
    type: 'object',
    additionalProperties: {
      oneOf: [{ $ref: getSchemaPath(StockResponse) }, { $ref: getSchemaPath(BatchErrorEntry) }],
    },
    description: 'One entry per requested symbol: a Stock, or `{error}` when there is no data for it',
  })
  data: Record<string, StockResponse | BatchErrorEntry>;

  @ApiProperty({ type: [String], example: ['AAPL', 'XYZ'] })
  requested_symbols: string[];

  static from(batch: BatchQuotes): BatchQuotesResponse {
    const data: BatchQuotesResponse['data'] = {};
    for (const [symbol, entry] of Object.entries(batch.data)) {
      data[symbol] = 'error' in entry ? { error: entry.error } : StockResponse.from(entry);
    }
    return { data, requested_symbols: batch.requestedSymbols };
  }
}

export class MarketIndexResponse {
  @ApiProperty({ example: 'S&P 500' })
  name: string;

  @ApiProperty({ example: 2681.66 })
  value: number;

  @ApiProperty({ example: -20.6 })
  change: number;

  @ApiProperty({ example: -0.5 })
  changePercent: number;

  static from(index: IndexLevel): MarketIndexResponse {
    return {
      name: index.name,
      value: round2(index.value),
      change: round2(index.change),
      changePercent: round2(index.changePercent),
    };
  }
}

export class MarketSummaryResponse {
  @ApiProperty({ type: [MarketIndexResponse] })
  indices: MarketIndexResponse[];

  @ApiProperty({ type: [StockResponse], description: 'The 5 largest gains of the day by changePercent' })
  topGainers: StockResponse[];

  @ApiProperty({ type: [StockResponse], description: 'The 5 largest losses of the day by changePercent' })
  topLosers: StockResponse[];

  static from(summary: MarketSummary): MarketSummaryResponse {
    return {
      indices: summary.indices.map(MarketIndexResponse.from),
      topGainers: summary.topGainers.map(StockResponse.from),
      topLosers: summary.topLosers.map(StockResponse.from),
    };
  }
}

export class PriceBarResponse {
  @ApiProperty({ format: 'date', example: '2026-11-20' })
  date: string;

  @ApiProperty()
  open: number;

  @ApiProperty()
  high: number;

  @ApiProperty()
  low: number;

  @ApiProperty()
  close: number;

  @ApiProperty({ description: 'Shares traded (0 for indices)' })
  volume: number;

  static from(bar: DailyBar): PriceBarResponse {
    return {
      date: bar.date,
      open: round4(bar.open),
      high: round4(bar.high),
      low: round4(bar.low),
      close: round4(bar.close),
      volume: Math.round(bar.volume),
    };
  }
}

export class PriceHistoryResponse {
  @ApiProperty({ example: 'AAPL' })
  symbol: string;

  @ApiProperty({ enum: ['1d', '1wk', '1mo'] })
  interval: string;

  @ApiProperty({ type: [PriceBarResponse], description: 'Oldest first' })
  bars: PriceBarResponse[];

  static from(history: PriceHistory): PriceHistoryResponse {
    return {
      symbol: history.symbol,
      interval: history.interval,
      bars: history.bars.map(PriceBarResponse.from),
    };
  }
}

export class SymbolMatchResponse {
  @ApiProperty({ example: 'AAPL' })
  symbol: string;

  @ApiProperty({ example: 'Apple Inc.' })
  name: string;

  static from(match: SymbolMatch): SymbolMatchResponse {
    return { symbol: match.symbol, name: match.name };
  }
}

export class StockSplitResponse {
  @ApiProperty({
    example: '2025-04-21',
    description: 'Ex-date (YYYY-MM-DD): the first session on the new basis',
  })
  date: string;

  @ApiProperty({ example: '7:1', description: 'New shares : old shares ("1:10" is a reverse split)' })
  ratio: string;

  static from(split: StockSplit): StockSplitResponse {
    return { date: split.date, ratio: `${split.to}:${split.from}` };
  }
}

export class StockSplitsResponse {
  @ApiProperty({ example: 'AAPL' })
  symbol: string;

  @ApiProperty({
    example: true,
    description:
      "Whether the provider's closes are split-adjusted (before a split, divided by its ratio) rather than as traded",
  })
  adjusted_closes: boolean;

  @ApiProperty({ type: [StockSplitResponse], description: 'The splits the provider knows, oldest first' })
  splits: StockSplitResponse[];

  static from(splits: SymbolSplits): StockSplitsResponse {
    return {
      symbol: splits.symbol,
      adjusted_closes: splits.adjustedCloses,
      splits: splits.splits.map(StockSplitResponse.from),
    };
  }
}
