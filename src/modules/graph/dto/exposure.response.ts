import { ApiProperty } from '@nestjs/swagger';
import type { CoMovementCluster, IndirectNewsItem, PortfolioExposure, WeightedHolding } from '../graph.types';

const round4 = (value: number) => Math.round(value * 10_000) / 10_000;
const FRACTION = 'fraction of the holdings value (0.25 = 25%)';

export class ClusterMemberResponse {
  @ApiProperty({ example: 'NVDA' })
  symbol: string;

  @ApiProperty({ example: 0.25, description: FRACTION })
  weight: number;

  static from(member: WeightedHolding): ClusterMemberResponse {
    return { symbol: member.symbol, weight: round4(member.weight) };
  }
}

export class CoMovementClusterResponse {
  @ApiProperty({ example: 0.5, description: `Combined weight of the members, ${FRACTION}` })
  combined_weight: number;

  @ApiProperty({
    type: Number,
    nullable: true,
    example: 0.71,
    description:
      'Mean correlation of daily returns over every pair of members (252 sessions); null for one member',
  })
  average_correlation: number | null;

  @ApiProperty({ example: 'NVDA', description: 'The member most correlated with the others' })
  central_member: string;

  @ApiProperty({ type: [ClusterMemberResponse], description: 'Largest weight first' })
  members: ClusterMemberResponse[];

  static from(cluster: CoMovementCluster): CoMovementClusterResponse {
    return {
      combined_weight: round4(cluster.combinedWeight),
      average_correlation: cluster.averageCorrelation === null ? null : round4(cluster.averageCorrelation),
      central_member: cluster.centralMember,
      members: cluster.members.map(ClusterMemberResponse.from),
    };
  }
}

export class IndirectNewsResponse {
  @ApiProperty({ example: 'AMD shares climb 4.1% as chip stocks rally' })
  title: string;

  @ApiProperty({ example: 'http://localhost:8000/api/v1/news/wire/20261120-brief-amd' })
  url: string;

  @ApiProperty({ format: 'date-time' })
  published_at: string;

  @ApiProperty({ enum: ['positive', 'negative', 'neutral'] })
  sentiment: string;

  @ApiProperty({ example: 0.42 })
  sentiment_score: number;

  @ApiProperty({ example: 'AMD', description: 'The company the item is about' })
  symbol: string;

  @ApiProperty({ example: 'NVDA', description: 'The holding it reaches' })
  holding: string;

  @ApiProperty({ example: 'AMD is in the same sub-industry as NVDA: Semiconductors' })
  why: string;

  @ApiProperty({ type: [String], example: ['NVDA', 'Semiconductors', 'AMD', 'news'] })
  path: string[];

  static from(item: IndirectNewsItem): IndirectNewsResponse {
    return {
      title: item.title,
      url: item.url,
      published_at: item.publishedAt,
      sentiment: item.sentiment,
      sentiment_score: item.sentimentScore,
      symbol: item.symbol,
      holding: item.holding,
      why: item.why,
      path: [...item.path],
    };
  }
}

export class ExposureResponse {
  @ApiProperty({
    type: String,
    format: 'date',
    nullable: true,
    description: 'The session the correlations were measured to; null before the graph is built',
  })
  as_of: string | null;

  @ApiProperty({
    type: [CoMovementClusterResponse],
    description: 'Holdings grouped by how their prices move together, largest combined weight first',
  })
  clusters: CoMovementClusterResponse[];

  @ApiProperty({
    example: 2.4,
    description:
      'How many independent, equally sized positions would carry the same risk: (Σw)² / ΣΣ wᵢwⱼρᵢⱼ; 0 without holdings',
  })
  effective_bets: number;

  @ApiProperty({ example: 0.5, description: `The largest cluster's combined weight, ${FRACTION}` })
  largest_cluster_weight: number;

  @ApiProperty({ example: 0.25, description: `The largest single holding's weight, ${FRACTION}` })
  largest_single_weight: number;

  @ApiProperty({
    type: [IndirectNewsResponse],
    description:
      'Items of the last 7 days about a company one hop from a holding (same sub-industry, or co-moving) that ' +
      'mention no holding, newest first, at most 10',
  })
  indirect_news: IndirectNewsResponse[];

  static from(exposure: PortfolioExposure): ExposureResponse {
    return {
      as_of: exposure.asOf,
      clusters: exposure.clusters.map(CoMovementClusterResponse.from),
      effective_bets: round4(exposure.effectiveBets),
      largest_cluster_weight: round4(exposure.largestClusterWeight),
      largest_single_weight: round4(exposure.largestSingleWeight),
      indirect_news: exposure.indirectNews.map(IndirectNewsResponse.from),
    };
  }
}
