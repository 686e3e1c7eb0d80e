import { locatedIssues } from '../../../common/validation/located-issues';
import { ParsedTransactionsCsv, parseTransactionsCsv } from './transactions-csv.parser';

/** The parser's problems as the import route answers them. */
function issuesOf(parsed: ParsedTransactionsCsv) {
  return locatedIssues(parsed.problems, 'body');
}

const now = new Date('2025-06-30T12:00:00Z');

describe('parseTransactionsCsv', () => {
  it('parses valid rows with dates, upper-cased symbols, sides in any case and default fees', () => {
    const sut = parseTransactionsCsv(
      '\uFEFFdate,symbol,side,quantity,price,fees\n2025-01-06,aapl,BUY,10,150.25,1\n2025-02-03T15:30:00Z,MSFT,sell,2.5,300,\n',
      now,
      100,
    );
    expect(issuesOf(sut)).toEqual([]);
    expect(sut.rows).toEqual([
      {
        row: 0,
        executedAt: new Date('2025-01-06T00:00:00Z'),
        tradeDate: '2025-01-06',
        symbol: 'AAPL',
        side: 'buy',
        quantity: 10,
        price: 150.25,
        fees: 1,
        note: null,
      },
      {
        row: 1,
        executedAt: new Date('2025-02-03T15:30:00Z'),
        tradeDate: '2025-02-03',
        symbol: 'MSFT',
        side: 'sell',
        quantity: 2.5,
        price: 300,
        fees: 0,
        note: null,
      },
    ]);
  });

  it('accepts columns in any order, without fees, with a note', () => {
    const sut = parseTransactionsCsv(
      'symbol,date,quantity,price,side,note\nXOM,2025-03-03,1,80,buy,"first, small"\n',
      now,
      100,
    );
    expect(sut.rows[0]).toMatchObject({ symbol: 'XOM', fees: 0, note: 'first, small' });
  });

  it('reports every bad cell of every row with its row and column', () => {
    const sut = parseTransactionsCsv(
      [
        'date,symbol,side,quantity,price,fees',
        '2025-13-01,AAPL,buy,10,150,0',
        '2025-01-06,,hold,0,-1,-2',
        '2030-01-01,1BAD,sell,abc,10,x',
        '2025-01-06,AAPL,buy,1',
      ].join('\n'),
      now,
      100,
    );
    expect(sut.rows).toEqual([]);
    expect(issuesOf(sut)).toEqual([
      { loc: ['body', 0, 'date'], msg: 'Input should be a valid datetime or date', type: 'datetime_parsing' },
      { loc: ['body', 1, 'symbol'], msg: 'Field required', type: 'missing' },
      {
        loc: ['body', 1, 'side'],
        msg: "Input should be 'buy' or 'sell'",
        type: 'enum',
        ctx: { expected: "'buy' or 'sell'" },
      },
      {
        loc: ['body', 1, 'quantity'],
        msg: 'Input should be greater than 0',
        type: 'greater_than',
        ctx: { gt: 0 },
      },
      {
        loc: ['body', 1, 'price'],
        msg: 'Input should be greater than 0',
        type: 'greater_than',
        ctx: { gt: 0 },
      },
      {
        loc: ['body', 1, 'fees'],
        msg: 'Input should be greater than or equal to 0',
        type: 'greater_than_equal',
        ctx: { ge: 0 },
      },
      {
        loc: ['body', 2, 'date'],
        msg: 'Value error, the date must not be in the future',
        type: 'value_error',
      },
      expect.objectContaining({ loc: ['body', 2, 'symbol'], type: 'string_pattern_mismatch' }),
      {
        loc: ['body', 2, 'quantity'],
        msg: 'Input should be a valid number, unable to parse string as a number',
        type: 'float_parsing',
      },
      {
        loc: ['body', 2, 'fees'],
        msg: 'Input should be a valid number, unable to parse string as a number',
        type: 'float_parsing',
      },
      {
        loc: ['body', 3],
        msg: 'Value error, row has 4 values but the header has 6 columns',
        type: 'value_error',
      },
    ]);
    // the well-formed symbol of a bad row is still offered for the provider check
    expect(sut.symbolCells).toEqual([{ row: 0, symbol: 'AAPL' }]);
  });

  it('rejects a wrong header, an empty file, a header alone and too many rows', () => {
    expect(issuesOf(parseTransactionsCsv('date,ticker,side,quantity,price\n', now, 10))).toEqual([
      {
        loc: ['body', 'header'],
        msg: 'Value error, the header must be date,symbol,side,quantity,price,fees (fees and note optional): missing symbol; unknown ticker',
        type: 'value_error',
      },
    ]);
    expect(issuesOf(parseTransactionsCsv('  \n', now, 10))[0]).toMatchObject({
      loc: ['body'],
      type: 'missing',
    });
    expect(issuesOf(parseTransactionsCsv('date,symbol,side,quantity,price\n', now, 10))[0]).toMatchObject({
      loc: ['body'],
      type: 'too_short',
    });
    const threeRows = 'date,symbol,side,quantity,price\n' + '2025-01-06,A,buy,1,1\n'.repeat(3);
    expect(issuesOf(parseTransactionsCsv(threeRows, now, 2))[0]).toMatchObject({
      loc: ['body'],
      type: 'too_long',
      ctx: { max_length: 2, actual_length: 3 },
    });
  });
});

