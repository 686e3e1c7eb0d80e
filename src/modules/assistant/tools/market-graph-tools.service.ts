import { Injectable } from '@nestjs/common';
import { GraphService, PortfolioExposure, RelatedCompanies } from '../../graph';
import { PortfolioGraphService } from '../../portfolio';
import type { ToolResult } from './assistant-tools.service';

/** Related companies an answer names, per relation. */
const RELATED_PER_RELATION = 3;

/**
 * The read-only tools over the market graph: companies like a company, and the caller's hidden
 * concentration and indirect news. Scoped to the caller like every tool.
 */
@Injectable()
export class MarketGraphTools {
  constructor(
    private readonly graph: GraphService,
    private readonly portfolioGraph: PortfolioGraphService,
  ) {}

  /** Companies like `symbol`: by sub-industry and sector, and by co-movement. */
  async related(
    userId: number,
    symbol: string,
  ): Promise<ToolResult<{ industry: RelatedCompanies; correlation: RelatedCompanies }>> {
    const [industry, correlation] = await Promise.all([
      this.graph.related(symbol, 'industry', RELATED_PER_RELATION, userId),
      this.graph.related(symbol, 'correlation', RELATED_PER_RELATION, userId),
    ]);
    return {
      data: { industry, correlation },
      sources: [{ type: 'market_graph', question: 'related', symbol: industry.symbol }],
    };
  }

  /** The caller's co-movement clusters, effective bets and indirect news. */
  async exposure(userId: number): Promise<ToolResult<PortfolioExposure>> {
    const exposure = await this.portfolioGraph.exposure(userId);
    return {
      data: exposure,
      sources: [{ type: 'market_graph', question: 'exposure', as_of: exposure.asOf }],
    };
  }
}
