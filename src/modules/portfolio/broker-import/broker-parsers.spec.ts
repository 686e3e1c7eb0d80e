// Every brokerage's parser against every real export in test/fixtures/brokers (copied byte for byte
// with their licences, see shared/data/brokers/SOURCES.md) and the files written from FORMATS.md for
// the brokerages and layouts no copyable file shows: counts by kind, cash and positions after an
// import into an empty ledger (worked out by hand for the written files), and skip reasons.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importIntoEmptyLedger, ImportOutcome } from './import-outcome';
import { readBrokerExport, UnrecognisedLayoutError } from './read-broker-export';

const NOW = new Date('2026-11-26T00:00:00Z');
const fixture = (path: string) =>
  readFileSync(join(__dirname, '../../../../test/fixtures/brokers', path), 'utf8');
const imported = (path: string): ImportOutcome => importIntoEmptyLedger(fixture(path), 'auto', NOW);
const reasonsOf = (outcome: ImportOutcome) =>
  outcome.parsed.skipped.map(({ line, reason }) => [line, reason]);

describe('broker exports: real files', () => {
  it('Schwab: reinvestments as dividend + buy pairs, the split by added shares, corporate actions skipped', () => {
    const outcome = imported('charles_schwab/schwab-export.csv');
    expect(outcome.parsed).toMatchObject({ format: 'schwab', layout: 'Transactions', detected: true });
    expect(outcome.counts).toEqual({
      buy: 41,
      dividend: 35,
      interest: 5,
      fee: 10,
      withdrawal: 2,
      deposit: 1,
      split: 1,
    });
    expect(outcome.cash).toBe(-107330.68);
    expect(outcome.positions).toMatchObject({ AVGO: 10, SPY: 7.0976, VNQ: 4.4877, GBDC: 10.32 });
    const splits = outcome.parsed.entries.filter((entry) => entry.side === 'split');
    expect(splits).toEqual([
      expect.objectContaining({ line: 108, date: '2024-07-12', symbol: 'AVGO', split: { addedShares: 9 } }),
    ]);
    // 11/01 "Reinvest Shares" pairs with the 10/31 "Reinvest Dividend" a day before.
    const spyBuy = outcome.parsed.entries.find((entry) => entry.line === 2)!;
    expect(spyBuy).toMatchObject({
      side: 'buy',
      symbol: 'SPY',
      quantity: 1.6531,
      price: 420.1,
      pairedWith: 3,
    });
    // "Journaled Shares" of −877 DGLRX: shares leaving the account, a transfer_out of its lots.
    expect(outcome.parsed.entries.find((entry) => entry.line === 62)).toMatchObject({
      side: 'transfer_out',
      symbol: 'DGLRX',
      quantity: 877,
      date: '2023-05-22',
      amount: null,
    });
    expect(reasonsOf(outcome)).toEqual([
      [104, 'a dividend without a symbol'],
      [110, 'a stock dividend (shares distributed): the ledger cannot represent it yet'],
      [111, 'both legs hold the same number of shares: nothing changes'],
      [112, 'both legs hold the same number of shares: nothing changes'],
      [113, 'a spin-off: the ledger cannot represent it yet'],
      [114, 'a merger: the ledger cannot represent it yet'],
      [115, 'a merger: the ledger cannot represent it yet'],
      [116, 'a name change: the ledger cannot represent it yet'],
      [117, 'a name change: the ledger cannot represent it yet'],
      [118, 'a conversion of one security into another: the ledger cannot represent it yet'],
      [119, 'a conversion of one security into another: the ledger cannot represent it yet'],
      [120, 'cash paid for a fractional share of a corporate action: the ledger cannot represent it yet'],
    ]);
    // Shares bought before the export began: their sells and dividends wait for an opening entry.
    expect(outcome.rejected.map((row) => row.line)).toEqual([
      30, 34, 48, 49, 50, 53, 62, 81, 86, 100, 105, 106,
    ]);
    expect(outcome.rejected[1].reason).toBe(
      'sells 592.199 FIHBX but 72.591 are held at that date (shares bought before the export began need an opening entry)',
    );
    // The file begins after the 877 shares were bought: only the 4.546 reinvested on 03/28 are held.
    expect(outcome.rejected[6].reason).toBe(
      'transfers out 877 DGLRX but 4.546 are held at that date (shares bought before the export began need an opening entry)',
    );
  });

  it('Fidelity 2017-2019: options, bonds, T-bills and core reinvestment skipped; foreign tax as a position fee', () => {
    const outcome = imported('fidelity/fidelity_transactions.csv');
    expect(outcome.parsed).toMatchObject({
      format: 'fidelity',
      layout: 'Account history (plain column names)',
    });
    expect(outcome.parsed.entries.map((entry) => entry.side)).toEqual([
      'interest',
      'dividend',
      'buy',
      'sell',
      'sell',
      'fee',
      'deposit',
      'buy',
      'sell',
      'interest',
      'dividend',
      'buy',
    ]);
    expect(outcome.parsed.entries.find((entry) => entry.line === 12)).toMatchObject({
      side: 'fee',
      symbol: 'TM',
      amount: 8.76,
      date: '2017-10-11',
      action: 'FOREIGN TAX PAID as of 12/07/2018 (withholding tax)',
    });
    expect(outcome.counts).toEqual({ buy: 3, dividend: 2, interest: 2, deposit: 1 });
    expect(outcome.cash).toBe(-1249.29);
    expect(outcome.positions).toEqual({ IHI: 0.0123, USFD: 178, ROBO: 0.234 });
    expect(reasonsOf(outcome)).toEqual([
      [5, 'reinvested into the core money-market position, which the ledger counts as cash'],
      [8, 'an option trade: the ledger holds shares only'],
      [11, '"978928WR4" is not a ticker (a bond, T-bill or CD the ledger cannot hold)'],
      [13, '"991696QU2" is not a ticker (a bond, T-bill or CD the ledger cannot hold)'],
      [14, '"978928WR4" is not a ticker (a bond, T-bill or CD the ledger cannot hold)'],
      [15, 'a bond or T-bill redemption: the ledger cannot hold bonds'],
      [20, 'an option trade: the ledger holds shares only'],
    ]);
    expect(outcome.rejected.map((row) => row.line)).toEqual([9, 10, 12, 18]);
  });

  it('Vanguard: the holdings table is passed over; settlement fund and T-bills skipped', () => {
    const outcome = imported('vanguard/vanguard_positions_and_transactions.csv');
    expect(outcome.parsed.notices).toHaveLength(1);
    expect(outcome.counts).toEqual({ buy: 5, dividend: 3, interest: 1, deposit: 1, withdrawal: 1 });
    expect(outcome.cash).toBe(-13486.62);
    expect(outcome.positions).toEqual({ VTI: 12.432, VWO: 0.123, VOO: 0.321, VT: 10 });
    expect(reasonsOf(outcome).map(([line]) => line)).toEqual([12, 14, 21, 22, 28, 29]);
    expect(outcome.rejected).toEqual([
      {
        line: 23,
        reason:
          'sells 4 VWO but 0 are held at that date (shares bought before the export began need an opening entry)',
      },
    ]);
  });

  it('TD Ameritrade: 16 joined downloads, withholding on its dividend, reversals cancelled, broker ids kept', () => {
    const outcome = imported('td_ameritrade/td.csv');
    expect(outcome.parsed.layout).toBe('Transactions (16 downloads joined)');
    expect(outcome.counts).toEqual({
      deposit: 5,
      buy: 40,
      interest: 5,
      sell: 17,
      dividend: 68,
      fee: 2,
      withdrawal: 8,
    });
    expect(outcome.cash).toBe(-205657.54);
    expect(outcome.positions).toEqual({ CSCO: 681, SPY: 174.464, NERD: 1.006 });
    expect(outcome.parsed.entries[0]).toMatchObject({
      line: 2,
      side: 'dividend',
      symbol: 'SPY',
      amount: 398.68,
      withholdingTax: 119.6,
      brokerId: '16284920138',
    });
    expect(outcome.parsed.combined[0]).toEqual({ line: 3, action: 'W-8 WITHHOLDING (SPY)', into: 2 });
    expect(outcome.parsed.combined).toHaveLength(65);
    expect(reasonsOf(outcome).slice(0, 6)).toEqual([
      [13, 'reversed by the broker on line 18'],
      [14, 'refunded by the broker on line 20'],
      [15, 'the amount is 0: nothing to record'],
      [16, 'the amount is 0: nothing to record'],
      [17, 'the amount is 0: nothing to record'],
      [18, 'reverses the dividend on line 13'],
    ]);
    // Shares transferred in with an AMOUNT of 0.00: their cost basis is not in the file, so not guessed.
    const transfersIn = outcome.parsed.skipped.filter((row) => row.action.startsWith('TRANSFER OF SECURITY'));
    expect(transfersIn.map(({ line, reason }) => [line, reason])).toEqual(
      [
        [108, '3995 CSCO on 2008-05-28'],
        [110, '2120 CSCO on 2008-08-18'],
        [155, '2033 CSCO on 2011-08-05'],
      ].map(([line, moved]) => [
        line,
        `shares moved in without their cost basis, which the file does not give: record them with POST /api/v1/portfolio/transactions as a transfer_in of ${moved}, amount = their cost basis and acquired_on = the date they were first bought (one entry per lot), then import the file again: the rows it recorded already are not recorded twice`,
      ]),
    );
  });

  it('Interactive Brokers Flex: non-USD and FX skipped, ISIN-only trades skipped, tax on its dividend', () => {
    const trades = imported('interactive_brokers/ibkr-trades-export.csv');
    expect(trades.parsed.layout).toBe('Flex Query trades');
    expect(trades.counts).toEqual({});
    expect(trades.parsed.notices[0]).toContain('no Symbol column');
    expect(trades.parsed.skipped.map((row) => row.reason)).toEqual([
      'an amount in CHF: the ledger is in USD',
      ...Array(7).fill('only an ISIN (US9220427424) identifies the security: the ledger needs a ticker'),
      ...Array(3).fill('a currency conversion (no security): the ledger is in USD only'),
    ]);
    const cash = imported('interactive_brokers/ibkr-dividends-export.csv');
    expect(cash.parsed.layout).toBe('Flex Query cash transactions');
    expect(
      cash.parsed.entries.map(({ line, symbol, amount, withholdingTax }) => [
        line,
        symbol,
        amount,
        withholdingTax,
      ]),
    ).toEqual([
      [2, 'VT', 137.23, 20.58],
      [9, 'VT', 85.97, 12.9],
      [10, 'VT', 169.77, 25.47],
      [12, 'AVGO', 0.59, null],
    ]);
    expect(reasonsOf(cash)).toEqual([
      [3, 'an amount in CHF: the ledger is in USD'],
      [7, 'an amount in CHF: the ledger is in USD'],
      [8, 'an amount in CHF: the ledger is in USD'],
      [11, 'an amount in JPY: the ledger is in USD'],
    ]);
  });
});

