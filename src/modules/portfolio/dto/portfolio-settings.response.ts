import { ApiProperty } from '@nestjs/swagger';
import { COST_BASIS_METHODS, CostBasisMethod } from '../analytics/cost-basis';
import { PortfolioSettings } from '../portfolio-settings.service';

export class PortfolioSettingsResponse {
  @ApiProperty({
    enum: COST_BASIS_METHODS,
    example: 'fifo',
    description:
      'How sells are matched to buys in every cost figure (positions, summary, lots, realized gains, the ' +
      "transactions' realized_pnl): `average` cost (the default), `fifo`, or `specific` (the lots a sell names, " +
      'FIFO for the rest)',
  })
  cost_basis_method: CostBasisMethod;

  @ApiProperty({
    example: false,
    description:
      'Refuse every change (a transaction, an import, an executed rebalance, a deletion) that takes the ' +
      'cash balance below zero, and below where it stood, at any time: 400 `Insufficient cash for this <kind>`',
  })
  strict_cash: boolean;

  static from(settings: PortfolioSettings): PortfolioSettingsResponse {
    return { cost_basis_method: settings.costBasisMethod, strict_cash: settings.strictCash };
  }
}
