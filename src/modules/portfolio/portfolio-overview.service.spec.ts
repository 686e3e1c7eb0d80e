import { ProviderUnavailableError } from '../../common/errors/domain-errors';
import { NewsItem } from '../news';
import { AVERAGE_COST } from './analytics/cost-basis';
import { replayLedger } from './analytics/ledger-replay';
import { ValuedPosition } from './analytics/position-valuation';
import { summarisePositions } from './analytics/portfolio-summary';
import { computeRiskMetrics } from './analytics/risk-metrics';
import { OverviewNewsItemResponse, WatchlistQuoteResponse } from './dto/overview.response';
import { HoldingsSnapshot } from './holdings.service';
import { OverviewSources, PortfolioOverviewService } from './portfolio-overview.service';
import { PortfolioSummary } from './portfolio-summary.service';
import { PortfolioRiskMetrics } from './risk-metrics.service';

const asOf = new Date('2026-03-06T22:00:00Z');

function position(symbol: string): ValuedPosition {
  return {
    symbol,
    quantity: 1,
    currentPrice: 10,
    costBasis: 10,
    marketValue: 10,
    unrealizedPnl: 0,
    unrealizedPnlPercent: 0,
    dayChange: 0,
    dayChangePercent: 0,
    weight: 10,
    sector: 'technology',
    lastUpdated: asOf,
  };
}

function article(url: string, publishedAt: string): NewsItem {
  return {
    title: `title ${url}`,
    description: 'd',
    url,
    source: 's',
    publishedAt,
    sentiment: 'neutral',
    sentimentScore: 0,
  };
}

const noReturns = { '1M': null, '3M': null, YTD: null, '1Y': null, ALL: null };

describe('PortfolioOverviewService', () => {
  const held = Array.from({ length: 9 }, (_, i) => position(`H${i}`));
  const snapshot: HoldingsSnapshot = {
    userId: 1,
    ledgerVersion: 1,
    ledger: [],
    costBasis: AVERAGE_COST,
    replay: replayLedger([]),
    positions: held,
    asOf,
  };
  const summary: PortfolioSummary = {
    ...summarisePositions(held, 0),
    performance: noReturns,
    moneyWeightedPerformance: noReturns,
    asOf,
  };
  const risk: PortfolioRiskMetrics = {
    ...computeRiskMetrics({
      holdings: [],
      closesBySymbol: new Map(),
      benchmark: null,
      lookbackDays: 252,
      annualRiskFreeRate: 0.02,
    }),
    lookbackDays: 252,
    benchmark: '^GSPC',
    riskFreeRate: 0.02,
    riskTolerance: null,
    matchesPreferences: null,
    asOf,
    clusterConcentration: null,
  };
  let newsCalls: string[];
  let newsBySymbol: (symbol: string) => Promise<NewsItem[]>;

  function build(watchlist: string[] | null): PortfolioOverviewService {
    newsCalls = [];
    const sources: OverviewSources = {
      holdings: {
        snapshot: async () => snapshot,
        rawQuotes: async (symbols) =>
          new Map(
            symbols.map((symbol) => [
              symbol,
              symbol === 'GONE'
                ? null
                : {
                    symbol,
                    name: `${symbol} Inc`,
                    price: 10.456,
                    change: 0.123,
                    changePercent: 1.1765,
                    previousClose: 10.333,
                    open: 10.333,
                    high: 10.5,
                    low: 10.3,
                    volume: 1,
                    asOf: asOf.toISOString(),
                  },
            ]),
          ),
      },
      summaries: { summarise: async () => summary },
      risk: { assess: async () => risk },
      preferences: { findForUser: async () => (watchlist ? { watchlist } : null) },
      news: {
        forStock: (symbol) => {
          newsCalls.push(symbol);
          return newsBySymbol(symbol);
        },
      },
    };
    return new PortfolioOverviewService(
      sources.holdings,
      sources.summaries,
      sources.risk,
      sources.preferences,
      sources.news,
    );
  }

  it('merges the news of the heaviest holdings then the watchlist, once per article, newest first, at most 10', async () => {
    newsBySymbol = async (symbol) => [
      article(`${symbol}-1`, `2026-03-0${(symbol.charCodeAt(1) % 5) + 1}T10:00:00Z`),
      article('shared', '2026-03-06T09:00:00Z'),
    ];
    const sut = build(['W1', 'H0', 'W2']);
    const overview = await sut.overview(1);
    // 9 held + W1 = 10 symbols asked; H0 is not asked twice and W2 is beyond the cap
    expect(newsCalls).toEqual(['H0', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'H7', 'H8', 'W1']);
    const news = overview.news.map((found) => OverviewNewsItemResponse.from(found));
    expect(news).toHaveLength(10);
    expect(news.filter((item) => item.url === 'shared')).toEqual([
      expect.objectContaining({ symbol: 'H0', url: 'shared' }),
    ]);
    const published = news.map((item) => item.publishedAt);
    expect([...published].sort().reverse()).toEqual(published);
    expect(overview.notes).toEqual([]);
  });

  it('still answers when the news provider fails, saying so in notes', async () => {
    newsBySymbol = async () => {
      throw new ProviderUnavailableError('Failed to retrieve news');
    };
    const overview = await build(null).overview(1);
    expect(overview.news).toEqual([]);
    expect(overview.notes).toEqual(['News is unavailable: Failed to retrieve news']);
    expect(overview.summary).toBe(summary);
    expect(overview.risk).toBe(risk);
  });

  it('does not pass on the text of an unexpected failure', async () => {
    newsBySymbol = async () => {
      throw new Error('connect ECONNREFUSED 10.0.0.7:5432');
    };
    const overview = await build(null).overview(1);
    expect(overview.notes).toEqual(['News is unavailable: the news provider failed']);
  });

  it('quotes the watchlist like the market endpoints and keeps unknown symbols with nulls', async () => {
    newsBySymbol = async () => [];
    const overview = await build(['AAA', 'GONE']).overview(1);
    expect(overview.watchlist.map((quote) => WatchlistQuoteResponse.from(quote))).toEqual([
      { symbol: 'AAA', name: 'AAA Inc', price: 10.46, change: 0.12, changePercent: 1.18 },
      { symbol: 'GONE', name: null, price: null, change: null, changePercent: null },
    ]);
  });
});
