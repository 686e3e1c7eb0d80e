import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import type { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { PortfolioSettingsEntity } from './entities/portfolio-settings.entity';

/** A user's portfolio settings as stored. */
export interface StoredPortfolioSettings {
  costBasisMethod: PortfolioSettingsEntity['costBasisMethod'];
  strictCash: boolean;
}

/** Persistence of portfolio settings, one row per user at most. */
@Injectable()
export class PortfolioSettingsRepository {
  constructor(
    @InjectRepository(PortfolioSettingsEntity) private readonly rows: Repository<PortfolioSettingsEntity>,
    private readonly host: TransactionHost<TransactionalAdapterTypeOrm>,
  ) {}

  /** Joins the caller's transaction when there is one (an idempotent write reads the settings in it). */
  async find(userId: number): Promise<StoredPortfolioSettings | null> {
    const row = await this.host.tx.findOneBy(PortfolioSettingsEntity, { userId });
    return row && { costBasisMethod: row.costBasisMethod, strictCash: row.strictCash };
  }

  /**
   * Applies the given fields (the others keep their value, or their default on the first change)
   * in one statement, so concurrent changes of different fields both hold; returns the result.
   */
  async update(userId: number, changes: Partial<StoredPortfolioSettings>): Promise<StoredPortfolioSettings> {
    const [row] = (await this.rows.query(
      `INSERT INTO portfolio_settings (user_id, cost_basis_method, strict_cash)
       VALUES ($1, COALESCE($2::varchar, 'average'), COALESCE($3::boolean, false))
       ON CONFLICT (user_id) DO UPDATE
         SET cost_basis_method = COALESCE($2::varchar, portfolio_settings.cost_basis_method),
             strict_cash = COALESCE($3::boolean, portfolio_settings.strict_cash)
       RETURNING cost_basis_method, strict_cash`,
      [userId, changes.costBasisMethod ?? null, changes.strictCash ?? null],
    )) as { cost_basis_method: StoredPortfolioSettings['costBasisMethod']; strict_cash: boolean }[];
    return { costBasisMethod: row.cost_basis_method, strictCash: row.strict_cash };
  }
}