describe('parseTransactionsCsv: syntax and limits', () => {
  const unclosed = {
    msg: 'Value error, an opening quote has no closing quote, so the rest of the file would be read as this value',
    type: 'value_error',
    ctx: {
      error: 'an opening quote has no closing quote, so the rest of the file would be read as this value',
    },
  };

  it('reports an unclosed quote at its row and column, counting rows after blank lines as usual', () => {
    const sut = parseTransactionsCsv(
      'date,symbol,side,quantity,price,note\n\n2025-01-06,AAPL,buy,1,1,ok\n2025-01-06,AAPL,buy,1,1,"oops\n2025-01-07,AAPL,buy,1,1,x\n',
      now,
      100,
    );
    expect({ ...sut, problems: issuesOf(sut) }).toEqual({
      rows: [],
      symbolCells: [],
      problems: [{ loc: ['body', 1, 'note'], ...unclosed }],
    });
  });

  it('reports an unclosed quote in the header at the header, and past the last column by index', () => {
    expect(issuesOf(parseTransactionsCsv('date,"symbol\n', now, 100))).toEqual([
      { loc: ['body', 'header'], ...unclosed },
    ]);
    expect(
      issuesOf(parseTransactionsCsv('date,symbol,side,quantity,price\n1,2,3,4,5,"\n', now, 100)),
    ).toEqual([{ loc: ['body', 0, 5], ...unclosed }]);
  });

  it('reports a NUL character at its cell', () => {
    expect(
      issuesOf(
        parseTransactionsCsv(
          'date,symbol,side,quantity,price,note\n2025-01-06,AAPL,buy,1,1,a\u0000\n',
          now,
          100,
        ),
      ),
    ).toEqual([
      {
        loc: ['body', 0, 'note'],
        msg: 'Value error, the text must not contain the NUL character (U+0000)',
        type: 'value_error',
        ctx: { error: 'the text must not contain the NUL character (U+0000)' },
      },
    ]);
  });

  it('holds quantity, price and fees to the ledger limits', () => {
    const sut = parseTransactionsCsv(
      'date,symbol,side,quantity,price,fees\n2025-01-06,A,buy,1000000001,1000001,1000000001\n2025-01-06,A,buy,0.000000009,0.000000001,0.000000001\n2025-01-06,A,buy,1000000000,1000000,1000000000\n',
      now,
      100,
    );
    expect(issuesOf(sut)).toEqual([
      expect.objectContaining({ loc: ['body', 0, 'quantity'], type: 'less_than_equal', ctx: { le: 1e9 } }),
      expect.objectContaining({ loc: ['body', 0, 'price'], type: 'less_than_equal', ctx: { le: 1e6 } }),
      expect.objectContaining({ loc: ['body', 0, 'fees'], type: 'less_than_equal', ctx: { le: 1e9 } }),
      expect.objectContaining({
        loc: ['body', 1, 'quantity'],
        type: 'greater_than_equal',
        ctx: { ge: 1e-8 },
      }),
      expect.objectContaining({ loc: ['body', 1, 'price'], type: 'greater_than_equal', ctx: { ge: 1e-8 } }),
    ]);
    expect(sut.rows.map((row) => row.row)).toEqual([2]);
  });
});

