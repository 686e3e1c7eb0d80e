import { normalizeSymbol, parseSymbolList } from './market-symbols';

describe('normalizeSymbol', () => {
  it.each([
    ['aapl', 'AAPL'],
    ['  msft ', 'MSFT'],
    ['BRK.B', 'BRK.B'],
    ['brk-b', 'BRK.B'],
    ['^gspc', '^GSPC'],
    ['XX-YY', 'XX-YY'],
  ])('%p → %p', (raw, expected) => {
    expect(normalizeSymbol(raw)).toBe(expected);
  });
});

describe('parseSymbolList', () => {
  it('trims, upper-cases, drops empty entries and lists duplicates once', () => {
    expect(parseSymbolList(' aapl, MSFT,,aapl , ,googl')).toEqual(['AAPL', 'MSFT', 'GOOGL']);
  });

  it('gives nothing for blanks and commas', () => {
    expect(parseSymbolList(' , ,')).toEqual([]);
  });
});