describe('broker exports: files written from FORMATS.md', () => {
  it.each([
    [
      'written/robinhood-activity.csv',
      'robinhood',
      { deposit: 1, buy: 3, interest: 1, fee: 1, sell: 1, dividend: 1 },
      5396.03,
      { AAPL: 20.5, MSFT: 3 },
    ],
    [
      'written/etrade-transaction-history.csv',
      'e_trade',
      { deposit: 1, buy: 2, dividend: 1, sell: 1, interest: 1, fee: 1 },
      2993.37,
      { KO: 40.4 },
    ],
    [
      'written/etrade-all-transactions.csv',
      'e_trade',
      { deposit: 1, buy: 1, dividend: 1, sell: 1 },
      1136.79,
      { PFE: 30 },
    ],
    ['written/webull-orders.csv', 'webull', { buy: 2, sell: 1 }, -1278.5, { AAPL: 6, NVDA: 2 }],
    [
      'written/merrill-activities.csv',
      'merrill_edge',
      { deposit: 1, buy: 1, dividend: 1, sell: 1, interest: 1, withdrawal: 1 },
      10377.16,
      { JNJ: 60 },
    ],
    [
      'written/schwab-2019-title-line.csv',
      'schwab',
      { deposit: 1, buy: 1, fee: 1, dividend: 1, sell: 1 },
      873.05,
      { T: 40 },
    ],
    [
      'written/fidelity-2023-one-account.csv',
      'fidelity',
      { deposit: 1, buy: 2, dividend: 1, sell: 1, interest: 1 },
      1061.09,
      { INTC: 80.5 },
    ],
    ['written/fidelity-2025-bom.csv', 'fidelity', { deposit: 1, buy: 1, dividend: 1 }, 151.7, { ORCL: 5 }],
    [
      'written/fidelity-2026-price-first.csv',
      'fidelity',
      { deposit: 1, buy: 1, sell: 1 },
      279.99,
      { CSCO: 6 },
    ],
    [
      'written/schwab-share-transfers.csv',
      'schwab',
      { deposit: 1, buy: 1, transfer_out: 1, sell: 1 },
      2429.98,
      { MSFT: 3 },
    ],
    ['written/fidelity-2026-all-accounts.csv', 'fidelity', { deposit: 1, buy: 1 }, 200, { PEP: 4 }],
    ['written/fidelity-2025-18-columns.csv', 'fidelity', { deposit: 1, buy: 1 }, 100, { WMT: 2 }],
    [
      'written/ibkr-activity-statement.csv',
      'interactive_brokers',
      { deposit: 1, buy: 1, sell: 1, dividend: 1, interest: 1, fee: 1 },
      7122.38,
      { IBM: 20 },
    ],
    [
      'written/ibkr-transaction-history.csv',
      'interactive_brokers',
      { deposit: 1, buy: 1, sell: 1, dividend: 1, interest: 1 },
      1122.66,
      { KO: 15 },
    ],
  ])(
    '%s is detected as %s and leaves the cash and positions worked out by hand',
    (path, format, counts, cash, positions) => {
      const outcome = imported(path);
      expect(outcome.parsed.format).toBe(format);
      expect(outcome.counts).toEqual(counts);
      expect(outcome.cash).toBe(cash);
      expect(outcome.positions).toEqual(positions);
    },
  );

  it('Robinhood: multi-line quoted descriptions, (negatives), the disclaimer line, options skipped', () => {
    const outcome = imported('written/robinhood-activity.csv');
    expect(outcome.parsed.entries[0]).toMatchObject({
      line: 2,
      side: 'buy',
      symbol: 'AAPL',
      quantity: 0.5,
      price: 190,
      action: 'BUY (Dividend Reinvestment)',
    });
    expect(outcome.parsed.entries.find((entry) => entry.side === 'sell')).toMatchObject({
      line: 7,
      fees: 0.02,
    });
    expect(reasonsOf(outcome)).toEqual([
      [6, 'an option: the ledger holds shares only'],
      [17, 'an option: the ledger holds shares only'],
    ]);
  });

  it('Schwab share transfers: shares out are a transfer_out of their lots, shares in without a cost basis skipped with how to record them', () => {
    const outcome = imported('written/schwab-share-transfers.csv');
    expect(outcome.parsed.entries.find((entry) => entry.line === 3)).toMatchObject({
      side: 'transfer_out',
      symbol: 'MSFT',
      quantity: 4,
      date: '2024-02-15',
      amount: null,
    });
    expect(reasonsOf(outcome)).toEqual([
      [
        4,
        'shares moved in without their cost basis, which the file does not give: record them with POST /api/v1/portfolio/transactions as a transfer_in of 25 AAPL on 2024-02-01, amount = their cost basis and acquired_on = the date they were first bought (one entry per lot), then import the file again: the rows it recorded already are not recorded twice',
      ],
    ]);
    expect(outcome.rejected).toEqual([]);
  });

  it('share transfers each layout writes: the direction from its sign or its words, never guessed', () => {
    const parse = (text: string, format: 'td_ameritrade' | 'merrill_edge' | 'fidelity' | 'e_trade') =>
      readBrokerExport(text, format, { now: NOW, maxRows: 10 });
    const td = parse(
      'DATE,TRANSACTION ID,DESCRIPTION,QUANTITY,SYMBOL,PRICE,COMMISSION,AMOUNT,REG FEE,SHORT-TERM RDM FEE,FUND REDEMPTION FEE, DEFERRED SALES CHARGE\n' +
        '06/03/2024,100,TRANSFER OF SECURITY OR OPTION OUT (CSCO),40,CSCO,,,0.00,,,,\n' +
        '06/04/2024,101,TRANSFER OF SECURITY OR OPTION IN (CSCO),15,CSCO,,,0.00,,,,\n',
      'td_ameritrade',
    );
    expect(td.entries).toEqual([
      expect.objectContaining({
        line: 2,
        side: 'transfer_out',
        symbol: 'CSCO',
        quantity: 40,
        brokerId: '100',
      }),
    ]);
    expect(td.skipped.map((row) => row.reason)).toEqual([
      expect.stringMatching(
        /^shares moved in without their cost basis.*transfer_in of 15 CSCO on 2024-06-04/,
      ),
    ]);
    const merrill = parse(
      '"Trade Date","Settlement Date","Pending/Settled","Account Nickname","Account Registration","Account #","Type","Description 1 ","Description 2","Symbol/CUSIP #","Quantity","Price ($)","Amount ($)"\n' +
        '"6/3/2024","6/3/2024","Settled","IRA","IRA","XXX-1","Other","Transfer / Adjustment ","JOHNSON & JOHNSON","JNJ","10","--","0.00"\n',
      'merrill_edge',
    );
    expect(merrill.entries).toEqual([]);
    expect(merrill.skipped[0].reason).toMatch(
      /^shares moved in or out, and the file gives neither the direction nor their cost basis: .* a transfer_out of 10 JNJ on 2024-06-03, or as a transfer_in of 10 JNJ on 2024-06-03, amount = their cost basis/,
    );
    const fidelity = parse(
      'Run Date,Action,Symbol,Description,Type,Quantity,Price ($),Commission ($),Fees ($),Accrued Interest ($),Amount ($),Cash Balance ($),Settlement Date\n' +
        '06/03/2024,"TRANSFERRED TO XXXX1234 (KO) (Cash)",KO,COCA-COLA CO,Cash,-12,,,,,,--,\n' +
        '06/04/2024,"TRANSFERRED FROM XXXX1234 (KO) (Cash)",KO,COCA-COLA CO,Cash,7,,,,,,--,\n' +
        '06/05/2024,"TRANSFERRED FROM XXXX1234 (Cash)",,No Description,Cash,0,,,,,250,--,\n',
      'fidelity',
    );
    expect(
      fidelity.entries.map(({ side, symbol, quantity, amount }) => [side, symbol, quantity, amount]),
    ).toEqual([
      ['transfer_out', 'KO', 12, null],
      ['deposit', null, 0, 250],
    ]);
    expect(fidelity.skipped.map((row) => row.line)).toEqual([3]);
    const etrade = parse(
      'TransactionDate,TransactionType,SecurityType,Symbol,Quantity,Amount,Price,Commission,Description\n' +
        '06/03/24,Transfer,EQ,PFE,-30,0,0,0,TRANSFER OUT\n',
      'e_trade',
    );
    expect(etrade.entries).toEqual([
      expect.objectContaining({ side: 'transfer_out', symbol: 'PFE', quantity: 30 }),
    ]);
  });

  it('E*TRADE: a reinvested dividend is the cash row and a share row; sweep interest is interest', () => {
    const outcome = imported('written/etrade-transaction-history.csv');
    expect(
      outcome.parsed.entries.filter((entry) => entry.symbol === 'KO' && entry.side === 'buy')[1],
    ).toMatchObject({
      line: 8,
      quantity: 0.4,
      price: 52.5,
      action: 'Dividend (reinvested)',
      pairedWith: 7,
    });
    expect(reasonsOf(outcome).map(([, reason]) => reason)).toEqual([
      'an option: the ledger holds shares only',
      'a corporate action: the ledger cannot represent it yet',
    ]);
  });

  it('Webull: an order log, told as such; partial fills of cancelled orders kept, unfilled and option orders skipped', () => {
    const outcome = imported('written/webull-orders.csv');
    expect(outcome.parsed.notices[0]).toContain('cash balance cannot be rebuilt');
    expect(
      outcome.parsed.entries.map(({ side, symbol, quantity, price }) => [side, symbol, quantity, price]),
    ).toEqual([
      ['buy', 'AAPL', 10, 149.8523],
      ['sell', 'AAPL', 4, 160],
      ['buy', 'NVDA', 2, 209.99],
    ]);
    expect(reasonsOf(outcome).map(([line]) => line)).toEqual([4, 6, 7, 8]);
  });

  it('Merrill Edge: pending rows wait to settle, money-market reinvestment of 0.00 is cash, options skipped', () => {
    expect(reasonsOf(imported('written/merrill-activities.csv'))).toEqual([
      [6, 'an option: the ledger holds shares only'],
      [8, 'a money-market reinvestment with no cash amount, which the ledger counts as cash'],
      [9, 'pending: it is imported once the download shows it settled'],
    ]);
  });

  it('Fidelity: each header order is read by name, and a 401(k) row that does not fit is rejected with its line', () => {
    expect(imported('written/fidelity-2026-all-accounts.csv').rejected).toEqual([
      {
        line: 7,
        reason:
          'the row has 15 fields but the header has 14 (a workplace-plan row that does not fit the header)',
      },
    ]);
    const priceFirst = imported('written/fidelity-2026-price-first.csv').parsed.entries;
    expect(priceFirst.find((entry) => entry.side === 'sell')).toMatchObject({
      quantity: 4,
      price: 45,
      fees: 0.01,
    });
  });

  it('IBKR Activity Statement: orders, not their executions or closed lots; other assets and currencies skipped', () => {
    const outcome = imported('written/ibkr-activity-statement.csv');
    expect(
      outcome.parsed.entries
        .filter((entry) => entry.side === 'buy' || entry.side === 'sell')
        .map((entry) => entry.line),
    ).toEqual([12, 15]);
    expect(reasonsOf(outcome)).toEqual([
      [19, 'a trade in Equity and Index Options: the ledger holds shares only'],
      [20, 'an amount in EUR: the ledger is in USD'],
      [32, 'a corporate action: the ledger cannot represent it yet'],
    ]);
  });

  it('IBKR Transaction History: "-" for empty, scientific notation, FX and unexplained adjustments skipped', () => {
    expect(reasonsOf(imported('written/ibkr-transaction-history.csv'))).toEqual([
      [13, 'a currency conversion: the ledger is in USD only'],
      [14, 'an adjustment IBKR does not explain: not guessed'],
    ]);
  });
});

