import { UndirectedGraph } from 'graphology';
import louvain from 'graphology-communities-louvain';
import { seededRandom } from '../../../common/random/seeded-random';

export interface WeightedHolding {
  symbol: string;
  /** Share of the holdings' value, 0..1. */
  weight: number;
}

export interface CoMovementCluster {
  /** Largest weight first. */
  members: WeightedHolding[];
  combinedWeight: number;
  /** Mean correlation of every pair of members; null for a single member. */
  averageCorrelation: number | null;
  /** The member most tied to the others (highest sum of correlations inside the cluster). */
  centralMember: string;
}

/** Correlation of two symbols' daily returns over the graph's window; null when unknown. */
export type PairCorrelation = (a: string, b: string) => number | null;

/**
 * Communities (Louvain, weighted by correlation) of the co-movement subgraph restricted to the
 * holdings; a holding that co-moves with none of the others is a cluster of its own. Largest
 * combined weight first.
 */
export function coMovementClusters(
  holdings: readonly WeightedHolding[],
  edges: readonly { a: string; b: string; correlation: number }[],
  correlationOf: PairCorrelation,
): CoMovementCluster[] {
  const graph = new UndirectedGraph();
  const sorted = [...holdings].sort((x, y) => (x.symbol < y.symbol ? -1 : 1));
  for (const { symbol } of sorted) graph.addNode(symbol);
  for (const { a, b, correlation } of edges) {
    if (graph.hasNode(a) && graph.hasNode(b) && !graph.hasEdge(a, b)) graph.addEdge(a, b, { correlation });
  }
  const communityOf: Record<string, number> =
    graph.size === 0
      ? Object.fromEntries(sorted.map(({ symbol }, index) => [symbol, index]))
      : louvain(graph, { getEdgeWeight: 'correlation', rng: seededRandom(20180207) });
  const groups = new Map<number, WeightedHolding[]>();
  for (const holding of sorted) {
    const community = communityOf[holding.symbol];
    groups.set(community, [...(groups.get(community) ?? []), holding]);
  }
  return [...groups.values()]
    .map((members) => describeCluster(members, graph, correlationOf))
    .sort((x, y) => y.combinedWeight - x.combinedWeight || (x.centralMember < y.centralMember ? -1 : 1));
}

function describeCluster(
  members: WeightedHolding[],
  graph: UndirectedGraph,
  correlationOf: PairCorrelation,
): CoMovementCluster {
  const ordered = [...members].sort((x, y) => y.weight - x.weight || (x.symbol < y.symbol ? -1 : 1));
  let sum = 0;
  let pairs = 0;
  const ties = new Map<string, number>(ordered.map(({ symbol }) => [symbol, 0]));
  for (let i = 0; i < ordered.length; i += 1) {
    for (let j = i + 1; j < ordered.length; j += 1) {
      const correlation = correlationOf(ordered[i].symbol, ordered[j].symbol);
      if (correlation === null) continue;
      sum += correlation;
      pairs += 1;
      if (graph.hasEdge(ordered[i].symbol, ordered[j].symbol)) {
        ties.set(ordered[i].symbol, ties.get(ordered[i].symbol)! + correlation);
        ties.set(ordered[j].symbol, ties.get(ordered[j].symbol)! + correlation);
      }
    }
  }
  let centralMember = ordered[0].symbol;
  for (const { symbol } of ordered) if (ties.get(symbol)! > ties.get(centralMember)!) centralMember = symbol;
  return {
    members: ordered,
    combinedWeight: ordered.reduce((total, { weight }) => total + weight, 0),
    averageCorrelation: pairs > 0 ? sum / pairs : null,
    centralMember,
  };
}

/**
 * How many independent, equally sized positions would carry the same risk:
 * (Σ wᵢ)² / Σᵢ Σⱼ wᵢ wⱼ ρᵢⱼ. n uncorrelated equal holdings give n; holdings that move as one give 1.
 * Negative correlations are taken as zero (a hedge is not counted as extra bets). 0 without holdings.
 */
export function effectiveIndependentBets(
  holdings: readonly WeightedHolding[],
  correlationOf: PairCorrelation,
): number {
  const total = holdings.reduce((sum, { weight }) => sum + weight, 0);
  if (total <= 0) return 0;
  let spread = 0;
  for (let i = 0; i < holdings.length; i += 1) {
    spread += holdings[i].weight * holdings[i].weight;
    for (let j = i + 1; j < holdings.length; j += 1) {
      const correlation = Math.max(0, correlationOf(holdings[i].symbol, holdings[j].symbol) ?? 0);
      spread += 2 * holdings[i].weight * holdings[j].weight * correlation;
    }
  }
  return (total * total) / spread;
}
