import type { RiskTolerance } from '../../preferences';

/** What the tools hand to an engine: plain data, amounts in USD and percentages in percent, 2 decimals. */
export interface HoldingFact {
  symbol: string;
  sector: string;
  quantity: number;
  price: number;
  market_value: number;
  weight_percent: number;
  unrealized_pnl: number;
  unrealized_pnl_percent: number;
  day_change: number;
  day_change_percent: number;
}

export interface PortfolioFacts {
  total_value: number;
  total_cost: number;
  unrealized_pnl: number;
  unrealized_pnl_percent: number;
  realized_pnl: number;
  day_change: number;
  day_change_percent: number;
  positions_count: number;
  sectors: { sector: string; weight_percent: number; market_value: number }[];
  best: { symbol: string; unrealized_pnl_percent: number } | null;
  worst: { symbol: string; unrealized_pnl_percent: number } | null;
  /** Time-weighted returns in percent per period; null where the ledger does not reach back. */
  performance: Record<string, number | null>;
  as_of: string;
}

export interface RiskFacts {
  risk_level: string | null;
  risk_tolerance: RiskTolerance | null;
  matches_tolerance: boolean | null;
  volatility_percent: number | null;
  beta: number | null;
  sharpe_ratio: number | null;
  max_drawdown_percent: number | null;
  var_95_percent: number | null;
  var_95_amount: number | null;
  largest_holding: { symbol: string; weight_percent: number } | null;
  effective_holdings: number | null;
  /** The largest group of holdings that move together (market graph), when it has two or more. */
  largest_cluster: { symbols: string[]; weight_percent: number; effective_bets: number } | null;
  notes: string[];
  as_of: string;
}

export interface QuoteFacts {
  symbol: string;
  name: string;
  price: number;
  change: number;
  change_percent: number;
  as_of: string;
}

export interface NewsFacts {
  symbol: string;
  items: {
    title: string;
    url: string;
    source: string;
    published_at: string;
    sentiment: string;
    score: number;
  }[];
}

export interface MarketFacts {
  indices: { symbol: string; name: string; value: number; change_percent: number }[];
  gainers: QuoteFacts[];
  losers: QuoteFacts[];
  as_of: string;
}

export interface RebalanceFacts {
  basis: string;
  trades: { symbol: string; side: string; quantity: number; value: number }[];
  drift: { symbol: string; weight_percent: number; target_percent: number }[];
  turnover_percent: number;
  total_value: number;
  as_of: string;
}

/** The caller's position in one symbol: quantity, cost, value, P&L, lots and what sells realized. */
export interface HoldingDetailFacts {
  symbol: string;
  held: boolean;
  quantity: number;
  cost_basis: number;
  cost_per_share: number;
  price: number;
  market_value: number;
  unrealized_pnl: number;
  unrealized_pnl_percent: number;
  weight_percent: number;
  day_change: number;
  day_change_percent: number;
  /** Realized P&L of every sell of the symbol so far, by the user's cost-basis method. */
  realized_pnl: number;
  sells: number;
  lots: { acquired_on: string; quantity: number; cost_per_share: number; unrealized_pnl: number }[];
  as_of: string;
}

export interface CashFacts {
  cash_balance: number;
  deposits: number;
  withdrawals: number;
  as_of: string;
}

export interface IncomeFacts {
  period: string;
  dividends_gross: number;
  withholding_tax: number;
  dividends_net: number;
  interest: number;
  by_symbol: { symbol: string; gross: number; net: number }[];
  as_of: string;
}

export interface RealizedFacts {
  year: number;
  method: string;
  proceeds: number;
  cost: number;
  gain: number;
  short_term_gain: number;
  long_term_gain: number;
  by_symbol: { symbol: string; gain: number }[];
  as_of: string;
}

export interface TransactionFacts {
  from: string;
  to: string;
  kind: string | null;
  items: {
    date: string;
    kind: string;
    symbol: string | null;
    quantity: number;
    price: number;
    amount: number;
  }[];
  as_of: string;
}
