import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyModule } from '../idempotency';
import { GraphModule } from '../graph';
import { MarketModule } from '../market';
import { NewsModule } from '../news';
import { PreferencesModule } from '../preferences';
import { PortfolioSettingsEntity } from './entities/portfolio-settings.entity';
import { PortfolioTransactionEntity } from './entities/portfolio-transaction.entity';
import { HoldingsService } from './holdings.service';
import { LedgerService } from './ledger.service';
import { CsvContentTypeParser } from './import/csv-content-type.parser';
import { BrokerImportController } from './broker-import.controller';
import { BrokerImportRepository } from './broker-import/broker-import.repository';
import { BrokerImportService } from './broker-import/broker-import.service';
import { PortfolioAccountsController } from './portfolio-accounts.controller';
import { PortfolioAccountsRepository } from './portfolio-accounts.repository';
import { PortfolioAccountsService } from './portfolio-accounts.service';
import { PortfolioGraphService } from './portfolio-graph.service';
import { PortfolioHistoryService } from './portfolio-history.service';
import { PortfolioIncomeService } from './portfolio-income.service';
import { PortfolioOverviewService } from './portfolio-overview.service';
import { PortfolioQueries } from './portfolio-queries.service';
import { PortfolioSettingsController } from './portfolio-settings.controller';
import { PortfolioSettingsRepository } from './portfolio-settings.repository';
import { PortfolioSettingsService } from './portfolio-settings.service';
import { PortfolioSummaryService } from './portfolio-summary.service';
import { PortfolioTransactionsRepository } from './portfolio-transactions.repository';
import { PortfolioController } from './portfolio.controller';
import { RebalanceService } from './rebalance.service';
import { RiskMetricsService } from './risk-metrics.service';
import { TaxLotsService } from './tax-lots.service';
import { TransactionsController } from './transactions.controller';
import { TransactionsService } from './transactions.service';
import { TransfersController } from './transfers.controller';

@Module({
  imports: [
    TypeOrmModule.forFeature([PortfolioTransactionEntity, PortfolioSettingsEntity]),
    IdempotencyModule,
    GraphModule,
    MarketModule,
    NewsModule,
    PreferencesModule,
  ],
  controllers: [
    TransactionsController,
    BrokerImportController,
    PortfolioAccountsController,
    TransfersController,
    PortfolioSettingsController,
    PortfolioController,
  ],
  providers: [
    CsvContentTypeParser,
    PortfolioTransactionsRepository,
    PortfolioAccountsRepository,
    PortfolioAccountsService,
    PortfolioSettingsRepository,
    PortfolioSettingsService,
    LedgerService,
    TransactionsService,
    BrokerImportRepository,
    BrokerImportService,
    HoldingsService,
    PortfolioSummaryService,
    RiskMetricsService,
    RebalanceService,
    PortfolioOverviewService,
    PortfolioHistoryService,
    TaxLotsService,
    PortfolioIncomeService,
    PortfolioGraphService,
    PortfolioQueries,
  ],
  exports: [PortfolioQueries, RebalanceService, PortfolioGraphService],
})
export class PortfolioModule {}
