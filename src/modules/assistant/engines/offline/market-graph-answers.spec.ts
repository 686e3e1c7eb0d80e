import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PortfolioExposure } from '../../../graph';
import { DirectoryEntry, EntityExtractor } from './entity-extractor';
import { classifyIntent } from './intent-classifier';
import { concentrationAnswer, indirectNewsAnswer, marketGraphQuestion } from './market-graph-answers';

const universe = JSON.parse(
  readFileSync(join(__dirname, '../../../../../data/replay/universe.json'), 'utf8'),
) as { stocks: DirectoryEntry[] };

describe('market graph questions in the offline engine', () => {
  const extractor = new EntityExtractor(universe.stocks);
  const understand = (question: string) => {
    const entities = extractor.extract(question);
    return {
      intent: classifyIntent(question, entities),
      question: marketGraphQuestion(question, entities.symbols),
    };
  };

  it.each([
    ['What else is like NVDA?', 'related'],
    ['Which companies are similar to Exxon Mobil?', 'related'],
    ['Am I more concentrated than I think?', 'concentration'],
    ['Do my holdings move together?', 'concentration'],
    ['Is there news that affects my holdings indirectly?', 'indirect_news'],
  ])('%s → market_graph (%s)', (text, question) => {
    expect(understand(text)).toEqual({ intent: 'market_graph', question });
  });

  const exposure: PortfolioExposure = {
    asOf: '2026-11-25',
    clusters: [
      {
        members: [
          { symbol: 'XOM', weight: 0.3 },
          { symbol: 'CVX', weight: 0.25 },
        ],
        combinedWeight: 0.55,
        averageCorrelation: 0.8123,
        centralMember: 'XOM',
      },
      {
        members: [{ symbol: 'JNJ', weight: 0.45 }],
        combinedWeight: 0.45,
        averageCorrelation: null,
        centralMember: 'JNJ',
      },
    ],
    effectiveBets: 1.74,
    largestClusterWeight: 0.55,
    largestSingleWeight: 0.45,
    indirectNews: [
      {
        title: 'Occidental falls',
        url: 'http://x/1',
        publishedAt: '2026-11-25T21:00:00.000Z',
        sentiment: 'negative',
        sentimentScore: -0.4,
        symbol: 'OXY',
        holding: 'XOM',
        why: 'OXY moves with XOM (correlation 0.74)',
        path: ['XOM', 'OXY', 'news'],
      },
    ],
  };

  it('answers the concentration question with the cluster beside the largest holding', () => {
    expect(concentrationAnswer(exposure)).toEqual([
      'Your 3 holdings behave like about 1.7 independent, equally sized bets.',
      'XOM, CVX move together (average correlation 0.81) and make up 55.0 % of your holdings, against 45.0 % for your largest single holding.',
      'So yes: you are more concentrated than the individual weights suggest.',
    ]);
  });

  it('answers the indirect news question with each item and its path', () => {
    expect(indirectNewsAnswer(exposure)).toEqual([
      'News in the last 7 days about companies close to your holdings:',
      '- "Occidental falls" (negative): OXY moves with XOM (correlation 0.74)',
    ]);
  });
});
