import { ApiProperty } from '@nestjs/swagger';
import { REBALANCE_TRADE_SIDES, RebalanceTradeSide } from '../analytics/rebalance-plan';
import { money, percent, price, quantity } from '../portfolio-rounding';
import { RebalanceOutcome } from '../rebalance.service';

export class RebalanceTradeResponse {
  @ApiProperty({ example: 'AAPL' })
  symbol: string;

  @ApiProperty({ enum: REBALANCE_TRADE_SIDES })
  side: RebalanceTradeSide;

  @ApiProperty({ description: 'Shares: whole unless fractional was asked for' })
  quantity: number;

  @ApiProperty({ description: 'Current quote, USD per share' })
  price: number;

  @ApiProperty({ description: 'quantity × price, USD' })
  value: number;
}

export class SymbolWeightResponse {
  @ApiProperty({ example: 'AAPL' })
  symbol: string;

  @ApiProperty({ description: 'Percent of total value (holdings + cash)' })
  weight: number;
}

export class RebalanceResponse {
  @ApiProperty({ type: [RebalanceTradeResponse], description: 'By symbol; sells are recorded before buys' })
  trades: RebalanceTradeResponse[];

  @ApiProperty({
    type: [SymbolWeightResponse],
    description: 'Weights before the trades, per held or targeted symbol',
  })
  before: SymbolWeightResponse[];

  @ApiProperty({ type: [SymbolWeightResponse], description: 'Weights after the trades' })
  after: SymbolWeightResponse[];

  @ApiProperty({ description: 'One-way turnover in percent: (Σ buy value + Σ sell value) / 2 / total value' })
  turnover: number;

  @ApiProperty({ description: 'Holdings at current quotes + cash, USD; unchanged by the trades' })
  total_value: number;

  @ApiProperty({ description: 'USD left uninvested: cash + sells − buys' })
  cash_remaining: number;

  @ApiProperty({ description: 'Whether the trades were recorded as transactions (false for a dry run)' })
  executed: boolean;

  @ApiProperty({
    type: 'integer',
    isArray: true,
    description: 'Ids of the recorded transactions (empty for a dry run)',
  })
  transaction_ids: number[];

  /** Weights and turnover in percent, money in cents. */
  static from(outcome: RebalanceOutcome): RebalanceResponse {
    const weights = (entries: RebalanceOutcome['before']) =>
      entries.map((entry) => ({ symbol: entry.symbol, weight: percent(entry.weight) }));
    return {
      trades: outcome.trades.map((trade) => ({
        symbol: trade.symbol,
        side: trade.side,
        quantity: quantity(trade.quantity),
        price: price(trade.price),
        value: money(trade.value),
      })),
      before: weights(outcome.before),
      after: weights(outcome.after),
      turnover: percent(outcome.turnover),
      total_value: money(outcome.totalValue),
      cash_remaining: money(outcome.cashRemaining),
      executed: outcome.executed,
      transaction_ids: outcome.transactionIds,
    };
  }
}
