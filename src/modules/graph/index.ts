// What other modules may use of the market graph: its module, its service and the shapes it returns.
export { GraphModule } from './graph.module';
export { GraphService } from './graph.service';
export type {
  ClusterConcentration,
  CoMovementCluster,
  GraphHealth,
  HeldQuantity,
  IndirectNewsItem,
  PortfolioExposure,
  RelatedBy,
  RelatedCompanies,
  RelatedCompany,
} from './graph.types';
export { ExposureResponse } from './dto/exposure.response';
export { RelatedCompaniesResponse } from './dto/related.response';