describe('parseTransactionsCsv with a type column', () => {
  it('reads every kind, each with its own cells, an empty type falling back to the side', () => {
    const sut = parseTransactionsCsv(
      [
        'date,type,side,symbol,quantity,price,fees,amount,withholding_tax,ratio,note',
        '2025-01-02,deposit,,,,,,10000,,,salary',
        '2025-01-06,,buy,aapl,10,150,1,,,,',
        '2025-02-14,Dividend,,AAPL,,,,2.5,0.38,,',
        '2025-03-03,split,,AAPL,,,,,,4:1,',
        '2025-03-31,interest,,,,,,1.25,,,',
        '2025-04-01,fee,,AAPL,,,,3,,,custody',
        '2025-04-02,fee,,,,,,5,,,',
        '2025-05-01,withdrawal,,,,,,500,,,',
        '2025-05-02,sell,,AAPL,4,40,0,,,,',
      ].join('\n'),
      now,
      100,
    );
    expect(issuesOf(sut)).toEqual([]);
    const day = (date: string) => new Date(`${date}T00:00:00Z`);
    const cash = { symbol: null, quantity: 0, price: 0, fees: 0 };
    expect(sut.rows).toEqual([
      {
        row: 0,
        executedAt: day('2025-01-02'),
        tradeDate: '2025-01-02',
        side: 'deposit',
        ...cash,
        amount: 10000,
        note: 'salary',
      },
      {
        row: 1,
        executedAt: day('2025-01-06'),
        tradeDate: '2025-01-06',
        side: 'buy',
        symbol: 'AAPL',
        quantity: 10,
        price: 150,
        fees: 1,
        note: null,
      },
      {
        row: 2,
        executedAt: day('2025-02-14'),
        tradeDate: '2025-02-14',
        side: 'dividend',
        ...cash,
        symbol: 'AAPL',
        amount: 2.5,
        withholdingTax: 0.38,
        note: null,
      },
      {
        row: 3,
        executedAt: day('2025-03-03'),
        tradeDate: '2025-03-03',
        side: 'split',
        ...cash,
        symbol: 'AAPL',
        splitTo: 4,
        splitFrom: 1,
        note: null,
      },
      {
        row: 4,
        executedAt: day('2025-03-31'),
        tradeDate: '2025-03-31',
        side: 'interest',
        ...cash,
        amount: 1.25,
        note: null,
      },
      {
        row: 5,
        executedAt: day('2025-04-01'),
        tradeDate: '2025-04-01',
        side: 'fee',
        ...cash,
        symbol: 'AAPL',
        amount: 3,
        note: 'custody',
      },
      {
        row: 6,
        executedAt: day('2025-04-02'),
        tradeDate: '2025-04-02',
        side: 'fee',
        ...cash,
        amount: 5,
        note: null,
      },
      {
        row: 7,
        executedAt: day('2025-05-01'),
        tradeDate: '2025-05-01',
        side: 'withdrawal',
        ...cash,
        amount: 500,
        note: null,
      },
      {
        row: 8,
        executedAt: day('2025-05-02'),
        tradeDate: '2025-05-02',
        side: 'sell',
        symbol: 'AAPL',
        quantity: 4,
        price: 40,
        fees: 0,
        note: null,
      },
    ]);
    expect(sut.symbolCells).toEqual([
      { row: 1, symbol: 'AAPL' },
      { row: 2, symbol: 'AAPL' },
      { row: 3, symbol: 'AAPL' },
      { row: 5, symbol: 'AAPL' },
      { row: 8, symbol: 'AAPL' },
    ]);
  });

  it('reports missing, refused and inconsistent cells of each kind at their row and column', () => {
    const sut = parseTransactionsCsv(
      [
        'date,type,symbol,quantity,price,amount,withholding_tax,ratio',
        '2025-01-02,deposit,AAPL,,,,,',
        '2025-01-06,dividend,AAPL,1,,2,3,',
        '2025-01-07,split,AAPL,,,,,3:3',
        '2025-01-08,split,AAPL,,,,,4-1',
        '2025-01-09,bonus,AAPL,,,,,',
        '2025-01-10,buy,AAPL,1,,5,,',
      ].join('\n'),
      now,
      100,
    );
    const valueError = (row: number, column: string, error: string) => ({
      loc: ['body', row, column],
      msg: `Value error, ${error}`,
      type: 'value_error',
      ctx: { error },
    });
    const expected = "'buy', 'sell', 'dividend', 'split', 'deposit', 'withdrawal', 'fee' or 'interest'";
    expect(sut.rows).toEqual([]);
    expect(issuesOf(sut)).toEqual([
      valueError(0, 'symbol', 'symbol is not accepted for a deposit'),
      { loc: ['body', 0, 'amount'], msg: 'Field required', type: 'missing' },
      valueError(1, 'quantity', 'quantity is not accepted for a dividend'),
      valueError(1, 'withholding_tax', 'withholding_tax must not exceed amount'),
      valueError(2, 'ratio', 'ratio must change the number of shares'),
      valueError(
        3,
        'ratio',
        'ratio must be <new shares>:<old shares>, whole numbers from 1 to 1000000 (e.g. 4:1 or 1:10)',
      ),
      { loc: ['body', 4, 'type'], msg: `Input should be ${expected}`, type: 'enum', ctx: { expected } },
      { loc: ['body', 5, 'price'], msg: 'Field required', type: 'missing' },
      valueError(5, 'amount', 'amount is not accepted for a buy'),
    ]);
  });

  it('requires the date and the type columns and knows every kind column', () => {
    expect(issuesOf(parseTransactionsCsv('type,symbol,amount,shares\ndeposit,,1', now, 100))).toEqual([
      {
        loc: ['body', 'header'],
        msg:
          'Value error, a header with a type column has date and type, and any of the columns symbol, quantity, ' +
          'price, fees, amount, withholding_tax, ratio, side, note: missing date; unknown shares',
        type: 'value_error',
      },
    ]);
  });
});
