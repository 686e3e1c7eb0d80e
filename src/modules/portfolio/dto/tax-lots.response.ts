import { StreamableFile } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { money, percent, price, quantity } from '../portfolio-rounding';
import { ClosedLotPortion } from '../analytics/tax-lots';
import { OpenLots, RealizedGains, ValuedTaxLot } from '../tax-lots.service';
import { jsonAround, SerializedRows } from './serialized-rows';

const LOT_MATCHINGS = ['fifo', 'specific'];
const MATCHING_DESCRIPTION =
  'How sells were matched to lots: `specific` under that cost-basis method, else `fifo` (also under `average`, ' +
  'which has no lots)';

export class TaxLotResponse {
  @ApiProperty({ type: 'integer', example: 12, description: 'Id of the buy that opened the lot' })
  lot_id: number;

  @ApiProperty({ type: 'integer', description: 'The account holding the lot: each account has its own lots' })
  account_id: number;

  @ApiProperty({ example: 'AAPL' })
  symbol: string;

  @ApiProperty({ example: '2025-01-06', description: 'New York date of the buy that opened the lot' })
  acquired_on: string;

  @ApiProperty({ example: 3, description: 'Shares still open in the lot' })
  quantity: number;

  @ApiProperty({ example: 201, description: "The opening buy's price plus its fees per share, USD" })
  cost_per_share: number;

  @ApiProperty({ example: 603, description: 'quantity × cost_per_share, USD' })
  cost_basis: number;

  @ApiProperty({ example: 225.5, description: 'Live quote, USD per share (as in the positions)' })
  current_price: number;

  @ApiProperty({ example: 676.5, description: 'quantity × current_price, USD' })
  market_value: number;

  @ApiProperty({ example: 73.5, description: 'market_value − cost_basis, USD' })
  unrealized_pnl: number;

  @ApiProperty({ example: 12.1891, description: 'unrealized_pnl / cost_basis, percent' })
  unrealized_pnl_percent: number;

  @ApiProperty({
    type: 'integer',
    example: 65,
    description: 'Calendar days from acquired_on to today (New York)',
  })
  holding_days: number;

  @ApiProperty({
    enum: ['short', 'long'],
    example: 'short',
    description: 'long when held more than one year (acquired before the same date a year ago)',
  })
  term: 'short' | 'long';

  /** One open lot, rounded for the wire. */
  static from(this: void, lot: ValuedTaxLot): TaxLotResponse {
    return {
      lot_id: lot.lotId,
      account_id: lot.accountId!,
      symbol: lot.symbol,
      acquired_on: lot.acquiredOn,
      quantity: quantity(lot.quantity),
      cost_per_share: price(lot.costPerShare),
      cost_basis: money(lot.costBasis),
      current_price: price(lot.currentPrice),
      market_value: money(lot.marketValue),
      unrealized_pnl: money(lot.unrealizedPnl),
      unrealized_pnl_percent: percent(lot.unrealizedPnlPercent),
      holding_days: lot.holdingDays,
      term: lot.term,
    };
  }
}

export class TaxLotsResponse {
  @ApiProperty({ enum: LOT_MATCHINGS, example: 'fifo', description: MATCHING_DESCRIPTION })
  method: 'fifo' | 'specific';

  @ApiProperty({ type: [TaxLotResponse], description: 'By symbol, oldest lot first' })
  lots: TaxLotResponse[];

  @ApiProperty({ type: String, format: 'date-time' })
  as_of: string;

  /** Open lots, rounded for the wire. */
  static from(result: OpenLots): TaxLotsResponse {
    return {
      method: result.method,
      lots: result.lots.map(TaxLotResponse.from),
      as_of: result.asOf.toISOString(),
    };
  }

  /** The UTF-8 JSON of `from(result)`, its lot rows serialized once per cached list of lots. */
  static json(result: OpenLots): StreamableFile {
    return jsonAround(
      `{"method":${JSON.stringify(result.method)},"lots":`,
      lotRows.of(result.lots),
      `,"as_of":${JSON.stringify(result.asOf.toISOString())}}`,
    );
  }
}

