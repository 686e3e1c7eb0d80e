import fc from 'fast-check';
import { sentimentLabel } from './sentiment.label';
import {
  articleSentimentScore,
  explainSentiment,
  sentimentEvidence,
  sentimentScore,
} from './sentiment.scorer';

// Every sentence here is written for these tests; none comes from any dataset.
const labelOf = (text: string) => sentimentLabel(sentimentScore(text));

describe('sentimentScore', () => {
  describe('direction of change: the value of a change depends on the quantity that moves', () => {
    it.each([
      ['Quarterly sales grew 8 % on strong holiday demand.', 'positive'],
      ['Net profit fell to USD 12 million in the second quarter.', 'negative'],
      ['Operating costs rose by 11 % as freight rates climbed.', 'negative'],
      ['The net loss narrowed to EUR 3.1 million from EUR 7.4 million.', 'positive'],
      ['The operating loss increased to GBP 9 million.', 'negative'],
      ['Net debt decreased from EUR 410 million to EUR 350 million.', 'positive'],
      ['Revenue decreased from EUR 80 million to EUR 71 million.', 'negative'],
      ['The loss widened in the fourth quarter.', 'negative'],
      ['Gross margins narrowed as input costs soared.', 'negative'],
      ['Earnings per share doubled year on year.', 'positive'],
    ])('%s → %s', (text, expected) => {
      expect(labelOf(text)).toBe(expected);
    });

    it('reads transitive verbs and comparatives by their object', () => {
      expect(labelOf('The retailer cut costs across its store network.')).toBe('positive');
      expect(labelOf('The group cut its full-year revenue forecast.')).toBe('negative');
      expect(labelOf('The miner raised its dividend for the third year.')).toBe('positive');
      expect(labelOf('Higher fuel costs weighed on the airline.')).toBe('negative');
      expect(labelOf('Lower borrowing costs helped the developer.')).toBe('positive');
    });

    it('reads a shift into profit or loss as the result it ends in', () => {
      expect(labelOf('The chipmaker swung to a net loss in the quarter.')).toBe('negative');
      expect(labelOf('The carrier returned to an operating profit of EUR 4 million.')).toBe('positive');
      expect(labelOf('The software firm slipped into a pre-tax loss.')).toBe('negative');
    });

    it('gives a measured change of an unnamed quantity a direction, and an unmeasured one none', () => {
      expect(labelOf('The stock was up 4.2 % in early trading.')).toBe('positive');
      expect(labelOf('The benchmark index fell 2 % on Monday.')).toBe('negative');
      expect(labelOf('The new plant will expand the site.')).toBe('neutral');
    });

    it('keeps a change of a sentiment-free quantity neutral', () => {
      expect(labelOf('The share capital increased to 12,400,000 shares after the conversion.')).toBe(
        'neutral',
      );
      expect(labelOf('The number of employees rose to 1,450.')).toBe('neutral');
    });

    it('ignores a quantity named in an "excluding"/"before" qualifier', () => {
      expect(labelOf('Operating profit excluding restructuring costs rose to EUR 18 million.')).toBe(
        'positive',
      );
      expect(labelOf('Profit before taxes decreased to EUR 2.2 million.')).toBe('negative');
    });
  });

  describe('comparisons of amounts', () => {
    it.each([
      ['Operating profit was EUR 5.2 million, compared to EUR 3.4 million a year earlier.', 'positive'],
      ['Operating margin was 7.1 % versus 9.8 % in the prior year.', 'negative'],
      ['The operating loss totalled EUR 5.2 million, compared with a loss of EUR 3.4 million.', 'negative'],
      ['The group posted a net loss of USD 40 million against a net profit of USD 12 million.', 'negative'],
      ['Cash flow was EUR 0.8 million, compared with a negative EUR 6 million.', 'positive'],
      ['Profit after taxes was EUR 0.3 million, compared to EUR -0.9 million.', 'positive'],
      ['Net interest expenses were EUR 3.0 million versus EUR 2.1 million.', 'negative'],
    ])('%s → %s', (text, expected) => {
      expect(labelOf(text)).toBe(expected);
    });

    it('compares in the reporting currency, not the conversion that follows it', () => {
      // 9.5 < 10.0 in euros; the dollar conversion of 9.5 (11.2) must not be compared with 10.0.
      expect(labelOf('Net profit was 9.5 mln euro $ 11.2 mln, compared to 10.0 mln euro $ 11.8 mln.')).toBe(
        'negative',
      );
    });

    it('treats a switch between profit and loss as decisive over the verb', () => {
      expect(
        labelOf(
          'The unit generated an operating loss of EUR 6 million, down from a profit of EUR 2 million.',
        ),
      ).toBe('negative');
    });

    it('leaves amounts without a comparator or without a known quantity neutral', () => {
      expect(labelOf('Net sales were EUR 54 million and operating profit EUR 6 million in 2021.')).toBe(
        'neutral',
      );
      expect(labelOf('The order is worth EUR 3 million, compared to the tender estimate.')).toBe('neutral');
    });
  });

  describe('events that carry sentiment by themselves', () => {
    it.each([
      ['Shipbuilder wins major order for two ferries', 'positive'],
      ['Analysts upgraded the bank to buy after the results', 'positive'],
      ['Results beat expectations on cost savings', 'positive'],
      ['Paper maker to lay off 300 workers at its mill', 'negative'],
      ['Retailer issues profit warning for the full year', 'negative'],
      ['Fashion chain files for bankruptcy protection', 'negative'],
      ['Shareholders file a class action lawsuit against the lender', 'negative'],
      ['Broker downgraded the stock to sell', 'negative'],
      ['The engineering group posted a net loss of EUR 4 million in the quarter.', 'negative'],
    ])('%s → %s', (text, expected) => {
      expect(labelOf(text)).toBe(expected);
    });

    it('reads a rating change by its new state, not the old one after "from"', () => {
      expect(labelOf('The stock was upgraded to hold from underperform.')).toBe('positive');
    });

    it('calls an order or a contract news only when it is major, large or significant', () => {
      expect(labelOf('The company signed a framework agreement with the city.')).toBe('neutral');
      expect(labelOf('The company received a significant order from a telecom operator.')).toBe('positive');
    });
  });

  describe('market moves', () => {
    it.each([
      ['Northwind shares jump 4.2 % to USD 172.10', 'positive'],
      ['Globex tumbles 7 % in heavy trading', 'negative'],
      ['Initech hits a 52-week high', 'positive'],
      ['Hooli falls to a 52-week low of USD 10.12', 'negative'],
      ['The Nasdaq Composite gains 0.4 %', 'positive'],
      ['Utilities lag as the sector falls 1.2 %', 'negative'],
      ['Acme trades flat at USD 38.20', 'neutral'],
    ])('%s → %s', (text, expected) => {
      expect(labelOf(text)).toBe(expected);
    });
  });

  describe('negation', () => {
    it('reverses the change or event it governs', () => {
      expect(labelOf('Sales did not increase in the third quarter.')).toBe('negative');
      expect(labelOf('The insurer said no layoffs are planned.')).toBe('positive');
      expect(labelOf('The merger was not successful.')).toBe('negative');
    });

    it('does not reach across a comma', () => {
      expect(labelOf('Not surprisingly, quarterly profit rose.')).toBe('positive');
    });

    it('is not triggered by "not only"', () => {
      expect(labelOf('The deal not only improved margins but also added customers.')).toBe('positive');
    });
  });

  describe('intensifiers and diminishers', () => {
    it('scale the evidence they modify without changing its sign', () => {
      const plain = sentimentScore('Operating profit rose.');
      const strong = sentimentScore('Operating profit rose sharply.');
      const weak = sentimentScore('Operating profit rose slightly.');
      expect(strong).toBeGreaterThan(plain);
      expect(weak).toBeLessThan(plain);
      expect(sentimentLabel(weak)).toBe('positive');
      expect(sentimentScore('Orders fell significantly.')).toBeLessThan(sentimentScore('Orders fell.'));
    });
  });

  describe('contrast and concession', () => {
    it('lets the clause after "but" outweigh the one before', () => {
      expect(labelOf('Sales rose, but operating profit fell.')).toBe('negative');
      expect(labelOf('Raw material costs rose, but the outlook improved.')).toBe('positive');
    });

    it('discounts the concession in "despite …" and "although …"', () => {
      expect(labelOf('Despite weaker demand, operating profit rose.')).toBe('positive');
      expect(labelOf('Although revenue grew, the company swung to a net loss.')).toBe('negative');
      expect(labelOf('Net sales fell despite a strong Christmas season.')).toBe('negative');
    });

    it('keeps clauses joined by "while" apart', () => {
      // Each clause has its own quantity: sales (good when up) and costs (bad when up), 0.8 each.
      expect(sentimentEvidence('Sales rose while costs fell.')).toBeCloseTo(1.6, 5);
    });

    it('lets the bottom line outweigh the top line', () => {
      expect(labelOf('Operating profit fell while net sales rose.')).toBe('negative');
      expect(labelOf('Net sales fell while the net result rose.')).toBe('positive');
    });

    it('discounts the cause after "due to" against the news it explains', () => {
      expect(labelOf('Operating profit declined due to a stronger currency.')).toBe('negative');
      expect(labelOf('Thanks to lower fuel costs, the airline returned to profit.')).toBe('positive');
    });
  });

  describe('neutral statements of fact', () => {
    it.each([
      'The company has 1,200 employees in 14 countries.',
      'The group set up a subsidiary in Poland in 2019.',
      'The plant employs more than 300 people.',
      'The annual general meeting will be held on 14 April.',
      'Shares will be listed on the main market of the exchange.',
      'The company designs and manufactures industrial pumps.',
      'The value of the contract is about USD 5 million.',
    ])('%s', (text) => {
      expect(labelOf(text)).toBe('neutral');
    });
  });

  describe('range', () => {
    it('is exactly 0 for empty and whitespace-only text', () => {
      expect(sentimentScore('')).toBe(0);
      expect(sentimentScore('   \n\t ')).toBe(0);
    });

    it('stays inside [-1, 1] however much evidence piles up', () => {
      const piled = sentimentScore('Profit warning. '.repeat(500));
      expect(piled).toBeGreaterThanOrEqual(-1);
      expect(piled).toBeLessThan(-0.99);
      expect(sentimentScore('Record profit. '.repeat(500))).toBeLessThanOrEqual(1);
    });

    it('any string scores a finite number in [-1, 1] and never throws', () => {
      fc.assert(
        fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (text) => {
          const score = sentimentScore(text);
          return Number.isFinite(score) && score >= -1 && score <= 1;
        }),
        { numRuns: 500 },
      );
    });

    it('financial word salads and extreme numbers score within [-1, 1] too', () => {
      const vocabulary = [
        'profit',
        'loss',
        'rose',
        'fell',
        'not',
        'but',
        'despite',
        'compared to',
        'from',
        'to',
        'EUR',
        'mn',
        '%',
        '-',
        '(',
        ')',
        ',',
        '.',
        'sharply',
        'swung',
        'negative',
        'excluding',
        'up',
        'down',
        '1e308',
        '99999999999999999999999999999999999999',
        '0.0',
        '-7',
        '13 .6',
        'versus',
        'orders',
      ];
      fc.assert(
        fc.property(fc.array(fc.constantFrom(...vocabulary), { maxLength: 60 }), (words) => {
          const score = sentimentScore(words.join(' '));
          return Number.isFinite(score) && score >= -1 && score <= 1;
        }),
        { numRuns: 500 },
      );
    });
  });
});

describe('articleSentimentScore', () => {
  it('adds the description to the title at a lower weight', () => {
    const title = 'Packaging maker publishes interim report';
    const description = 'Net sales grew 6 % to EUR 210 million.';
    expect(articleSentimentScore(title, null)).toBe(0);
    const combined = articleSentimentScore(title, description);
    expect(sentimentLabel(combined)).toBe('positive');
    expect(combined).toBeLessThan(sentimentScore(description));
  });

  it('lets a strong description outweigh a mildly positive title', () => {
    expect(
      sentimentLabel(
        articleSentimentScore(
          'Steelmaker sees opportunities in Asia',
          'The company swung to a net loss and cut jobs.',
        ),
      ),
    ).toBe('negative');
  });
});

describe('explainSentiment', () => {
  it('lists the evidence behind a score with its phrase and signed strength', () => {
    expect(explainSentiment('Net sales fell, but the company won a large contract.')).toEqual([
      { phrase: 'fell', value: -0.4 },
      { phrase: 'won', value: 0.9 },
      { phrase: 'contract', value: 0.9 },
    ]);
  });
});
