import type { Schemas } from '@investment-assistant/client';

/** A source of an answer as a chip: what it is, and the page that shows its figures (if any). */
export interface SourceChip {
  label: string;
  to: string | null;
}

type Source = Schemas['ChatMessageResponse']['sources'][number];

const symbolOf = (source: Source): string | null =>
  typeof source.symbol === 'string' && source.symbol !== '' ? source.symbol : null;

/** The page of the app where a person finds the figures a source stands for. */
function pageOf(source: Source): string | null {
  const symbol = symbolOf(source);
  switch (source.type) {
    case 'portfolio_summary':
    case 'cash':
      return '/dashboard';
    case 'positions':
      return '/holdings';
    case 'holding':
    case 'tax_lots':
      return symbol ? `/holdings/${encodeURIComponent(symbol)}` : '/holdings';
    case 'risk_metrics':
      return '/risk';
    case 'rebalance_dry_run':
      return '/rebalance';
    case 'transactions':
    case 'income':
    case 'realized':
      return '/transactions';
    case 'preferences':
      return '/settings';
    case 'quote':
    case 'market_summary':
    case 'news':
    case 'symbol_search':
      return '/markets';
    case 'market_graph':
      return source.question === 'exposure' ? '/dashboard' : '/markets';
    case 'glossary':
      return null;
  }
}

/** One chip per distinct source, named by its kind (and symbol), linked to its page. */
export function sourceChips(sources: Source[]): SourceChip[] {
  const chips = new Map<string, SourceChip>();
  for (const source of sources) {
    const symbol = symbolOf(source);
    const label = source.type.replace(/_/g, ' ') + (symbol ? ` ${symbol}` : '');
    if (!chips.has(label)) chips.set(label, { label, to: pageOf(source) });
  }
  return [...chips.values()];
}
