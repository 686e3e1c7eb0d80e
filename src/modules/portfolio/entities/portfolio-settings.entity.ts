import { Column, Entity, PrimaryColumn } from 'typeorm';
import { CostBasisMethod } from '../analytics/cost-basis';

/** One user's portfolio settings; a user without a row has the defaults. */
@Entity({ name: 'portfolio_settings' })
export class PortfolioSettingsEntity {
  @PrimaryColumn({ type: 'integer' })
  userId: number;

  @Column({ type: 'varchar', length: 16, default: 'average' })
  costBasisMethod: CostBasisMethod;

  @Column({ type: 'boolean', default: false })
  strictCash: boolean;
}
