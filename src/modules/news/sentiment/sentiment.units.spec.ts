import { metricAhead, readUnits } from './sentiment.units';

const amountsOf = (text: string) =>
  readUnits(text)
    .filter((unit) => unit.amount !== undefined)
    .map((unit) => unit.amount);

describe('readUnits', () => {
  it('groups lexicon phrases, longest first', () => {
    const sut = readUnits('Operating profit before taxes rose');
    expect(sut.map((unit) => [unit.text, unit.entry?.type])).toEqual([
      ['operating profit', 'metric'],
      ['before', 'qualifier'],
      ['taxes', 'metric'],
      ['rose', 'change'],
    ]);
  });

  it('reads amounts with their magnitude, currency, percent sign and sign', () => {
    expect(amountsOf('EUR 5.2 mn, USD 3 billion, 12 %, a negative EUR 4 mn and 0.35')).toEqual([
      { value: 5_200_000, isPercent: false },
      { value: 3_000_000_000, isPercent: false },
      { value: 12, isPercent: true },
      { value: -4_000_000, isPercent: false },
      { value: 0.35, isPercent: false },
    ]);
  });

  it('leaves bare integers such as years, days and counts out', () => {
    expect(amountsOf('On 14 March 2021 the 300 staff met.')).toEqual([]);
  });

  it('marks what sits inside parentheses', () => {
    const sut = readUnits('EUR 5 mn ( USD 6 mn )');
    expect(sut.filter((unit) => unit.amount !== undefined).map((unit) => unit.inParentheses)).toEqual([
      false,
      true,
    ]);
  });
});

describe('metricAhead', () => {
  it('returns the head of a compound quantity: "sales costs" are costs', () => {
    const units = readUnits('lower sales costs');
    expect(metricAhead(units, 0, units.length, 4)).toEqual({ type: 'metric', polarity: -1, kind: 'other' });
  });

  it('stops at punctuation and, for direct objects, at conjunctions', () => {
    const comma = readUnits('increased , sales');
    expect(metricAhead(comma, 0, comma.length, 4)).toBeUndefined();
    const conjunction = readUnits('increased as sales fell');
    expect(metricAhead(conjunction, 0, conjunction.length, 3, true)).toBeUndefined();
    expect(metricAhead(conjunction, 0, conjunction.length, 3)).toBeDefined();
  });
});
