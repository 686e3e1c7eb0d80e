import { Module } from '@nestjs/common';
import { MarketModule } from '../market';
import { NewsModule } from '../news';
import { PortfolioModule } from '../portfolio/portfolio.module';
import { PreferencesModule } from '../preferences/preferences.module';
import { AlertJobs } from './alert-jobs';
import { AlertEvaluatorService } from './alert-evaluator.service';
import { AlertRulesRepository } from './alert-rules.repository';
import { AlertRulesService } from './alert-rules.service';
import { AlertsController } from './alerts.controller';
import { NotificationFeed } from './notification-feed';
import { NotificationsController } from './notifications.controller';
import { NotificationsRepository } from './notifications.repository';
import { NotificationsService } from './notifications.service';

@Module({
  imports: [MarketModule, NewsModule, PortfolioModule, PreferencesModule],
  controllers: [AlertsController, NotificationsController],
  providers: [
    AlertRulesService,
    AlertRulesRepository,
    AlertEvaluatorService,
    AlertJobs,
    NotificationFeed,
    NotificationsRepository,
    NotificationsService,
  ],
})
export class AlertsModule {}
