/**
 * Where a figure in an answer came from: one entry per tool result of the turn. Amounts are USD,
 * percentages are in percent (1.5 means 1.5 %), rounded to 2 decimals as the market endpoints show them.
 */
export type AnswerSource =
  | {
      type: 'portfolio_summary';
      total_value: number;
      day_change: number;
      day_change_percent: number;
      unrealized_pnl_percent: number;
      positions_count: number;
      as_of: string;
    }
  | { type: 'positions'; count: number; as_of: string }
  | {
      type: 'risk_metrics';
      risk_level: string | null;
      volatility: number | null;
      beta: number | null;
      as_of: string;
    }
  | { type: 'quote'; symbol: string; price: number; change_percent: number; as_of: string }
  | { type: 'market_summary'; as_of: string }
  | { type: 'news'; id: string; title: string; url: string; sentiment: string }
  | { type: 'symbol_search'; query: string; matches: string[] }
  | { type: 'preferences'; has_preferences: boolean }
  | { type: 'rebalance_dry_run'; trades: number; turnover: number; as_of: string }
  | {
      type: 'holding';
      symbol: string;
      quantity: number;
      market_value: number;
      unrealized_pnl: number;
      as_of: string;
    }
  | { type: 'tax_lots'; symbol: string; count: number; as_of: string }
  | { type: 'cash'; cash_balance: number; as_of: string }
  | { type: 'income'; period: string; dividends_gross: number; interest: number; as_of: string }
  | { type: 'realized'; year: number; gain: number; as_of: string }
  | { type: 'transactions'; from: string; to: string; count: number; as_of: string }
  | { type: 'glossary'; term: string }
  | { type: 'market_graph'; question: 'related'; symbol: string }
  | { type: 'market_graph'; question: 'exposure'; as_of: string | null };
