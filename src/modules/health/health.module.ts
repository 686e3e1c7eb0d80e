import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { MarketModule } from '../market/market.module';
import { HealthController } from './health.controller';
import { HealthService } from './health.service';

@Module({
  imports: [TerminusModule.forRoot({ logger: false }), MarketModule],
  controllers: [HealthController],
  providers: [HealthService],
})
export class HealthModule {}
