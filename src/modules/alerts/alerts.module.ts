import { Module } from '@nestjs/common';
import { MarketModule } from '../market';
import { AlertRulesRepository } from './alert-rules.repository';
import { AlertRulesService } from './alert-rules.service';
import { AlertsController } from './alerts.controller';

@Module({
  imports: [MarketModule],
  controllers: [AlertsController],
  providers: [AlertRulesService, AlertRulesRepository],
})
export class AlertsModule {}
