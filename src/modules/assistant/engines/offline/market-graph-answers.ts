import type { PortfolioExposure, RelatedCompanies } from '../../../graph';

const percent = (fraction: number) => `${(Math.round(fraction * 1000) / 10).toFixed(1)} %`;

/** Which question about the market graph a message asks. */
export type MarketGraphQuestion = 'related' | 'concentration' | 'indirect_news';

export function marketGraphQuestion(message: string, symbols: readonly string[]): MarketGraphQuestion {
  if (/\bindirect\w*|\bnews\b/i.test(message)) return 'indirect_news';
  return symbols.length > 0 ? 'related' : 'concentration';
}

/** "What else is like NVDA?": the same sub-industry, then what moves with it. */
export function relatedAnswer(related: {
  industry: RelatedCompanies;
  correlation: RelatedCompanies;
}): string[] {
  const { symbol } = related.industry;
  const lines: string[] = [];
  if (related.industry.related.length > 0) {
    lines.push(`Companies like ${symbol} by industry:`);
    lines.push(
      ...related.industry.related.map((company) => `- ${company.symbol} (${company.name}): ${company.why}`),
    );
  }
  if (related.correlation.related.length > 0) {
    lines.push(`Companies whose shares move with ${symbol}:`);
    lines.push(
      ...related.correlation.related.map(
        (company) => `- ${company.symbol} (${company.name}): ${company.why}`,
      ),
    );
  } else {
    lines.push(
      `No company's daily returns moved with ${symbol}'s at a correlation of 0.6 or more over the last year.`,
    );
  }
  return lines;
}

/** "Am I more concentrated than I think?": the largest co-movement cluster against the largest holding. */
export function concentrationAnswer(exposure: PortfolioExposure): string[] {
  const holdings = exposure.clusters.reduce((count, cluster) => count + cluster.members.length, 0);
  if (holdings === 0) return ['You have no holdings yet, so there is no concentration to look at.'];
  const [largest] = exposure.clusters;
  const bets = exposure.effectiveBets.toFixed(1);
  const lines = [`Your ${holdings} holdings behave like about ${bets} independent, equally sized bets.`];
  if (largest.members.length < 2) {
    lines.push(
      'None of your holdings move together strongly (a correlation of 0.6 or more over the last year).',
    );
    return lines;
  }
  const names = largest.members.map(({ symbol }) => symbol).join(', ');
  lines.push(
    `${names} move together (average correlation ${largest.averageCorrelation?.toFixed(2)}) and make up ${percent(largest.combinedWeight)} of your holdings, against ${percent(exposure.largestSingleWeight)} for your largest single holding.`,
  );
  if (largest.combinedWeight > exposure.largestSingleWeight)
    lines.push('So yes: you are more concentrated than the individual weights suggest.');
  return lines;
}

/** "Is there news that affects my holdings indirectly?": items one hop from a holding. */
export function indirectNewsAnswer(exposure: PortfolioExposure): string[] {
  if (exposure.clusters.length === 0)
    return ['You have no holdings yet, so no news reaches them indirectly.'];
  if (exposure.indirectNews.length === 0)
    return ['I found no news in the last 7 days about companies close to your holdings.'];
  return [
    'News in the last 7 days about companies close to your holdings:',
    ...exposure.indirectNews.slice(0, 5).map((item) => `- "${item.title}" (${item.sentiment}): ${item.why}`),
  ];
}
