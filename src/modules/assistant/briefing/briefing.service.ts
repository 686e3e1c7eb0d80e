import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/time/clock';
import { ReplayService } from '../../replay';
import { PreferencesService } from '../../preferences';
import type { InformationSourceType, PreferenceFields } from '../../preferences';
import { Briefing, BriefingSection, BriefingSectionKind } from './briefing';
import { DISCLAIMER } from '../engines/chat-engine';
import { money, pct, plainPct, sectorName, signedMoney } from '../engines/offline/format';
import { AssistantTools } from '../tools/assistant-tools.service';
import {
  HoldingFact,
  NewsFacts,
  PortfolioFacts,
  QuoteFacts,
  RebalanceFacts,
  RiskFacts,
} from '../tools/tool-results';
import { SectionDraft, wordSection, Wording } from './briefing-wording';

/** News is looked up for this many symbols: the heaviest holdings, then the watchlist. */
export const BRIEFING_NEWS_SYMBOLS = 6;
const NEWS_PER_SYMBOL = 3;
const MOVERS = 3;

/** Which information source ranks each section; the portfolio section always comes first. */
const SECTION_SOURCE: Record<Exclude<BriefingSectionKind, 'portfolio'>, InformationSourceType> = {
  news: 'news',
  watchlist: 'social',
  sectors: 'economic',
  risk: 'technical',
  rebalance: 'analyst',
};

type Section = {
  kind: BriefingSectionKind;
  title: string;
  draft: SectionDraft;
  data: Record<string, unknown>;
};

/**
 * The daily briefing, written by rules from the tools' results: deterministic, so the same data
 * gives the same text. Preferences shape order and wording; without them the beginner defaults apply.
 */
@Injectable()
export class BriefingService {
  constructor(
    private readonly tools: AssistantTools,
    private readonly replay: ReplayService,
    private readonly preferencesService: PreferencesService,
    private readonly clock: Clock,
  ) {}

  async briefing(userId: number): Promise<Briefing> {
    const stored = await this.preferencesService.findForUser(userId);
    const preferences: PreferenceFields = stored ?? {
      experience_level: 'beginner',
      ...this.preferencesService.defaults('beginner'),
    };
    const [overview, risk] = await Promise.all([
      this.tools.holdings(userId),
      this.tools.riskMetrics(userId).catch(() => null),
    ]);
    const holdings = overview.data.positions;
    const summary = { data: overview.data.totals };
    const newsSymbols = [...new Set([...holdings.map((h) => h.symbol), ...preferences.watchlist])].slice(
      0,
      BRIEFING_NEWS_SYMBOLS,
    );
    const [watchlist, news, sessionMoves, rebalance] = await Promise.all([
      this.tools.quotes(preferences.watchlist).catch(() => null),
      Promise.all(newsSymbols.map((symbol) => this.tools.newsFor(symbol, NEWS_PER_SYMBOL).catch(() => null))),
      this.replay.sessionMoves().catch(() => null),
      holdings.length > 0 ? this.tools.rebalanceDryRun(userId).catch(() => null) : Promise.resolve(null),
    ]);

    const sections: Section[] = [portfolioSection(summary.data, holdings)];
    const ranked: Section[] = [];
    if (preferences.watchlist.length > 0 && watchlist) ranked.push(watchlistSection(watchlist.data));
    const newsFound = news
      .filter((entry): entry is NonNullable<typeof entry> => entry !== null)
      .map((entry) => entry.data);
    ranked.push(newsSection(newsFound));
    if (sessionMoves) ranked.push(sectorsSection(preferences, sessionMoves));
    if (risk && holdings.length > 0) ranked.push(riskSection(risk.data));
    if (rebalance?.data) ranked.push(rebalanceSection(rebalance.data));
    const priority = (kind: BriefingSectionKind) =>
      preferences.information_sources.find(
        (source) => source.type === SECTION_SOURCE[kind as keyof typeof SECTION_SOURCE],
      )?.priority ?? 99;
    ranked.sort((a, b) => priority(a.kind) - priority(b.kind));
    sections.push(...ranked);

    const wording: Wording = {
      style: preferences.explanation_style,
      depth: preferences.analysis_depth,
      beginner: preferences.experience_level === 'beginner',
    };
    const headline =
      holdings.length === 0
        ? 'Your portfolio is empty; here is the market and your watchlist.'
        : `Your portfolio ${summary.data.day_change >= 0 ? 'gained' : 'lost'} ${plainPct(Math.abs(summary.data.day_change_percent))} in the last session, to ${money(summary.data.total_value)}.`;
    return {
      asOf: this.clock.now(),
      summaryTime: preferences.daily_summary_time,
      headline: stored ? headline : `${headline} (No preferences set: using the beginner defaults.)`,
      sections: sections.map((section): BriefingSection => ({
        kind: section.kind,
        title: section.title,
        text: wordSection(section.draft, wording),
        data: section.data,
      })),
      disclaimer: DISCLAIMER,
    };
  }
}

