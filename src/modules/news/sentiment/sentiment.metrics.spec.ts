import { classificationReport } from './sentiment.metrics';
import { SentimentLabel } from './sentiment.label';

const pairs = (rows: [SentimentLabel, SentimentLabel, number][]) =>
  rows.flatMap(([gold, predicted, count]) => Array.from({ length: count }, () => ({ gold, predicted })));

describe('classificationReport', () => {
  it('computes accuracy, per-class F1, macro-F1 and the confusion matrix', () => {
    // positive: tp 8, predicted 10 (2 neutral called positive), actual 10 → P 0.8, R 0.8, F1 0.8
    // negative: tp 4, predicted 4, actual 5 (1 called neutral)          → P 1, R 0.8, F1 8/9
    // neutral: tp 18, predicted 21, actual 20                          → P 18/21, R 0.9, F1 36/41
    const sut = classificationReport(
      pairs([
        ['positive', 'positive', 8],
        ['positive', 'neutral', 2],
        ['negative', 'negative', 4],
        ['negative', 'neutral', 1],
        ['neutral', 'neutral', 18],
        ['neutral', 'positive', 2],
      ]),
    );
    expect(sut.count).toBe(35);
    expect(sut.accuracy).toBeCloseTo(30 / 35, 12);
    expect(sut.f1.positive).toBeCloseTo(0.8, 12);
    expect(sut.f1.negative).toBeCloseTo(8 / 9, 12);
    expect(sut.f1.neutral).toBeCloseTo(36 / 41, 12);
    expect(sut.macroF1).toBeCloseTo((0.8 + 8 / 9 + 36 / 41) / 3, 12);
    expect(sut.confusion).toEqual({
      positive: { positive: 8, negative: 0, neutral: 2 },
      negative: { positive: 0, negative: 4, neutral: 1 },
      neutral: { positive: 2, negative: 0, neutral: 18 },
    });
  });

  it('gives F1 0 to a class that is never predicted correctly, and 0 for nothing at all', () => {
    const sut = classificationReport(pairs([['negative', 'neutral', 3]]));
    expect(sut.f1.negative).toBe(0);
    expect(sut.accuracy).toBe(0);
    expect(classificationReport([])).toMatchObject({ count: 0, accuracy: 0, macroF1: 0 });
  });
});
