import { InternalServerErrorException, NotFoundException } from '@nestjs/common';
import { Clock } from '../../common/time/clock';
import { MarketService } from '../market/market.service';
import { StockQuote } from '../market/market.types';
import { LedgerEntry } from './analytics/ledger-replay';
import { HoldingsService } from './holdings.service';
import { PortfolioTransactionsRepository } from './portfolio-transactions.repository';

const at = new Date('2026-03-06T22:00:00Z');

function stockQuote(symbol: string, price: number, previousClose: number): StockQuote {
  return {
    symbol,
    name: symbol,
    price,
    change: price - previousClose,
    changePercent: 0,
    previousClose,
    open: previousClose,
    high: price,
    low: previousClose,
    volume: 1,
    asOf: at.toISOString(),
  };
}

class FakeMarket {
  quoteCalls: string[][] = [];
  profileCalls: string[] = [];
  quotes = new Map<string, StockQuote | null>([
    ['AAPL', stockQuote('AAPL', 100.004, 98.001)],
    ['XOM', stockQuote('XOM', 50, 51)],
  ]);

  async getQuotes(symbols: string[]) {
    this.quoteCalls.push(symbols);
    return new Map(symbols.map((symbol) => [symbol, this.quotes.get(symbol) ?? null]));
  }

  async getProfile(symbol: string) {
    this.profileCalls.push(symbol);
    return { symbol, name: symbol, sector: symbol === 'AAPL' ? 'technology' : null };
  }

  async getDailyCloses(symbol: string) {
    if (symbol === 'NOPE') throw new NotFoundException(`Stock ${symbol} not found`);
    return [{ date: '2026-03-06', close: 1.5 }];
  }
}

function entry(
  id: number,
  symbol: string,
  side: 'buy' | 'sell',
  quantity: number,
  price: number,
): LedgerEntry {
  return { id, symbol, side, quantity, price, fees: 0, executedAt: new Date(`2026-01-0${id}T15:00:00Z`) };
}

describe('HoldingsService', () => {
  let market: FakeMarket;
  let sut: HoldingsService;

  beforeEach(() => {
    market = new FakeMarket();
    const ledger = [
      entry(1, 'AAPL', 'buy', 10, 90),
      entry(2, 'XOM', 'buy', 4, 60),
      entry(3, 'T', 'buy', 1, 30),
      entry(4, 'T', 'sell', 1, 31),
    ];
    const repository = {
      ledger: async () => ({ version: 1, entries: ledger }),
    } as unknown as PortfolioTransactionsRepository;
    const clock: Clock = { now: () => at };
    sut = new HoldingsService(repository, market as unknown as MarketService, clock);
  });

  it('values every open position from one batched quote call, at cent prices', async () => {
    const snapshot = await sut.snapshot(7);
    expect(market.quoteCalls).toEqual([['AAPL', 'XOM']]);
    // AAPL 100.004 → 100.00 and previous close 98.001 → 98.00: change 2 a share
    expect(
      snapshot.positions.map((position) => [position.symbol, position.currentPrice, position.dayChange]),
    ).toEqual([
      ['AAPL', 100, 20],
      ['XOM', 50, -4],
    ]);
    expect(snapshot.positions.map((position) => position.sector)).toEqual(['technology', 'unknown']);
    expect(snapshot.replay.totalRealizedPnl).toBe(1);
    expect(snapshot.asOf).toBe(at);
  });

  it('asks for each sector once per process', async () => {
    await sut.snapshot(7);
    await sut.snapshot(7);
    expect(market.profileCalls.sort()).toEqual(['AAPL', 'XOM']);
  });

  it('fails with the spec’s retrieval detail when a held symbol has no quote', async () => {
    market.quotes.set('XOM', null);
    const failure = sut.snapshot(7);
    await expect(failure).rejects.toThrow(InternalServerErrorException);
    await expect(failure).rejects.toThrow('Failed to retrieve stock data for XOM');
  });

  it('reads daily closes per symbol, empty for a symbol without history', async () => {
    const closes = await sut.dailyCloses(['AAPL', 'NOPE'], '2026-01-01');
    expect(closes).toEqual(
      new Map([
        ['AAPL', [{ date: '2026-03-06', close: 1.5 }]],
        ['NOPE', []],
      ]),
    );
  });
});
