import { Injectable } from '@nestjs/common';
import { ConsistentCache } from '../../common/cache/consistent-cache';
import { CostBasis } from './analytics/cost-basis';
import { PortfolioSettingsRepository, StoredPortfolioSettings } from './portfolio-settings.repository';
import { PortfolioTransactionsRepository } from './portfolio-transactions.repository';

export type PortfolioSettings = StoredPortfolioSettings;

const SETTINGS_TTL_MS = 60_000;
const settingsKey = (userId: number) => `portfolio-settings:${userId}`;

/** What a user without settings gets. */
export const DEFAULT_PORTFOLIO_SETTINGS: PortfolioSettings = Object.freeze({
  costBasisMethod: 'average',
  strictCash: false,
});

/**
 * A user's portfolio settings. The cost-basis method is read by every figure that shows cost, at
 * read time: changing it re-computes them all from the ledger, nothing stored is rewritten.
 */
@Injectable()
export class PortfolioSettingsService {
  constructor(
    private readonly settingsRecords: PortfolioSettingsRepository,
    private readonly transactions: PortfolioTransactionsRepository,
    private readonly cache: ConsistentCache,
  ) {}

  /** Cached: every portfolio read asks for the cost-basis method. */
  settings(userId: number): Promise<PortfolioSettings> {
    return this.cache.read(
      settingsKey(userId),
      async () => (await this.settingsRecords.find(userId)) ?? DEFAULT_PORTFOLIO_SETTINGS,
      SETTINGS_TTL_MS,
    );
  }

  /** Changes the fields given; the others keep their value. Cached copies go stale once it has committed. */
  async update(userId: number, changes: Partial<PortfolioSettings>): Promise<PortfolioSettings> {
    try {
      return await this.settingsRecords.update(userId, changes);
    } finally {
      await this.cache.markStale(settingsKey(userId));
    }
  }

  /** The user's method, with the stored lot selections when the method honours them. */
  async costBasis(userId: number): Promise<CostBasis> {
    const { costBasisMethod: method } = await this.settings(userId);
    const selections = method === 'specific' ? await this.transactions.lotSelections(userId) : new Map();
    return { method, selections };
  }
}
