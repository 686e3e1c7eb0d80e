import { ApiProperty } from '@nestjs/swagger';

/** The spec's Position (part 2), field for field. */
export class PositionResponse {
  @ApiProperty({ example: 'AAPL' })
  symbol: string;

  @ApiProperty({ description: 'Shares held' })
  quantity: number;

  @ApiProperty({ description: 'Live quote, USD per share' })
  current_price: number;

  @ApiProperty({
    description: 'Average-cost basis of the shares held (buys incl. fees, less the cost of shares sold), USD',
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
}

export class PositionsResponse {
  @ApiProperty({ type: [PositionResponse], description: 'Heaviest first' })
  positions: PositionResponse[];
}
