import { Module } from '@nestjs/common';
import { AssistantModule } from '../assistant';
import { MarketModule } from '../market';
import { NewsModule } from '../news';
import { PortfolioModule } from '../portfolio';
import { PreferencesModule } from '../preferences';
import { UsersModule } from '../users';
import { AlertJobs } from './alert-jobs';
import { AlertEvaluatorService } from './alert-evaluator.service';
import { AlertRulesRepository } from './alert-rules.repository';
import { AlertRulesService } from './alert-rules.service';
import { AlertsController } from './alerts.controller';
import { BriefingSchedulerService } from './delivery/briefing-scheduler.service';
import { EmailSender } from './delivery/email-sender';
import { NotificationDeliveriesRepository } from './delivery/notification-deliveries.repository';
import { NotificationDelivererService } from './delivery/notification-deliverer.service';
import { NotificationSettingsRepository } from './delivery/notification-settings.repository';
import { NotificationSettingsService } from './delivery/notification-settings.service';
import { WebhookSender } from './delivery/webhook-sender';
import { NotificationChannelsController } from './notification-channels.controller';
import { NotificationFeed } from './notification-feed';
import { NotificationsController } from './notifications.controller';
import { NotificationsRepository } from './notifications.repository';
import { NotificationsService } from './notifications.service';

@Module({
  imports: [AssistantModule, MarketModule, NewsModule, PortfolioModule, PreferencesModule, UsersModule],
  controllers: [AlertsController, NotificationsController, NotificationChannelsController],
  providers: [
    AlertRulesService,
    AlertRulesRepository,
    AlertEvaluatorService,
    AlertJobs,
    NotificationFeed,
    NotificationsRepository,
    NotificationsService,
    NotificationDeliveriesRepository,
    NotificationDelivererService,
    NotificationSettingsRepository,
    NotificationSettingsService,
    WebhookSender,
    EmailSender,
    BriefingSchedulerService,
  ],
})
export class AlertsModule {}
