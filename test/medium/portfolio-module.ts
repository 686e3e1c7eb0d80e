import { Module } from '@nestjs/common';
import { Clock } from '../../src/common/time/clock';
import { CreateTransactionDto } from '../../src/modules/portfolio/dto/create-transaction.dto';
import { ListTransactionsQuery } from '../../src/modules/portfolio/dto/list-transactions.query';
import { HoldingsService } from '../../src/modules/portfolio/holdings.service';
import { LedgerTransaction } from '../../src/modules/portfolio/ledger-transaction';
import { PortfolioHistoryService } from '../../src/modules/portfolio/portfolio-history.service';
import { PortfolioIncomeService } from '../../src/modules/portfolio/portfolio-income.service';
import { PortfolioModule } from '../../src/modules/portfolio/portfolio.module';
import {
  PortfolioSettings,
  PortfolioSettingsService,
} from '../../src/modules/portfolio/portfolio-settings.service';
import { PortfolioSummaryService } from '../../src/modules/portfolio/portfolio-summary.service';
import { TaxLotsService } from '../../src/modules/portfolio/tax-lots.service';
import { TransactionsService } from '../../src/modules/portfolio/transactions.service';
import { UsersModule } from '../../src/modules/users/users.module';
import { FakeClock } from '../fakes/clock';
import { bootMedium, MediumModule } from './medium-module';

/** The portfolio and the users its ledgers belong to (the ledger's rows reference them). */
@Module({ imports: [PortfolioModule, UsersModule] })
class PortfolioWithUsersModule {}

/**
 * PortfolioModule on the medium tier, on the service's clock `clock`. Its neighbours are its own
 * imports: the market on its offline replay provider (the real 2013–2018 history replayed on the
 * clock's calendar, no vendor), news, graph, idempotency and preferences.
 */
export function bootPortfolio(clock: Clock): Promise<MediumModule> {
  return bootMedium(PortfolioWithUsersModule, (builder) => builder.overrideProvider(Clock).useValue(clock));
}

/**
 * One PortfolioModule shared by the portfolio's medium cases (test/medium/portfolio.medium-spec.ts):
 * booting a module on its own database costs more than most of its tests, so the module's cases share
 * one boot, each group setting the clock it needs and working with users of its own.
 */
export interface PortfolioTier {
  clock: FakeClock;
  medium(): MediumModule;
}

/** A transaction as a client sends it (the command the edge validated). */
export type TransactionCommand = Record<string, unknown>;

type Owner = { id: number };

/**
 * The portfolio's use cases for one test, called as the HTTP edge calls them, answering the
 * domain results: the one place that knows the services' signatures.
 */
export function portfolioOf(medium: MediumModule) {
  const transactions = medium.get(TransactionsService);
  const holdings = medium.get(HoldingsService);
  return {
    record: (user: Owner, command: TransactionCommand): Promise<LedgerTransaction> =>
      transactions.record(user.id, command as unknown as CreateTransactionDto),
    importCsv: (user: Owner, csv: string): Promise<LedgerTransaction[]> =>
      transactions.importCsv(user.id, csv),
    remove: (user: Owner, id: number) => transactions.remove(user.id, id),
    list: (user: Owner, query: Partial<ListTransactionsQuery> = {}) =>
      transactions.list(user.id, { skip: 0, limit: 100, ...query }),
    snapshot: (user: Owner) => holdings.snapshot(user.id),
    positions: async (user: Owner) => (await holdings.snapshot(user.id)).positions,
    summary: (user: Owner, includeCash = false) =>
      medium.get(PortfolioSummaryService).summary(user.id, includeCash),
    lots: (user: Owner) => medium.get(TaxLotsService).openLots(user.id),
    realized: (user: Owner, year?: number) => medium.get(TaxLotsService).realized(user.id, year),
    income: (user: Owner, period: Parameters<PortfolioIncomeService['income']>[1]) =>
      medium.get(PortfolioIncomeService).income(user.id, period),
    history: (user: Owner) => medium.get(PortfolioHistoryService).history(user.id, 'ALL', '^GSPC'),
    settings: (user: Owner) => medium.get(PortfolioSettingsService).settings(user.id),
    updateSettings: (user: Owner, changes: Partial<PortfolioSettings>) =>
      medium.get(PortfolioSettingsService).update(user.id, changes),
  };
}
