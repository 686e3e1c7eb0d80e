import { ApiProperty } from '@nestjs/swagger';
import { ValuedPosition } from '../analytics/position-valuation';
import { money, percent, price, quantity } from '../portfolio-rounding';

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
  @ApiProperty({ type: [PositionResponse], description: 'Heaviest first' })
  positions: PositionResponse[];
}
