import { Module } from '@nestjs/common';
import { NewsModule } from '../news';
import { ReplayModule } from '../replay';
import { GraphMaintenance } from './graph-maintenance.service';
import { GraphRepository } from './graph.repository';
import { GraphService } from './graph.service';
import { RelatedCompaniesController } from './related-companies.controller';

@Module({
  imports: [ReplayModule, NewsModule],
  controllers: [RelatedCompaniesController],
  providers: [GraphRepository, GraphMaintenance, GraphService],
  exports: [GraphService],
})
export class GraphModule {}
