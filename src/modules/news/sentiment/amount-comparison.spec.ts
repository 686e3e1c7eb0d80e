import { compareAmounts } from './amount-comparison';
import { readUnits } from './sentiment.units';

function compare(text: string) {
  const units = readUnits(text);
  const comparator = units.findIndex((unit) => unit.entry?.type === 'comparator');
  return compareAmounts(units, 0, units.length, comparator);
}

describe('compareAmounts', () => {
  it('is positive when a good-when-up quantity is higher than before', () => {
    expect(compare('Net sales were EUR 12 mn compared to EUR 10 mn')).toEqual({
      value: 1,
      isTransition: false,
    });
  });

  it('is negative when a bad-when-up quantity is higher than before', () => {
    expect(compare('Net debt was EUR 12 mn versus EUR 10 mn')).toEqual({
      value: -1,
      isTransition: false,
    });
  });

  it('puts losses on the profit scale: a bigger loss is worse', () => {
    expect(compare('The net loss was EUR 5 mn compared with a loss of EUR 3 mn')).toEqual({
      value: -1,
      isTransition: false,
    });
  });

  it('flags a move between profit and loss as a transition', () => {
    expect(compare('An operating profit of EUR 1 mn against an operating loss of EUR 2 mn')).toEqual({
      value: 1.2,
      isTransition: true,
    });
  });

  it('scales magnitudes before comparing', () => {
    expect(compare('Net profit was EUR 2.4 mn against EUR 900,000')?.value).toBe(1);
  });

  it('compares the reporting currency, not a conversion that follows it', () => {
    expect(compare('Net profit was 7.9 mn euro $ 10.4 mn compared to 8.4 mn euro')?.value).toBe(-1);
  });

  it('gives nothing for equal amounts, a missing side, mixed units or an unknown quantity', () => {
    expect(compare('Net sales were EUR 10 mn compared to EUR 10 mn')).toBeUndefined();
    expect(compare('Net sales were EUR 10 mn compared to last year')).toBeUndefined();
    expect(compare('Net sales grew 5 % compared to EUR 10 mn')).toBeUndefined();
    expect(compare('The payment was EUR 10 mn compared to EUR 8 mn')).toBeUndefined();
  });
});