describe('broker exports: detection', () => {
  it('names the closest layouts and the columns the file lacked', () => {
    const text = 'Date,Action,Symbol,Quantity,Price,Amount\n01/02/2024,Buy,AAPL,1,100,-100\n';
    const read = () => readBrokerExport(text, 'auto', { now: NOW, maxRows: 10 });
    expect(read).toThrow(UnrecognisedLayoutError);
    try {
      read();
    } catch (error) {
      expect((error as UnrecognisedLayoutError).closest[0]).toEqual({
        format: 'schwab',
        layout: 'Transactions',
        found: 6,
        missing: ['Fees & Comm'],
      });
    }
  });

  it('reads a file in the format named, and refuses one in another', () => {
    expect(
      readBrokerExport(fixture('written/webull-orders.csv'), 'webull', { now: NOW, maxRows: 10 }).detected,
    ).toBe(false);
    expect(() =>
      readBrokerExport(fixture('written/webull-orders.csv'), 'schwab', { now: NOW, maxRows: 10 }),
    ).toThrow(/not in the Charles Schwab layout/);
  });

  it('reads the native layout through the ledger import parser, each bad row rejected with its line', () => {
    const text = 'date,symbol,side,quantity,price\n2024-01-02,AAPL,buy,2,100\n\n2024-01-03,AAPL,hold,1,100\n';
    const outcome = importIntoEmptyLedger(text, 'auto', NOW);
    expect(outcome.parsed.format).toBe('native');
    expect(outcome.counts).toEqual({ buy: 1 });
    expect(outcome.rejected).toEqual([{ line: 4, reason: "side: Input should be 'buy' or 'sell'" }]);
  });
});
