import { StreamableFile } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ValuedPosition, weighWithCash } from '../analytics/position-valuation';
import { money, percent, price, quantity } from '../portfolio-rounding';
import { jsonAround, jsonText, SerializedRows } from './serialized-rows';

/** The spec's Position (part 2), field for field. */
export class PositionResponse {
  @ApiProperty({ example: 'AAPL' })
  symbol: string;

  @ApiProperty({ description: 'Shares held' })
  quantity: number;

  @ApiProperty({ description: 'Live quote, USD per share' })
  current_price: number;

  @ApiProperty({
    description:
      'Cost basis of the shares held (buys incl. fees, less the cost of shares sold) by the cost-basis method ' +
      '(average cost by default; the open lots under fifo and specific), USD',
  })
  cost_basis: number;

  @ApiProperty({ description: 'quantity × current_price, USD' })
  market_value: number;

  @ApiProperty({ description: 'market_value − cost_basis, USD' })
  unrealized_pnl: number;

  @ApiProperty({ description: 'unrealized_pnl / cost_basis, percent' })
  unrealized_pnl_percent: number;

  @ApiProperty({ description: "quantity × the quote's change since the previous close, USD" })
  day_change: number;

  @ApiProperty({ description: "day_change / yesterday's value of the position, percent" })
  day_change_percent: number;

  @ApiProperty({ description: 'Percent of the total market value; the weights sum to 100' })
  weight: number;

  @ApiProperty({ example: 'technology', description: "One of the spec's market sectors, or unknown" })
  sector: string;

  @ApiProperty({ type: String, format: 'date-time', description: 'Time of the quote' })
  last_updated: string;

  /** Rounded for the wire: prices and money in cents, percentages to 2 decimals. */
  static from(position: ValuedPosition): PositionResponse {
    return {
      symbol: position.symbol,
      quantity: quantity(position.quantity),
      current_price: price(position.currentPrice),
      cost_basis: money(position.costBasis),
      market_value: money(position.marketValue),
      unrealized_pnl: money(position.unrealizedPnl),
      unrealized_pnl_percent: percent(position.unrealizedPnlPercent),
      day_change: money(position.dayChange),
      day_change_percent: percent(position.dayChangePercent),
      weight: percent(position.weight),
      sector: position.sector,
      last_updated: position.lastUpdated.toISOString(),
    };
  }
}

export class PositionsResponse {
  @ApiProperty({
    type: [PositionResponse],
    description:
      'Heaviest first; with include_cash=true their weights are of the positions and the cash together',
  })
  positions: PositionResponse[];

  @ApiPropertyOptional({ example: 1250.4, description: 'With include_cash=true only: the cash balance, USD' })
  cash_balance?: number;

  @ApiPropertyOptional({
    example: 4.76,
    description:
      'With include_cash=true only: the cash balance in percent of the positions and the cash together; ' +
      '0 when the balance is negative (it is then no holding and the positions keep their own weights)',
  })
  cash_weight?: number;

  /** With a cash balance, the positions are reweighed with it (see weighWithCash). */
  static from(positions: readonly ValuedPosition[], cashBalance?: number): PositionsResponse {
    if (cashBalance === undefined)
      return { positions: positions.map((position) => PositionResponse.from(position)) };
    const weighed = weighWithCash(positions, cashBalance);
    return {
      positions: weighed.positions.map((position) => PositionResponse.from(position)),
      cash_balance: money(cashBalance),
      cash_weight: percent(weighed.cashWeight),
    };
  }

  /**
   * The UTF-8 JSON of `from(positions, cashBalance)`; without a cash balance the rows are serialized
   * once per valuation (the holdings keep one frozen array while quotes are unchanged).
   */
  static json(positions: readonly ValuedPosition[], cashBalance?: number): StreamableFile {
    if (cashBalance === undefined) return jsonAround('{"positions":', positionRows.of(positions), '}');
    return jsonText(JSON.stringify(PositionsResponse.from(positions, cashBalance)));
  }
}

const positionRows = new SerializedRows<ValuedPosition, PositionResponse>(PositionResponse.from);
