import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DatabaseProbe } from '../../database/database-probe';
import { AiStatusModule } from '../ai-status';
import { GraphModule } from '../graph';
import { MarketModule } from '../market';
import { DatabaseHealthIndicator } from './database.health-indicator';
import { HealthController } from './health.controller';
import { HealthService } from './health.service';
import { ProbesController } from './probes.controller';

@Module({
  imports: [TerminusModule.forRoot({ logger: false }), MarketModule, AiStatusModule, GraphModule],
  controllers: [HealthController, ProbesController],
  providers: [HealthService, DatabaseProbe, DatabaseHealthIndicator],
})
export class HealthModule {}