function portfolioSection(summary: PortfolioFacts, holdings: HoldingFact[]): Section {
  if (holdings.length === 0) {
    return {
      kind: 'portfolio',
      title: 'Your portfolio',
      draft: { conclusion: 'you hold no positions yet.', points: [] },
      data: { positions_count: 0 },
    };
  }
  const byMove = [...holdings].sort(
    (a, b) => b.day_change_percent - a.day_change_percent || a.symbol.localeCompare(b.symbol),
  );
  const up = byMove.slice(0, MOVERS).filter((h) => h.day_change_percent > 0);
  const down = byMove
    .slice(-MOVERS)
    .reverse()
    .filter((h) => h.day_change_percent < 0);
  const list = (items: HoldingFact[]) =>
    items.map((h) => `${h.symbol} ${pct(h.day_change_percent)}`).join(', ');
  return {
    kind: 'portfolio',
    title: 'Your portfolio in the last session',
    draft: {
      conclusion: `it moved ${signedMoney(summary.day_change)} (${pct(summary.day_change_percent)}) to ${money(summary.total_value)}.`,
      points: [
        up.length > 0 ? `Biggest gains: ${list(up)}.` : 'None of your holdings rose.',
        down.length > 0 ? `Biggest falls: ${list(down)}.` : 'None of your holdings fell.',
        `Unrealized P&L: ${signedMoney(summary.unrealized_pnl)} (${pct(summary.unrealized_pnl_percent)}) across ${summary.positions_count} positions.`,
      ],
      terms: ['unrealized p&l'],
    },
    data: {
      total_value: summary.total_value,
      day_change: summary.day_change,
      day_change_percent: summary.day_change_percent,
      top_gainers: up.map((h) => ({ symbol: h.symbol, day_change_percent: h.day_change_percent })),
      top_losers: down.map((h) => ({ symbol: h.symbol, day_change_percent: h.day_change_percent })),
    },
  };
}

function watchlistSection(quotes: QuoteFacts[]): Section {
  const sorted = [...quotes].sort(
    (a, b) => b.change_percent - a.change_percent || a.symbol.localeCompare(b.symbol),
  );
  return {
    kind: 'watchlist',
    title: 'Your watchlist',
    draft: {
      conclusion:
        sorted.length === 0
          ? 'no quotes were found for your watchlist.'
          : `${sorted[0].symbol} led (${pct(sorted[0].change_percent)}), ${sorted[sorted.length - 1].symbol} trailed (${pct(sorted[sorted.length - 1].change_percent)}).`,
      points: sorted.map((q) => `${q.symbol} ${money(q.price)} (${pct(q.change_percent)})`),
    },
    data: {
      quotes: sorted.map((q) => ({ symbol: q.symbol, price: q.price, change_percent: q.change_percent })),
    },
  };
}

function newsSection(news: NewsFacts[]): Section {
  const items = news.flatMap((entry) => entry.items.map((item) => ({ symbol: entry.symbol, ...item })));
  const counts = { positive: 0, negative: 0, neutral: 0 } as Record<string, number>;
  for (const item of items) counts[item.sentiment] += 1;
  const tone =
    counts.positive > counts.negative
      ? 'mostly positive'
      : counts.negative > counts.positive
        ? 'mostly negative'
        : 'mixed';
  return {
    kind: 'news',
    title: 'News on your stocks',
    draft: {
      conclusion:
        items.length === 0
          ? 'there is no recent news on your stocks.'
          : `the news is ${tone} (${counts.positive} positive, ${counts.negative} negative, ${counts.neutral} neutral).`,
      points: items.slice(0, 5).map((item) => `${item.symbol}: "${item.title}" (${item.sentiment})`),
      terms: ['sentiment'],
    },
    data: {
      counts,
      items: items.slice(0, 10).map((item) => ({
        symbol: item.symbol,
        title: item.title,
        url: item.url,
        sentiment: item.sentiment,
      })),
    },
  };
}

