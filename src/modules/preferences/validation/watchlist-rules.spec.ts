import { checkWatchlist } from './watchlist-rules';

describe('checkWatchlist', () => {
  it('upper-cases valid symbols and keeps their order', () => {
    expect(checkWatchlist(['aapl', 'Msft', 'T', 'GOOGL'])).toEqual({
      valid: true,
      symbols: ['AAPL', 'MSFT', 'T', 'GOOGL'],
    });
  });

  it('accepts an empty list and exactly 50 symbols', () => {
    const fifty = Array.from({ length: 50 }, (_, index) => symbolNumber(index));

    expect(checkWatchlist([])).toEqual({ valid: true, symbols: [] });
    expect(checkWatchlist(fifty)).toEqual({ valid: true, symbols: fifty });
  });

  it('rejects more than 50 symbols before looking at them', () => {
    const tooMany = [...Array.from({ length: 50 }, (_, index) => symbolNumber(index)), 'TOOLONG'];

    expect(checkWatchlist(tooMany)).toEqual({ valid: false, problem: 'too_many' });
  });

  it('lists every malformed entry as it was sent, in order', () => {
    expect(checkWatchlist(['AAPL', 'TOOLONG', 12, 'ms ft', '', 'brk.b', null, 'ok'])).toEqual({
      valid: false,
      problem: 'invalid_symbols',
      offending: ['TOOLONG', '12', 'ms ft', '', 'brk.b', 'null'],
    });
  });

  it('reports duplicates after upper-casing, each symbol once', () => {
    expect(checkWatchlist(['AAPL', 'msft', 'aapl', 'MSFT', 'Aapl', 'TSLA'])).toEqual({
      valid: false,
      problem: 'duplicate_symbols',
      duplicates: ['AAPL', 'MSFT'],
    });
  });

  it('reports malformed entries before duplicates', () => {
    expect(checkWatchlist(['AAPL', 'AAPL', 'TOOLONG'])).toMatchObject({ problem: 'invalid_symbols' });
  });
});

function symbolNumber(index: number): string {
  return `S${String.fromCharCode(65 + Math.floor(index / 26))}${String.fromCharCode(65 + (index % 26))}`;
}
