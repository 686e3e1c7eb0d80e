import { parseNumber, tokenize } from './sentiment.tokenizer';

describe('tokenize', () => {
  it('lower-cases words and splits them at hyphens, quotes and spaces', () => {
    const sut = tokenize('Pre-tax Profit "ROSE"');
    expect(sut.map((token) => [token.kind, token.text])).toEqual([
      ['word', 'pre'],
      ['word', 'tax'],
      ['word', 'profit'],
      ['word', 'rose'],
    ]);
  });

  it('keeps apostrophes inside words and normalises the curly one', () => {
    expect(tokenize("didn’t can't").map((token) => token.text)).toEqual(["didn't", "can't"]);
  });

  it('parses numbers with their separators and splits them from glued units', () => {
    const sut = tokenize('EUR131m 1,445 staff, 3,5 % and 2,400.50 USD');
    expect(sut.filter((token) => token.kind === 'number').map((token) => token.value)).toEqual([
      131, 1445, 3.5, 2400.5,
    ]);
    expect(sut.slice(0, 3).map((token) => token.text)).toEqual(['eur', '131', 'm']);
  });

  it('joins a decimal that a feed re-spaced as "13 .6"', () => {
    expect(tokenize('EUR13 .6 m').find((token) => token.kind === 'number')?.value).toBe(13.6);
  });

  it('reads a leading minus as a sign but not a hyphen between digits', () => {
    expect(tokenize('EUR -0.4 mn').find((token) => token.kind === 'number')?.value).toBe(-0.4);
    expect(
      tokenize('1-9/2007')
        .filter((token) => token.kind === 'number')
        .map((token) => token.value),
    ).toEqual([1, 9, 2007]);
  });

  it('marks sentence ends, commas, parentheses, percent and currency symbols', () => {
    const sut = tokenize('Up 5% (from $3), then; done!');
    expect(
      sut.map((token) => (token.kind === 'word' || token.kind === 'number' ? token.text : token.kind)),
    ).toEqual([
      'up',
      '5',
      '%',
      'open',
      'from',
      '$',
      '3',
      'close',
      'comma',
      'then',
      'sentence-end',
      'done',
      'sentence-end',
    ]);
  });

  it('returns nothing for empty or blank text', () => {
    expect(tokenize('')).toEqual([]);
    expect(tokenize(' \t\n ')).toEqual([]);
  });
});

describe('parseNumber', () => {
  it.each([
    ['13.6', 13.6],
    ['1,445', 1445],
    ['3,5', 3.5],
    ['1.234.567', 1234567],
    ['1,234,567', 1234567],
    ['2,400.50', 2400.5],
    ['2.400,50', 2400.5],
    ['42', 42],
  ])('%s → %d', (raw, expected) => {
    expect(parseNumber(raw)).toBe(expected);
  });
});
