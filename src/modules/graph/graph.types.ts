import type { CoMovementCluster } from './analytics/clusters';

export type { CoMovementCluster, WeightedHolding } from './analytics/clusters';

/** What makes two companies related. */
export const RELATED_BY = ['industry', 'correlation', 'news'] as const;
export type RelatedBy = (typeof RELATED_BY)[number];

export interface RelatedCompany {
  symbol: string;
  name: string;
  /** How strongly related, 0..1: 1 for the same sub-industry, the correlation, the share of news items. */
  weight: number;
  /** The path in words, e.g. "same sub-industry: Semiconductors". */
  why: string;
  /** The nodes the path goes through, from the asked company to this one. */
  path: string[];
}

export interface RelatedCompanies {
  symbol: string;
  by: RelatedBy;
  related: RelatedCompany[];
}

/** A recent news item about a company one hop from a holding. */
export interface IndirectNewsItem {
  title: string;
  url: string;
  publishedAt: string;
  sentiment: string;
  sentimentScore: number;
  /** The company the item is about. */
  symbol: string;
  /** The holding it reaches. */
  holding: string;
  why: string;
  path: string[];
}

export interface PortfolioExposure {
  /** The session the correlations were measured to; null before the graph is built. */
  asOf: string | null;
  clusters: CoMovementCluster[];
  effectiveBets: number;
  largestClusterWeight: number;
  largestSingleWeight: number;
  indirectNews: IndirectNewsItem[];
}

/** The cluster view the risk metrics show beside the largest single weight. */
export interface ClusterConcentration {
  largestClusterWeight: number;
  largestClusterMembers: string[];
  effectiveBets: number;
}

/** A news item as the graph records it: the companies it mentions, with its sentiment. */
export interface GraphNewsItem {
  url: string;
  title: string;
  publishedAt: string;
  sentiment: string;
  sentimentScore: number;
  symbols: string[];
}

/** A holding as the ledger tells it: the graph weighs it at the last close. */
export interface HeldQuantity {
  symbol: string;
  quantity: number;
}

export type GraphHealth = 'connected' | 'degraded' | 'disconnected';
