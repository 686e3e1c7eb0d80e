import { InternalServerErrorException } from '@nestjs/common';
import { NewsService } from '../news/news.service';
import { NewsItem } from '../news/news.types';
import { PreferencesService } from '../preferences/preferences.service';
import { ValuedPosition } from './analytics/position-valuation';
import { HoldingsService, HoldingsSnapshot } from './holdings.service';
import { PortfolioOverviewService } from './portfolio-overview.service';
import { PortfolioSummary, PortfolioSummaryService } from './portfolio-summary.service';
import { PortfolioRiskMetrics, RiskMetricsService } from './risk-metrics.service';

const asOf = new Date('2026-03-06T22:00:00Z');

function position(symbol: string): ValuedPosition {
  return { symbol, weight: 10 } as ValuedPosition;
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

describe('PortfolioOverviewService', () => {
  const held = Array.from({ length: 9 }, (_, i) => position(`H${i}`));
  const snapshot = { positions: held, asOf } as unknown as HoldingsSnapshot;
  const summary = { totalValue: 1 } as unknown as PortfolioSummary;
  const risk = { riskLevel: 'moderate' } as unknown as PortfolioRiskMetrics;
  let newsCalls: string[];
  let newsBySymbol: (symbol: string) => Promise<NewsItem[]>;

  function build(watchlist: string[] | null) {
    newsCalls = [];
    const holdings = {
      snapshot: async () => snapshot,
      rawQuotes: async (symbols: string[]) =>
        new Map(
          symbols.map((symbol) => [
            symbol,
            symbol === 'GONE'
              ? null
              : { symbol, name: `${symbol} Inc`, price: 10.456, change: 0.123, changePercent: 1.1765 },
          ]),
        ),
    } as unknown as HoldingsService;
    const summaries = { summarise: async () => summary } as unknown as PortfolioSummaryService;
    const riskService = { assess: async () => risk } as unknown as RiskMetricsService;
    const preferences = {
      findForUser: async () => (watchlist ? { watchlist } : null),
    } as unknown as PreferencesService;
    const news = {
      forStock: (symbol: string) => {
        newsCalls.push(symbol);
        return newsBySymbol(symbol);
      },
    } as unknown as NewsService;
    return new PortfolioOverviewService(holdings, summaries, riskService, preferences, news);
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
    expect(overview.news).toHaveLength(10);
    expect(overview.news.filter((item) => item.url === 'shared')).toEqual([
      expect.objectContaining({ symbol: 'H0', url: 'shared' }),
    ]);
    const published = overview.news.map((item) => item.publishedAt);
    expect([...published].sort().reverse()).toEqual(published);
    expect(overview.notes).toEqual([]);
  });

  it('still answers when the news provider fails, saying so in notes', async () => {
    newsBySymbol = async () => {
      throw new InternalServerErrorException('Failed to retrieve news');
    };
    const overview = await build(null).overview(1);
    expect(overview.news).toEqual([]);
    expect(overview.notes).toEqual(['News is unavailable: Failed to retrieve news']);
    expect(overview.summary).toBe(summary);
    expect(overview.risk).toBe(risk);
  });

  it('quotes the watchlist like the market endpoints and keeps unknown symbols with nulls', async () => {
    newsBySymbol = async () => [];
    const overview = await build(['AAA', 'GONE']).overview(1);
    expect(overview.watchlist).toEqual([
      { symbol: 'AAA', name: 'AAA Inc', price: 10.46, change: 0.12, changePercent: 1.18 },
      { symbol: 'GONE', name: null, price: null, change: null, changePercent: null },
    ]);
  });
});