function sectorsSection(
  preferences: PreferenceFields,
  moves: { date: string; stocks: { sector: string | null; changePercent: number }[] },
): Section {
  const bySector = new Map<string, number[]>();
  for (const stock of moves.stocks) {
    if (!stock.sector) continue;
    bySector.set(stock.sector, [...(bySector.get(stock.sector) ?? []), stock.changePercent]);
  }
  const average = (values: number[]) =>
    Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 100) / 100;
  const wanted =
    preferences.market_sectors.length > 0 ? [...preferences.market_sectors] : [...bySector.keys()].sort();
  const rows = wanted
    .filter((sector) => bySector.has(sector))
    .map((sector) => ({ sector, change_percent: average(bySector.get(sector)!) }))
    .sort((a, b) => b.change_percent - a.change_percent || a.sector.localeCompare(b.sector));
  return {
    kind: 'sectors',
    title: preferences.market_sectors.length > 0 ? 'Your sectors' : 'Sectors',
    draft: {
      conclusion:
        rows.length === 0
          ? 'no sector data for the last session.'
          : `${sectorName(rows[0].sector)} did best (${pct(rows[0].change_percent)}), ${sectorName(rows[rows.length - 1].sector)} worst (${pct(rows[rows.length - 1].change_percent)}) on ${moves.date}.`,
      points: rows.map((row) => `${sectorName(row.sector)} ${pct(row.change_percent)} on average`),
      terms: ['sector'],
    },
    data: { session: moves.date, sectors: rows },
  };
}

function riskSection(risk: RiskFacts): Section {
  const fit =
    risk.risk_tolerance === null
      ? 'no risk tolerance is set to compare with'
      : risk.matches_tolerance
        ? `it fits your ${risk.risk_tolerance} tolerance`
        : `it does not fit your ${risk.risk_tolerance} tolerance`;
  const technical: string[] = [];
  if (risk.volatility_percent !== null)
    technical.push(`Annualised volatility ${plainPct(risk.volatility_percent)}.`);
  if (risk.beta !== null) technical.push(`Beta ${risk.beta.toFixed(2)} against the S&P 500.`);
  if (risk.var_95_percent !== null) technical.push(`1-day 95 % VaR ${plainPct(risk.var_95_percent)}.`);
  return {
    kind: 'risk',
    title: 'Risk',
    draft: {
      conclusion:
        risk.risk_level === null
          ? 'there is not enough history to measure risk yet.'
          : `your holdings are ${risk.risk_level}: ${fit}.`,
      points: [
        ...(risk.largest_holding
          ? [
              `Largest holding: ${risk.largest_holding.symbol} at ${plainPct(risk.largest_holding.weight_percent)}.`,
            ]
          : []),
        ...(risk.largest_cluster
          ? [
              `${risk.largest_cluster.symbols.join(', ')} move together: ${plainPct(risk.largest_cluster.weight_percent)} of your holdings as one bet.`,
            ]
          : []),
      ],
      technical,
      terms: technical.length > 0 ? ['volatility', 'beta', 'var'] : [],
    },
    data: {
      risk_level: risk.risk_level,
      risk_tolerance: risk.risk_tolerance,
      matches_tolerance: risk.matches_tolerance,
      volatility_percent: risk.volatility_percent,
      beta: risk.beta,
      var_95_percent: risk.var_95_percent,
      largest_cluster: risk.largest_cluster,
    },
  };
}

function rebalanceSection(plan: RebalanceFacts): Section {
  return {
    kind: 'rebalance',
    title: 'Drift',
    draft: {
      conclusion:
        plan.trades.length === 0
          ? `nothing drifted more than 5 points from ${plan.basis}.`
          : `${plan.trades.length} trade${plan.trades.length === 1 ? '' : 's'} would bring you back to ${plan.basis} (turnover ${plainPct(plan.turnover_percent)}).`,
      points: plan.drift
        .slice(0, 5)
        .map((d) => `${d.symbol} ${plainPct(d.weight_percent)} vs ${plainPct(d.target_percent)}`),
      terms: ['drift'],
    },
    data: {
      basis: plan.basis,
      trades: plan.trades.length,
      turnover_percent: plan.turnover_percent,
      drift: plan.drift,
    },
  };
}
