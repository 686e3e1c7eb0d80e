import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DatabaseProbe } from '../../database/database-probe';
import { AiStatusModule } from '../ai-status/ai-status.module';
import { GraphModule } from '../graph/graph.module';
import { MarketModule } from '../market/market.module';
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
