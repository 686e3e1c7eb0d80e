import { SymbolMatch } from './market-data.provider';

/**
 * Ranks symbols and company names against a free-text query: exact symbol, symbol prefix, a word
 * of the name starting with the query, then the query anywhere; shorter symbols first within a rank.
 */
export function rankSymbolMatches(
  candidates: readonly SymbolMatch[],
  query: string,
  limit: number,
): SymbolMatch[] {
  const needle = query.trim().toUpperCase();
  if (needle === '') return [];
  const rankOf = ({ symbol, name }: SymbolMatch): number | null => {
    const upperName = name.toUpperCase();
    if (symbol === needle) return 0;
    if (symbol.startsWith(needle)) return 1;
    if (upperName.startsWith(needle) || upperName.split(/[\s.,&'-]+/).some((word) => word.startsWith(needle)))
      return 2;
    if (symbol.includes(needle) || upperName.includes(needle)) return 3;
    return null;
  };
  return candidates
    .map((candidate) => ({ candidate, rank: rankOf(candidate) }))
    .filter((entry): entry is { candidate: SymbolMatch; rank: number } => entry.rank !== null)
    .sort(
      (a, b) =>
        a.rank - b.rank ||
        a.candidate.symbol.length - b.candidate.symbol.length ||
        a.candidate.symbol.localeCompare(b.candidate.symbol),
    )
    .slice(0, limit)
    .map(({ candidate }) => ({ symbol: candidate.symbol, name: candidate.name }));
}