const lotRows = new SerializedRows<ValuedTaxLot, TaxLotResponse>(TaxLotResponse.from);

export class RealizedLotResponse {
  @ApiProperty({ example: 'AAPL' })
  symbol: string;

  @ApiProperty({ type: 'integer', example: 42, description: 'Id of the sell that closed the portion' })
  sell_id: number;

  @ApiProperty({ example: '2024-01-05', description: 'New York date of the buy that opened the lot' })
  acquired_on: string;

  @ApiProperty({ example: '2025-02-03', description: 'New York date of the sell' })
  disposed_on: string;

  @ApiProperty({ example: 10, description: 'Shares of the lot closed by the sell' })
  quantity: number;

  @ApiProperty({
    example: 1490,
    description: "The portion's share of the sell's net proceeds (after fees), USD",
  })
  proceeds: number;

  @ApiProperty({ example: 1000, description: "quantity × the lot's cost per share, USD" })
  cost: number;

  @ApiProperty({ example: 490, description: 'proceeds − cost, USD' })
  gain: number;

  @ApiProperty({ enum: ['short', 'long'], example: 'long', description: 'long when held more than one year' })
  term: 'short' | 'long';

  /** One closed portion, rounded for the wire. */
  static from(this: void, portion: ClosedLotPortion): RealizedLotResponse {
    return {
      symbol: portion.symbol,
      sell_id: portion.sellId,
      acquired_on: portion.acquiredOn,
      disposed_on: portion.disposedOn,
      quantity: quantity(portion.quantity),
      proceeds: money(portion.proceeds),
      cost: money(portion.cost),
      gain: money(portion.gain),
      term: portion.term,
    };
  }
}

export class RealizedTotalsResponse {
  @ApiProperty({ example: 1788 })
  proceeds: number;

  @ApiProperty({ example: 1402 })
  cost: number;

  @ApiProperty({ example: 386 })
  gain: number;

  @ApiProperty({ example: -104 })
  short_term_gain: number;

  @ApiProperty({ example: 490 })
  long_term_gain: number;
}

export class RealizedResponse {
  @ApiProperty({ type: 'integer', example: 2025 })
  year: number;

  @ApiProperty({ enum: LOT_MATCHINGS, example: 'fifo', description: MATCHING_DESCRIPTION })
  method: 'fifo' | 'specific';

  @ApiProperty({ type: [RealizedLotResponse], description: 'In disposal order' })
  realized: RealizedLotResponse[];

  @ApiProperty({ type: RealizedTotalsResponse, description: 'USD' })
  totals: RealizedTotalsResponse;

  @ApiProperty({ type: String, format: 'date-time' })
  as_of: string;

  /** Closed lot portions of the year, with totals. */
  static from(result: RealizedGains): RealizedResponse {
    return {
      year: result.year,
      method: result.method,
      realized: result.portions.map(RealizedLotResponse.from),
      totals: totalsOf(result),
      as_of: result.asOf.toISOString(),
    };
  }

  /** The UTF-8 JSON of `from(result)`, its portion rows serialized once per cached list of portions. */
  static json(result: RealizedGains): StreamableFile {
    return jsonAround(
      `{"year":${JSON.stringify(result.year)},"method":${JSON.stringify(result.method)},"realized":`,
      portionRows.of(result.portions),
      `,"totals":${JSON.stringify(totalsOf(result))},"as_of":${JSON.stringify(result.asOf.toISOString())}}`,
    );
  }
}

function totalsOf(result: RealizedGains): RealizedTotalsResponse {
  return {
    proceeds: money(result.totals.proceeds),
    cost: money(result.totals.cost),
    gain: money(result.totals.gain),
    short_term_gain: money(result.totals.shortTermGain),
    long_term_gain: money(result.totals.longTermGain),
  };
}

const portionRows = new SerializedRows<ClosedLotPortion, RealizedLotResponse>(RealizedLotResponse.from);
